"""A returned error reaches a user only through callers that pass it on. typst's
autocomplete calls `symbol.modified(..)` as `if let Ok(modified) = ..`: a stop 54 reading
found "users meet it through public API `typst_ide::autocomplete`" for an error that call
throws away (FALSE). The index marks a call whose value keeps nothing of its error
(`Call.dropped`: `.ok()`, `.unwrap_or(..)`, `.unwrap_or_default()`, `.is_ok()`, `.is_err()`,
`.or(..)`, `.map_err(|_| ..)`, `.or_else(|_| ..)`, `.unwrap_or_else(|_| ..)`, `let _ =`,
`if let Ok(..)`, `let Ok(..) = .. else`, a `match` whose arms bind nothing of the error or
only log it at debug or trace level, through an `.await`), and a returned error's walk goes
up no such call; a panic's walk goes up all
(a panic travels by no value). When every caller drops it, the reach says so
(`Reach.dropped_by`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import graph_of

from pipeline.analyze.reach_text import trigger_sentence
from pipeline.languages.rust.drops import (
    dropped_by,
    handed_to,
    held_value,
    logged_by,
    may_go_elsewhere,
)
from pipeline.languages.rust.index import index_file
from pipeline.languages.rust.index_items import text_of
from pipeline.languages.rust.sites import parser
from pipeline.scan.callerpaths import SiteSpec, reaches_of


def dropped_calls(body: str) -> list[tuple[str, bool]]:
    source = f"async fn g() -> Result<(), E> {{\n    {body}\n    Ok(())\n}}\n"
    return [(c.name, c.dropped) for c in index_file("src/lib.rs", source.encode()).calls]


@pytest.mark.parametrize(
    "body",
    [
        "let v = f(1).ok();",
        "let v = f(1).unwrap_or(0);",
        "let v = f(1).unwrap_or_default();",
        "if f(1).is_err() { return Ok(()); }",
        "let _ = f(1);",
        "if let Ok(v) = f(1) { use_it(v); }",
        "while let Ok(v) = f(1) { use_it(v); }",
        "let Ok(v) = f(1) else { return Ok(()); };",
        "let v = f(1).await.ok();",
        'let _ = f(1).instrument_await("x").await;',
        "let v = f(1).map_err(|_| E::Other)?;",
        "let v = f(1).or_else(|_| Ok::<u8, E>(0))?;",
        # a `match` that binds nothing of the error (minijinja's `Err(_) => HashSet::new()`)
        "match f(1) { Ok(v) => use_it(v), Err(_) => return Ok(()) }",
        "match f(1).await { Ok(v) if v > 1 => use_it(v), _ => {} }",
        # an arm that only logs the error (starship's `is_readonly_dir`)
        'match f(1) { Ok(v) => !v, Err(e) => { log::debug!("no status: {e}"); false } }',
        'match f(1) { Ok(v) => v, Err(e) => { tracing::trace!(%e, "skipped"); 0 } }',
        # a closure that ignores the error it is given (starship's `time`)
        "let v = f(1).unwrap_or_else(|_| fallback());",
    ],
)
def test_a_call_whose_value_keeps_nothing_of_its_error_drops_it(body: str) -> None:
    assert ("f", True) in dropped_calls(body)


@pytest.mark.parametrize(
    "body",
    [
        "let v = f(1)?;",
        "let v = f(1).await?;",
        "let v = f(1).map_err(|e| E::Wrap(e))?;",
        'let v = f(1).unwrap_or_else(|e| { eprintln!("{e}"); std::process::exit(1) });',
        "let v = f(1);",
        "match f(1) { Ok(v) => use_it(v), Err(e) => return Err(e) }",
        "match f(1) { Ok(v) => use_it(v), e => return e }",
        "match f(1) { Ok(v) => use_it(v), Err(E::NotFound) => {}, Err(_) => {} }",
        "let v = f(1).unwrap();",  # a panic that prints the error
        # an arm that logs it and then passes it on, or makes it the arm's value
        'match f(1) { Ok(v) => v, Err(e) => { log::warn!("{e}"); return Err(e) } }',
        'match f(1) { Ok(v) => Ok(v), Err(e) => { log::warn!("{e}"); Err(e.into()) } }',
        'match f(1) { Ok(v) => v, Err(e) => { log::warn!("{e}"); panic!("failed: {e}") } }',
        "match f(1) { Ok(v) => v, Err(e) => { report(e); 0 } }",
    ],
)
def test_a_call_that_passes_its_error_on_or_turns_it_into_a_panic_does_not(body: str) -> None:
    assert ("f", False) in dropped_calls(body)


FILES = {
    "Cargo.toml": '[package]\nname = "tool"\n',
    "src/main.rs": (
        "fn main() {\n    quiet();\n    loud().unwrap();\n}\n"
        'fn quiet() {\n    if let Ok(v) = check(1) {\n        println!("{v}");\n    }\n}\n'
        "fn loud() -> anyhow::Result<u8> {\n    let v = check(2)?;\n    Ok(v)\n}\n"
        "fn check(x: u32) -> anyhow::Result<u8> {\n"
        '    anyhow::ensure!(x > 0, "x must be positive");\n'
        '    assert!(x < 9, "x is far too large");\n'
        "    Ok(1)\n}\n"
        "fn probe() {\n    let _ = only(1);\n}\n"
        'fn only(x: u32) -> anyhow::Result<()> {\n    anyhow::bail!("nothing works here")\n}\n'
    ),
}


def walked(tmp_path: Path, line: int, panics: bool) -> list[list[str]]:
    graph = graph_of(tmp_path, FILES)
    spec = SiteSpec("r", None, "src/main.rs", line, (), panics)
    reach = reaches_of([spec], graph)["r"]
    return [[h.name for h in p.hops] for p in reach.paths]


def test_a_returned_error_s_walk_goes_up_no_call_that_drops_it(tmp_path: Path) -> None:
    assert walked(tmp_path, 15, panics=False) == [["main", "loud", "check"]]


def test_a_panic_s_walk_goes_up_every_call(tmp_path: Path) -> None:
    # `main` is reached once, by the first caller the walk meets: `quiet`, whose `if let
    # Ok(..)` a panic in `check` goes through all the same
    assert walked(tmp_path, 16, panics=True) == [["main", "quiet", "check"]]


def test_an_error_every_caller_drops_says_so(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", 23, ())], graph)["r"]

    assert (reach.paths, reach.callers, reach.dropped_by) == ((), 1, 1)
    assert trigger_sentence(reach, "ab" * 20) == (
        "At commit ababababab the one call of it the index found drops the error it returns "
        "(`.ok()`, `.unwrap_or(..)`, `if let Ok(..)`, `let _ =`, a `match` arm that only logs it at debug level): "
        "none passes it on toward a "
        "user."
    )


HELD_EVERY_WAY = """
async fn g(diagnostic: &mut Diagnostic) -> Result<u8, E> {
    let _ = f(1);
    let v = f(2).ok();
    if let Ok(v) = f(3) { use_it(v); }
    if let Err(e) = f(4) { log::warn!("{e}"); }
    match f(5).await { Ok(v) => v, Err(e) => { tracing::warn!("{e}"); 0 } };
    let v = f(6).unwrap_or_else(|e| { log::error!("{e}"); 0 });
    diagnostic.try_set_fix(|| f(7));
    diagnostic.try_set_fix(|| { let fix = f(8)?; Ok(fix) });
    diagnostic.try_set_fix(|| async move { f(9) });
    use_it(f(10));
    f(11);
    let s = S { field: f(12) };
    let t = (f(13), f(14) + 1, &f(15), [f(16)]);
    return f(17);
}
"""


def test_a_call_held_by_none_of_the_holders_is_neither_dropped_logged_nor_handed() -> None:
    """The index asks `dropped_by`, `logged_by` and `handed_to` only of a call whose value
    is held by a method, `let`, `if let`, `match`, `?`, block or closure
    (`may_go_elsewhere`): for every other call all three must find nothing."""
    tree = parser().parse(HELD_EVERY_WAY.encode())
    calls, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        calls += [node] if node.type == "call_expression" else []
        stack.extend(node.children)
    found = {text_of(c): (dropped_by(c), logged_by(c), handed_to(c)) for c in calls}
    skipped = [text_of(c) for c in calls if not may_go_elsewhere(held_value(c))]
    assert sorted(c for c in skipped if c.startswith("f(")) == [f"f({n})" for n in range(10, 18)]
    assert "use_it(f(10))" in skipped and "diagnostic.try_set_fix(|| f(7))" in skipped
    assert all(found[call] == (None, None, None) for call in skipped)
    # and the holders' calls are asked: each of these finds something
    assert {c for c, outcome in found.items() if any(outcome)} >= {
        "f(1)", "f(2)", "f(3)", "f(4)", "f(5)", "f(6)", "f(7)", "f(8)", "f(9)"
    }  # fmt: skip


@pytest.mark.parametrize(
    "body",
    ["let v = f(1)?;", "let v = f(1).await?;", 'let v = f(1).instrument_await("read").await?;'],
)
def test_a_call_whose_value_a_question_mark_takes_through_the_future_s_wrappers_is_tried(
    body: str,
) -> None:
    source = f"async fn g() -> Result<(), E> {{\n    {body}\n    Ok(())\n}}\n"
    calls = index_file("src/lib.rs", source.encode()).calls
    assert [c.tried for c in calls if c.name == "f"] == [True]
