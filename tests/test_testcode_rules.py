"""Issue 11: test code by `cfg(test)` wherever it stands and by directory; never by file name."""

from __future__ import annotations

import pytest

from pipeline.languages.rust.sites import find_sites
from pipeline.languages.rust.testcode import (
    declared_test_modules,
    is_test_path,
)
from pipeline.languages.rust.testcode import (
    test_module_paths as module_paths,  # not `test_*`: pytest would collect it
)
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

PRODUCT = (
    'pub fn run() -> anyhow::Result<()> { anyhow::bail!("no test target matched the filter") }\n'
)


def messages(files: dict[str, str]) -> dict[str, list[str]]:
    scans = {path: find_sites(path, text.encode()) for path, text in files.items()}
    found: dict[str, list[str]] = {}
    for context in build_contexts("acme/widgets", "ab" * 20, RepoScan(scans=scans)):
        found.setdefault(context.site.file_path, []).append(context.site.message)
    return found


@pytest.mark.parametrize(
    "path", ["src/cargo/ops/cargo_test.rs", "src/bin/cargo/commands/test.rs", "src/tests.rs"]
)
def test_a_file_name_never_makes_product_code_test_code(path: str) -> None:
    assert messages({path: PRODUCT}) == {path: ["no test target matched the filter"]}


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("tests/run.rs", True),
        ("crates/x/benches/b.rs", True),
        ("lints/ui/format_error.rs", True),
        ("e2e_test/source/foo.rs", True),
        ("crates/cargo-test-support/src/lib.rs", True),
        ("src/common/src/test_utils/mod.rs", True),
        ("crates/resolver-tests/src/sat.rs", True),
        ("crates/cargo-test-macro/src/lib.rs", True),
        # nextest's fixture workspace and fixture crate (reading 131)
        ("fixtures/fixture-project/src/lib.rs", True),
        ("fixture-data/src/models.rs", True),
        ("crates/x/test-fixtures/src/lib.rs", True),
        ("src/fixture.rs", False),
        # the module a test-support directory would hold, written as one file
        ("src/frontend/src/test_utils.rs", True),
        ("crates/x/src/cargo_test_support.rs", True),
        ("crates/nu-plugin-protocol/src/test_util.rs", True),  # singular too
        ("crates/x/src/test_util/mock.rs", True),
        ("src/test_utility.rs", False),
        ("src/test_utils_of_mine.rs", False),
        ("src/testing.rs", False),
        ("tokio-test/src/io.rs", False),  # a published crate for users' own tests
        ("src/cargo/ops/cargo_test.rs", False),
        ("src/lints/mod.rs", False),
        ("src/ui/view.rs", False),
    ],
)
def test_directories_from_the_data_file_and_their_one_file_modules(path: str, test: bool) -> None:
    assert is_test_path(path) is test


def test_a_module_declared_cfg_test_in_its_parent_is_test_code() -> None:
    files = {
        "src/lib.rs": "#[cfg(test)]\nmod debug;\npub mod real;\n",
        "src/debug.rs": PRODUCT.replace("no test", "debug"),
        "src/debug/deeper.rs": PRODUCT.replace("no test", "deeper"),
        "src/real.rs": '#[cfg(any(test, feature = "testing"))]\npub(crate) mod helpers;\n'
        + PRODUCT,
        "src/real/helpers.rs": PRODUCT.replace("no test", "helper"),
    }
    assert messages(files) == {"src/real.rs": ["no test target matched the filter"]}


def test_a_test_module_at_its_path_attribute_is_that_file() -> None:
    """zellij declares its unit tests `#[path = "./unit/grid_tests.rs"] #[cfg(test)] mod
    grid_tests;` (30 of them, the attributes in either order): that file is test code,
    relative to the declaring file's directory whatever the declaring file's name."""
    files = {
        "src/panes/mod.rs": '#[path = "./unit/grid_tests.rs"]\n#[cfg(test)]\nmod grid_tests;\n',
        "src/panes/unit/grid_tests.rs": PRODUCT.replace("no test", "grid"),
        "src/screen.rs": '#[cfg(test)]\n#[path = "unit/screen_tests.rs"]\nmod screen_tests;\n'
        + PRODUCT,
        "src/unit/screen_tests.rs": PRODUCT.replace("no test", "screen"),
        "src/screen/screen_tests.rs": PRODUCT.replace("no test", "where no path points"),
        # not test code: a path with no test gate, and a gate of another cfg before `test`'s
        "src/tab.rs": '#[path = "unit/tab_impl.rs"]\nmod tab_impl;\n',
        "src/unit/tab_impl.rs": PRODUCT.replace("no test", "tab"),
    }
    assert messages(files) == {
        "src/screen.rs": ["no test target matched the filter"],
        "src/screen/screen_tests.rs": ["where no path points target matched the filter"],
        "src/unit/tab_impl.rs": ["tab target matched the filter"],
    }


