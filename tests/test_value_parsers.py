"""An option's value parser is how a user reaches it: clap's derive calls the fn a field's
`#[arg(.., value_parser = f)]` names on what the user typed, and prints its error as the
option's ("error: invalid value '3x' for '--size <size>': '3x' is not a valid size
constraint"). fd's `SizeFilter::from_string` and `OwnerFilter::from_string` had no caller
(a fn named in an attribute is no call); uv names 69 such fns. Its entry point is the
option, as the user types it, and the field that declares it."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import committed_and_extracted, graph_of, node, paths_of

from pipeline.languages.rust.index_items import value_parsers

MAIN = (
    "use clap::Parser;\nmod filter;\nuse filter::SizeFilter;\n"
    "#[derive(Parser)]\n"
    "struct Opts {\n"
    "    /// Limit results by size.\n"
    "    #[arg(long, short = 'S', value_parser = SizeFilter::from_string)]\n"
    "    size: Vec<SizeFilter>,\n"
    '    #[arg(long = "newer", value_parser = parse_time)]\n'
    "    changed_within: Option<u64>,\n"
    "    #[arg(short = 'j', value_parser = clap::value_parser!(u16))]\n"  # a macro: no fn
    "    threads: u16,\n"
    "    #[arg(value_parser = parse_path)]\n"
    "    path: String,\n"
    "}\n"
    "fn parse_time(s: &str) -> Result<u64, String> {\n"
    "    Err(format!(\"'{s}' is not a valid date or duration\"))\n}\n"
    "fn parse_path(s: &str) -> anyhow::Result<String> {\n    check(s)\n}\n"
    'fn check(s: &str) -> anyhow::Result<String> {\n    anyhow::bail!("no such path")\n}\n'
    "#[derive(clap::Subcommand)]\n"
    "enum Commands {\n"
    "    Search {\n"
    "        #[arg(long, value_parser = parse_time)]\n"
    "        changed_before: Option<u64>,\n"
    "    },\n"
    "}\n"
    "fn main() {\n    let opts = Opts::parse();\n}\n"
)
FILTER = (
    "pub struct SizeFilter;\n"
    "impl SizeFilter {\n"
    "    pub fn from_string(s: &str) -> anyhow::Result<Self> {\n"
    "        anyhow::bail!(\"'{}' is not a valid size constraint\", s)\n"
    "    }\n"
    "}\n"
)


def test_the_fn_a_field_s_value_parser_names_is_reached_from_its_option(
    tmp_path: Path,
) -> None:
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "fd"\n',
        "src/main.rs": MAIN,
        "src/filter.rs": FILTER,
    })  # fmt: skip
    assert graph.entries[node(graph, "SizeFilter::from_string")] == (
        "cli",
        "option `--size` (`Opts::size`)",
    )
    # the first field that names it, in file order (another is another way in)
    assert graph.entries[node(graph, "parse_time")] == (
        "cli",
        "option `--newer` (`Opts::changed_within`)",
    )
    assert graph.entries[node(graph, "parse_path")] == ("cli", "argument `<PATH>` (`Opts::path`)")
    # a fn it calls is reached from the option through it
    assert paths_of(graph, "check") == [
        ("cli", "argument `<PATH>` (`Opts::path`)", [
            ("parse_path", 20, None, ()),
            ("check", None, "local", ()),
        ]),
    ]  # fmt: skip


def test_an_option_is_named_as_clap_s_derive_names_it() -> None:
    """`long` is the field in kebab case unless it names itself; `short` alone is `-x`;
    neither is a positional argument. A macro or a call builds a parser: no fn is named."""
    assert value_parsers("exec_batch", ["arg(long, value_parser = parse_x)"]) == [
        ("--exec-batch", "parse_x")
    ]
    assert value_parsers("x", ['clap(long = "the-x", long_help = "..", value_parser=p)']) == [
        ("--the-x", "p")
    ]
    assert value_parsers("jobs", ["arg(short = 'j', value_parser = parse_jobs)"]) == [
        ("-j", "parse_jobs")
    ]
    assert value_parsers("path", ['arg(long_help = "..", value_parser = parse_path)']) == [
        ("<PATH>", "parse_path")
    ]
    assert value_parsers("port", ["arg(long, value_parser = clap::value_parser!(u16))"]) == []
    assert value_parsers("mode", ["arg(long, value_parser = PossibleValuesParser::new([]))"]) == []
    assert value_parsers("size", ["serde(default)", 'doc = "value_parser = x"']) == []


def test_a_subcommand_variant_s_field_is_named_by_its_variant() -> None:
    from pipeline.languages.rust.index import index_file

    routes = index_file("src/main.rs", MAIN.encode()).routes
    assert [(r.method, r.path, r.handler, r.owner) for r in routes] == [
        ("ARG", "--size", "SizeFilter::from_string", "Opts::size"),
        ("ARG", "--newer", "parse_time", "Opts::changed_within"),
        ("ARG", "<PATH>", "parse_path", "Opts::path"),
        ("ARG", "--changed-before", "parse_time", "Commands::Search::changed_before"),
    ]


TIMEOUT = (
    "use std::str::FromStr;\n"
    "#[derive(clap::Parser)]\n"
    "pub struct Cli {\n"
    "    /// Connection timeout of the request.\n"
    '    #[clap(long, value_name = "SEC")]\n'
    "    pub timeout: Option<Timeout>,\n"
    "    #[arg(long, value_enum)]\n"
    "    pub style: Style,\n"
    "}\n"
    "#[derive(clap::ValueEnum, Clone)]\n"
    "pub enum Style { Plain }\n"
    "impl FromStr for Style {\n"
    "    type Err = anyhow::Error;\n"
    "    fn from_str(s: &str) -> anyhow::Result<Style> {\n"
    '        anyhow::bail!("no style {s}")\n'
    "    }\n"
    "}\n"
    "pub struct Timeout(f64);\n"
    "impl FromStr for Timeout {\n"
    "    type Err = anyhow::Error;\n"
    "    fn from_str(sec: &str) -> anyhow::Result<Timeout> {\n"
    '        anyhow::bail!("Connection timeout is too big")\n'
    "    }\n"
    "}\n"
    "fn main() {\n    let cli = <Cli as clap::Parser>::parse();\n}\n"
)


def test_a_field_of_a_type_of_the_program_s_own_is_parsed_by_its_from_str(
    tmp_path: Path,
) -> None:
    """No `value_parser`: clap parses `Option<Timeout>` with `Timeout`'s `FromStr` (xh's
    "Connection timeout is too big" is `--timeout`'s error). A `value_enum` field is parsed
    by the parser clap's derive writes, not by a `from_str` of the repository's."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "xh"\n',
        "src/main.rs": TIMEOUT,
    })  # fmt: skip
    assert graph.entries[node(graph, "Timeout::from_str")] == (
        "cli",
        "option `--timeout` (`Cli::timeout`)",
    )
    assert node(graph, "Style::from_str") not in graph.entries


