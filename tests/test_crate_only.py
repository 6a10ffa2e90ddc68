"""An error of a fn that only code in its own crate can call is advice for that code: a
reader outside cannot write `match validate_profile_override(..)`, nor pass it values
(cargo's private `validate_profile_override`, ruff's `pub(crate)` fix builders: readings
160-163). The advice says for whom it is, and points outside readers at the way in."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import committed_and_extracted, graph_of

from pipeline.analyze.static import explain_apart, with_reach
from pipeline.core.model import Explanation
from pipeline.core.reach import Reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import reaches_of, spec_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.context import SiteContext
from pipeline.scan.pool import RepoScan


def explained(tmp_path: Path, text: str, *, bin_only: bool = False) -> Explanation:
    """The explanation of `text`'s one site, with its reach, in a package of that one file
    (a library's `src/lib.rs`, or a program's `src/main.rs`)."""
    path = "src/main.rs" if bin_only else "src/lib.rs"
    files = {"Cargo.toml": '[package]\nname = "tool"\n', path: text}
    graph = graph_of(tmp_path, files)
    scan = find_sites(path, text.encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={path: scan}))
    reach = reaches_of([spec_of(context)], graph)[context.record_id]
    return with_reach(explain_apart(context), reach, "ab" * 20, context.site, context.error_class)


def site_reach(tmp_path: Path, files: dict[str, str], path: str) -> tuple[SiteContext, Reach]:
    """The one site of `files[path]` and its reach, in a crate of `files`."""
    graph = graph_of(tmp_path, files)
    scan = find_sites(path, files[path].encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={path: scan}))
    return context, reaches_of([spec_of(context)], graph)[context.record_id]


def checked(visibility: str) -> str:
    return (
        "pub fn run(name: &str) -> anyhow::Result<()> {\n"
        "    check_name(name)?;\n"
        "    Ok(())\n"
        "}\n"
        f"{visibility}fn check_name(name: &str) -> anyhow::Result<()> {{\n"
        "    if name.len() > 64 {\n"
        '        anyhow::bail!("the name is longer than 64 characters: {}", name);\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("visibility", "where"),
    [
        ("", "its own module"),  # quickwit's private fns read "its own crate" (reading 172)
        ("pub(crate) ", "its own crate"),
        ("pub(super) ", "its parent module"),
        ("pub(in crate::store) ", "module `crate::store`"),
    ],
)
def test_a_match_on_a_crate_only_fn_says_whose_it_is_and_names_the_public_way_in(
    tmp_path: Path, visibility: str, where: str
) -> None:
    found = explained(tmp_path, checked(visibility))

    assert found.tryCatchPattern is not None
    head = found.tryCatchPattern.splitlines()[:3]
    assert head[0] == (
        f"// Only code in {where} can call `check_name`; code there could handle it so."
    )
    assert head[1] == (
        "// From outside the crate, the caller paths reach it through public API `run`."
    )
    assert head[2].startswith("match check_name(name) {")


def test_its_check_s_values_are_followed_up_to_where_the_callers_set_them(
    tmp_path: Path,
) -> None:
    found = explained(tmp_path, checked(""))

    assert (
        "The check depends on what is passed to `check_name` (`name`), which only code in "
        "its own module calls: its callers set that value, from the program's state or from "
        "what a user gave it; follow it up to where it is set and correct it there."
    ) in found.solutions
    assert not any("the values its caller passes decide it" in s for s in found.solutions)


def test_a_public_fn_of_a_library_keeps_the_caller_s_advice(tmp_path: Path) -> None:
    found = explained(tmp_path, checked("pub "))

    assert found.tryCatchPattern is not None
    assert found.tryCatchPattern.startswith("match check_name(name) {")
    assert (
        "The check depends on what is passed to `check_name` (`name`): the values its caller "
        "passes decide it, and where they come from (an input, a setting, or the program's own "
        "state) is what to change."
    ) in found.solutions


def test_a_program_s_fn_gets_no_match_for_code_only_the_program_could_write(
    tmp_path: Path,
) -> None:
    """A `match` on a program's own fn is code only its authors could write, and its user
    runs the program: cargo's `exec` of `cargo package`, risingwave's SQL Server sink's
    `check_data_type_compatibility` (readings 319, 320: M). The solutions stay."""
    text = checked("pub ").replace("pub fn run", 'fn main() { run("x").unwrap(); }\nfn run')

    found = explained(tmp_path, text, bin_only=True)

    assert found.tryCatchPattern is None
    assert any("check_name" in s for s in found.solutions)


def test_a_trait_s_method_is_called_wherever_its_type_is_seen(tmp_path: Path) -> None:
    text = (
        "pub struct Mode;\n"
        "impl std::str::FromStr for Mode {\n"
        "    type Err = anyhow::Error;\n"
        "    fn from_str(text: &str) -> anyhow::Result<Mode> {\n"
        '        if text != "fast" {\n'
        '            anyhow::bail!("unknown mode: {}", text);\n'
        "        }\n"
        "        Ok(Mode)\n"
        "    }\n"
        "}\n"
    )

    found = explained(tmp_path, text)

    assert not (found.tryCatchPattern or "").startswith("// Only code in its own crate")


def test_a_panic_that_refuses_a_crate_only_fn_s_values_is_the_crate_s_to_report(
    tmp_path: Path,
) -> None:
    text = (
        "pub fn run(n: usize) -> usize {\n"
        "    pick(n)\n"
        "}\n"
        "fn pick(n: usize) -> usize {\n"
        "    if n >= 10 {\n"
        '        panic!("n is out of range: {}", n);\n'
        "    }\n"
        "    n\n"
        "}\n"
    )

    found = explained(tmp_path, text)

    said = [s for s in found.solutions if s.startswith("The check reads `n`")]
    assert said == [
        "The check reads `n`, which the caller of `pick` passes. Only code in its own module "
        "calls it, so the repository's own code passed them: report that upstream with the "
        "full message and the version you run."
    ]


def test_a_crate_only_fn_no_caller_was_found_for_names_no_way_in(tmp_path: Path) -> None:
    text = checked("").replace("    check_name(name)?;\n", "")

    found = explained(tmp_path, text)

    assert found.tryCatchPattern is not None
    assert found.tryCatchPattern.splitlines()[1].startswith("match check_name(name) {")


def internal_of(tmp_path: Path, declared: str, visibility: str = "pub ") -> str | None:
    """The `Reach.internal` of a `check_name` in `config::serialize`, declared so in
    `config`."""
    body = checked("pub ").split("pub fn check_name", 1)[1]
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": "pub mod config;\n",
        "src/config/mod.rs": (
            f"{declared} serialize;\n"
            "pub fn run(name: &str) -> anyhow::Result<()> {\n"
            "    serialize::check_name(name)\n"
            "}\n"
        ),
        "src/config/serialize.rs": f"{visibility}fn check_name" + body,
    }
    graph = graph_of(tmp_path, files)
    text = files["src/config/serialize.rs"]
    scan = find_sites("src/config/serialize.rs", text.encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/config/serialize.rs": scan}))
    return reaches_of([spec_of(context)], graph)[context.record_id].internal


def test_a_pub_crate_module_hides_nothing_within_its_crate(tmp_path: Path) -> None:
    # vector's `pub(crate) mod config;` in `sinks::kafka`: its `pub(crate) fn to_rdkafka` read
    # "Only code in module `sinks::kafka` can call" (reading 211)
    assert internal_of(tmp_path, "pub(crate) mod", "pub(crate) ") == "crate"
    assert internal_of(tmp_path / "b", "pub(crate) mod", "pub ") == "crate"
    assert internal_of(tmp_path / "c", "mod", "pub(crate) ") == "module `config`"


def test_a_pub_fn_in_a_private_module_is_callable_in_that_module_s_parent(
    tmp_path: Path,
) -> None:
    # quickwit's `pub fn build_and_validate` in the private `node_config::serialize` read
    # "its own crate" (reading 172)
    body = checked("pub ").split("pub fn check_name", 1)[1]
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": "pub mod config;\n",
        "src/config/mod.rs": (
            "mod serialize;\n"
            "pub fn run(name: &str) -> anyhow::Result<()> {\n"
            "    serialize::check_name(name)\n"
            "}\n"
        ),
        "src/config/serialize.rs": "pub fn check_name" + body,
    }
    context, reach = site_reach(tmp_path, files, "src/config/serialize.rs")

    assert reach.internal == "module `config`"
    found = with_reach(explain_apart(context), reach, "ab" * 20, context.site)
    assert found.tryCatchPattern is not None
    assert found.tryCatchPattern.startswith(
        "// Only code in module `config` can call `check_name`; code there could handle it so."
    )


def test_a_fn_declared_in_another_fn_s_body_is_for_that_body(tmp_path: Path) -> None:
    """cargo's `fn parse_option_bool` inside `CliUnstable::add` read "Only code in its own
    module can call `CliUnstable::parse_option_bool`": only code in `add`'s body can name it
    (reading 183)."""
    files = {
        "Cargo.toml": '[package]\nname = "flags"\n',
        "src/lib.rs": (
            "pub struct CliUnstable;\n"
            "impl CliUnstable {\n"
            "    pub fn add(&mut self, k: &str, v: Option<&str>) -> anyhow::Result<()> {\n"
            "        fn parse_option_bool(key: &str, value: Option<&str>) -> anyhow::Result<bool> {\n"
            "            match value {\n"
            '                None | Some("yes") => Ok(true),\n'
            '                Some("no") => Ok(false),\n'
            '                Some(s) => anyhow::bail!("flag -Z{key} expected `no` or `yes`, found: `{s}`"),\n'
            "            }\n"
            "        }\n"
            "        parse_option_bool(k, v)?;\n"
            "        Ok(())\n"
            "    }\n"
            "}\n"
        ),
    }
    _, record = committed_and_extracted(files, "o/flags", tmp_path, "flag -Z{key}")
    assert (record["tryCatchPattern"] or "").startswith(
        "// Only code in the body of fn `CliUnstable::add` can call `parse_option_bool`; code "
        "there could handle it so."
    )


def test_a_pub_error_type_of_a_private_module_is_named_only_in_its_crate(
    tmp_path: Path,
) -> None:
    """uv's `pub enum ValidationError` lives in the private module `metadata`, which no
    public module re-exports: its `Err(ValidationError::InvalidScriptName { .. })` compiles
    only inside the crate (reading 180). A `pub use` of it makes it anyone's."""
    metadata = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum ValidationError {\n"
        '    #[error("invalid script name `{0}`")]\n'
        "    InvalidScriptName(String),\n"
        "}\n"
        "pub(crate) fn check(name: &str) -> Result<(), ValidationError> {\n"
        "    if name.is_empty() {\n"
        "        return Err(ValidationError::InvalidScriptName(name.to_string()));\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    lib = (
        "mod metadata;\npub fn build(name: &str) -> bool {\n    metadata::check(name).is_ok()\n}\n"
    )
    files = {"Cargo.toml": '[package]\nname = "backend"\n', "src/lib.rs": lib}
    files["src/metadata.rs"] = metadata
    _, hidden = committed_and_extracted(files, "o/b", tmp_path / "a", "invalid script name")
    assert (hidden["tryCatchPattern"] or "").startswith(
        "// Only code in its own crate can name `ValidationError`; code there could handle it so.\n"
    )
    files["src/lib.rs"] = "pub use metadata::ValidationError;\n" + lib
    _, shown = committed_and_extracted(files, "o/b", tmp_path / "b", "invalid script name")
    assert not (shown["tryCatchPattern"] or "").startswith("//")


