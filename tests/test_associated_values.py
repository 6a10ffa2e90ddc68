"""`let x = T::f(..)` gives x the type `T::f` returns, when the repository defines it: a
constructor mostly returns its own type, but not always. mdBook's `init` command reads
`let builder = MDBook::init(&dir); builder.build()?;`: `MDBook::init` returns a
`BookBuilder`, so the call is `BookBuilder::build`, not `MDBook::build` (whose paths then
named `mdbook init` among the commands that build a book)."""

from __future__ import annotations

from pathlib import Path

from test_reach import called_by, graph_of

BOOK = (
    "pub struct MDBook;\npub struct BookBuilder;\npub struct Plain;\n"
    "impl MDBook {\n"
    "    pub fn init(root: &str) -> BookBuilder { BookBuilder }\n"
    "    pub fn load(root: &str) -> anyhow::Result<Self> { Ok(MDBook) }\n"
    "    pub fn build(&self) -> anyhow::Result<()> { Ok(()) }\n"
    "}\n"
    "impl BookBuilder {\n"
    '    pub fn build(&self) -> anyhow::Result<MDBook> { anyhow::bail!("exists") }\n'
    "}\n"
    "impl Plain {\n    pub fn build(&self) {}\n}\n"
)


def test_a_value_made_by_an_associated_fn_has_the_type_that_fn_returns(
    tmp_path: Path,
) -> None:
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "book"\n',
        "src/lib.rs": BOOK + (
            "pub fn init_command() -> anyhow::Result<()> {\n"
            "    let builder = MDBook::init(\"x\");\n"
            "    builder.build()?;\n"
            "    Ok(())\n}\n"
            "pub fn build_command() -> anyhow::Result<()> {\n"
            "    let book = MDBook::load(\"x\")?;\n"  # `Result<Self>`: an `MDBook`
            "    book.build()\n}\n"
            "pub fn outside() {\n"
            "    let plain = Plain::default();\n"  # no `default` here: the type it is named by
            "    plain.build();\n}\n"
        ),
    })  # fmt: skip
    assert called_by(graph, "init_command") == [
        (16, "MDBook::init", "type"),
        (17, "BookBuilder::build", "type"),
    ]
    assert called_by(graph, "build_command") == [
        (21, "MDBook::load", "type"),
        (22, "MDBook::build", "type"),
    ]
    assert called_by(graph, "outside") == [(26, "Plain::build", "type")]


def test_a_reference_returned_is_the_type_it_refers_to(tmp_path: Path) -> None:
    """ripgrep's `let parser = Parser::new(); parser.parse(..)`, where `Parser::new()`
    returns a `&'static Parser`: the call is `Parser::parse` (its `--help` and flag errors
    reach `rg`'s `main` through it)."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "rg"\n',
        "src/main.rs": (
            "struct Parser;\n"
            "impl Parser {\n"
            "    fn new() -> &'static Parser { todo!() }\n"
            "    fn parse(&self) -> anyhow::Result<()> { anyhow::bail!(\"unknown flag\") }\n"
            "}\n"
            "fn main() {\n"
            "    let parser = Parser::new();\n"
            "    parser.parse().unwrap();\n"
            "}\n"
        ),
    })  # fmt: skip
    assert called_by(graph, "main") == [(7, "Parser::new", "type"), (8, "Parser::parse", "type")]


def test_self_from_a_trait_s_default_fn_is_the_type_it_is_called_on(tmp_path: Path) -> None:
    """nushell's polars plugin: `let df = NuDataFrame::try_from_custom_value(plugin, self)?;
    df.compute_with_value(..)`, where `try_from_custom_value` is a default method of the
    trait `CustomValueSupport` returning `Result<Self, ShellError>`: `Self` is the
    `NuDataFrame` it is called on, not the trait."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "plugin"\n',
        "src/lib.rs": (
            "pub trait CustomValueSupport: Sized {\n"
            "    fn try_from_custom_value(v: u8) -> Result<Self, String> { todo!() }\n"
            "}\n"
            "pub struct NuDataFrame;\n"
            "impl CustomValueSupport for NuDataFrame {}\n"
            "impl NuDataFrame {\n"
            "    pub fn compute_with_value(&self) -> Result<(), String> { Err(\"no\".into()) }\n"
            "}\n"
            "pub fn operation() -> Result<(), String> {\n"
            "    let df = NuDataFrame::try_from_custom_value(1)?;\n"
            "    df.compute_with_value()\n"
            "}\n"
        ),
    })  # fmt: skip
    assert called_by(graph, "operation") == [
        (10, "CustomValueSupport::try_from_custom_value", "type"),
        (11, "NuDataFrame::compute_with_value", "type"),
    ]
