"""A path to a fn re-exported by a module's `use` is the fn that `use` names: uv's
`commands::run(..)` in `lib.rs` is `commands::project::run::run` (`commands/mod.rs`: `pub(crate)
use project::run::run;`), not `tool::run::run`, which the module re-exports as `tool_run` (one
of this stop's sampled hops took the tool's, marked ambiguous); `commands::tool_run(..)` is the
tool's (a name no fn has: it had no edge at all)."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

FILES = {
    "Cargo.toml": '[package]\nname = "uv"\n',
    "src/lib.rs": "mod commands;\npub fn run_cli() {\n    commands::run();\n    commands::tool_run();\n}\n",
    "src/commands/mod.rs": (
        "mod project;\nmod tool;\n"
        "pub(crate) use project::run::run;\npub(crate) use tool::run::run as tool_run;\n"
    ),
    "src/commands/project/mod.rs": "pub(crate) mod run;\n",
    "src/commands/project/run.rs": "pub(crate) fn run() {}\n",
    "src/commands/tool/mod.rs": "pub(crate) mod run;\n",
    "src/commands/tool/run.rs": "pub(crate) fn run() {}\n",
}  # fmt: skip


def test_a_path_to_a_re_exported_fn_is_the_fn_the_use_names(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    edges = sorted(
        (e.line, graph.nodes[callee].path, len(e.candidates))
        for callee, found in graph.callers.items()
        for e in found
        if graph.nodes[e.caller].label == "run_cli"
    )
    assert edges == [(3, "src/commands/project/run.rs", 0), (4, "src/commands/tool/run.rs", 0)]
