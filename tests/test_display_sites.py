"""An error type's hand-written `Display` impl is where its messages are (site kind
`display`): just's `justfile does not contain recipe `{recipe}``, ripgrep's
`HyperlinkFormatError`, cargo's `MissingDependencyError` had no record before."""

from __future__ import annotations

import json
from pathlib import Path

from site_fixtures import explained_all
from test_reach import committed_and_extracted

from pipeline.languages.rust.display import display_variant
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

ERROR = """\
use std::fmt;

pub enum Error {
    UnknownRecipe { recipe: String },
    Io(std::io::Error),
    Count { found: usize, max: usize },
    Quiet,
    Loud,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::UnknownRecipe { recipe } => write!(f, "justfile does not contain recipe `{recipe}`"),
            Error::Io(e) => write!(f, "I/O error: {}", e),
            Self::Count { found, max } => {
                write!(f, "got {found} arguments but takes ")?;
                write!(f, "at most {max}")
            }
            Self::Quiet | Self::Loud => write!(f, "{}", "no words"),
        }
    }
}

pub struct Point;

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a point at the origin")
    }
}

pub struct Wrapped {
    kind: Kind,
}

pub enum Kind {
    Circular { name: String },
}

impl std::error::Error for Wrapped {}

impl fmt::Display for Wrapped {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &*self.kind {
            Kind::Circular { name } => write!(f, "recipe `{name}` depends on itself"),
        }
    }
}
"""


def _sites() -> dict[str, tuple[str, str | None, str | None]]:
    scan = find_sites("src/error.rs", ERROR.encode())
    return {s.message: (s.kind, s.facts.enclosing_type, s.facts.variant) for s in scan.sites}


def test_the_head_of_each_message_an_error_type_s_display_writes_is_a_site() -> None:
    assert _sites() == {
        "justfile does not contain recipe `{recipe}`": ("display", "Error", "UnknownRecipe"),
        "I/O error: {}": ("display", "Error", "Io"),
        # the arm's first `write!` begins the message; the next one only continues it
        "got {found} arguments but takes ": ("display", "Error", "Count"),
        # an error type by its `impl Error`; the variant is its kind's, not named here
        "recipe `{name}` depends on itself": ("display", "Wrapped", None),
    }  # and `Point` is no error type: its `Display` writes no error


def test_the_variant_comes_from_the_innermost_arm_on_self_or_a_field_of_it() -> None:
    assert display_variant(["match self: Self::Io(e) =>"]) == "Io"
    assert display_variant(["match *self: Error::Quiet =>"]) == "Quiet"
    assert display_variant(["match self: Self::Quiet | Self::Loud =>"]) is None
    assert display_variant(["match &*self.kind: Kind::Circular { name } =>"]) == "Circular"
    assert display_variant(["match &*self.kind: Kind::Circular { .. } =>"], fields=False) is None
    assert display_variant(["if x.is_empty()", "match other: Self::Io(e) =>"]) is None


def test_a_display_site_is_explained_as_the_text_of_its_variant_not_by_its_match() -> None:
    scan = find_sites("src/error.rs", ERROR.encode())
    contexts = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/error.rs": scan}))
    assert {c.site.message[:8]: c.error_class for c in contexts}["justfile"] == "Error"
    explanation = explained_all(ERROR, "src/error.rs")[
        "justfile does not contain recipe `{recipe}`"
    ]
    assert explanation.documentation.startswith(
        "`Error::UnknownRecipe` is a variant of the error type `Error`; its message (its"
        " `Display` impl) reads"
    )
    # a type with no variant of its own (its kind's, `match self.kind`) is the type
    assert explained_all(ERROR, "src/error.rs")[
        "recipe `{name}` depends on itself"
    ].documentation.startswith("`Wrapped` is an error type whose message (its `Display` impl)")
    assert "The `Display` impl only writes the text" in explanation.triggerScenarios
    # the `match self` picks the text, it is no condition of the error: no check to meet
    assert explanation.validationCode is None
    assert not any("goes on only when" in s for s in explanation.solutions)


def test_a_type_s_text_is_handled_on_the_result_that_carries_it_not_on_fmt() -> None:
    """just's 217 `Display` records read `match error.fmt(f, color) { Err(Error::X { .. })`:
    `fmt` prints the error, it returns a `fmt::Result`, no `Error`."""
    explained = explained_all(ERROR, "src/error.rs")
    by_variant = explained["justfile does not contain recipe `{recipe}`"].tryCatchPattern
    assert by_variant is not None and by_variant.startswith(
        "match result {\n    Err(Error::UnknownRecipe { .. }) => {"
    )
    # one type, a text per kind (`match self.kind`): the type alone would catch them all
    by_text = explained["recipe `{name}` depends on itself"].tryCatchPattern
    assert by_text is not None and by_text.startswith(
        'match result {\n    Err(e) if e.to_string().contains("` depends on itself") => {'
    )
    assert not any(".fmt(" in (e.tryCatchPattern or "") for e in explained.values())


