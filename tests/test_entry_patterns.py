"""A repository's own entry points from repos.toml (issue 10: "a repository can add its own
patterns in repos.toml"): parsed strictly, applied to the graph, carried by every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import cli

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypatterns import EntryPattern, PatternError, parse_patterns
from pipeline.scan.entrypoints import build_graph

COMMANDS = {
    "Cargo.toml": '[package]\nname = "shell"\n',
    "crates/cmd/src/lib.rs": "pub mod strings;\npub mod engine;\n",
    "crates/cmd/src/engine.rs": (
        "pub trait Command {\n    fn run(&self, input: &str) -> Result<u8, String>;\n}\n"
    ),
    "crates/cmd/src/strings.rs": (
        "use crate::engine::Command;\n"
        "pub struct StrLength;\n"
        "impl Command for StrLength {\n"
        "    fn run(&self, input: &str) -> Result<u8, String> {\n"
        "        measure(input)\n"
        "    }\n"
        "}\n"
        "fn measure(input: &str) -> Result<u8, String> {\n"
        "    if input.len() > 255 {\n"
        '        return Err(format!("input too long: {}", input.len()));\n'
        "    }\n"
        "    Ok(input.len() as u8)\n"
        "}\n"
    ),
}
NU = [EntryPattern(label="command `{owner}`", trait="Command", fn="run")]
TOML = (
    '[[repo]]\nname = "o/shell"\n'
    'entries = [{ trait = "Command", fn = "run", label = "command `{owner}`" }]\n'
)


def _graph(patterns: list[EntryPattern]) -> CallGraph:
    from pipeline.languages.rust.index import index_file

    indexes = {p: index_file(p, t.encode()) for p, t in COMMANDS.items() if p.endswith(".rs")}
    return build_graph(indexes, 1, patterns)


def test_a_pattern_makes_a_registered_command_the_way_in() -> None:
    plain, patterned = _graph([]), _graph(NU)
    for graph, expected in ((plain, None), (patterned, ("custom", "command `StrLength`"))):
        (measure,) = [i for i, n in enumerate(graph.nodes) if n.label == "measure"]
        paths = caller_paths(graph, measure)
        found = [(p.entry, p.entry_label, [h.name for h in p.hops]) for p in paths]
        if expected is None:  # `run` is only called through `dyn Command`: no entry known
            assert all(entry is None for entry, _, _ in found), found
        else:
            assert found == [(*expected, ["StrLength::run", "measure"])]


@pytest.mark.parametrize(
    "value, message",
    [
        ({"fn": "run"}, "entries[0]: key 'label' is required"),
        ({"label": "x"}, "entries[0]: give at least one of fn, owner, trait, path, attr"),
        ({"fn": "run", "label": "x", "kind": "cli"}, "entries[0]: unknown key 'kind'"),
        ({"fn": "", "label": "x"}, "entries[0]: key 'fn' must be a non-empty string"),
        ({"fn": "run", "label": "{crate}"}, "entries[0]: label placeholder {crate}"),
        ("run", "entries[0]: not a table"),
    ],
)
def test_a_bad_pattern_is_one_error_naming_it(value: object, message: str) -> None:
    with pytest.raises(PatternError) as raised:
        parse_patterns([value], "repos.toml: [[repo]] #1 (o/n)")
    assert str(raised.value).startswith(f"repos.toml: [[repo]] #1 (o/n): {message}")
    with pytest.raises(PatternError, match="must be a list of tables"):
        parse_patterns({"fn": "run"}, "here")


def test_globs_over_names_owners_and_paths() -> None:
    pattern = EntryPattern(label="{fn} of {owner}", fn="handle_*", path="src/handlers/**")
    assert pattern.matches("handle_get", None, None, "src/handlers/api/get.rs")
    assert not pattern.matches("handle_get", None, None, "src/other/get.rs")
    assert not pattern.matches("serve", None, None, "src/handlers/get.rs")
    assert pattern.label_of("handle_get", "Api", None, "src/handlers/get.rs") == "handle_get of Api"
    # a key given must be there: a free fn has no trait to match
    assert not NU[0].matches("run", None, None, "src/main.rs")


SQL = {
    "src/expr/sqrt.rs": (
        '#[function("sqrt(float8) -> float8")]\n'
        "#[inline]\n"
        "pub fn sqrt_f64(input: f64) -> Result<f64, String> {\n"
        "    checked(input)\n"
        "}\n"
        "fn checked(input: f64) -> Result<f64, String> {\n"
        '    if input < 0.0 { return Err("cannot take square root of a negative number".into()); }\n'
        "    Ok(input.sqrt())\n"
        "}\n"
        '#[function(\n    "cbrt(float8) -> float8",\n    type_infer = "panic"\n)]\n'
        "pub fn cbrt_f64(input: f64) -> Result<f64, String> {\n    checked(input)\n}\n"
    )
}


def test_an_attribute_pattern_makes_a_registered_sql_function_the_way_in() -> None:
    from pipeline.languages.rust.index import index_file

    (pattern,) = parse_patterns(
        [{"attr": "function(*", "label": "SQL function `{arg}`"}], "repos.toml"
    )
    indexes = {path: index_file(path, text.encode()) for path, text in SQL.items()}
    sqrt = next(d for d in indexes["src/expr/sqrt.rs"].definitions if d.name == "sqrt_f64")
    assert sqrt.attrs == ('function("sqrt(float8) -> float8")',)  # `inline` says nothing
    graph = build_graph(indexes, 1, [pattern])
    entries = sorted(label for _, label in graph.entries.values())
    assert entries == [
        "SQL function `cbrt(float8) -> float8`",
        "SQL function `sqrt(float8) -> float8`",
    ]
    (checked,) = [i for i, n in enumerate(graph.nodes) if n.label == "checked"]
    found = sorted(
        (p.entry, p.entry_label, [h.name for h in p.hops]) for p in caller_paths(graph, checked)
    )
    assert found == [
        ("custom", "SQL function `cbrt(float8) -> float8`", ["cbrt_f64", "checked"]),
        ("custom", "SQL function `sqrt(float8) -> float8`", ["sqrt_f64", "checked"]),
    ]
    plain = build_graph(indexes, 1, [])
    assert not plain.entries or all(kind != "custom" for kind, _ in plain.entries.values())


def test_an_attribute_glob_reads_the_attribute_as_written_inside_its_brackets() -> None:
    pattern = EntryPattern(label="{attr} / {arg}", attr="system_catalog(view, *")
    attrs = ('system_catalog(view, "rw_catalog.rw_views", "SELECT \\"x\\"")', "derive(Debug)")
    assert pattern.matches("read", None, None, "src/a.rs", attrs)
    assert pattern.label_of("read", None, None, "src/a.rs", attrs) == (
        f"{attrs[0]} / rw_catalog.rw_views"
    )
    assert not pattern.matches("read", None, None, "src/a.rs", ("derive(Debug)",))
    assert not pattern.matches("read", None, None, "src/a.rs")  # no attribute at all
    # with no string in it, {arg} is the attribute
    bare = EntryPattern(label="{arg}", attr="handler")
    assert bare.label_of("f", None, None, "p", ("handler",)) == "handler"


def test_extract_and_regenerate_all_take_the_patterns_and_a_change_republishes(
    tmp_path: Path,
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(COMMANDS)
    repos = tmp_path / "repos.toml"
    repos.write_text(TOML)
    out, cache = tmp_path / "out", tmp_path / "cache"
    base = ("extract", "--repo", "o/shell", "--sha", sha, "--source", repo.path, "--out", out,
            "--cache", cache, "--jobs", "1")  # fmt: skip
    assert cli(*base).exit_code == 0
    root = out / "o" / "shell"
    assert "entries" not in json.loads((root / "manifest.json").read_text())

    def entry_labels() -> set[str]:
        rows = json.loads((root / "reach.json").read_text())["records"].values()
        return {p.get("entry_label") for row in rows for p in row.get("paths", ())}

    assert "command `StrLength`" not in entry_labels()
    # the same commit with patterns is another dataset: published, not "already at"
    done = cli(*base, "--repos", repos)
    assert done.exit_code == 0, done.output
    assert "already at" not in done.output
    assert "command `StrLength`" in entry_labels()
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["entries"] == [{"label": "command `{owner}`", "fn": "run", "trait": "Command"}]
    again = cli(*base, "--repos", repos)
    assert "already at" in again.output  # the same patterns: nothing new to publish
    # the scheduled job reads them from the same table
    repos.write_text(TOML.replace("\n", f'\nsource = "{repo.path}"\n', 1))
    job = cli("regenerate-all", "--repos", repos, "--out", tmp_path / "job", "--cache", cache,
              "--jobs", "1")  # fmt: skip
    assert job.exit_code == 0, job.output
    rows = json.loads((tmp_path / "job" / "o" / "shell" / "reach.json").read_text())["records"]
    assert any(p.get("entry") == "custom" for row in rows.values() for p in row.get("paths", ()))


def test_repos_without_the_repository_is_one_error(tmp_path: Path) -> None:
    repos = tmp_path / "repos.toml"
    repos.write_text('[[repo]]\nname = "o/other"\n')
    done = cli("extract", "--repo", "o/shell", "--sha", "HEAD", "--source", tmp_path,
               "--out", tmp_path / "out", "--repos", repos)  # fmt: skip
    assert done.exit_code == 1
    assert done.output == (
        f'errdoc: error: {repos}: no [[repo]] table has name = "o/shell"; add one or drop --repos\n'
    )
    repos.write_text('[[repo]]\nname = "o/shell"\nentries = [{ fn = "run" }]\n')
    done = cli("extract", "--repo", "o/shell", "--sha", "HEAD", "--source", tmp_path,
               "--out", tmp_path / "out", "--repos", repos)  # fmt: skip
    assert done.output.startswith("errdoc: error: ") and "'label' is required" in done.output
