"""A published library's front door is a way in even though the repository calls it too.

typst's `typst::compile` is what every program built on the `typst` crate calls, and its own
CLI and docs builder call it as well; a `pub` fn the repository's product calls is no entry
point (its callers are the way in), so a walk whose callers end at no entry (past the 8
hops, or at a fn nothing calls) said "no entry point found" though it had passed the
crate's front door (stop 54's reading: 107 of typst's 491 records). Now such a walk ends
at the outermost front door it passed: a `pub` free fn declared at a library crate's root,
or re-exported by name there, of a package whose manifest does not say `publish = false`.
A walk that finds a real entry point keeps it, and its paths are unchanged."""

from __future__ import annotations

from test_package_paths import graph_of, paths_to

from pipeline.languages import repository_modules

ENGINE = {
    "engine/src/lib.rs": (
        "mod deep;\npub use deep::render;\npub fn compile(x: u32) -> u32 {\n    deep::step(x)\n}\n"
    ),
    "engine/src/deep.rs": (
        "pub fn step(x: u32) -> u32 {\n    check(x)\n}\n"
        "pub fn render(x: u32) -> u32 {\n    check(x)\n}\n"
        'fn check(x: u32) -> u32 {\n    if x == 0 {\n        panic!("zero");\n    }\n    x\n}\n'
    ),
    # the repository's own program calls both doors, from a fn nothing calls
    "tool/Cargo.toml": (
        '[package]\nname = "tool"\n[dependencies]\nengine = { path = "../engine" }\n'
    ),
    "tool/src/main.rs": (
        "fn main() {}\nfn preview() {\n    engine::compile(1);\n    engine::render(2);\n}\n"
    ),
}


def engine_with(manifest: str, main: str = "fn main() {}\n") -> dict[str, str]:
    return {
        **ENGINE,
        "engine/Cargo.toml": '[package]\nname = "engine"\n' + manifest,
        "tool/src/main.rs": main
        + "fn preview() {\n    engine::compile(1);\n    engine::render(2);\n}\n",
    }


def test_a_walk_with_no_entry_ends_at_the_outermost_front_door_it_passed() -> None:
    graph = graph_of(engine_with(""))

    assert paths_to(graph, "check", "engine/src/deep.rs") == [
        ("public API `engine::compile`", ["compile", "step", "check"]),
        ("public API `engine::render`", ["render", "check"]),
    ]


def test_an_unpublished_package_has_no_front_door() -> None:
    graph = graph_of(engine_with("publish = false\n"))

    ((label, hops),) = paths_to(graph, "check", "engine/src/deep.rs")

    assert label is None  # the longest chain of callers, no entry named
    assert hops[0] == "preview"


def test_a_real_entry_point_comes_before_any_front_door() -> None:
    graph = graph_of(engine_with("", main="fn main() {\n    preview();\n}\n"))

    assert paths_to(graph, "check", "engine/src/deep.rs") == [
        ("`tool` (fn main)", ["main", "preview", "render", "check"])
    ]


def test_a_fn_of_a_module_the_root_does_not_re_export_is_no_front_door() -> None:
    graph = graph_of(
        engine_with("", main="fn main() {}\nfn other() {\n    engine::deep::step(1);\n}\n")
    )

    assert "step" not in {graph.nodes[n].label for n in graph.front_doors}
    assert {graph.nodes[n].label for n in graph.front_doors} == {"compile", "render"}


def test_a_manifest_says_whether_its_package_is_published() -> None:
    manifests = {
        "Cargo.toml": '[workspace]\nmembers = ["*"]\n[workspace.package]\npublish = false\n',
        "open/Cargo.toml": '[package]\nname = "open"\n',
        "closed/Cargo.toml": '[package]\nname = "closed"\npublish = false\n',
        "empty/Cargo.toml": '[package]\nname = "empty"\npublish = []\n',
        "registry/Cargo.toml": '[package]\nname = "registry"\npublish = ["ours"]\n',
        "inherits/Cargo.toml": '[package]\nname = "inherits"\npublish.workspace = true\n',
    }
    files = [f"{d}/src/lib.rs" for d in ("open", "closed", "empty", "registry", "inherits")]
    modules = repository_modules({p: t.encode() for p, t in manifests.items()}, files)

    assert {f.split("/")[0]: modules.published(f) for f in files} == {
        "open": True, "closed": False, "empty": False, "registry": True, "inherits": False,
    }  # fmt: skip
    assert modules.published("loose.rs") is None
