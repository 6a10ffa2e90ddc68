"""A panic its fn's doc comment states under `# Panics` (Rust's API guidelines, C-FAILURE)
is the caller's: it broke a rule the API states. tokio's `ReadBuf::initialize_unfilled_to`
"Panics if `self.remaining()` is less than `n`." read "a bug, report it upstream" (reading
119). Its explanation quotes the section, classes it as an invalid argument, and says to
check the condition before the call; a fn with no such section is as before."""

from __future__ import annotations

from site_fixtures import explained

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


def test_a_panic_of_a_fn_whose_docs_say_nothing_of_it_is_still_an_assumption() -> None:
    undocumented = SOURCE.replace("/// # Panics", "/// # Notes")
    explanation = explained(undocumented)
    assert "state when it panics" not in " ".join(explanation.solutions)