def test_its_prevention_tip_is_for_where_the_callers_set_the_values(tmp_path: Path) -> None:
    # risingwave's private `add_impl`, given the literals `true` and `false`: "check values
    # against what the call accepts .. before passing them" beside advice that said its
    # callers set them (reading 202)
    found = explained(tmp_path, checked("").replace("the name is longer", "invalid name: longer"))

    assert found.backgroundTag == "invalid-argument"
    assert found.preventionTips[-1] == (
        'If it is a case of "Invalid argument", as its words suggest: only code in its own '
        "module calls `check_name`, so the values it checks come from its callers: check them "
        "where the program sets them, or where it reads them from its input."
    )
    assert not any("before passing them" in t for t in found.preventionTips)


def test_a_check_of_what_the_fn_reads_itself_gets_no_tip_about_its_callers(
    tmp_path: Path,
) -> None:
    """starship's build script: `gen_presets_hook` (called by a dependency, no caller the
    index found) checks the names of the files it lists itself, and read "Only code in its
    own module calls `gen_presets_hook`, so the values it checks come from its callers"
    (reading 314, F). No parameter and no field of `self` is checked: no such tip."""
    text = (
        "pub fn run() {\n    list(1);\n}\n"
        "fn list(n: u32) {\n"
        '    for entry in std::fs::read_dir("docs").unwrap() {\n'
        '        let name = entry.unwrap().path().to_str().expect("invalid name: not UTF-8");\n'
        "    }\n}\n"
    )

    found = explained(tmp_path / "a", text)

    assert not any("come from its callers" in t for t in found.preventionTips)
    assert not any("before passing them" in t for t in found.preventionTips)
    # a check of what the fn made of a parameter keeps it (risingwave's `parse_message_id`:
    # `let splits = id.split(':')`, then `splits.len() < 2`)
    derived = (
        'pub fn run() -> anyhow::Result<u8> {\n    parse("a:b")\n}\n'
        "fn parse(id: &str) -> anyhow::Result<u8> {\n"
        "    let splits: Vec<&str> = id.split(':').collect();\n"
        "    if splits.len() < 2 {\n"
        '        anyhow::bail!("illegal message id string {}", id);\n'
        "    }\n"
        "    Ok(1)\n"
        "}\n"
    )
    kept = explained(tmp_path / "b", derived)
    assert any("come from its callers" in t for t in kept.preventionTips)


