"""A panic whose message says a step failed (`.expect("Could not get home directory")`) is
not surely a bug: the step may fail in the reader's environment. Its explanation says so,
and a bug only if the step does not depend on them; a panic that states an assumption
(`.expect("A plain text syntax is available")`) is still a bug to report."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.analyze.taxonomy import classify_step

_BUG = "This is a bug, not something to fix in your input"


@pytest.mark.parametrize(
    "statement",
    [
        'BatProjectDirs::new().expect("Could not get home directory")',  # bat
        'File::open(p).expect("Failed to open file")',  # risingwave
        'terminal::size().expect("Unable to determine terminal size")',  # helix
        'panic!("unable to set up the logger for {}", name)',
        # vaultwarden's database queries (78 records read "a bug, report it upstream")
        'groups::table.load::<GroupDb>(p).expect("Error loading groups")',
        'ctrlc::set_handler(h).expect("Error setting Ctrl-C handler")',  # nushell
    ],
)
def test_a_panic_on_a_failed_step_is_not_called_a_bug_outright(statement: str) -> None:
    explanation = explained(f"fn f(p: &Path, name: &str) {{\n    let _ = {statement};\n}}\n")
    said = " ".join(explanation.solutions)
    assert _BUG not in said
    assert "when a step fails, and the message names it" in explanation.solutions[0]
    assert explanation.solutions[-1].startswith(
        "If that step does not depend on your environment or input, this is a bug"
    )
    assert explanation.exampleFix is not None
    assert "is a bug, not bad input" not in explanation.exampleFix
    assert "Internal invariant" not in explanation.commonSituations
    assert explanation.preventionTips[0] == (
        "Make sure what the step the message names needs is there before the run."
    )


@pytest.mark.parametrize(
    "statement",
    [
        'assets.find_syntax(PLAIN).expect("A plain text syntax is available")',  # bat
        'map.get(&k).expect("key was inserted above")',
        'panic!("failure mode {} should have been handled", m)',
        'map.get(&k).expect("Error string is set above")',  # a noun in -ing: no step
    ],
)
def test_a_panic_that_states_an_assumption_is_a_bug_to_report(statement: str) -> None:
    explanation = explained(f"fn f(k: u8, m: u8) {{\n    let _ = {statement};\n}}\n")
    assert explanation.solutions[-1].startswith(_BUG)
    assert "Internal invariant violated" in explanation.commonSituations


def test_a_failed_step_is_classed_by_the_message_alone() -> None:
    # the call it guards (`compiler().name(..).run(..)`) names no failure
    source = (
        "fn f() {\n    let _ = compiler()\n        .name(state_transition())\n"
        '        .run(job)\n        .expect("failed to compile the grammar");\n}\n'
    )
    assert 'reads as a case of "Operation failed"' in explained(source).commonSituations
    # a thread's start is the system's to refuse, whatever its calls are named
    source = (
        "fn f() {\n    let _ = thread::Builder::new()\n        .name(state_transition())\n"
        '        .spawn(run)\n        .expect("failed to spawn thread");\n}\n'
    )
    assert 'reads as a case of "Resource exhausted"' in explained(source).commonSituations


def test_a_failed_step_the_message_calls_a_bug_is_one() -> None:
    source = (
        'fn f() {\n    let _ = logger()\n        .expect("Unable to get a reference to the '
        'logger; please file a bug report");\n}\n'
    )
    assert (
        explained(source)
        .solutions[-1]
        .startswith("If that advice does not fit your case, this is a bug")
    )


def test_cannot_is_a_refusal_or_an_invariant_not_a_failed_step() -> None:
    # axum: the caller merged two routers that both have a fallback
    source = (
        "impl Router {\n    fn merge(&self) {\n        if self.a && self.b {\n"
        '            panic!("Cannot merge two `Router`s that both have a fallback");\n'
        "        }\n    }\n}\n"
    )
    assert "when a step fails" not in " ".join(explained(source).solutions)


@pytest.mark.parametrize(
    "statement",
    [
        'panic!("Called `Event::retry` multiple times")',  # axum's public API
        'panic!("serialize_value called before serialize_key")',  # nushell
        'panic!("future polled after completion")',
        'panic!("BUG: `update()` must be called before `get()`")',  # cargo
    ],
)
def test_a_panic_that_says_how_the_code_must_be_called_points_at_the_calls(
    statement: str,
) -> None:
    source = (
        "impl E {\n    fn f(&self) {\n        if self.done {\n"
        f"            {statement};\n        }}\n    }}\n}}\n"
    )
    explanation = explained(source)
    assert explanation.solutions[0].startswith("The message says how the code must be called")
    assert explanation.solutions[-1].startswith(
        "If the backtrace (`RUST_BACKTRACE=1`) shows the repository's own code making those calls"
    )
    assert _BUG not in " ".join(explanation.solutions)
    assert 'reads as a case of "Invalid state transition"' in explanation.commonSituations
    assert explanation.exampleFix is not None
    assert "fix the code that makes them" in explanation.exampleFix
    assert (
        explanation.preventionTips[0]
        == "Make the calls in the order and number the message states."
    )


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Failed to open file `{}`", "io-error"),  # the verb decides
        ("Could not deserialize built-in languages.toml", "parse-error"),
        ("failed to connect to feature store server", "connection-failure"),
        # the step's object is what it was about, not how it failed
        ("Failed to compile grpc!", "operation-failed"),
        ("Failed to create expected DataFrame", "operation-failed"),
        ("Could not create empty table placeholder", "operation-failed"),
    ],
)
def test_a_failed_step_is_classed_by_its_verb_not_its_object(message: str, expected: str) -> None:
    assert classify_step(message, path="src/x.rs") == expected


@pytest.mark.parametrize(
    "statement",
    [
        # tauri's `RustAppSettings::new`: what the user's Cargo.toml lacks
        'settings.version.clone().expect("Cargo manifest must have the `package.version` field")',
        'resolve(version).expect("Cargo project does not have a version")',
    ],
)
def test_a_panic_on_what_the_configuration_lacks_is_the_readers_to_add(statement: str) -> None:
    explanation = explained(f"fn f(settings: &S, version: u8) {{\n    let _ = {statement};\n}}\n")
    said = " ".join(explanation.solutions)
    assert _BUG not in said
    assert explanation.solutions[0].startswith(
        "The message names what your manifest or configuration lacks: add it there"
    )
    assert explanation.solutions[-1].startswith("If it is there and valid, this is a bug")
    assert "is a bug, not bad input" not in (explanation.exampleFix or "")
    assert "Configuration error" in explanation.commonSituations
    assert explanation.preventionTips[0] == (
        "Set the manifest or configuration as the message says before the run."
    )


@pytest.mark.parametrize(
    "statement",
    [
        # starship: an assumption's words, on a thread the system may refuse
        'std::thread::Builder::new().name("timer".into()).spawn(run).expect("should be able to '
        'spawn timer thread")',
        # uv, vector: a runtime's threads
        "tokio::runtime::Builder::new_current_thread().enable_all().build()"
        '.expect("should not fail to build current-thread runtime")',
        'Runtime::new().expect("Failed to create Tokio runtime")',
    ],
)
def test_a_panic_on_a_thread_the_system_refused_is_a_resource_not_a_bug(statement: str) -> None:
    explanation = explained(f"fn f(run: fn()) {{\n    let _ = {statement};\n}}\n")
    said = " ".join(explanation.solutions)
    assert _BUG not in said
    assert "the system refuses to start a thread" in explanation.solutions[0]
    assert explanation.solutions[-1].startswith(
        "If that step does not depend on your environment or input, this is a bug"
    )
    assert "Resource exhausted" in explanation.commonSituations
    assert "is a bug, not bad input" not in (explanation.exampleFix or "")
    assert explanation.preventionTips[0].startswith("Leave the program room for the threads")


def test_a_task_spawned_on_a_runtime_starts_no_thread() -> None:
    # tokio's task builder: no OS thread, so no limit of the system's to name
    explanation = explained(
        'fn f(t: T) {\n    let _ = tokio::task::Builder::new().spawn(t).expect("task should spawn");\n}\n'
    )
    assert "the system refuses to start a thread" not in " ".join(explanation.solutions)


def test_a_thread_that_started_and_failed_is_no_refused_start() -> None:
    # uv's `.spawn(main2).expect(..).join()`: the thread panicked; tauri's runtime ran a server
    joined = explained(
        "fn f() {\n    let _ = std::thread::Builder::new().spawn(main2).unwrap().join()"
        '.expect("Tokio executor failed, was there a panic?");\n}\n'
    )
    served = explained(
        "fn f(server: S) {\n    let _ = tokio::runtime::Builder::new_current_thread().build()"
        '.unwrap().block_on(server).expect("builtin server errored");\n}\n'
    )
    for explanation in (joined, served):
        assert "the system refuses to start a thread" not in " ".join(explanation.solutions)


def test_a_lookup_by_a_key_the_code_writes_is_an_assumption_whatever_its_words() -> None:
    """nushell's `color_hm.get("bold_magenta").expect("Error getting bold magenta text
    color")`: the code filled the map it looks in."""
    source = (
        "fn f(color_hm: &HashMap<&str, String>) {\n"
        '    let _ = color_hm.get("bold_magenta").expect("Error getting bold magenta text color");\n'
        "}\n"
    )
    assert explained(source).solutions[-1].startswith(_BUG)


@pytest.mark.parametrize(
    "statement",
    [
        'signals.register(SIGUSR1).expect("failed to register SIGUSR1 listener")',  # pingora
        'panic!("unable to set up the logger for {}", name)',
    ],
)
def test_a_failed_step_s_panic_gets_no_advice_on_printing_an_error(statement: str) -> None:
    """No "Log an error whole, with its causes (anyhow .. `{:#}`)": a panic is no value a caller
    prints (reading 309: 199 panics of 9 repositories carried it)."""
    explanation = explained(f"fn f(p: &Path, name: &str) {{\n    let _ = {statement};\n}}\n")
    assert explanation.backgroundTag == "operation-failed"
    assert explanation.preventionTips == [
        "Make sure what the step the message names needs is there before the run."
    ]