@pytest.mark.parametrize(
    ("declaring", "source", "prefixes"),
    [
        ("a/mod.rs", '#[path = "./unit/x.rs"]\n#[cfg(test)]\nmod x;', ["a/unit/x.rs", "a/unit/x/"]),
        ("a/b.rs", '#[cfg(test)] #[path = "../t/x.rs"] mod x;', ["t/x.rs", "t/x/"]),
        ("a/b.rs", '#[cfg(test)] #[path = "x_tests.rs"] mod x;', ["a/x_tests.rs", "a/x_tests/"]),
        ("a/b.rs", '#[cfg(test)] #[path = "../../x.rs"] mod x;', []),  # outside the repository
        ("a/b.rs", "#[cfg(test)]\n#[allow(dead_code)]\nmod x;", ["a/b/x.rs", "a/b/x/"]),
        ("a/b.rs", "#[allow(dead_code)]\n#[cfg(test)]\nmod x;", ["a/b/x.rs", "a/b/x/"]),
        ("a/b.rs", '#[cfg(test)]\n#[cfg(feature = "x")]\nmod x;', ["a/b/x.rs", "a/b/x/"]),
        ("a/b.rs", '#[cfg(feature = "x")]\n#[path = "x.rs"]\nmod x;', []),
    ],
)
def test_where_a_declared_test_module_lives(
    declaring: str, source: str, prefixes: list[str]
) -> None:
    declared = declared_test_modules(source.encode())
    assert list(module_paths([(declaring, declared)])) == prefixes


def test_cfg_test_on_statements_blocks_arms_and_items_is_test_code() -> None:
    source = """\
pub fn run(x: u8) -> anyhow::Result<()> {
    #[cfg(test)]
    anyhow::ensure!(x > 0, "a statement only tests compile");
    #[cfg(test)]
    {
        anyhow::bail!("a block only tests compile");
    }
    #[cfg(any(test, feature = "fuzzing"))]
    let _ = anyhow::anyhow!("a let only tests compile");
    match x {
        #[cfg(test)]
        7 => anyhow::bail!("an arm only tests compile"),
        _ => anyhow::bail!("the one product message of this fn"),
    }
}

#[cfg(not(test))]
fn kept() { panic!("compiled when not testing: product code"); }
"""
    assert messages({"src/run.rs": source}) == {
        "src/run.rs": [
            "the one product message of this fn",
            "compiled when not testing: product code",
        ]
    }


@pytest.mark.parametrize("pattern", ["*test-support", "e2e_test?", "[bt]ests", "[!t]ests", "a.b*"])
@pytest.mark.parametrize(
    "segment",
    ["cargo-test-support", "e2e_tests", "e2e_test", "tests", "bests", "xests", "a.bc", "axbc"],
)
def test_a_test_directory_pattern_matches_a_segment_as_fnmatch_does(
    pattern: str, segment: str
) -> None:
    import fnmatch
    import re

    from pipeline.languages.rust.testcode import _segment

    assert bool(re.fullmatch(_segment(pattern), segment)) is fnmatch.fnmatchcase(segment, pattern)


def test_a_feature_that_builds_test_support_gates_test_code() -> None:
    # rustup: `#[cfg(feature = "test")] pub mod test;`, a test-support module; a feature's
    # name must say so (`latest` does not), and `not(..)` of it is product code
    files = {
        "src/lib.rs": '#[cfg(feature = "test")]\npub mod test;\npub mod real;\n',
        "src/test.rs": PRODUCT.replace("no test", "support"),
        "src/real.rs": (
            '#[cfg(feature = "test-util")]\npub fn helper() { panic!("helper") }\n'
            '#[cfg(feature = "latest")]\npub fn newest() { panic!("newest") }\n'
            '#[cfg(not(feature = "test"))]\npub fn shipped() { panic!("shipped") }\n'
        ),
    }
    assert messages(files) == {"src/real.rs": ["newest", "shipped"]}


@pytest.mark.parametrize(
    ("gate", "test"),
    [
        ("cfg(test)", True),
        ("cfg(all(test, not(madsim)))", True),  # only tests compile it, whatever madsim is
        ('cfg(any(test, feature = "test-utils"))', True),  # test support either way
        ('cfg(any(test, feature = "fuzzing"))', True),
        ("cfg(not(test))", False),
        # risingwave: debug builds that are neither tests nor simulations compile it
        ('cfg(all(debug_assertions, not(any(madsim, test, feature = "test"))))', False),
        ('cfg(not(any(test, feature = "test")))', False),
        ("cfg(any(test, debug_assertions))", False),  # any debug build
        ("cfg(any(test, madsim))", False),  # a build with `--cfg madsim`
        ('cfg(any(test, feature = "cli"))', False),
        ("cfg(madsim)", False),
        ("cfg(test, oops", False),  # does not parse: product code, as anything unknown
    ],
)
def test_a_cfg_gate_is_test_code_only_when_no_build_but_a_test_compiles_it(
    gate: str, test: bool
) -> None:
    source = f'#[{gate}]\npub fn gated() {{ panic!("gated") }}\n' + PRODUCT
    found = messages({"src/gate.rs": source})["src/gate.rs"]
    assert ("gated" not in found) is test
