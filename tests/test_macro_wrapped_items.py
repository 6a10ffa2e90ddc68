"""Items a macro wraps are items: tokio writes most of its library inside `cfg_rt! { .. }`,
`cfg_test_util! { .. }` and the like, which tree-sitter leaves as flat tokens. Its
`time::pause` panic read "The top-level code of `tokio/src/time/clock.rs` returns `Err`",
with no caller (reading 119: 34 of tokio's 310 records said "top-level code"). A macro
invoked where an item goes whose body parses as items is now read as those items: the
index defines its fns (methods of the impl around it, nested macros too), a site in one
has that fn as its own, and caller paths go through it. A body that is a DSL, not items,
is left as it was."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.languages.rust.index import index_file
from pipeline.languages.rust.sites import find_sites
from pipeline.languages.rust.visibility import private_modules, public_use_lines
from pipeline.scan.callerpaths import site_reach

CLOCK = """\
use std::time::Duration;

cfg_test_util! {
    cfg_rt! {
        fn with_clock<R>(f: impl FnOnce(Option<u8>) -> Result<R, &'static str>) -> R {
            match f(None) {
                Ok(ret) => ret,
                Err(msg) => panic!("{}", msg),
            }
        }
    }

    /// Pauses time.
    pub fn pause() {
        with_clock(|maybe_clock| {
            match maybe_clock {
                Some(_) => Ok(()),
                None => Err("time cannot be frozen from outside the Tokio runtime"),
            }
        })
    }
}

pub struct Runtime;

impl Runtime {
    cfg_metrics! {
        /// The runtime's metrics.
        pub fn metrics(&self) -> u64 {
            self.count().expect("metrics are off")
        }
    }

    fn count(&self) -> Option<u64> {
        None
    }
}

cast! {
    Side,
    v: i64 => if v > 0 { Self::Start } else { bail!("must be positive") },
}

#[cfg(test)]
mod tests {
    cfg_rt! {
        fn helper() {}
    }
}
"""


def test_the_fns_a_macro_wraps_are_defined_where_they_are_written() -> None:
    index = index_file("src/time/clock.rs", CLOCK.encode())

    fns = [(d.name, d.owner, d.line) for d in index.definitions if d.kind == "fn"]
    assert sorted(fns) == [
        ("count", "Runtime", 34),
        ("metrics", "Runtime", 29),  # a method of the impl the macro sits in
        ("pause", None, 14),
        ("with_clock", None, 5),  # in a macro in a macro
    ]
    (pause,) = [d for d in index.definitions if d.name == "pause"]
    assert pause.public and pause.doc == "Pauses time."
    calls = {(c.name, index.definitions[c.caller].name) for c in index.calls}
    assert {("with_clock", "pause"), ("count", "metrics"), ("f", "with_clock")} <= calls
    # each call once: not also as the macro's tokens
    assert [c.name for c in index.calls].count("with_clock") == 1


def test_a_site_in_a_wrapped_fn_has_that_fn() -> None:
    scan = find_sites("src/time/clock.rs", CLOCK.encode())
    by_message = {site.message: site for site in scan.sites}

    frozen = by_message["time cannot be frozen from outside the Tokio runtime"]
    assert frozen.facts.enclosing_fn == "pause"
    assert frozen.facts.fn_doc == "Pauses time."
    metrics = by_message["metrics are off"]
    assert (metrics.facts.enclosing_fn, metrics.facts.enclosing_impl) == ("metrics", "Runtime")
    # a body that is no items (typst's `cast!`) is read as before: no fn of its own
    assert by_message["must be positive"].facts.enclosing_fn is None
    assert len(scan.sites) == len({(s.line, s.message) for s in scan.sites})


def test_a_caller_path_goes_through_a_wrapped_fn(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "rt"\n',
            "src/lib.rs": "pub mod time;\n",
            "src/time.rs": CLOCK,
        },
    )
    line = line_of_text(CLOCK, "time cannot be frozen")

    reach = site_reach(graph, "src/time.rs", line)

    assert reach is not None
    assert [(p.entry, p.entry_label, [h.name for h in p.hops]) for p in reach.paths] == [
        ("pub-api", "public API `time::pause`", ["pause"])
    ]


RUNTIME_MOD = """\
pub(crate) mod context;

cfg_rt! {
    mod builder;
    pub use self::builder::Builder;
    cfg_unstable! {
        pub use self::builder::UnhandledPanic;
    }

    mod runtime;
    pub use runtime::Runtime;

    pub mod dump;
    mod inner {
        pub use x::Hidden;
    }
}
"""


def test_modules_and_re_exports_a_macro_wraps_are_the_file_s_top_level() -> None:
    source = RUNTIME_MOD.encode()

    assert private_modules(source) == ("context", "builder", "runtime", "inner")
    # in the macro, in a macro in it; not in an inline module's block
    assert public_use_lines(source) == (5, 7, 11)
    # declared `pub` under one cfg and `pub(crate)` under another: public where it is `pub`
    both = b"cfg_rt! {\n    pub mod runtime;\n}\ncfg_not_rt! {\n    pub(crate) mod runtime;\n}\n"
    assert private_modules(both) == ()


def test_a_method_is_named_by_the_re_export_of_its_own_type(tmp_path: Path) -> None:
    """tokio has two `Builder`s re-exported by name: `runtime::Builder` and `task::Builder`
    (and a third, `join_set::Builder`, in a public module). A method of `task::builder`'s
    is named by the `pub use` whose path leads to that module, through another `pub use`
    too (the crate's root re-exports `runtime`'s: the shortest path is the root's)."""
    builder = "pub struct Builder;\nimpl Builder {\n    pub fn spawn(&self) {}\n}\n"
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "rt"\n',
            "src/lib.rs": (
                "cfg_rt! {\n    pub mod runtime;\n    pub mod task;\n}\npub use runtime::Builder;\n"
            ),
            "src/runtime/mod.rs": "mod builder;\npub use self::builder::Builder;\n",
            "src/runtime/builder.rs": builder.replace("spawn", "build"),
            "src/task/mod.rs": (
                "mod builder;\npub mod join_set;\ncfg_unstable! {\n"
                "    pub use builder::Builder;\n}\n"
            ),
            "src/task/builder.rs": builder,
            "src/task/join_set.rs": builder.replace("spawn", "spawn_on"),
        },
    )
    labels = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")

    assert labels == [
        "public API `Builder::build`",
        "public API `task::Builder::spawn`",
        "public API `task::join_set::Builder::spawn_on`",
    ]
