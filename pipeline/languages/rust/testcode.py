"""Test code produces no records: by directory, and by `#[cfg(test)]` / `#[test]` attributes.

Never by a file name: `cargo_test.rs` or `commands/test.rs` may be product code, and a
test module file is known as one from its parent's `#[cfg(test)] mod x;` (see
`test_module_paths`).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable
from importlib import resources

from tree_sitter import Node

# `#[cfg(test)] mod x;`, its attributes in any order (`pub(..)` allowed before `mod`): `x` is
# test code, found at its `#[path = ".."]` when it has one (zellij's 30 `#[path =
# "./unit/grid_tests.rs"] #[cfg(test)] mod grid_tests;` made 84 records of test code).
_ATTRIBUTED_MOD = re.compile(
    rb"((?:#\[[^\]\n]*\]\s*)+)(?:pub(?:\s*\([^)\n]*\))?\s+)?mod\s+(?:r#)?(\w+)\s*;"
)
_MOD_DECLARATION = re.compile(rb"mod\s+(?:r#)?\w+\s*;")
_CFG_ATTRIBUTE = re.compile(rb"#\[\s*cfg\s*\(([^\]\n]*)\)\s*\]")
PATH_ATTRIBUTE = re.compile(rb'#\[\s*path\s*=\s*"([^"\n]+)"\s*\]')
# `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[cfg(test)]`, `#[cfg(all(test, feature = ".."))]`
_TEST_ATTRIBUTE = re.compile(r"^(?:\w+::)*(?:test|rstest|test_case|quickcheck|proptest)\b")
# A feature whose name says it builds test support (rustup's `feature = "test"`, `fuzzing`)
_TEST_FEATURE = re.compile(
    r"test|tests|testing|test[-_]utils?|test[-_]support|test[-_]helpers|fuzz|fuzzing"
)
_CFG_START = re.compile(r"^cfg\s*\(")
_CFG_TOKEN = re.compile(r'\s*(?:([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\]|\\.)*")|(.))', re.S)
# Where an attribute cannot stand before a node: its siblings there are no attributes.
_NO_ATTRIBUTES = {"token_tree", "arguments"}


@functools.cache
def _dir_patterns() -> tuple[tuple[str, ...], ...]:
    text = resources.files("pipeline").joinpath("data/test_dirs.txt").read_text("utf-8")
    lines = (line.strip() for line in text.splitlines())
    return tuple(tuple(line.split("/")) for line in lines if line and not line.startswith("#"))


@functools.cache
def _test_dirs() -> re.Pattern[str]:
    """`_dir_patterns` as one expression over a path's directories, each run of segments
    `fnmatchcase`'s way (`*`, `?`, `[..]` within one segment): one search instead of
    ~20 `fnmatch` calls per directory (150 us a path, both in the scan and the index)."""
    runs = ("/".join(_segment(s) for s in pattern) for pattern in _dir_patterns())
    return re.compile("(?:^|/)(?:" + "|".join(runs) + ")/")


def _segment(pattern: str) -> str:
    """One `fnmatchcase` segment as an expression that stays inside the segment."""
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        close = pattern.find("]", i + 2) if char == "[" else -1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif close > 0:  # a class, `[!..]` negated as fnmatch does
            inside = pattern[i + 1 : close]
            inside = "^" + inside[1:] if inside.startswith("!") else inside
            out.append("(?!/)[" + inside.replace("\\", "\\\\") + "]")
            i = close
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def is_test_path(path: str) -> bool:
    """A file under a test, bench or fixture directory (`pipeline/data/test_dirs.txt`), or
    the module such a directory would be written as one file (`_test_support_file`)."""
    slash = path.rfind("/") + 1
    if _test_dirs().search(path, 0, slash) is not None:
        return True
    return _test_support_file().fullmatch(path, slash) is not None


@functools.cache
def _test_support_file() -> re.Pattern[str]:
    """A file named as a one-segment pattern of test support (`*test_utils`, `*test-support`:
    the patterns that say `test_` or `test-`) is that directory's module in one file:
    risingwave's `src/frontend/src/test_utils.rs` is `test_utils/mod.rs` by its other name
    (its `LocalFrontend` began 113 caller paths). Not `test`, `tests` or `testing` alone:
    cargo's `commands/test.rs` is the `cargo test` command."""
    stems = [
        _segment(pattern[0])
        for pattern in _dir_patterns()
        if len(pattern) == 1 and ("test_" in pattern[0] or "test-" in pattern[0])
    ]
    return re.compile("(?:" + "|".join(stems or ["(?!)"]) + r")\.rs")


def declared_test_modules(source: bytes) -> tuple[str, ...]:
    """The modules a file declares as `#[cfg(test)] mod x;` (their files are test code)."""
    # Most files declare no `mod x;`: a search for its literal `mod` first, as `re` tries
    # `_ATTRIBUTED_MOD` at every position (risingwave's 2,697 files: 1.0-1.2 s -> 0.14-0.17 s)
    if _MOD_DECLARATION.search(source) is None:
        return ()
    found = []
    for match in _ATTRIBUTED_MOD.finditer(source):
        attributes = match.group(1)
        if any(
            is_test_attribute("cfg(" + cfg.decode("utf-8", errors="replace") + ")")
            for cfg in _CFG_ATTRIBUTE.findall(attributes)
        ):
            path = PATH_ATTRIBUTE.search(attributes)
            found.append(as_module_path(path.group(1)) if path else match.group(2).decode())
    return tuple(found)


