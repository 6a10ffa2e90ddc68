"""A panic its fn's doc comment states under `# Panics` (Rust's API guidelines, C-FAILURE)
is the caller's: it broke a rule the API states. tokio's `ReadBuf::initialize_unfilled_to`
"Panics if `self.remaining()` is less than `n`." read "a bug, report it upstream" (reading
119). Its explanation quotes the section, classes it as an invalid argument, and says to
check the condition before the call; a fn with no such section is as before."""

from __future__ import annotations

from site_fixtures import explained, explained_all

SOURCE = """\
impl ReadBuf {
    /// Returns a mutable reference to the first `n` bytes of the unfilled part.
    ///
    /// # Panics
    ///
    /// Panics if `self.remaining()` is less than `n`.
    ///
    /// # Examples
    ///
    /// Nothing here.
    pub fn initialize_unfilled_to(&mut self, n: usize) -> &mut [u8] {
        assert!(self.remaining() >= n, "n overflows remaining");
        &mut self.buf[..n]
    }
}
"""


def test_a_panic_the_docs_state_is_the_callers_to_avoid() -> None:
    explanation = explained(SOURCE)
    assert explanation.backgroundTag == "invalid-argument"
    assert explanation.solutions[-2] == (
        'The docs of `ReadBuf::initialize_unfilled_to` state when it panics: "Panics if '
        '`self.remaining()` is less than `n`." A call that breaks that rule gets this panic: '
        "if your code makes it, check the condition before the call."
    )
    assert not any("bug, not" in s for s in explanation.solutions)
    assert explanation.preventionTips[0] == (
        "Meet what the docs of `ReadBuf::initialize_unfilled_to` state under `# Panics` "
        "before calling it."
    )


def test_a_section_headed_in_the_singular_is_the_same_rule() -> None:
    # pingora's `HttpCache::set_cache_key`: "/// # Panic" above "Cache key is only allowed
    # to be set in its own phase."
    explanation = explained(SOURCE.replace("/// # Panics", "/// # Panic"))
    assert explanation.backgroundTag == "invalid-argument"
    assert "state when it panics" in explanation.solutions[-2]


def test_a_section_that_names_no_parameter_states_the_objects_state() -> None:
    # pingora's `adjust_level(&mut self, new_level: u32)`: "panic if it has already started
    # encoding the response body" is on the state it is called in, not on `new_level`
    explanation = explained(
        "impl ResponseCompressionCtx {\n"
        "    /// Adjust the compression level.\n"
        "    /// # Panic\n"
        "    /// This function will panic if it has already started encoding the response body.\n"
        "    pub fn adjust_level(&mut self, new_level: u32) {\n"
        "        match &mut self.0 {\n"
        "            CtxInner::HeaderPhase { level, .. } => *level = new_level,\n"
        '            CtxInner::BodyPhase(_) => panic!("Wrong phase: BodyPhase"),\n'
        "        }\n    }\n}\n"
    )
    assert explanation.backgroundTag == "invalid-state-transition"
    assert "state when it panics" in explanation.solutions[-2]
    assert not any("allowed set, length and form" in t for t in explanation.preventionTips)
    # on the text it is given, no word of the object's life: a value (helix's `print(s)`)
    valued = explained(
        "/// # Panics\n/// Panics when missing primary or appeared more than once.\n"
        'pub fn print(s: &str) -> String {\n    panic!("missing primary");\n}\n'
    )
    assert valued.backgroundTag == "invalid-argument"
    # a parameter's name as a plain word is no parameter: pingora's `set_cache_key(key)`,
    # "Cache key is only allowed to be set in its own phase"
    keyed = explained(
        "impl HttpCache {\n    /// # Panic\n"
        "    /// Cache key is only allowed to be set in its own phase.\n"
        "    pub fn set_cache_key(&mut self, key: CacheKey) {\n"
        '        if self.phase != Phase::Key { panic!("wrong phase {:?}", self.phase) }\n'
        "        self.key = Some(key);\n    }\n}\n"
    )
    assert keyed.backgroundTag == "invalid-state-transition"
    # a section that says it never panics states no rule (vector's "Never panics; the
    # value 500 is non-zero.")
    never = explained(
        "/// # Panics\n/// Never panics; the value 500 is non-zero.\n"
        'pub fn default_max() -> NonZeroUsize {\n    NonZeroUsize::new(500).expect("500 is non-zero")\n}\n'
    )
    assert never.backgroundTag == "internal-invariant"
    # one that says when it does not panic states when it does (polars' "does not panic iff")
    iff = explained(
        "/// # Panics\n/// This function does not panic iff `offsets.last()` is within `values`.\n"
        'pub fn new(offsets: &[usize], values: &[u8]) {\n    assert!(ok(offsets), "bad offsets");\n}\n'
    )
    assert iff.backgroundTag == "invalid-argument"


def test_a_panic_of_a_fn_whose_docs_say_nothing_of_it_is_still_an_assumption() -> None:
    undocumented = SOURCE.replace("/// # Panics", "/// # Notes").replace(
        "Panics if `self.remaining()` is less than `n`.", "Fills with zeroes."
    )
    explanation = explained(undocumented)
    assert explanation.backgroundTag == "internal-invariant"
    assert "The docs of" not in " ".join(explanation.solutions)