def test_a_type_s_text_is_met_where_code_returns_the_type_not_in_its_module() -> None:
    explained = explained_all(ERROR, "src/error.rs")
    assert explained["I/O error: {}"].commonSituations.startswith(
        "When code returns a `Error::Io` (declared in `error`) and it is printed; "
    )
    assert explained["recipe `{name}` depends on itself"].commonSituations.startswith(
        "When code returns a `Wrapped` (declared in `error`) and it is printed; "
    )


def test_a_display_site_is_reached_where_its_variant_is_built(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "jf"\n',
        "src/lib.rs": "pub mod error;\npub mod run;\n",
        "src/error.rs": ERROR,
        "src/run.rs": (
            "use crate::error::{Error, Kind, Wrapped};\n"
            "pub fn find(recipe: &str) -> Result<(), Error> {\n"
            "    Err(Error::UnknownRecipe { recipe: recipe.to_owned() })\n"
            "}\n"
            "pub fn cycle() -> Wrapped {\n"
            '    Wrapped { kind: Kind::Circular { name: "a".into() } }\n'
            "}\n"
        ),
        # the error printed (`let _ =` would drop it: no way a user reads its text)
        "src/main.rs": 'fn main() {\n    if let Err(e) = jf::run::find("build") {\n        eprintln!("{e}");\n    }\n}\n',
    }
    sha, record = committed_and_extracted(files, "o/jf", tmp_path, "justfile does not contain")
    assert record["triggerScenarios"].endswith(
        f"At commit {sha[:10]}, `Error::UnknownRecipe` is built in one function, `find` at"
        " src/run.rs:3, reached from `jf` (fn main): `main` -> `find`."
    )
    manifest = json.loads((tmp_path / "out" / "o/jf" / "manifest.json").read_text())
    assert manifest["records"][record["id"]]["kind"] == "display"
    # a kind's variant, written through `match self.kind`: found by its name in the crate
    reach = json.loads((tmp_path / "out" / "o/jf" / "reach.json").read_text())["records"]
    lines = (tmp_path / "out" / "o/jf" / "records.jsonl").read_text().splitlines()
    (cycle,) = [json.loads(r) for r in lines if "depends on itself" in r]
    assert reach[cycle["id"]]["built"] == "Kind::Circular"


def test_the_branches_of_an_if_in_an_arm_are_two_messages_not_one() -> None:
    """just's `CircularRecipeDependency` writes "depends on itself" or "has circular
    dependency": alternatives, each a message; a `write!` after the head continues it."""
    source = """\
use std::fmt;
pub enum CompileError { Circular { recipe: String, circle: Vec<String> }, Count { found: usize } }
impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Circular { recipe, circle } => {
                if circle.len() == 2 {
                    write!(f, "recipe `{recipe}` depends on itself")
                } else {
                    write!(f, "recipe `{recipe}` has circular dependency `{}`", circle.join(" -> "))
                }
            }
            Self::Count { found } => {
                write!(f, "got {found} arguments but takes ")?;
                if *found > 2 { write!(f, "at most two") } else { write!(f, "at least two") }
            }
        }
    }
}
"""
    messages = [s.message for s in find_sites("src/e.rs", source.encode()).sites]
    assert messages == [
        "recipe `{recipe}` depends on itself",
        "recipe `{recipe}` has circular dependency `{}`",
        "got {found} arguments but takes ",
    ]


def test_a_text_another_formatting_trait_writes_names_that_trait() -> None:
    """just's `Error` has `impl ColorDisplay for Error` and no `Display`: its 109 records
    read "formatted with `Display`" (reading 106)."""
    from site_fixtures import explained_all

    source = """\
pub enum Error { Shell { err: io::Error } }
impl std::error::Error for Error {}
impl ColorDisplay for Error {
    fn fmt(&self, f: &mut Formatter, color: Color) -> fmt::Result {
        match self {
            Error::Shell { err } => write!(f, "Could not run shell: {err}"),
        }
    }
}
"""
    (explanation,) = explained_all(source, "src/error.rs").values()
    assert "its message (its `ColorDisplay` impl) reads" in explanation.documentation
    assert explanation.triggerScenarios.startswith(
        "Whenever a `Error::Shell` value is formatted with `ColorDisplay`:"
    )
    assert "`Display`" not in explanation.triggerScenarios
