"""A file its parent declares `#[cfg(windows)] mod win;` holds code only Windows builds have:
its records say so, as a `#[cfg(..)]` around the site itself does (SPEC 5's facts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import BASE, edit, extract, manifest, records, regenerate, rust_file

from pipeline.languages.rust.modulegates import declared_modules, file_gates, module_gates
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import module_gates as repository_gates


def test_a_files_head_gates_are_its_inner_cfg_attributes() -> None:
    source = b"""// Copyright 2024
//! Windows services.
/* a block
   comment */
#![cfg(windows)]
#![allow(dead_code)]
#![cfg(all(
    feature = "service",
    not(feature = "minimal")
))]

use std::io;
#![cfg(unix)]
"""
    # the last one is below the first item: not the file's (and no Rust compiles it)
    assert file_gates(source) == ("windows", 'all(feature = "service", not(feature = "minimal"))')


@pytest.mark.parametrize(
    "source", [b"use std::io;\n", b"#![cfg(test)]\n", b"#![cfg_attr(docsrs, feature(doc_cfg))]\n"]
)
def test_a_file_without_a_cfg_at_its_head_has_no_gates(source: bytes) -> None:
    assert file_gates(source) == ()


def test_the_gated_mod_lines_of_a_file() -> None:
    source = b"""
mod plain;
#[cfg(windows)]
mod win;
#[cfg(test)]
mod tests;
#[cfg(unix)] #[path = "sys/unix_impl.rs"] pub(crate) mod unix;
#[cfg(any(test, feature = "testing"))]
mod test_support;
#[doc(hidden)]
#[cfg(feature = "x")]
#[cfg(not(target_os = "ios"))]
pub mod both;
"""
    assert declared_modules(source) == (
        ("win", ("windows",)),
        ("sys/unix_impl.rs", ("unix",)),
        ("both", ('feature = "x"', 'not(target_os = "ios")')),
    )
    # a file whose head has a gate: its modules share it, gated on their line or not
    assert declared_modules(source, every=True)[:2] == (("plain", ()), ("win", ("windows",)))


def test_gates_pass_down_the_module_tree_outermost_first() -> None:
    files = {
        "src/lib.rs": ((), (("win", ("windows",)), ("unix", ("unix",)))),
        "src/win.rs": ((), (("service", ('feature = "service"',)),)),
        "src/win/service.rs": (('not(target_vendor = "uwp")',), (("pipe", ()),)),
        "src/win/service/pipe.rs": ((), ()),
        "src/unix/mod.rs": ((), ()),
        "src/other.rs": ((), ()),
        "src/bin/tool.rs": ((), ()),
    }
    assert module_gates(files) == {
        "src/win.rs": ("windows",),
        "src/win/service.rs": ("windows", 'feature = "service"', 'not(target_vendor = "uwp")'),
        "src/win/service/pipe.rs": (
            "windows",
            'feature = "service"',
            'not(target_vendor = "uwp")',
        ),
        "src/unix/mod.rs": ("unix",),
    }


def test_a_crate_roots_head_gate_reaches_its_modules_not_the_other_binaries() -> None:
    lib = b'#![cfg(target_os = "linux")]\nmod netlink;\n'
    files = {
        "src/lib.rs": (file_gates(lib), declared_modules(lib, every=bool(file_gates(lib)))),
        "src/netlink.rs": ((), ()),
        "src/bin/tool.rs": ((), ()),
        "src/main.rs": ((), ()),
    }
    assert module_gates(files) == {
        "src/lib.rs": ('target_os = "linux"',),
        "src/netlink.rs": ('target_os = "linux"',),
    }


def test_a_files_scan_keeps_its_mod_lines_whether_or_not_it_has_sites() -> None:
    siteless = find_sites("src/lib.rs", b"#[cfg(windows)]\nmod win;\n")
    assert siteless.sites == () and siteless.gated_modules == (("win", ("windows",)),)
    with_site = find_sites("src/lib.rs", b'#![cfg(unix)]\nmod sys;\nfn f() { panic!("boom"); }\n')
    assert with_site.file_gates == ("unix",)
    assert with_site.gated_modules == (("sys", ()),)
    # the site's own gates stay its own: the file's are added across the repository
    assert with_site.sites[0].facts.gates == ()


def test_repository_gates_group_files_by_language() -> None:
    assert repository_gates({"a/lib.rs": ((), (("x", ("unix",)),)), "a/x.rs": ((), ())}) == {
        "a/x.rs": ("unix",)
    }


LIB_RS = "src/meta/src/lib.rs"
WIN_RS = "src/meta/src/win.rs"
GATED_LIB = "pub mod barrier;\npub mod catalog;\n#[cfg(windows)]\nmod win;\n"
WIN = rust_file("win", [("open_pipe", "cannot open the named pipe {id}")])
WITH_WIN = {**BASE, LIB_RS: GATED_LIB, WIN_RS: WIN}
GATE_TEXT = "Only builds where `#[cfg(windows)]` holds have this code."


def win_records(out: Path) -> list[dict[str, object]]:
    return [r for r in records(out).values() if r["filePath"] == WIN_RS]


def test_the_records_of_a_gated_module_say_which_builds_have_them(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(WITH_WIN)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    (record,) = win_records(out)
    assert GATE_TEXT in str(record["triggerScenarios"])
    others = [r for r in records(out).values() if r["filePath"] != WIN_RS]
    assert others and not any("Only builds" in str(r["triggerScenarios"]) for r in others)
    assert manifest(out)["files"][LIB_RS]["gatedModules"] == [["win", ["windows"]]]


def test_a_changed_module_under_a_carried_parent_keeps_its_gate(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(WITH_WIN)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0

    # only win.rs changes: lib.rs, which holds the gate, is carried over unparsed
    moved = edit(WIN_RS, "cannot open the named pipe {id}", "cannot open the pipe {id}")
    repo.commit(moved(dict(WITH_WIN)))
    assert regenerate(out, cache).exit_code == 0
    assert manifest(out)["counts"]["filesParsed"] == 1
    (record,) = win_records(out)
    assert record["errorMessage"] == "cannot open the pipe {id}"
    assert GATE_TEXT in str(record["triggerScenarios"])