def test_clap_s_own_and_the_standard_library_s_types_name_no_fn() -> None:
    assert value_parsers("timeout", ["clap(long)"], "Option<Timeout>") == [
        ("--timeout", "Timeout::from_str")
    ]
    assert value_parsers("resolve", ["arg(long)"], "Vec<dns::Resolve>") == [
        ("--resolve", "Resolve::from_str")
    ]
    assert value_parsers("header", ["arg(long, action = ArgAction::Append)"], "Vec<Header>") == [
        ("--header", "Header::from_str")
    ]
    assert value_parsers("path", ["arg(long)"], "PathBuf") == []
    assert value_parsers("count", ["arg(short)"], "u8") == []
    assert value_parsers("mode", ["arg(long, value_enum)"], "Mode") == []
    assert value_parsers("cmd", ["command(subcommand)"], "Commands") == []
    assert value_parsers("map", ["arg(long)"], "HashMap<String, Header>") == []
    assert value_parsers("timeout", [], "Timeout") == []  # no clap attribute: not known as one


def test_the_error_a_value_parser_returns_is_clap_s_to_print_not_main_s_nor_a_caller_s(
    tmp_path: Path,
) -> None:
    # fd's `main` prints its errors with their causes, but clap prints a parser's (reading
    # 325: `printed_by` and a caller's `match` on `SizeFilter::from_string` were false)
    main = MAIN.replace(
        "fn main() {\n    let opts = Opts::parse();\n}\n",
        'fn main() {\n    if let Err(e) = run() {\n        eprintln!("[fd error]: {e:#}");\n'
        "        std::process::exit(1);\n    }\n}\n"
        "fn run() -> anyhow::Result<()> {\n    let opts = Opts::parse();\n    Ok(())\n}\n",
    )
    files = {"Cargo.toml": '[package]\nname = "fd"\n', "src/main.rs": main, "src/filter.rs": FILTER}
    _, record = committed_and_extracted(files, "o/fd", tmp_path, "'{}' is not a valid size")
    reach = json.loads((tmp_path / "out" / "o" / "fd" / "reach.json").read_text())
    assert "printed_by" not in reach["records"][record["id"]]
    assert record["tryCatchPattern"] is None
    assert record["handlingStrategy"] == "validation"
    assert record["documentation"].endswith(
        " clap runs it on the value a user gives for option `--size` (`Opts::size`); when it "
        "returns this error, clap prints it as why that value is invalid (`error: invalid value "
        ".. for ..`) and exits with status 2: no code of the program gets it."
    )
