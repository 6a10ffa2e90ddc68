"""An ast-grep oracle of literal-message error sites and of test code, written apart from
the pipeline's own queries and rules (issue 11, acceptance 2): what it finds, the pipeline
must find; what it calls test code, the pipeline must leave out.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.common import ast_grep, run_ok

_CHECKS = "assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne"
_MACROS = f"bail|anyhow|ensure|format_err|eyre|panic|unreachable|todo|unimplemented|{_CHECKS}"
# The pipeline's decision, written again: a feature named for test support (`testing`,
# `test-utils`, `fuzzing`) builds test code; here only the plain `cfg(feature = "..")`.
_TEST_FEATURE = (
    r'cfg\s*\(\s*feature\s*=\s*"(tests?|testing|test[-_]utils?|test[-_]support|test[-_]helpers'
    r'|fuzz|fuzzing)"\s*\)'
)
_TEST_ATTR = (
    r"^#\[\s*(cfg\s*\(.*\btest\b|(\w+::)*test\s*(\]|\()|rstest|test_case|quickcheck|proptest|"
    + _TEST_FEATURE
    + ")"
)
# A `cfg` with `test` in it that some build other than a test compiles: `test` under a
# `not(..)`, or an `any(..)` with a bare option other than `test` (ast-grep's regexes have
# no look-around: "not `test`" is spelt out). Not modelled: `any(test, feature = "x")` with
# a feature that does not build test support (none in the repositories benched).
_OTHER_THAN_TEST = r"(?:[A-Za-su-z_]\w*|t(?:[^e\W]\w*|e(?:[^s\W]\w*|s(?:[^t\W]\w*|t\w+)?)?)?)"
_PRODUCT_CFG = (
    r"not\s*\([^)]*\btest\b",  # up to the first `)`: `not(any(madsim, test))`
    rf"any\s*\((?:[^()]*,)?\s*{_OTHER_THAN_TEST}\s*[,)]",
)
_NOT_PRODUCT = "{any: [" + ", ".join(f"{{regex: '{r}'}}" for r in _PRODUCT_CFG) + "]}"
RULES = f"""
id: macro
language: rust
rule:
  kind: macro_invocation
  regex: "^(\\\\w+::)*({_MACROS})\\\\s*!"
---
id: error_attr
language: rust
rule:
  kind: attribute_item
  regex: '^#\\[\\s*(\\w+::)*error\\s*\\(\\s*r?#*"'
---
id: method
language: rust
rule:
  kind: call_expression
  has:
    field: function
    kind: field_expression
    has:
      field: field
      regex: "^(expect|expect_err|context|with_context|wrap_err|wrap_err_with)$"
---
id: constructor
language: rust
rule:
  kind: call_expression
  any:
    - has:
        field: function
        kind: scoped_identifier
        regex: "(Error|Status|Code)::[A-Za-z_][A-Za-z0-9_]*$"
    - has:
        field: function
        kind: identifier
        regex: "^Err$"
---
id: test_item
language: rust
rule:
  any:
    - kind: mod_item
    - kind: function_item
    - kind: impl_item
    - kind: trait_item
    - kind: struct_item
    - kind: enum_item
    - kind: const_item
    - kind: static_item
    - kind: let_declaration
    - kind: expression_statement
    - kind: macro_invocation
  follows:
    all:
      - kind: attribute_item
      - regex: '{_TEST_ATTR}'
      - not: {_NOT_PRODUCT}
    stopBy:
      not:
        any: [{{kind: attribute_item}}, {{kind: line_comment}}, {{kind: block_comment}}]
---
id: test_arm
language: rust
rule:
  kind: match_arm
  has:
    all:
      - kind: attribute_item
      - regex: '{_TEST_ATTR}'
---
id: test_file
language: rust
rule:
  kind: inner_attribute_item
  regex: '^#!\\[\\s*cfg\\s*\\(.*\\btest\\b'
  not: {_NOT_PRODUCT}
  inside:
    kind: source_file
---
id: generated_mark
language: rust
rule:
  any:
    - kind: line_comment
    - kind: block_comment
  regex: '(?i)@generated\\b|\\bdo not edit\\b|\\bauto(matically)?[-_ ]?generated\\b'
  inside:
    kind: source_file
"""
# A generator's mark in a top-level comment this near the top: the file is generated code.
_GENERATED_HEAD = 60
_STRING = r'(?:r#*)?"'
_MESSAGE_START = re.compile(rf"^\s*(?:{_STRING}|(?:\w+::)*(?:format|concat)\s*!)")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_OPERANDS = {"ensure": 1, "assert": 1, "debug_assert": 1} | {
    name: 2 for name in ("assert_eq", "assert_ne", "debug_assert_eq", "debug_assert_ne")
}


@dataclass(frozen=True)
class OracleSite:
    """A literal-message site the oracle found: where, and of which kind."""

    kind: str
    path: str
    line: int
    text: str


@dataclass
class Oracle:
    """What the oracle found in a tree: sites, test-code line ranges, test-module files."""

    sites: list[OracleSite]
    tests: dict[str, list[tuple[int, int]]]
    test_files: set[str]

    def in_test(self, path: str, line: int) -> bool:
        """Whether `path:line` is test code by the oracle's own rules."""
        parts = path.split("/")[:-1]
        if "tests" in parts or "benches" in parts or path in self.test_files:
            return True
        return any(start <= line <= end for start, end in self.tests.get(path, ()))


