"""The static analyzer (SPEC 5): specific to each site, grounded in the code, never a template."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from site_fixtures import explained, explained_all

from pipeline.analyze import SiteContext
from pipeline.analyze.static import StaticAnalyzer, explain
from pipeline.analyze.static_code import a_type
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.model import Explanation
from pipeline.core.sitetypes import TEXT_KINDS
from pipeline.languages.rust.codecheck import parses_as_code
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

FIXTURES = Path(__file__).parent / "fixtures" / "rust"

BARRIER = """\
pub type MetaResult<T> = std::result::Result<T, MetaError>;

impl GlobalBarrierWorker {
    /// Injects the initial barrier of a database.
    ///
    /// Only possible while the database runs.
    pub async fn inject_initial_barrier(&self, job_id: u32, paused: bool) -> MetaResult<()> {
        ensure!(self.ready, "worker is not ready");
        if self.jobs.contains(&job_id) {
            if paused {
                bail!("should not pause when having snapshot backfill job {job_id}");
            }
        } else {
            let Some(db) = self.dbs.get(&job_id) else {
                bail!("database of job {job_id} not found");
            };
        }
        Ok(())
    }
}

pub fn parse_port(text: &str) -> u16 {
    text.parse().expect("port must be a number")
}
"""


def contexts_of(files: dict[str, str]) -> list[SiteContext]:
    scans = {path: find_sites(path, text.encode()) for path, text in files.items()}
    return build_contexts("acme/widgets", "ab" * 20, RepoScan(scans=scans))


@pytest.fixture(scope="module")
def barrier() -> dict[str, tuple[SiteContext, Explanation]]:
    return {
        c.site.message: (c, explain(c))
        for c in contexts_of({"src/meta/src/barrier/worker.rs": BARRIER})
    }


PAUSE = "should not pause when having snapshot backfill job {job_id}"
MISSING = "database of job {job_id} not found"


def test_trigger_spells_the_condition_chain_in_order(barrier: dict) -> None:  # type: ignore[type-arg]
    _, explanation = barrier[PAUSE]
    trigger = explanation.triggerScenarios
    steps = [
        "GlobalBarrierWorker::inject_initial_barrier",
        "1. the earlier check `self.ready` passed",
        "2. `self.jobs.contains(&job_id)` is true",
        "3. `paused` is true",
        "4. `bail` produces the error",
    ]
    positions = [trigger.find(step) for step in steps]
    assert -1 not in positions, trigger
    assert positions == sorted(positions)


def test_trigger_of_an_else_branch_and_a_let_else(barrier: dict) -> None:  # type: ignore[type-arg]
    _, explanation = barrier[MISSING]
    trigger = explanation.triggerScenarios
    first = trigger.find("`self.jobs.contains(&job_id)` is false (else branch)")
    second = trigger.find("`let Some(db) = self.dbs.get(&job_id)` did not match")
    assert 0 <= first < second, trigger
    assert explanation.typeGuard == "self.dbs.get(&job_id).is_some()"


def test_a_bare_loop_is_said_as_one_not_as_a_loop_over_the_keyword() -> None:
    """404 records over 12 repositories read "inside the loop over `loop`"."""
    found = explained_all(
        "fn pump(rx: &Receiver, items: &[u8]) {\n"
        "    loop {\n"
        '        if rx.closed() { panic!("receiver closed while pumping") }\n'
        "    }\n"
        "    for item in items {\n"
        '        if *item == 0 { panic!("zero item in the batch") }\n'
        "    }\n"
        "}\n"
    )
    assert "1. inside a `loop`; 2. `rx.closed()` is true" in (
        found["receiver closed while pumping"].triggerScenarios
    )
    assert "1. inside the loop over `items`; 2. `*item == 0` is true" in (
        found["zero item in the batch"].triggerScenarios
    )


def test_the_iterable_of_a_for_is_made_before_the_loop_not_inside_it() -> None:
    """mdBook's `for entry in fs::read_dir(dir).with_context(..)? { .. }` (reading 114): the
    `read_dir` fails once, before the first turn and before anything is removed; the
    records said "inside the loop over `fs::read_dir(dir)..`". A site of the body is inside."""
    found = explained_all(
        "fn clear(dir: &Path) -> anyhow::Result<()> {\n"
        '    for entry in fs::read_dir(dir).context("cannot list the directory")? {\n'
        '        fs::remove_file(entry?.path()).context("cannot remove an entry")?;\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    assert "inside the loop" not in found["cannot list the directory"].triggerScenarios
    assert "1. inside the loop over `fs::read_dir(dir)" in (
        found["cannot remove an entry"].triggerScenarios
    )


def test_an_early_exit_above_the_site_is_a_step_of_its_path() -> None:
    """zola's `render_template` returns early when the template is found; only then does its
    `match name { .. _ => bail!(..) }` run. The chain read "1. the arm `match name: _ =>` is
    taken", and the fix said a caller may test `matches!(name, "index.html" | ..)` first:
    that skips every template that would have been found. An `if` with no `else` whose block
    leaves (`return`, `continue`, `break`) is a step: the site runs only when it is not
    taken, and the check that avoids the error holds when it is. One whose block fails
    (`bail!`, `panic!`, `return Err(..)`) is an earlier check, as `ensure!` is."""
    found = explained_all(
        "pub fn render_template(name: &str, tera: &Tera) -> Result<String> {\n"
        "    if let Some(template) = check_template_fallbacks(name, tera) {\n"
        "        return tera.render(template);\n"
        "    }\n"
        "    if name.is_empty() {\n"
        "        log(name);\n"  # a block that does not leave: no step
        "    }\n"
        "    match name {\n"
        '        "index.html" => Ok(default_tpl(name)),\n'
        '        _ => bail!("Tried to render `{}` but the template wasn\'t found", name),\n'
        "    }\n"
        "}\n"
        "pub fn link(kind: &str, path: &Path) {\n"
        "    if kind.is_empty() {\n        return;\n    }\n"
        "    if kind.contains('=') {\n"
        '        panic!("kind contains invalid characters");\n'
        "    }\n"
        '    let Some(p) = path.to_str() else { panic!("path is not UTF-8") };\n'
        "}\n"
        "pub fn pick(items: &[Item], limit: usize) -> Result<()> {\n"
        "    for item in items {\n"
        "        if item.skipped { continue; }\n"
        '        if item.size > limit { bail!("item over the limit") }\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    template = found["Tried to render `{}` but the template wasn't found"]
    assert template.triggerScenarios.startswith(
        "In `render_template`: 1. `check_template_fallbacks(name, tera)` is `None` (so the early"
        " exit under it above is not taken); 2. the arm `match name: _ =>` is taken (`name`"
        ' matched none of the arms before it: `"index.html"`); 3. `bail` produces the error.'
    ), template.triggerScenarios
    assert template.validationCode is None  # `check_template_fallbacks(..)` is no pure test
    limit = found["item over the limit"]
    assert (
        "2. `item.skipped` is false (so the early exit under it above is not taken); 3."
        " `item.size > limit` is true" in limit.triggerScenarios
    )
    # one that fails is an earlier check: passed on the way, no part of the test that avoids
    # this error (with `=` in `kind` the call fails all the same, on the other panic)
    utf8 = found["path is not UTF-8"]
    assert utf8.triggerScenarios.startswith(
        "In `link`: 1. `kind.is_empty()` is false (so the early exit under it above is not"
        " taken); 2. `kind.contains('=')` is false (so the earlier check under it passed); 3."
        " `let Some(p) = path.to_str()` did not match"
    ), utf8.triggerScenarios
    assert utf8.validationCode == "let ok = kind.is_empty() || path.to_str().is_some();"
    # per element, as inside any loop: a skipped item never fails
    assert limit.validationCode == "let ok = item.skipped || !(item.size > limit);"


def test_a_let_else_or_a_match_that_leaves_above_the_site_is_a_step_of_its_path() -> None:
    """rustup's `match Self::new(..) { Err(ToolchainNotInstalled { .. }) => (), result =>
    return Ok(result?) }` lets only a toolchain that is not installed reach its error, and
    the record read "No `if`, `match`, `let ... else` or `ensure!` inside .. decides whether
    this site runs" (reading 312). A `let P = v else { return .. };` above the site goes on
    only when `v` matches `P`; a `match` whose arms that go on come first, only when `v`
    matches one of them; one whose arms that leave come first, only when it matches none of
    those. A guard on an arm, or arms that alternate, say nothing certain: no step; nor a
    pattern that goes on binding names (`let Some(home) = ..`), which the site's own checks
    then read."""
    found = explained_all(
        "pub fn from_local(name: &str) -> Result<Toolchain> {\n"
        "    match Self::new(name) {\n"
        "        Err(RustupError::ToolchainNotInstalled { .. }) => (),\n"
        "        result => return Ok(result?),\n"
        "    }\n"
        '    bail!("override toolchain is not installed")\n'
        "}\n"
        "pub fn install(opts: &Opts) -> Result<()> {\n"
        "    let Mode::Install = opts.mode else { return Ok(()) };\n"
        "    let Some(home) = opts.home.as_ref() else { return Ok(()) };\n"
        "    let target = match opts.target {\n"
        "        None | Some(Target::Host) => return Ok(()),\n"
        "        Some(other) => other,\n"
        "    };\n"
        '    bail!("cannot install for a foreign target")\n'
        "}\n"
        "pub fn guarded(v: Option<u8>) -> Result<()> {\n"
        "    match v {\n"
        "        Some(x) if x > 3 => return Ok(()),\n"
        "        _ => (),\n"
        "    }\n"
        '    bail!("a guarded arm decides nothing here")\n'
        "}\n"
    )
    local = found["override toolchain is not installed"]
    assert local.triggerScenarios.startswith(
        "In `from_local`: 1. `let Err(RustupError::ToolchainNotInstalled { .. }) = "
        "Self::new(name)` matches; 2. `bail` produces the error."
    ), local.triggerScenarios
    foreign = found["cannot install for a foreign target"]
    assert foreign.triggerScenarios.startswith(
        "In `install`: 1. `let Mode::Install = opts.mode` matches; 2. `opts.target` does not "
        "match `None | Some(Target::Host)` (so the early exit under it above is not taken); 3. "
        "`bail` produces the error."
    ), foreign.triggerScenarios
    guarded = found["a guarded arm decides nothing here"]
    assert guarded.triggerScenarios.startswith("No `if`, `match`"), guarded.triggerScenarios


