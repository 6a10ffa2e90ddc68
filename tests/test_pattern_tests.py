"""A `match` arm's pattern becomes a test that binds no name: the check a reader pastes
compiles where the arm's own `ref mut map` or by-value `Some(key)` would not."""

from __future__ import annotations

import pytest
from site_fixtures import explained_all

from pipeline.languages.rust.bindings import without_bindings
from pipeline.languages.rust.codecheck import parses_as_code


@pytest.mark.parametrize(
    ("pattern", "test"),
    [
        ("TokenMap::HashMap(ref mut map)", "TokenMap::HashMap(_)"),
        ("PS::Partial(read, to_read)", "PS::Partial(_, _)"),
        ("(Some(has_values), Some(is_null))", "(Some(_), Some(_))"),
        ("Value::String { val, .. }", "Value::String { .. }"),
        ("Status::Pending { locks, ref mut quota, .. }", "Status::Pending { .. }"),
        ("Value::Pair { left, right }", "Value::Pair { .. }"),
        ("Value::Pair { left, right: 0 }", "Value::Pair { left: _, right: 0 }"),
        ("Foo { a: ref x, b: Some(y), .. }", "Foo { a: _, b: Some(_), .. }"),
        ("n @ 1..=3", "1..=3"),
        ("&name", "&_"),
        ("[first, ..]", "[_, ..]"),
    ],
)
def test_each_name_a_pattern_binds_is_written_underscore(pattern: str, test: str) -> None:
    assert without_bindings(pattern) == test


@pytest.mark.parametrize(
    "pattern",
    [
        "Kind::A | Kind::B",  # paths
        "None",  # a unit variant
        "Some(MAX_LEN)",  # a constant: rustc tells it apart by its case, as here
        "Some(CreateFunctionUsing::Link(_))",
        '"ws" | "wss"',
        "b'a'..=b'z'",
        "Some(n) if n > 200",  # the guard reads the name: it stays
        "Expr::Binary(b) if b.op == Op::Eq",
        "Some(v",  # does not parse: kept as written
    ],
)
def test_a_pattern_that_binds_nothing_or_whose_guard_reads_the_name_is_kept(pattern: str) -> None:
    assert without_bindings(pattern) == pattern


def test_a_guard_keeps_only_the_names_it_reads() -> None:
    assert without_bindings("(Some(n), Some(other)) if n > 2") == "(Some(n), Some(_)) if n > 2"


def test_the_check_of_a_panicking_catch_all_arm_binds_nothing_and_compiles() -> None:
    # lance's `TokenSet::add`: the arm taken on the good state binds `ref mut map`
    found = explained_all(
        "pub enum TokenMap { HashMap(Vec<u32>), Fst(u8) }\n"
        "pub struct TokenSet { pub tokens: TokenMap }\n"
        "impl TokenSet {\n"
        "    pub fn add(&mut self, token: u32) {\n"
        "        match self.tokens {\n"
        "            TokenMap::HashMap(ref mut map) => map.push(token),\n"
        '            _ => panic!("tokens must be HashMap while indexing"),\n'
        "        }\n"
        "    }\n"
        "}\n"
    )
    code = found["tokens must be HashMap while indexing"].validationCode
    assert code is not None and "ref mut" not in code and "map" not in code.split(",", 1)[1]
    assert code.endswith("TokenMap::HashMap(_));")
    assert parses_as_code(code)


def test_an_option_arm_reads_as_is_some_or_is_none() -> None:
    found = explained_all(
        "pub fn get(key: Option<String>) -> anyhow::Result<String> {\n"
        "    match key {\n"
        "        Some(key) => Ok(key),\n"
        '        None => anyhow::bail!("no key given"),\n'
        "    }\n"
        "}\n"
    )
    assert found["no key given"].validationCode == "let ok = key.is_some();"