def test_a_public_fn_keeps_the_class_s_prevention_tip(tmp_path: Path) -> None:
    text = checked("pub ").replace("the name is longer", "invalid name: longer")

    found = explained(tmp_path, text)

    assert found.preventionTips[-1].endswith(
        "check values against what the call accepts (the allowed set, length and form) before "
        "passing them."
    )


def test_a_refused_value_s_tip_of_a_crate_only_fn_is_for_its_callers(tmp_path: Path) -> None:
    text = (
        "pub fn run(n: u32) {\n    put(n);\n}\n"
        'fn put(n: u32) {\n    assert!(n < 10, "too many parts: {}", n);\n}\n'
    )

    found = explained(tmp_path, text)

    assert found.backgroundTag == "invalid-argument"
    assert (
        "Only code in its own module calls `put`, so the values it checks come from its "
        "callers: check them where the program sets them, or where it reads them from its input."
    ) in found.preventionTips


def test_a_fn_a_private_module_hides_is_named_where_a_crate_wide_use_re_exports_it(
    tmp_path: Path,
) -> None:
    """uv's `pub(crate) fn login` of the private `commands::auth::login` is re-exported by
    `commands/mod.rs` (`pub(crate) use auth::login::login as auth_login;`) and called from
    the crate's root: it read "only code in module `commands` calls" (reading 272, 5 F). A
    `pub use` or `pub(crate) use` that the rest of the crate sees names it crate-wide; one in
    a module that is itself hidden names it no further than that module's parent."""
    body = checked("pub(crate) ").split("pub(crate) fn check_name", 1)[1]
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": "mod commands;\npub fn main_entry(n: &str) { commands::auth_check(n); }\n",
        "src/commands/mod.rs": (
            "mod auth;\npub(crate) use auth::check::check_name as auth_check;\n"
        ),
        "src/commands/auth/mod.rs": "pub(crate) mod check;\n",
        "src/commands/auth/check.rs": "pub(crate) fn check_name" + body,
    }
    _, reach = site_reach(tmp_path, files, "src/commands/auth/check.rs")
    assert reach.internal == "crate"