def as_module_path(written: bytes) -> str:
    """A `#[path]` as `test_module_paths` tells it from a module name: with a `/` in it."""
    path = written.decode("utf-8", errors="replace")
    return path if "/" in path else f"./{path}"


def test_module_paths(declarations: Iterable[tuple[str, tuple[str, ...]]]) -> tuple[str, ...]:
    """Path prefixes of test module files, from `(declaring file, modules)` pairs.

    `a/lib.rs` (or `mod.rs`, `main.rs`) declaring `x` -> `a/x.rs` and `a/x/`; any other
    `a/foo.rs` -> `a/foo/x.rs` and `a/foo/x/` (their submodules are test code too). A module
    given with its `#[path]` (`./unit/x_tests.rs`: it holds a `/`) is that file, relative to
    the declaring file's directory as rustc reads it, and the directory of its submodules.
    """
    prefixes: list[str] = []
    for path, modules in declarations:
        directory, name = posixpath.split(path)
        stem = name.removesuffix(".rs")
        base = directory if stem in ("lib", "mod", "main") else posixpath.join(directory, stem)
        for module in modules:
            if "/" in module:
                file = posixpath.normpath(posixpath.join(directory, module))
                if file.startswith("../") or file == "..":
                    continue  # outside the repository: no file of ours
                prefixes += [file, f"{file.removesuffix('.rs')}/"]
                continue
            child = posixpath.join(base, module)
            prefixes += [f"{child}.rs", f"{child}/"]
    return tuple(prefixes)


@functools.lru_cache(maxsize=4096)
def is_test_attribute(text: str) -> bool:
    """Whether the inside of `#[...]` marks test-only code.

    A `cfg(..)` is test-only when it is false in every build that is not a test: its
    predicate evaluated with `test` and the test-support features false and every other
    option unknown (three-valued: `all` is false if any part is, `any` only if all are).
    So `all(test, not(madsim))` and `any(test, feature = "test-utils")` are test code;
    `not(any(madsim, test))` (risingwave's `all(debug_assertions, not(any(madsim, test,
    ..)))`) and `any(test, debug_assertions)` are compiled in some product build: product
    code. A predicate that does not parse counts as product code."""
    text = text.strip()
    if _CFG_START.match(text):
        return _cfg_value(text) is False
    return bool(_TEST_ATTRIBUTE.match(text))


def _cfg_value(text: str) -> bool | None:
    """`cfg(P)`'s value in a build that is not a test: False, True, or None (unknown)."""
    tokens = _cfg_tokens(text)
    if tokens is None:
        return None
    try:
        value, at = _predicate(tokens, 2)  # after `cfg` `(`
    except IndexError:
        return None
    return value if tokens[at:] in ([")"], [",", ")"]) else None


def _cfg_tokens(text: str) -> list[str] | None:
    tokens: list[str] = []
    at = 0
    while at < len(text):
        match = _CFG_TOKEN.match(text, at)
        if match is None:  # trailing blanks
            break
        at = match.end()
        token = match.group(0).strip()
        if token:
            tokens.append(token)
    return tokens if len(tokens) >= 3 and tokens[1] == "(" else None


def _predicate(tokens: list[str], at: int) -> tuple[bool | None, int]:
    """The predicate starting at `tokens[at]`: its value and the index after it."""
    name = tokens[at]
    if name in ("all", "any", "not") and tokens[at + 1] == "(":
        values: list[bool | None] = []
        at += 2
        while tokens[at] != ")":
            value, at = _predicate(tokens, at)
            values.append(value)
            if tokens[at] == ",":
                at += 1
        at += 1
        if name == "not":
            return (None if values[0] is None else not values[0]) if len(values) == 1 else None, at
        if name == "all":
            return (False if False in values else True if all(values) else None), at
        return (True if True in values else False if all(v is False for v in values) else None), at
    if not (name[:1].isalpha() or name[:1] == "_"):
        raise IndexError(name)  # not an option: the predicate does not parse
    if tokens[at + 1] == "=":
        option = tokens[at + 2]
        if name == "feature" and _TEST_FEATURE.fullmatch(option.strip('"')):
            return False, at + 3
        return None, at + 3
    return (False if name == "test" else None), at + 1


def is_test_code(node: Node) -> bool:
    """Whether a node sits under a test attribute (an item, statement, block, arm or field)
    or in a `#![cfg(test)]` file."""
    current: Node | None = node
    while current is not None:
        parent = current.parent
        if parent is not None and parent.type not in _NO_ATTRIBUTES and has_test_attribute(current):
            return True
        if current.type == "match_arm" and any(  # an arm's attributes are its own children
            c.type == "attribute_item" and is_test_attribute(_inner(c)) for c in current.children
        ):
            return True
        if current.type == "source_file":
            return file_is_test_only(current)
        current = parent
    return False


def has_test_attribute(item: Node) -> bool:
    """Whether an attribute above the item marks test code (`is_test_attribute`)."""
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item" and is_test_attribute(_inner(sibling)):
            return True
        sibling = sibling.prev_named_sibling
    return False


def file_is_test_only(root: Node) -> bool:
    """`#![cfg(test)]` at the top of a file."""
    for child in root.named_children:
        if child.type == "inner_attribute_item":
            if is_test_attribute(_inner(child)):
                return True
        elif child.type not in ("line_comment", "block_comment"):
            return False
    return False


def _inner(attribute_item: Node) -> str:
    for child in attribute_item.named_children:
        if child.type == "attribute":
            return (child.text or b"").decode("utf-8", errors="replace")
    return ""
