"""A returned error whose caller reports it in a log line and goes on reaches no user as a
failure (readings 131-133: hickory's `JournalIter::next` logs a bad journal record and ends
the iteration, pixi's `find_unsatisfiable_targets` logs at `info` and solves again, nextest
logs "recording disabled" and runs the tests). The index marks such a call (`Call.logged`:
the logging macro), a returned error's walk goes up none, and the reach says who logs it:
`Reach.logged` when every caller of the site's fn keeps the error, the top hop's `handled`
when the callers of a fn further up do. A panic's walk goes up all."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import graph_of

from pipeline.analyze.crate_only import passed_within_the_crate
from pipeline.analyze.reach_text import situation_sentence, trigger_sentence
from pipeline.analyze.static import explain_apart, with_reach
from pipeline.core.reach import no_entry_note
from pipeline.languages.rust.index import index_file
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import SiteSpec, reaches_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan


def logged_calls(body: str) -> list[tuple[str, str, bool]]:
    source = f"async fn g() -> Result<(), E> {{\n    {body}\n    Ok(())\n}}\n"
    return [(c.name, c.logged, c.dropped) for c in index_file("src/lib.rs", source.encode()).calls]


@pytest.mark.parametrize(
    ("body", "macro"),
    [
        ('match f(1) { Ok(v) => use_it(v), Err(e) => { warn!("bad {e}"); } }', "`warn!`"),
        ('if let Err(e) = f(1) { tracing::error!(%e, "save failed"); }', "`tracing::error!`"),
        # uv's `get_author_info`: the arm is the macro
        (
            'match f(1) { Ok(a) => return Some(a), Err(err) => warn!("no author: {err}"), }',
            "`warn!`",
        ),
        ('let v = f(1).unwrap_or_else(|e| { log::info!("{e}"); 0 });', "`log::info!`"),
        # hickory's journal: log, then end the iteration
        ('match f(1).await { Ok(r) => Some(r), Err(e) => { error!("{e}"); None } }', "`error!`"),
        # alacritty's `load_imports`: log, and return a value without the error (reading 290)
        (
            'match f(1) { Ok(p) => p, Err(err) => { error!(target: T, "{err}"); '
            "return Value::Table(Table::new()); } };",
            "`error!`",
        ),
        ('if let Err(e) = f(1) { warn!("{e}"); return; }', "`warn!`"),
        # risingwave's sink: skip the row
        (
            "for r in rows { let id = match f(r) { Ok(id) => id, Err(err) => { tracing::warn!("
            'error = %err, "skip row"); continue; } }; }',
            "`tracing::warn!`",
        ),
        # risingwave's source worker: the future wrapped by await-tree's `instrument_await`,
        # tracing's `instrument`, whose output is the call's own (reading 320)
        (
            'match f(1).instrument_await("on_tick").await { Ok(()) => up(1), '
            'Err(e) => { tracing::error!("failed: {}", e.as_report()); up(0); } }',
            "`tracing::error!`",
        ),
        (
            'if let Err(e) = f(1).instrument(span).in_current_span().await { warn!("{e}"); }',
            "`warn!`",
        ),
    ],
)
def test_a_call_whose_error_is_logged_and_left_is_marked_with_the_macro(
    body: str, macro: str
) -> None:
    assert ("f", macro, False) in logged_calls(body)


@pytest.mark.parametrize(
    "body",
    [
        # printed to the terminal: how a CLI's user reads it (sccache's `main`)
        'let code = match f(1) { Ok(s) => s, Err(e) => { eprintln!("error: {e}"); 2 } };',
        'match f(1) { Ok(v) => v, Err(e) => { log::warn!("{e}"); return Err(e) } }',
        'match f(1) { Ok(v) => Ok(v), Err(e) => { warn!("{e}"); return Some(e) } }',
        'match f(1) { Ok(v) => Ok(v), Err(e) => { log::error!("{e}"); Err(E::Other) } }',
        'if let Err(e) = f(1) { error!("{e}"); std::process::exit(1); }',
        'match f(1) { Ok(v) => v, Err(e) => { warn!("{e}"); panic!("failed") } }',
        'if let Err(e) = f(1) { warn!("{e}"); } else { done(); }',
        'let v = f(1).unwrap_or_else(|e| { error!("{e}"); std::process::exit(2) });',
        "match f(1) { Ok(v) => v, Err(e) => { report(e); 0 } }",  # no log: it goes somewhere
        # tikv's status server: logged, and sent to the user in the response
        'match f(1) { Ok(b) => Ok(b), Err(e) => { info!("fail: {}", e); Ok(respond(500, e)) } }',
        'match f(1) { Ok(b) => b, Err(e) => { warn!("fail"); format!("{e}") } }',
        'match f(1) { Ok(v) => v, Err(e) => { warn!("{e}"); 0 }, other => other? }',
    ],
)
def test_a_call_whose_error_is_passed_on_printed_or_fatal_is_not(body: str) -> None:
    assert all(logged == "" for name, logged, _ in logged_calls(body) if name == "f")


def test_a_debug_log_alone_drops_the_error_it_does_not_log_it() -> None:
    calls = logged_calls('match f(1) { Ok(v) => v, Err(e) => { debug!("{e}"); 0 } }')
    assert ("f", "", True) in calls


FILES = {
    "Cargo.toml": '[package]\nname = "tool"\n',
    "src/main.rs": (
        "fn main() {\n    sync();\n    tidy();\n}\n"
        "fn sync() {\n"
        "    if let Err(e) = pull(1) {\n"
        '        log::warn!("sync failed: {e}");\n'
        "    }\n"
        "}\n"
        'fn pull(x: u32) -> anyhow::Result<()> {\n    anyhow::ensure!(x > 0, "no remote");\n'
        "    Ok(())\n}\n"
        "fn tidy() {\n    let _ = sweep(1);\n}\n"
        "fn sweep(x: u32) -> anyhow::Result<()> {\n    remove(x)?;\n    Ok(())\n}\n"
        'fn remove(x: u32) -> anyhow::Result<()> {\n    anyhow::bail!("cannot remove {x}")\n}\n'
    ),
}


def test_an_error_every_caller_logs_says_who_logs_it(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", 11, ())], graph)["r"]

    assert (reach.paths, reach.dropped_by) == ((), 1)
    assert reach.logged == "`sync` (src/main.rs:6) logs it with `log::warn!`"
    assert trigger_sentence(reach, "ab" * 20) == (
        "At commit ababababab the one call of it the index found handles the error it returns "
        "without passing it on: `sync` (src/main.rs:6) logs it with `log::warn!` and goes on. A "
        "user sees it as that log line, not as the failure of what they ran."
    )


def test_an_error_one_caller_logs_while_another_passes_it_on_says_both(tmp_path: Path) -> None:
    """alacritty's `imports`: the `migrate` subcommand passes its error on, `load_imports`
    logs it at every start and goes on (reading 290 was told of the subcommand alone). The
    path is the one that passes it on; the caller that logs it is named beside it."""
    main = FILES["src/main.rs"].replace(
        "fn main() {\n    sync();\n",
        "fn main() -> anyhow::Result<()> {\n    push()?;\n    sync();\n",
    ).replace("    tidy();\n}\n", "    tidy();\n    Ok(())\n}\nfn push() -> anyhow::Result<()> "
              "{\n    pull(2)\n}\n")  # fmt: skip
    graph = graph_of(tmp_path, {**FILES, "src/main.rs": main})
    line = next(n for n, text in enumerate(main.splitlines(), 1) if "no remote" in text)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", line, ())], graph)["r"]

    assert [[h.name for h in p.hops] for p in reach.paths] == [["main", "push", "pull"]]
    assert reach.logged == "`sync` (src/main.rs:11) logs it with `log::warn!`"
    sentence = trigger_sentence(reach, "ab" * 20)
    assert sentence is not None and sentence.endswith(
        "`main` -> `push` -> `pull`. Elsewhere `sync` (src/main.rs:11) logs it with "
        "`log::warn!` and goes on: there a user sees it as that log line, not as a failure."
    )
    assert situation_sentence(reach, "ab" * 20) == (
        "At commit ababababab, users meet it through `main` (fn main). They also meet "
        "it as a log line: `sync` (src/main.rs:11) logs it with `log::warn!` and goes on."
    )
    panic = reaches_of([SiteSpec("r", None, "src/main.rs", line, (), True)], graph)["r"]
    assert panic.logged is None  # a panic is no error a caller logs


def test_a_panic_beside_the_log_is_still_reached_from_main(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", 11, (), True)], graph)["r"]
    assert [[h.name for h in p.hops] for p in reach.paths] == [["main", "sync", "pull"]]


def test_a_path_whose_top_callers_keep_the_error_says_so(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", 22, ())], graph)["r"]

    (path,) = reach.paths
    assert [h.name for h in path.hops] == ["sweep", "remove"]
    assert path.hops[0].handled == "`tidy` (src/main.rs:15) drops it"
    assert no_entry_note(path) == (
        "every caller of `sweep` the index found stops the error it returns there, passing "
        "none on: `tidy` (src/main.rs:15) drops it and goes on"
    )


@pytest.mark.parametrize(
    ("line", "how"),
    [
        (11, "`sync` (src/main.rs:6) logs it with `log::warn!`"),  # the site's fn's caller
        (22, "`tidy` (src/main.rs:15) drops it"),  # a caller further up
    ],
)
def test_an_error_every_caller_keeps_has_nothing_to_correct(
    tmp_path: Path, line: int, how: str
) -> None:
    """uv's `GitInfoError::MissingHead`: every caller logs it at debug level and goes on, and
    the record still said "correct that and try again" (reading 147)."""
    graph = graph_of(tmp_path, FILES)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", line, ())], graph)["r"]
    scan = find_sites("src/main.rs", FILES["src/main.rs"].encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/main.rs": scan}))
    (context,) = [c for c in contexts if c.site.line == line]

    explanation = with_reach(explain_apart(context), reach, "ab" * 20, context.site)

    assert explanation.solutions[0] == (
        f"Every caller the index found stops this error and goes on ({how}): through them, "
        "nothing a user ran fails by it. What follows matters only where it shows in a log, or "
        "comes through a caller the index missed."
    )
    # the rest as said of a program's private fn, which only code in its module calls
    assert explanation.solutions[1:] == [
        passed_within_the_crate(s, "module") for s in explain_apart(context).solutions
    ]


def test_a_trait_method_s_callers_the_index_found_do_not_speak_for_all(tmp_path: Path) -> None:
    """zellij's `Clipboard::from_str`: its one caller the index found drops the error, and
    `.parse()`, serde and clap's value parsers, which it does not see, call it too."""
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/main.rs": (
            "use std::str::FromStr;\n"
            'fn main() {\n    let _ = Mode::from_str("x");\n}\n'
            "struct Mode;\n"
            "impl FromStr for Mode {\n    type Err = anyhow::Error;\n"
            "    fn from_str(s: &str) -> anyhow::Result<Self> {\n"
            '        anyhow::bail!("no such mode: {s}")\n    }\n}\n'
        ),
    }
    graph = graph_of(tmp_path, files)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", 10, ())], graph)["r"]
    scan = find_sites("src/main.rs", files["src/main.rs"].encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/main.rs": scan}))

    explanation = with_reach(explain_apart(context), reach, "ab" * 20, context.site)

    assert reach.dropped_by == 1
    assert not explanation.solutions[0].startswith("Every caller the index found")


# `compile` six calls above the site, called by `complete` (whose one caller drops the
# error) and by `run` (two calls below `main`): both sit at the depth the walk stops at
DEEP = {
    "Cargo.toml": '[package]\nname = "tool"\n',
    "src/main.rs": (
        "fn main() -> anyhow::Result<()> {\n    menu();\n    go()\n}\n"
        "fn menu() {\n    let _ = complete();\n}\n"
        "fn complete() -> anyhow::Result<()> {\n    compile()\n}\n"
        "fn go() -> anyhow::Result<()> {\n    run()\n}\n"
        "fn run() -> anyhow::Result<()> {\n    compile()\n}\n"
        "fn compile() -> anyhow::Result<()> {\n    p5()\n}\n"
        + "".join(
            f"fn p{i}() -> anyhow::Result<()> {{\n    p{i - 1}()\n}}\n" for i in range(5, 0, -1)
        )
        + 'fn p0() -> anyhow::Result<()> {\n    anyhow::bail!("too deep")\n}\n'
    ),
}


def test_a_cut_chain_is_shown_before_one_whose_callers_keep_the_error(tmp_path: Path) -> None:
    """Of the fns at the depth the walk stops at, one whose callers the bound left unwalked
    comes before one whose callers all drop the error: just's `Compiler::compile`, called by
    the completer (which drops it) and by `Subcommand::compile`, read "every caller stops
    this error" (reading 281)."""
    graph = graph_of(tmp_path, DEEP)
    line = DEEP["src/main.rs"].split("\n").index('    anyhow::bail!("too deep")') + 1
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", line, ())], graph)["r"]

    (path,) = reach.paths
    assert [h.name for h in path.hops] == ["run", "compile", "p5", "p4", "p3", "p2", "p1", "p0"]
    assert path.hops[0].handled is None