def test_an_if_let_s_else_branch_says_what_the_value_was() -> None:
    """688 records over 17 repositories read "`let Some(f) = TimeFilter::after(t)` is false
    (else branch)": a `let` is no boolean. The value is `None` (`Some(v)` not matched), an
    `Err` (`Ok(v)`), or does not match a pattern that could fail otherwise."""
    found = explained_all(
        "fn parse(t: &str, v: &Value, parts: &[u8]) -> anyhow::Result<()> {\n"
        "    if let Some(f) = TimeFilter::after(t) { keep(f) } else {\n"
        '        anyhow::bail!("not a valid date or duration")\n'
        "    }\n"
        "    if let Ok(n) = t.parse::<u8>() { keep(n) } else {\n"
        '        anyhow::bail!("not a valid number of days")\n'
        "    }\n"
        "    if let Some(Value::Str(s)) = v.get(0) { keep(s) } else {\n"
        '        anyhow::bail!("the first value is not a string")\n'
        "    }\n"
        "    if let Some(x) = v.get(1) && x.ok() { keep(x) } else {\n"
        '        anyhow::bail!("the second value is not usable")\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    said = {message: e.triggerScenarios for message, e in found.items()}
    assert (
        "1. `TimeFilter::after(t)` is `None` (else branch)" in said["not a valid date or duration"]
    )
    assert "is an `Err` (else branch)" in said["not a valid number of days"]
    assert (
        "`v.get(0)` does not match `Some(Value::Str(s))` (else branch)"
        in (said["the first value is not a string"])
    )
    assert (
        "`let Some(x) = v.get(1) && x.ok()` is false (else branch)"
        in (said["the second value is not usable"])
    )


def test_documentation_names_the_fn_the_impl_and_the_doc_comment(barrier: dict) -> None:  # type: ignore[type-arg]
    context, explanation = barrier[PAUSE]
    doc = explanation.documentation
    assert "`GlobalBarrierWorker::inject_initial_barrier`" in doc
    assert "Injects the initial barrier of a database." in doc
    # The error class is a field of its own (the alias, resolved); the text does not repeat it,
    # so a kept explanation never contradicts a class that an alias elsewhere moved (SPEC 7).
    assert "MetaError" not in doc
    assert context.error_class == "MetaError"


def test_two_sites_are_explained_differently(barrier: dict) -> None:  # type: ignore[type-arg]
    explanations = [e for _, e in barrier.values()]
    assert len(explanations) == 4
    for a, b in combinations(explanations, 2):
        assert a.documentation != b.documentation
        assert a.triggerScenarios != b.triggerScenarios
        assert a.exampleFix != b.exampleFix


def test_a_panic_is_fail_fast_with_no_try_catch(barrier: dict) -> None:  # type: ignore[type-arg]
    context, explanation = barrier["port must be a number"]
    assert context.error_type == "panic"
    assert explanation.handlingStrategy == "fail-fast"
    assert explanation.tryCatchPattern is None
    assert "`text.parse()`" in explanation.documentation  # the receiver that was None/Err
    # unguarded: its only step is the parse failing
    assert explanation.triggerScenarios.startswith("In `parse_port`: 1. `text.parse()` was Err")


def test_an_error_is_matched_by_its_text_in_try_catch(barrier: dict) -> None:  # type: ignore[type-arg]
    _, explanation = barrier[PAUSE]
    assert explanation.tryCatchPattern is not None
    assert 'contains("should not pause when having snapshot backfill job")' in (
        explanation.tryCatchPattern
    )
    # the error needs every step; the check is their negation, by De Morgan, but for the
    # earlier `ensure!(self.ready)` that passed: a premise, not what fails here
    assert (
        explanation.validationCode
        == "let ok = !global_barrier_worker.jobs.contains(&job_id) || !paused;"
    )


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.rs")))
def test_every_fixture_site_is_grounded_and_distinct(fixture: str) -> None:
    source = (FIXTURES / fixture).read_text("utf-8")
    contexts = contexts_of({f"src/{fixture}": source})
    analyses = list(StaticAnalyzer().analyze(contexts))
    assert [a.record_id for a in analyses] == [c.record_id for c in contexts]
    squashed = " ".join(source.split())
    taxonomy = load_taxonomy()
    for context, analysis in zip(contexts, analyses, strict=True):
        explanation = analysis.explanation
        assert analysis.analyzer == "static" and analysis.status == "ok"
        assert explanation.backgroundTag in taxonomy
        assert explanation.solutions and explanation.preventionTips and explanation.tags
        # the trigger quotes every condition, and conditions are code as written; a
        # `Display` impl's `match self` only picks the text (the builders say when)
        conditions = () if context.site.kind in TEXT_KINDS else context.site.facts.conditions
        for condition in conditions:
            if condition.kind == "let_else":
                assert f"`{condition.text.removesuffix(' did not match')}`" in (
                    explanation.triggerScenarios
                )
            elif condition.kind in ("else", "exit") and condition.text.startswith("let "):
                # said of the value the pattern did not match
                value = condition.text.partition(" = ")[2]
                assert f"`{value}`" in explanation.triggerScenarios
            elif condition.kind != "closure":
                assert f"`{condition.text}`" in explanation.triggerScenarios
            if condition.kind in ("if", "else", "if_let", "while"):
                assert condition.text in squashed
        if conditions:
            assert f"`{context.site.macro}` produces the error" in explanation.triggerScenarios
    bodies = [a.explanation.model_dump_json() for a in analyses]
    assert len(set(bodies)) == len(bodies)


def test_a_line_shift_leaves_the_explanation_unchanged() -> None:
    """Explanations are reused across commits while the content is unchanged: no line numbers."""
    shifted = "// one\n// two\n// three\n" + BARRIER
    before = {c.site.message: explain(c) for c in contexts_of({"src/w.rs": BARRIER})}
    after = {c.site.message: explain(c) for c in contexts_of({"src/w.rs": shifted})}
    assert after == before


def test_a_value_printed_twice_is_named_once() -> None:
    source = (
        "fn load(orig: &str, name: &str) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("cannot replace `{orig}` with `{name}`: `{orig}` has checksums, {}", 1)\n'
        "}\n"
    )
    (context,) = contexts_of({"src/config.rs": source})
    text = explain(context).commonSituations
    assert "the value(s) involved (`{orig}`, `{name}`)" in text


def test_a_site_the_code_tells_nothing_more_of_is_not_said_to_name_a_step() -> None:
    found = explained_all(
        "fn find(peers: &Peers, id: u64) -> Result<Peer, Error> {\n"
        '    Err(Error::msg("Peer not found"))\n'
        "}\n"
        "fn open(path: &str) -> Result<File, Error> {\n"
        '    Err(Error::msg("failed to open the peer file"))\n'
        "}\n"
    )
    # "Peer not found" names no step that failed: only where to look is said
    assert found["Peer not found"].solutions == [
        "Find out what `find` was doing when it returned this error."
    ]
    assert found["failed to open the peer file"].solutions == [
        "Find out what `open` was doing: the error text names the failed step."
    ]


def opening_clauses(found: dict[str, Explanation]) -> dict[str, str]:
    """Each message's commonSituations up to its first `;`: what the code was doing."""
    return {message: e.commonSituations.split(";")[0] for message, e in found.items()}


@pytest.mark.parametrize(
    ("name", "read"),
    [("IdGenerator", "an `IdGenerator`"), ("&PbFunction", "a `&PbFunction`"), ("Url", "a `Url`"),
     ("UpdateRequest", "an `UpdateRequest`"), ("Utf8Error", "a `Utf8Error`")],
)  # fmt: skip
def test_a_type_takes_the_article_it_is_read_with(name: str, read: str) -> None:
    assert a_type(name) == read


def test_a_constructor_says_what_it_creates() -> None:
    found = explained_all(
        "impl Segment {\n"
        "    pub fn new(path: &Path) -> anyhow::Result<Self> {\n"
        '        anyhow::bail!("segment directory is missing")\n'
        "    }\n"
        "}\n"
        "impl IdGenerator {\n"
        "    pub fn new() -> Self {\n"
        '        unimplemented!("only tables have ids")\n'
        "    }\n"
        "}\n"
        "impl<T> Pool<T> {\n"
        "    pub fn try_new(size: usize) -> Option<Pool<T>> {\n"
        '        assert!(size > 0, "a pool needs room");\n'
        "        None\n"
        "    }\n"
        "}\n"
        # a `new` that makes no `Counter`, and a free `new`: as any fn
        "impl Counter {\n"
        "    pub fn new(&self) -> u32 {\n"
        '        self.next.checked_add(1).expect("counter overflow")\n'
        "    }\n"
        "}\n"
        'pub fn new() -> Segment { panic!("use Segment::new") }\n'
    )
    situations = opening_clauses(found)
    assert situations == {
        "segment directory is missing": "While a `Segment` is created (`Segment::new`, in `x`)",
        "a pool needs room": "While a `Pool` is created (`Pool::try_new`, in `x`)",
        "only tables have ids": "While an `IdGenerator` is created (`IdGenerator::new`, in `x`)",
        "counter overflow": 'While the code in `x` is doing "new" (`Counter::new`)',
        "use Segment::new": 'While the code in `x` is doing "new" (`new`)',
    }


def test_a_conversion_says_what_is_converted_and_that_its_input_is_what_to_correct() -> None:
    found = explained_all(
        "impl std::str::FromStr for Version {\n"
        "    type Err = Error;\n"
        "    fn from_str(s: &str) -> Result<Self, Error> {\n"
        '        Err(Error::msg("not a version"))\n'
        "    }\n"
        "}\n"
        "impl TryFrom<grpc::Query> for Query {\n"
        "    type Error = Status;\n"
        "    fn try_from(q: grpc::Query) -> Result<Self, Status> {\n"
        '        Err(Status::invalid_argument("query kind is required"))\n'
        "    }\n"
        "}\n"
        "impl<'de> Deserialize<'de> for Source {\n"
        "    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {\n"
        '        Err(serde::de::Error::custom("expected one of `git` or `path`"))\n'
        "    }\n"
        "}\n"
        "impl<'de> de::Visitor<'de> for ExtrasVisitor {\n"
        "    type Value = Extras;\n"
        "    fn visit_str<E: de::Error>(self, v: &str) -> Result<Extras, E> {\n"
        '        Err(E::custom("extras must be a list"))\n'
        "    }\n"
        "}\n"
        "impl From<ParseError> for ShellError {\n"
        "    fn from(error: ParseError) -> Self {\n"
        '        ShellError::msg("Missing Alias")\n'
        "    }\n"
        "}\n"
        # not a conversion: a `try_from` of its own
        "impl Query {\n"
        "    pub fn try_from(q: u8) -> Result<Self, Error> {\n"
        '        Err(Error::msg("no query of that number"))\n'
        "    }\n"
        "}\n"
    )
    situations = opening_clauses(found)
    assert situations == {
        "not a version": "While text is parsed into `Version` (`Version::from_str`, in `x`)",
        "query kind is required": (
            "While a `grpc::Query` is converted into `Query` (`Query::try_from`, in `x`)"
        ),
        "expected one of `git` or `path`": (
            "While input is deserialized into `Source` (`Source::deserialize`, in `x`)"
        ),
        "extras must be a list": (
            "While input is deserialized by a serde `Visitor` (`ExtrasVisitor::visit_str`, in `x`)"
        ),
        "Missing Alias": (
            "While a `ParseError` is converted into `ShellError` (`ShellError::from`, in `x`)"
        ),
        "no query of that number": (
            'While the code in `x` is doing "try from" (`Query::try_from`)'
        ),
    }
    assert found["not a version"].solutions == [
        "Correct the text that becomes `Version`: `Version::from_str` returns this error for"
        " text it does not accept."
    ]
    assert found["expected one of `git` or `path`"].solutions == [
        "Correct the input that becomes `Source`: `Source::deserialize` returns this error for"
        " input it does not accept."
    ]
    # `From` cannot fail: what is made is the error, not a refusal of what it is made from
    assert "Correct" not in " ".join(found["Missing Alias"].solutions)
    # only where nothing better is known: a message that says what to do says it
    assert found["query kind is required"].solutions == [
        'The message itself says what to do: "query kind is required".'
    ]


@pytest.mark.parametrize(
    ("body", "call"),
    [
        # risingwave: an `expect` whose message names no step
        (
            'std::fs::create_dir_all("./data").expect("should create");',
            'std::fs::create_dir_all("./data")',
        ),
        # uv: a panic in the closure of a failed read
        (
            'fs_err::read_to_string(&file).unwrap_or_else(|_| panic!("Missing file: `{}`", file));',
            "fs_err::read_to_string(&file)",
        ),
    ],
)
def test_a_panic_on_a_failed_file_system_call_is_the_environments(body: str, call: str) -> None:
    explanation = explained_all(f"fn setup(file: &str) {{\n    {body}\n}}\n")
    (found,) = explanation.values()
    assert "Class: I/O error." in found.documentation
    assert found.solutions[0] == (
        f"It panics here (`{'expect' if 'expect' in body else 'panic'}`) when `{call}` "
        "fails: that depends on the file system it runs on (the path, its permissions, free "
        "space); make it possible there and run again."
    )
    assert "This is a bug, not something to fix in your input" not in " ".join(found.solutions)
    assert found.preventionTips[0] == (
        "Make sure what that file-system step needs is there before the run."
    )


def test_a_site_whose_last_step_is_a_failed_call_names_that_call() -> None:
    """nushell's `polars drop`: `new_df.drop(&col.item).map_err(|e| GenericError::new("Error
    dropping column", e.to_string(), ..))` read "Find out what `command` was doing when it
    returned this error": the code says which call failed."""
    found = explained_all(
        "fn command(call: &Call) -> Result<Df, ShellError> {\n"
        "    let names = call.rest(0)?;\n"
        "    let df = Df::new();\n"
        "    let dropped = names.iter().try_fold(df, |df, col| {\n"
        "        df.drop(&col.item).map_err(|e| ShellError::Generic(GenericError::new(\n"
        '            "Error dropping column", e.to_string(), col.span)))\n'
        "    })?;\n"
        "    Ok(dropped)\n"
        "}\n"
        "impl TryFrom<Proto> for Config {\n"
        "    type Error = Status;\n"
        "    fn try_from(value: Proto) -> Result<Self, Status> {\n"
        "        let Proto { kind } = value;\n"
        "        let kind = Kind::try_from(kind)\n"
        '            .map_err(|_| Status::invalid_argument("Unknown comparator"))?;\n'
        "        Ok(Config { kind })\n"
        "    }\n"
        "}\n"
    )
    # a conversion's refusal says more: the value given does not convert
    assert found["Unknown comparator"].solutions == [
        "Correct the value that becomes `Config`: `Config::try_from` returns this error for a "
        "value it does not accept."
    ]
    assert found["Error dropping column"].solutions == [
        "`command` returns this error when `df.drop(&col.item)` fails: `map_err` makes that "
        "call's error this one. Find out why that call fails with your input or environment;"
        " its error, where this message carries it, says why."
    ]


def test_a_failed_await_a_context_of_either_outcome_and_a_let_else_name_their_step() -> None:
    """387 records over 12 repositories still read "Find out what `f` was doing": among them
    risingwave's `rx.await.map_err(..)` (an awaited receive, no call), `.context(..)` on a
    value whose type the code does not show (`None` or an `Err`), qdrant's `let Some(v) =
    serde_json::Number::from_f64(n) else { return Err(..) }`."""
    found = explained_all(
        "impl Reader {\n"
        "    fn offsets(&self) -> anyhow::Result<usize> {\n"
        "        let n = self.offset.checked_sub(self.prev).and_then(to_len)\n"
        '            .context("offsets must be non-decreasing")?;\n'
        "        Ok(n)\n"
        "    }\n"
        "}\n"
        "async fn snapshot() -> Result<u8, HummockError> {\n"
        "    let (tx, rx) = oneshot::channel();\n"
        "    register(tx);\n"
        '    let v = rx.await.map_err(|_| HummockError::other("failed to receive the refill"))?;\n'
        "    Ok(v)\n"
        "}\n"
        # tantivy's closure that builds its error on lines of its own (reading 301)
        "fn start() -> Result<Pool, TantivyError> {\n"
        "    let pool = ThreadPoolBuilder::new()\n"
        "        .num_threads(1)\n"
        "        .build()\n"
        "        .map_err(|_| {\n"
        "            TantivyError::SystemError(\n"
        '                "Failed to spawn segment updater thread".to_string(),\n'
        "            )\n"
        "        })?;\n"
        "    Ok(pool)\n"
        "}\n"
        "fn proto_to_json() -> Result<Value, Status> {\n"
        "    let n = next_double();\n"
        "    let Some(v) = serde_json::Number::from_f64(n) else {\n"
        '        return Err(Status::invalid_argument("cannot convert to json number"));\n'
        "    };\n"
        "    Ok(v.into())\n"
        "}\n"
    )
    assert found["offsets must be non-decreasing"].solutions == [
        # `checked_sub` gives an `Option`, and `and_then` one of the same kind
        "`Reader::offsets` returns this error when `self.offset.checked_sub(self.prev).and_then("
        "to_len)` gives no value: `context` makes that this error. Find out why it gives none "
        "here: what it looks up, computes or was given."
    ]
    # `map_err(|_| ..)` drops the call's error: no message carries it (fd's, reading 117)
    assert found["failed to receive the refill"].solutions == [
        "`snapshot` returns this error when `rx.await` fails: `map_err(|_| ..)` puts this one "
        "in place of that call's error and drops it, so no message says why. Find out why "
        "that call fails with your input or environment."
    ]
    assert found["Failed to spawn segment updater thread"].solutions == [
        "`start` returns this error when `ThreadPoolBuilder::new().num_threads(1).build()` "
        "fails: `map_err(|_| ..)` puts this one in place of that call's error and drops it, so "
        "no message says why. Find out why that call fails with your input or environment."
    ]
    assert found["cannot convert to json number"].solutions == [
        "`proto_to_json` returns this error when `let Some(v) = serde_json::Number::from_f64(n)`"
        " does not match: find which input or state makes it so, and change that."
    ]


def test_a_site_whose_last_step_is_an_if_test_no_check_can_be_written_of_names_that_test() -> None:
    """nushell's `unlet` refuses the built-in variables under a test of the name its `match`
    arm bound: no check can be written of it outside the fn (`validationCode` is none), and
    it read "Find out what `run` was doing when it returned this error"."""
    found = explained_all(
        "fn run(call: &Call) -> Result<(), ShellError> {\n"
        "    let exprs = call.rest(0)?;\n"
        "    for expr in exprs {\n"
        "        match &expr.expr {\n"
        "            Expr::Var(var_id) => {\n"
        "                if var_id == &NU_VARIABLE_ID || var_id == &ENV_VARIABLE_ID {\n"
        "                    return Err(ShellError::Generic(GenericError::new(\n"
        '                        "Cannot delete built-in variable", "", expr.span)));\n'
        "                }\n"
        "            }\n"
        "            _ => {}\n"
        "        }\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
        "fn drop_user(handler: Handler) -> Result<(), Error> {\n"
        "    let session = handler.session();\n"
        "    let reader = session.users();\n"
        "    if let Some(current) = reader.get_user_by_name(&session.user_name()) {\n"
        "        if !current.can_create_user {\n"
        '            return Err(PermissionDenied("permission denied to drop user".into()).into());\n'
        "        }\n"
        "    } else {\n"
        '        return Err(Error::msg("Session user is invalid"));\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    assert found["permission denied to drop user"].solutions[-1] == (
        "`drop_user` returns this error when `!current.can_create_user` is true: a deliberate "
        "access check; meet what its message asks, do not switch it off."
    )
    assert found["Session user is invalid"].solutions[-1] == (
        "`drop_user` returns this error when `let Some(current) = reader.get_user_by_name("
        "&session.user_name())` does not match: find which input or state makes it so, and "
        "change that."
    )
    assert found["Cannot delete built-in variable"].solutions == [
        "`run` returns this error when `var_id == &NU_VARIABLE_ID || var_id == &ENV_VARIABLE_ID`"
        " is true: find which input or state makes it so, and change that."
    ]


def test_a_site_whose_last_step_is_a_none_names_the_call_that_gave_it() -> None:
    found = explained_all(
        "fn drop_database(handler: Handler) -> Result<(), Error> {\n"
        "    let session = handler.session();\n"
        "    let reader = session.users();\n"
        "    let user = reader\n"
        "        .get_user_by_name(&session.user_name())\n"
        '        .ok_or_else(|| Error::msg("Session user is missing"))?;\n'
        "    Ok(())\n"
        "}\n"
    )
    assert found["Session user is missing"].solutions == [
        "`drop_database` returns this error when `reader.get_user_by_name(&session.user_name())`"
        " gives no value: `ok_or_else` makes that this error. Find out why it gives none here:"
        " what it looks up, computes or was given."
    ]


def test_a_site_whose_last_step_is_a_match_arm_names_the_value_and_the_arm() -> None:
    found = explained_all(
        "impl Parser {\n"
        "fn parse_array(&mut self) -> Result<Vec<Expr>, ParserError> {\n"
        "    let mut out = vec![];\n"
        "    loop {\n"
        "        match self.peek() {\n"
        "            Token::Comma => continue,\n"
        "            Token::RBracket => return Ok(out),\n"
        '            _ => return Err(ParserError::new("Unknown pane property")),\n'
        "        }\n"
        "    }\n"
        "}\n"
        "}\n"
        "fn first(items: Items) -> Result<Item, Error> {\n"
        "    let mut iter = items.into_iter();\n"
        "    match iter.next() {\n"
        '        None => Err(Error::msg("no items to read")),\n'
        "        Some(item) => Ok(item),\n"
        "    }\n"
        "}\n"
    )
    assert found["Unknown pane property"].solutions == [
        "`Parser::parse_array` returns this error when `self.peek()` matches none of the arms"
        " before it "
        "(`Token::Comma`, `Token::RBracket`): find which input or state makes it so, and change"
        " that."
    ]
    assert found["no items to read"].solutions == [
        "`first` returns this error when `iter.next()` is `None`: find which input or state "
        "makes it so, and change that."
    ]


@pytest.mark.parametrize(
    "body",
    [
        'tokio::spawn(async move { let f = File::open(&p).expect("cannot open the spool"); });',
        'std::thread::spawn(move || { fs::write(&p, b"x").expect("failed to write the spool"); });',
        'let f = File::open(&p).expect("cannot open the spool");',
    ],
)
def test_a_panic_s_text_never_says_the_whole_program_stops(body: str) -> None:
    # A panic ends its thread or task; only on the main thread does the program stop.
    (found,) = explained_all(f"fn run(p: PathBuf) {{\n    {body}\n}}\n").values()
    text = " ".join(
        str(value) for value in found.model_dump().values() if isinstance(value, (str, list))
    )
    assert "It panics here (`expect`)" in text
    assert "program stops" not in text


def test_a_site_in_a_macro_rules_body_is_the_macro_s_and_no_code_field_holds_a_metavariable() -> (
    None
):
    # tikv's `impl_cast!`-like macros: "the top-level code of x.rs" and a `validationCode`
    # of `$ty` read as if the file ran it and as code one can paste
    source = (
        "macro_rules! impl_cast {\n"
        "    ($ty:ty) => {\n"
        "        impl Cast for $ty {\n"
        "            fn cast(v: i64) -> Result<Self> {\n"
        "                if v > <$ty>::MAX as i64 {\n"
        '                    bail!("value {} overflows", v);\n'
        "                }\n"
        "                Ok(v as $ty)\n"
        "            }\n"
        "        }\n"
        "    };\n"
        "}\n"
    )
    found = explained(source)
    assert found.documentation.startswith(
        "The body of macro `impl_cast!` (expanded where it is used) returns early"
    )
    assert "top-level code" not in " ".join(str(v) for v in found.model_dump().values())
    assert found.validationCode is None
    assert parses_as_code("let ok = v <= <$ty>::MAX as i64;") is False
    assert parses_as_code('anyhow::bail!("no $HOME set");') is True


def test_a_site_in_an_item_level_macro_is_in_the_code_that_macro_generates() -> None:
    # typst's `cast! { Binding, v: Alignment => match v { .. _ => bail!(..) } }`: no fn
    # encloses it in the file, but no "top-level code" runs it either (reading 190)
    source = (
        "cast! {\n"
        "    Binding,\n"
        "    v: Alignment => match v {\n"
        "        Alignment::START => Self::Left,\n"
        '        _ => bail!("must be `left` or `right`"),\n'
        "    },\n"
        "}\n"
    )
    found = explained(source)
    assert found.documentation.startswith(
        "The code that `cast!` generates from `cast! { Binding ..` returns early"
    )
    assert "top-level code" not in " ".join(str(v) for v in found.model_dump().values())
    # a body that names nothing first: where the file invokes it
    source = (
        "declare_thing! {\n"
        '    name: "calls",\n'
        "    check: |v| {\n"
        "        if v.is_empty() {\n"
        '            bail!("a lint needs a status");\n'
        "        }\n"
        "    },\n"
        "}\n"
    )
    assert explained(source).documentation.startswith(
        "The code that `declare_thing!` generates where `src/x.rs` invokes it returns early"
    )


@pytest.mark.parametrize(
    "source",
    [
        # zellij's `open_file_floating` logs its error (`.non_fatal()`): no caller gets one
        "fn open_floating(env: &Env) {\n"
        '    write_object(env).with_context(|| format!("failed to write the response"))'
        ".non_fatal();\n}\n",
        # a `#[try_stream]` executor's error is an item of its stream, not a call's `Err`
        "impl Reader {\n    #[try_stream(ok = Message, error = StreamExecutorError)]\n"
        "    async fn execute_inner(self) {\n"
        '        let m = self.input.next().await.context("the upstream closed early")?;\n'
        "        yield m;\n    }\n}\n",
        # nushell's `impl From<ParseError> for ShellError` returns the error value itself
        "impl From<ParseError> for ShellError {\n    fn from(error: ParseError) -> Self {\n"
        '        ShellError::Generic(GenericError::new("too many documents in the stream"))\n'
        "    }\n}\n",
        # so does an error-making helper
        "fn insufficient_size() -> OperationError {\n"
        '    OperationError::service_error("insufficient file size for the links file")\n}\n',
    ],
)
def test_no_catch_at_the_call_where_the_call_returns_no_result(source: str) -> None:
    assert explained(source).tryCatchPattern is None


def test_the_test_of_an_if_whose_else_branch_the_site_is_in_does_not_class_it() -> None:
    """mdBook's "Cyclic dependency detected in preprocessors" sits in the else branch of `if
    preprocessor_names.is_empty()`: that test was false, and its word "empty" made it an
    invalid argument (reading 114). The test of a branch taken still counts."""
    found = explained_all(
        "pub fn order(names: &[String]) -> anyhow::Result<()> {\n"
        "    if names.is_empty() {\n        Ok(())\n    } else {\n"
        '        anyhow::bail!("Cyclic dependency detected in preprocessors")\n    }\n}\n'
        "pub fn first(names: &[String]) -> anyhow::Result<()> {\n"
        "    if names.is_empty() {\n"
        '        anyhow::bail!("Nothing detected in preprocessors")\n    }\n    Ok(())\n}\n'
    )
    assert found["Cyclic dependency detected in preprocessors"].backgroundTag != "invalid-argument"
    assert found["Nothing detected in preprocessors"].backgroundTag == "invalid-argument"