def test_a_borrowed_option_is_tested_by_its_method_without_the_borrow() -> None:
    found = explained_all(
        "pub struct Delta { pub kind: Option<u8> }\n"
        "pub fn kind(d: &Delta) -> anyhow::Result<u8> {\n"
        "    match &d.kind {\n"
        "        Some(k) => Ok(*k),\n"
        '        None => anyhow::bail!("delta has no kind"),\n'
        "    }\n"
        "}\n"
    )
    assert found["delta has no kind"].validationCode == "let ok = d.kind.is_some();"


def test_a_tuple_of_places_is_borrowed_so_that_two_tests_of_it_compile() -> None:
    # qdrant's `(shard_id_selector, shard_key_selector)`: built twice of a `Vec`-holding
    # `Option`, the second test used a moved value (E0382, reading 240)
    found = explained_all(
        "pub fn select(ids: Option<Vec<u32>>, key: Option<String>) -> anyhow::Result<u8> {\n"
        "    match (ids, key) {\n"
        "        (Some(_), None) => Ok(1),\n"
        "        (None, Some(_)) => Ok(2),\n"
        '        _ => anyhow::bail!("give shard ids or a shard key, one of them"),\n'
        "    }\n"
        "}\n"
    )["give shard ids or a shard key, one of them"]
    assert found.validationCode == (
        "let ok = matches!((&ids, &key), (Some(_), None) | (None, Some(_)));"
    )


def test_a_tuple_tested_against_string_literals_is_not_borrowed() -> None:
    # `"a"` matches a `&str`, not a `&&str`: the tuple stays as written
    found = explained_all(
        "pub fn pick(a: &str, b: &str) -> anyhow::Result<u8> {\n"
        "    match (a, b) {\n"
        '        ("x", "y") => Ok(1),\n'
        '        _ => anyhow::bail!("only the pair x and y is known here"),\n'
        "    }\n"
        "}\n"
    )["only the pair x and y is known here"]
    assert found.validationCode == 'let ok = matches!((a, b), ("x", "y"));'


def test_an_unsafe_fn_is_called_in_an_unsafe_block() -> None:
    # qdrant's `score_4bit_internal_sse`, called bare in the exampleFix: E0133 (reading 240)
    found = explained_all(
        "pub unsafe fn score(a: &[u8], b: &[u8]) -> anyhow::Result<u8> {\n"
        "    if a.len() != b.len() {\n"
        '        anyhow::bail!("vectors of two lengths cannot be scored");\n'
        "    }\n"
        "    Ok(0)\n"
        "}\n"
    )["vectors of two lengths cannot be scored"]
    assert "    unsafe { score(a, b) }?;" in found.exampleFix
    assert found.tryCatchPattern is not None
    assert found.tryCatchPattern.startswith("match unsafe { score(a, b) } {")


def test_a_tuple_tested_against_constants_is_not_borrowed() -> None:
    # tikv's `(DbType::Kv, CF_DEFAULT)`: a `&str` const matches the `&str`, not a `&&str`
    found = explained_all(
        'pub const CF_DEFAULT: &str = "default";\n'
        "pub enum Db { Kv, Raft }\n"
        "pub fn cf(db: Db, cf: &str) -> anyhow::Result<u8> {\n"
        "    match (db, cf) {\n"
        "        (Db::Kv, CF_DEFAULT) => Ok(1),\n"
        '        _ => anyhow::bail!("no such column family in this db"),\n'
        "    }\n"
        "}\n"
    )["no such column family in this db"]
    assert found.validationCode == "let ok = matches!((db, cf), (Db::Kv, CF_DEFAULT));"


def test_a_debug_assertion_panics_only_where_debug_assertions_are_on() -> None:
    # qdrant's `debug_assert!` read "and panics otherwise" of a release build that goes on
    found = explained_all(
        "pub fn pick(ids: u8, key: u8) -> u8 {\n"
        '    debug_assert!(ids == 0 || key == 0, "ids and a key are mutually exclusive");\n'
        "    ids + key\n"
        "}\n"
    )["ids and a key are mutually exclusive"]
    said = " ".join(found.solutions) + found.exampleFix
    assert "where debug assertions are on; a release build goes on" in said
    assert "panics otherwise:" not in said