def test_a_text_of_a_crate_only_type_is_matched_only_in_its_crate(tmp_path: Path) -> None:
    """just's `pub(crate) struct CompileError` holds a `CompileErrorKind`, whose texts its
    `Display` writes: their handling, a match on the text, came with no word that no other
    crate gets such a value (reading 281: 17 of 20 records). A `pub` one is as it was."""
    errors = (
        "pub(crate) enum CompileErrorKind {\n    Unstarred,\n}\n"
        "pub(crate) struct CompileError {\n    pub(crate) kind: CompileErrorKind,\n}\n"
        "impl std::fmt::Display for CompileError {\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {\n"
        "        match self.kind {\n"
        "            CompileErrorKind::Unstarred => {\n"
        '                write!(f, "mapped dependencies must have starred argument")\n'
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n"
        "pub(crate) fn accept(x: u32) -> Result<(), CompileError> {\n"
        "    if x > 1 {\n"
        "        return Err(CompileError { kind: CompileErrorKind::Unstarred });\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    lib = "mod errors;\npub fn run(x: u32) -> i32 {\n    errors::accept(x).map_or(1, |_| 0)\n}\n"
    files = {"Cargo.toml": '[package]\nname = "just"\n', "src/lib.rs": lib}
    files["src/errors.rs"] = errors
    needle = "mapped dependencies must have starred argument"
    _, hidden = committed_and_extracted(files, "o/j", tmp_path / "a", needle)
    assert (hidden["tryCatchPattern"] or "").startswith(
        "// It comes as a `CompileError`, a type only code in its own crate can name; code "
        "there could handle it so.\nmatch result {\n"
    )
    files["src/errors.rs"] = errors.replace("pub(crate) struct", "pub struct").replace(
        "pub(crate) enum", "pub enum"
    )
    files["src/lib.rs"] = "pub mod errors;\n" + lib.removeprefix("mod errors;\n")
    _, shown = committed_and_extracted(files, "o/j", tmp_path / "b", needle)
    assert not (shown["tryCatchPattern"] or "").startswith("//")


def test_a_method_is_named_where_its_type_is_re_exported(tmp_path: Path) -> None:
    """rustup's `pub fn recursion_error` of `DistributableToolchain`, in the private module
    `toolchain::distributable`, whose type `toolchain` re-exports `pub(crate)`: it read "only
    code in module `toolchain` can call", while the CLI calls the type's methods (reading
    280: F). A fn of that module nothing re-exports is still the module's."""
    files = {
        "Cargo.toml": '[package]\nname = "rustup"\n',
        "src/lib.rs": "mod toolchain;\n",
        "src/toolchain.rs": "mod distributable;\npub(crate) use distributable::Dist;\n",
        "src/toolchain/distributable.rs": (
            "pub struct Dist;\n"
            "impl Dist {\n    pub fn recursion_error(&self) -> u8 {\n        1\n    }\n}\n"
            "pub fn helper() -> u8 {\n    2\n}\n"
        ),
    }
    graph = graph_of(tmp_path, files)
    labels = {graph.nodes[n].label: within for n, within in graph.seen_within.items()}
    assert labels.get("Dist::recursion_error", "") == ""  # the crate's root: the whole crate
    assert labels["helper"] == "toolchain"


def test_a_variant_every_builder_hands_to_a_collecting_method_is_no_error_returned(
    tmp_path: Path,
) -> None:
    """nushell's parser hands its errors to `working_set.error(ParseError::..)`, which keeps
    them and gives nothing back: no fn returns them, yet their handling read `match result {
    Err(ParseError::NameIsKeyword ..) }` (reading 282). A method that makes another error
    of the one it is given returns it: as before."""
    lib = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum ParseError {\n"
        '    #[error("failed to parse the name: it is a keyword")]\n'
        "    NameIsKeyword(String),\n"
        "}\n"
        "pub struct WorkingSet {\n    errors: Vec<ParseError>,\n}\n"
        "impl WorkingSet {\n"
        "    pub fn error(&mut self, error: ParseError) {\n"
        "        self.errors.push(error);\n"
        "    }\n"
        "    pub fn wrap(&self, error: ParseError) -> ParseError {\n        error\n    }\n"
        "}\n"
        "pub fn parse(working_set: &mut WorkingSet, name: &str) -> Result<bool, ParseError> {\n"
        '    if name == "let" {\n'
        "        working_set.error(ParseError::NameIsKeyword(name.to_owned()));\n"
        "        return Ok(false);\n"
        "    }\n"
        "    Ok(true)\n"
        "}\n"
    )
    files = {"Cargo.toml": '[package]\nname = "nu"\n', "src/lib.rs": lib}
    needle = "failed to parse the name: it is a keyword"
    _, kept = committed_and_extracted(files, "o/n", tmp_path / "a", needle)
    assert kept["tryCatchPattern"] is None
    assert "no fn that builds it returns it" in kept["commonSituations"]
    assert kept["handlingStrategy"] != "try-catch"  # nothing to catch: the input is checked
    files["src/lib.rs"] = lib.replace(
        "working_set.error(ParseError::NameIsKeyword(name.to_owned()));\n        return Ok(false);",
        "return Err(working_set.wrap(ParseError::NameIsKeyword(name.to_owned())));",
    )
    _, returned = committed_and_extracted(files, "o/n", tmp_path / "b", needle)
    assert "Err(ParseError::NameIsKeyword" in (returned["tryCatchPattern"] or "")