def run_oracle(tree: Path, work: Path) -> Oracle:
    """Scan `tree` (a directory of `.rs` files) with the rules above."""
    (work / "oracle.yml").write_text(RULES)
    out = run_ok(
        [ast_grep(), "scan", "-r", str(work / "oracle.yml"), "--json=stream", "."], cwd=tree
    ).stdout
    sites: list[OracleSite] = []
    tests: dict[str, list[tuple[int, int]]] = {}
    test_files: set[str] = set()
    declared: list[tuple[str, str]] = []
    generated: set[str] = set()
    for match in map(json.loads, out.splitlines()):
        path = match["file"].removeprefix("./")
        start = match["range"]["start"]["line"] + 1
        end = match["range"]["end"]["line"] + 1
        rule, text = match["ruleId"], match["text"]
        if rule in ("test_item", "test_arm"):
            tests.setdefault(path, []).append((start, end))
            declaration = re.match(r"^(?:pub(?:\([^)]*\))?\s+)?mod\s+(?:r#)?(\w+)\s*;", text)
            if declaration:
                declared.append((path, declaration.group(1)))
        elif rule == "test_file":
            test_files.add(path)
        elif rule == "generated_mark":
            if start <= _GENERATED_HEAD:
                generated.add(path)
        else:
            site = _site(rule, path, start, text)
            if site is not None:
                sites.append(site)
    for path, module in declared:
        test_files.update(_module_files(tree, path, module))
    return Oracle(_template_once(sites, generated), tests, test_files)


def _template_once(sites: list[OracleSite], generated: set[str]) -> list[OracleSite]:
    """In a generated file, a site written the same way as one above it is the generator's
    template again (the pipeline keeps one record per message there)."""
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for site in sorted(sites, key=lambda s: (s.path, s.line)):
        key = (site.kind, site.path, site.text)
        if site.path in generated and key in seen:
            continue
        seen.add(key)
        kept.append(site)
    return kept


def _site(rule: str, path: str, line: int, text: str) -> OracleSite | None:
    if rule == "macro":
        name = re.match(r"^(?:\w+::)*(\w+)", text)
        assert name is not None
        kind = name.group(1)
        arguments = list(_arguments(text[text.index("!") + 1 :]))
        index = _OPERANDS.get(kind, 0)
        if len(arguments) <= index or not _worded(arguments[index]):
            return None
        return OracleSite(
            "assert" if kind in _OPERANDS and kind != "ensure" else kind, path, line, text
        )
    if rule == "error_attr":
        return (
            OracleSite("error_attr", path, line, text)
            if _worded(text[text.index("(") + 1 :])
            else None
        )
    if rule == "method":
        call = re.search(
            r"\.\s*(expect|expect_err|context|with_context|wrap_err|wrap_err_with)\s*\((?!.*\.\s*(?:expect|expect_err|context|with_context|wrap_err|wrap_err_with)\s*\()",
            text,
            re.S,
        )
        if call is None:
            return None
        argument = text[call.end() :]
        argument = re.sub(r"^\s*(?:move\s*)?\|\|\s*(?:\{\s*)?", "", argument)
        if not _worded(argument):
            return None
        return OracleSite("expect" if call.group(1).startswith("expect") else "context", path,
                          line + text.count("\n", 0, call.start()), text)  # fmt: skip
    argument = text[text.index("(") + 1 :]
    inner = re.match(r"^\s*(?:\w+::)*\w+\s*(?:!\s*)?\(", argument)  # `Err(Error::x("..")`
    if rule == "constructor" and text.startswith("Err") and inner:
        callee = inner.group().rstrip("(! \n")
        if "!" in inner.group() or re.search(r"(Error|Status|Code)::\w+$", callee):
            return None  # an error macro or a constructor: a site of its own, on its own line
        argument = argument[inner.end() :]
    if not _worded(argument) or re.match(r'^\s*"[^"\s]*"\s*,', argument):  # a noun argument
        return None
    return OracleSite("constructor", path, line, text)


def _arguments(body: str) -> Iterator[str]:
    """The top-level, comma-separated arguments of a macro call's text `( .. )`."""
    depth, current, quoted, escape = 0, "", False, False
    for ch in body.strip()[1:-1]:
        if quoted:
            quoted = not (ch == '"' and not escape)
            escape = ch == "\\" and not escape
        elif ch == '"':
            quoted = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            yield current
            current = ""
            continue
        current += ch
    if current.strip():
        yield current


def _worded(argument: str) -> bool:
    """A message that starts with a literal (or format!/concat!) holding a letter."""
    if not _MESSAGE_START.match(argument):
        return False
    literal = re.search(r'"((?:\\.|[^"\\])*)"', argument)
    if literal is None:
        return False
    text = re.sub(r"\\.", "", literal.group(1))  # `\n` is no letter
    return bool(re.search(r"[A-Za-z]", _PLACEHOLDER.sub("", text)))


def _module_files(tree: Path, parent: str, module: str) -> Iterator[str]:
    directory, name = posixpath.split(parent)
    stem = name.removesuffix(".rs")
    base = posixpath.join(
        directory if stem in ("lib", "main", "mod") else posixpath.join(directory, stem), module
    )
    for candidate in (tree / f"{base}.rs", *(tree / base).rglob("*.rs")):
        if candidate.is_file():
            yield str(candidate.relative_to(tree))
