"""A closure handed to clap's `.value_parser(..)` checks the value a user gives for an option:
clap runs it, prints its error as why the value is invalid, and exits. bat's `build_app`
returns a `Command`, yet its `--terminal-width` check's "terminal width cannot be zero" read
"`build_app` returns `Err` with this message", with a try/catch for its callers (reading
300, FALSE). The explanation names the check and clap; no caller catches it; the class is
the refused value's. A closure handed to anything else is as before."""

from __future__ import annotations

from site_fixtures import explained_all

SOURCE = """\
pub fn build_app() -> Command {
    Command::new("bat").arg(
        Arg::new("terminal-width")
            .long("terminal-width")
            .value_parser(|t: &str| {
                let is_offset = t.starts_with('+') || t.starts_with('-');
                t.parse::<i32>()
                    .map_err(|_e| "must be an offset or number")
                    .and_then(|v| if v == 0 && !is_offset {
                        Err("terminal width cannot be zero")
                    } else { Ok(t.to_owned()) })
                    .map_err(|e| e.to_string())
            }),
    )
}
fn parse_as_of(p: &mut Parser) -> ModalResult<AsOf> {
    literal_interval.try_map(|e| match e {
        Value::Interval(v) => Ok(AsOf(v)),
        _ => Err(StrError("expect Value::Interval".into())),
    }).parse_next(p)
}
fn items(values: &[u32]) -> anyhow::Result<Vec<u32>> {
    values.iter().map(|x| { if *x == 0 { anyhow::bail!("zero item") } Ok(*x) }).collect()
}
"""


def test_a_value_check_handed_to_clap_is_clap_s_to_print() -> None:
    found = explained_all(SOURCE)
    checked = found["terminal width cannot be zero"]
    assert checked.documentation.startswith(
        "`build_app` hands a check of an option's value to clap (`.value_parser(..)`), and "
        "that check returns `Err` with this message in `src/x.rs`. clap runs it on the value "
        "a user gives for the option; when it fails, clap prints this message as why the "
        "value is invalid and exits: no caller of `build_app` gets it."
    )
    assert checked.backgroundTag == "invalid-argument"
    assert (checked.handlingStrategy, checked.tryCatchPattern) == ("validation", None)
    # winnow's `try_map` is no clap check (risingwave's SQL parser)
    assert "clap" not in found["expect Value::Interval"].documentation
    other = found["zero item"]
    assert "clap" not in other.documentation and other.handlingStrategy == "try-catch"