FACETS = """\
impl FacetCollector {
    /// Adds a facet that we want to record counts
    ///
    /// Adding facet `Facet::from("/country")` for instance,
    /// will record the counts of all of the direct children of the facet country.
    ///
    /// Adding two facets within which one is the prefix of the other is forbidden.
    /// If you need the correct number of unique documents for two such facets,
    /// just add them in a separate `FacetCollector`.
    pub fn add_facet<T>(&mut self, facet_from: T) {
        let facet = facet_from.into();
        for old_facet in &self.facets {
            assert!(
                !old_facet.is_prefix_of(&facet),
                "Tried to add a facet which is a descendant of an already added facet."
            );
        }
        self.facets.insert(facet);
    }
}
"""


def test_a_rule_the_docs_state_for_callers_outside_a_panics_section_is_theirs() -> None:
    """tantivy's `FacetCollector::add_facet` states "Adding two facets within which one is
    the prefix of the other is forbidden." and asserts it: read "a bug, not something to fix
    in your input" (reading 301). Only for an `assert!` or a `panic!` the fn makes: an
    `.expect(..)` checks what a call gave, not the rule."""
    explanation = explained(FACETS)
    assert explanation.backgroundTag == "invalid-argument"
    assert explanation.solutions[-2] == (
        'The docs of `FacetCollector::add_facet` state a rule for its callers: "Adding two '
        'facets within which one is the prefix of the other is forbidden." A call that breaks '
        "that rule gets this panic: if your code makes it, check the condition before the call."
    )
    assert explanation.preventionTips[0] == (
        "Meet what the docs of `FacetCollector::add_facet` state for its callers before calling it."
    )
    musted = explained(
        "/// Appends the value to the term.\n/// The term must be json + JSON path.\n"
        "pub fn append(term: &mut Term, value: u64) {\n"
        '    assert_eq!(term.value_bytes(), &[], "JSON value bytes should be empty");\n}\n'
    )
    assert musted.backgroundTag == "invalid-argument"
    otherwise = explained(
        "/// Sets the mode. The mode must be set once. This will panic otherwise.\n"
        'pub fn set(&mut self, m: u8) {\n    assert!(self.mode.is_none(), "mode set twice");\n}\n'
    )
    assert '"The mode must be set once." A call' in otherwise.solutions[-2]
    alone = explained(
        "/// Sets the mode.\n/// Needs a fresh value. This will panic otherwise.\n"
        'pub fn put(&mut self, m: u8) {\n    assert!(self.mode.is_none(), "mode set twice");\n}\n'
    )
    assert '"Needs a fresh value. This will panic otherwise." A call' in alone.solutions[-2]
    expected = explained(
        "/// Reads the term.\n/// The term must be json + JSON path.\n"
        'pub fn read(term: &Term) -> u64 {\n    term.value().expect("a value")\n}\n'
    )
    assert expected.backgroundTag == "internal-invariant"


ASSERTIONS = """\
#[macro_export]
macro_rules! assert_err {
    ($e:expr) => {{
        match $e {
            Ok(v) => panic!("assertion failed: Ok({:?})", v),
            Err(e) => e,
        }
    }};
}
macro_rules! check_ready {
    ($e:expr) => {{
        match $e {
            Some(v) => v,
            None => panic!("the value was not ready here"),
        }
    }};
}
"""


def test_a_panic_of_an_assertion_macro_is_the_users_assertion_failing() -> None:
    """tokio-test's `assert_err!` (reading 119): a test helper its users call; "assertion
    failed: Ok(..)" is their assertion failing where they use it, not a bug to report."""
    found = explained_all(ASSERTIONS)
    asserted = found["assertion failed: Ok({:?})"]
    assert asserted.backgroundTag == "invalid-argument"
    assert asserted.solutions[-1] == (
        "`assert_err!` is an assertion its users write in their own code (a test): it panics "
        "there when the value it is given is not what it asserts, and the message prints that "
        "value. Fix the code under test, or the assertion, where it is used."
    )
    assert asserted.exampleFix is not None and asserted.exampleFix.endswith(
        "// A panic here is the assertion `assert_err!` makes where it is used: the value it "
        "was given did not hold."
    )
    # another macro's panic is still an assumption of its code
    assert "assertion its users write" not in " ".join(
        found["the value was not ready here"].solutions
    )


BUCKETS = """\
/// The function returns an error if `count` is zero, if `start` is zero or
/// negative, or if `factor` is less than or equal 1.
pub fn exponential_buckets(start: f64, factor: f64, count: usize) -> Result<Vec<f64>> {
    if start <= 0.0 {
        return Err(Error::Msg(format!("exponential_buckets needs a start, start: {}", start)));
    }
    Ok(vec![])
}
/// Returns an error if the store is closed.
pub fn put(key: &str) -> Result<()> {
    if closed() {
        return Err(Error::Msg("store gone".into()));
    }
    Ok(())
}
"""


def test_an_error_the_docs_say_a_parameter_causes_is_an_invalid_argument() -> None:
    """rust-prometheus' `exponential_buckets`: "The function returns an error if `count` is
    zero, if `start` is zero or negative ..": a refused argument, not "Operation failed"
    (reading 303). A doc that names no parameter ("if the store is closed") decides
    nothing."""
    found = explained_all(BUCKETS)
    assert found["exponential_buckets needs a start, start: {}"].backgroundTag == (
        "invalid-argument"
    )
    assert found["store gone"].backgroundTag == "operation-failed"
