"""A repository that installs a panic hook ending the process says so of its panics:
risingwave's `set_panic_hook` calls `std::panic::update_hook` with a hook that calls
`std::process::abort()`, and a meta node's panic read "it unwinds the current thread or
task" (reading 305): the node ends. The fn that calls both is named, with the hook's line;
a repository with no such fn, or a hook that only logs, is as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_reach import graph_of

from pipeline.analyze.static import explain
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import SiteSpec, aborting_hook, reaches_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

HOOK = (
    "pub fn set_panic_hook() {\n"
    "    std::panic::update_hook(|default_hook, info| {\n"
    "        default_hook(info);\n"
    + "        log_more(info);\n"
    * 30  # tikv's aborts 54 lines below the setter
    + "        if !is_catching_unwind() {\n"
    "            std::process::abort();\n"
    "        }\n"
    "    });\n"
    "}\n"
)
LOGGING = """\
pub fn set_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        tracing::error!("panic: {info}");
    }));
}
"""
MAIN = """\
mod hook;
fn main() {
    hook::set_panic_hook();
    serve(1);
}
fn serve(n: u32) {
    let port = lookup(n).expect("the port is configured");
}
fn lookup(n: u32) -> Option<u16> {
    None
}
"""


@pytest.mark.parametrize(
    ("hook", "said"),
    [
        (HOOK, "`set_panic_hook` (src/hook.rs:2)"),
        (LOGGING, None),
    ],
)
def test_a_panic_hook_that_ends_the_process_is_said_of_each_panic(
    tmp_path: Path, hook: str, said: str | None
) -> None:
    files = {"Cargo.toml": '[package]\nname = "node"\n', "src/main.rs": MAIN, "src/hook.rs": hook}
    graph = graph_of(tmp_path, files)
    assert aborting_hook(graph, "src/main.rs") == said
    line = next(n for n, text in enumerate(MAIN.splitlines(), 1) if "expect(" in text)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", line, (), True)], graph)["r"]
    assert reach.panic_hook == said
    scan = find_sites("src/main.rs", MAIN.encode())
    contexts = build_contexts("o/node", "ab" * 20, RepoScan(scans={"src/main.rs": scan}))
    (context,) = [c for c in contexts if c.site.line == line]
    documentation = explain(replace(context, reach=reach)).documentation
    if said is None:
        assert "it unwinds the thread or task it runs in. A `catch_unwind(..)`" in documentation
    else:
        assert (
            "A panic is no `Err` the caller can handle with `?`: `set_panic_hook` (src/hook.rs:2) "
            "installs a panic hook that ends the process (`process::abort`/`exit`), so in a program that installs "
            "it this panic can end the whole process, not only the current thread or task."
        ) in documentation


def test_a_program_s_own_hook_is_its_package_s_and_a_named_hook_is_not_read(
    tmp_path: Path,
) -> None:
    """neon's storage controller installs its hook in its own `main`: not said of the
    pageserver's panics; nushell's `main` sets a hook that ends nothing and calls
    `process::exit` far below, meilisearch's `set_hook(Box::new(on_panic))` names a fn:
    neither is read as ending the process."""
    own = (
        "fn main() {\n    std::panic::set_hook(Box::new(move |info| {\n"
        '        eprintln!("{info}");\n        std::process::exit(1);\n    }));\n}\n'
    )
    far = (
        "fn main() {\n    std::panic::set_hook(Box::new(|info| {\n        report(info);\n    }));\n"
        + ("    work();\n" * 20)
        + "    std::process::exit(0);\n}\n"
    )
    named = "fn main() {\n    std::panic::set_hook(Box::new(on_panic));\n    std::process::exit(0);\n}\n"
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["controller", "pageserver", "shell", "search"]\n',
        "controller/Cargo.toml": '[package]\nname = "controller"\n',
        "controller/src/main.rs": own,
        "pageserver/Cargo.toml": '[package]\nname = "pageserver"\n',
        "pageserver/src/main.rs": "fn main() {}\n",
        "shell/Cargo.toml": '[package]\nname = "shell"\n',
        "shell/src/main.rs": far,
        "search/Cargo.toml": '[package]\nname = "search"\n',
        "search/src/main.rs": named,
    }
    graph = graph_of(tmp_path, files)
    assert aborting_hook(graph, "controller/src/lib.rs") == "`main` (controller/src/main.rs:2)"
    assert aborting_hook(graph, "pageserver/src/main.rs") is None
    assert aborting_hook(graph, "shell/src/main.rs") is None
    assert aborting_hook(graph, "search/src/main.rs") is None


def test_a_shared_hook_no_code_calls_installs_nothing(tmp_path: Path) -> None:
    """influxdb's `panic_logging::make_panics_fatal` sets a hook that exits, and nothing in
    the repository calls it: its panics had read "`make_panics_fatal` installs a panic hook
    that ends the process" (reading 323, misleading). Called from a `main`, it is said."""
    never = MAIN.replace("    hook::set_panic_hook();\n", "")
    files = {"Cargo.toml": '[package]\nname = "node"\n', "src/main.rs": never, "src/hook.rs": HOOK}
    assert aborting_hook(graph_of(tmp_path / "never", files), "src/main.rs") is None
    files["src/main.rs"] = MAIN
    assert aborting_hook(graph_of(tmp_path / "called", files), "src/main.rs") == (
        "`set_panic_hook` (src/hook.rs:2)"
    )
