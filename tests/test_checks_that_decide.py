"""What the deciding check says, not a check above that passed nor a word of a name (reading
324: alacritty and atuin).

- A number that does not fit the integer type it is converted to, or a value being read
  over a bound the code holds, is out of range: no resource ran out, and retrying does not
  help ("scancode is too big", "exceeded maximum scrolling history").
- A TOML table's name (`[permissions]`) is no word of the message's, and a document's value
  of another kind ("is not a table") is a type mismatch.
- "The check depends on what is passed to `f` (`x`)" names the parameters the deciding
  check reads, or those the locals it reads are bound from; not one that only a check above
  that passed reads (atuin's `settings` beside `new_password.is_empty()`).
"""

from __future__ import annotations

from site_fixtures import explained

from pipeline.analyze.static_advice import PASSED_LEAD
from pipeline.analyze.taxonomy import classify_explained


def test_a_failed_conversion_to_an_integer_type_is_out_of_range() -> None:
    found = classify_explained(
        "Invalid key binding, scancode is too big: {scancode}",
        "constructor",
        ["match value.as_integer(): Some(scancode) =>", "match u32::try_from(scancode): Err(_) =>"],
    )
    assert (found.slug, found.source, found.hits) == ("out-of-range", "bound", ("u32::try_from",))
    # "too large" of a count the run keeps, checked against its bound: a resource's limit
    held = classify_explained("too many connections", "bail", ["conns.len() >= MAX_CONNECTIONS"])
    assert held.slug == "resource-exhausted"


def test_a_table_s_name_is_no_word_and_a_value_of_another_kind_is_a_type_mismatch() -> None:
    table = classify_explained("[permissions] is not a table", "constructor", [])
    assert (table.slug, table.hits) == ("type-mismatch", ("is not a table",))
    assert classify_explained("hooks is not a JSON object", "constructor", []).slug == (
        "type-mismatch"
    )
    # a message that is nothing but the bracketed word keeps it
    assert classify_explained("[unknown]", "constructor", []).slug == "not-found"
    # a table's name around another class's words leaves those words
    assert classify_explained("[server] permission denied", "bail", []).slug == (
        "permission-denied"
    )


HISTORY = """\
pub const MAX_SCROLLBACK_LINES: u32 = 100_000;
pub struct ScrollingHistory(u32);
impl<'de> Deserialize<'de> for ScrollingHistory {
    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        let lines = u32::deserialize(deserializer)?;
        if lines > MAX_SCROLLBACK_LINES {
            Err(SerdeError::custom(format!(
                "exceeded maximum scrolling history ({lines}/{MAX_SCROLLBACK_LINES})"
            )))
        } else {
            Ok(Self(lines))
        }
    }
}
"""


def test_a_value_read_over_a_bound_the_code_holds_is_out_of_range() -> None:
    explanation = explained(HISTORY)
    assert explanation.backgroundTag == "out-of-range"
    assert explanation.handlingStrategy != "retry"
    # the same check of a count the run keeps, outside an input's conversion, stays a limit
    counted = HISTORY.replace(
        "impl<'de> Deserialize<'de> for ScrollingHistory", "impl ScrollingHistory"
    ).replace("fn deserialize<D>", "fn grow<D>")
    assert explained(counted).backgroundTag == "resource-exhausted"


PASSWORD = """\
impl Cmd {
    pub async fn run(&self, settings: &Settings) -> Result<()> {
        if !settings.logged_in().await? {
            bail!("You are not logged in");
        }
        let new_password = self.new_password.clone().unwrap_or_else(|| {
            prompt_password("Please enter the new password: ").expect("Failed to read")
        });
        if new_password.is_empty() {
            bail!("please provide a new password");
        }
        Ok(())
    }
}
"""
DUPLICATES = """\
fn validate(kinds: Vec<Kind>, strict: bool) -> Result<Vec<Kind>> {
    if strict && kinds.is_empty() {
        bail!("no kinds given");
    }
    let mut unique = kinds.clone();
    unique.dedup();
    let dupes = kinds.len() - unique.len();
    if dupes != 0 {
        bail!("Found {} duplicate kinds", dupes);
    }
    Ok(kinds)
}
"""


def _passed(source: str, message: str) -> list[str]:
    from site_fixtures import explained_all

    solutions = explained_all(source)[message].solutions
    return [s for s in solutions if s.startswith(PASSED_LEAD)]


def test_a_parameter_only_a_check_above_reads_is_not_what_decides_it() -> None:
    assert _passed(PASSWORD, "please provide a new password") == []
    # the check above that passed is what decides its own message
    (own,) = _passed(PASSWORD, "You are not logged in")
    assert own.startswith(f"{PASSED_LEAD}`Cmd::run` (`settings`)")


def test_a_local_bound_from_the_parameter_keeps_it() -> None:
    # `dupes` is bound from `unique`, bound from `kinds`: the count is of what was passed;
    # `strict`, read only by the check above, is not named
    (said,) = _passed(DUPLICATES, "Found {} duplicate kinds")
    assert said.startswith(f"{PASSED_LEAD}`validate` (`kinds`)")


CONNECT = """\
pub async fn launch(settings: Settings) -> eyre::Result<Db> {
    let db = Db::new(&settings.db_settings)
        .await
        .wrap_err_with(|| format!("failed to connect to db: {:?}", settings.db_settings))?;
    Ok(db)
}
"""
GLOB = """\
impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing glob '{}': {}", self.glob, self.kind)
    }
}
"""


def test_a_field_printed_after_the_colon_is_a_value_not_the_error_underneath() -> None:
    """atuin's "failed to connect to db: {:?}" prints `settings.db_settings` (reading 324:
    "The message prints the error underneath" sent the reader to a setting); an error's own
    `self.kind` still tells how it failed."""
    underneath = "The message prints the error underneath"
    assert not any(s.startswith(underneath) for s in explained(CONNECT).solutions)
    assert any(s.startswith(underneath) for s in explained(GLOB).solutions)


PARSER = """\
pub struct ExprParser { pos: usize, input: String }
impl ExprParser {
    fn parse_or(&mut self) -> Result<u32, String> { self.pos += 1; Ok(1) }
    pub fn parse(mut self) -> Result<u32, String> {
        let expr = self.parse_or()?;
        if self.pos < self.input.len() {
            return Err(format!("unexpected input at position {}", self.pos));
        }
        Ok(expr)
    }
}
"""
PHASES = """\
pub enum Phase { Start, Body }
pub struct Reader { phase: Phase }
impl Reader {
    pub fn start(&mut self) {
        match self.phase {
            Phase::Start => self.begin(),
            Phase::Body => panic!("wrong phase: already reading the body"),
        }
    }
    fn begin(&mut self) { self.phase = Phase::Body; }
}
"""


def test_no_caller_test_of_self_where_the_fn_changes_it_before_its_check() -> None:
    """atuin's `ExprParser::parse` moves `self.pos` on (`self.parse_or()?`) before testing it:
    "Before calling `ExprParser::parse`, make sure `!(expr_parser.pos < ..)`" held only for an
    empty input (reading 324). A fn whose check comes first keeps it."""
    parsed = explained(PARSER)
    assert parsed.validationCode is None
    assert not any(t.startswith("Before calling") for t in parsed.preventionTips)
    assert "let ok = " in (explained(PHASES).validationCode or "")
