"""The tip to log an error whole, for an error type's own text: where that type keeps its
causes, not how anyhow and eyre print theirs (reading 318: greptimedb's snafu errors and
just's own `Error` were told of `{:#}`)."""

from __future__ import annotations

from site_fixtures import explained

from pipeline.analyze.static import with_reach
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.reach import Reach
from pipeline.languages.rust.sites import find_sites

ERROR = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("could not finish the widget job")]
    Refused { source: WidgetError },
}
"""
ANYHOW_TIP = "anyhow and eyre print them with `{:#}`"
GENERIC_TIP = load_taxonomy()["operation-failed"].prevention
OWN_TIP = (
    "Log an error whole, with its causes (this type keeps them in its `source()` chain, which "
    "`{}` does not print): together they name what to fix before the next run."
)


def test_an_error_type_s_own_text_is_told_where_its_causes_are() -> None:
    tips = explained(ERROR).preventionTips
    assert OWN_TIP in tips
    assert not any(ANYHOW_TIP in t for t in tips)


def test_a_type_its_callers_hold_in_anyhow_keeps_anyhow_s_advice() -> None:
    (site,) = find_sites("src/x.rs", ERROR.encode()).sites
    generic = explained(ERROR).model_copy(update={"preventionTips": [GENERIC_TIP]})
    held = Reach(built="Error::Refused", held_in="anyhow::Error")
    assert with_reach(generic, held, "0" * 40, site).preventionTips == [GENERIC_TIP]
    mine = Reach(built="Error::Refused")
    assert with_reach(generic, mine, "0" * 40, site).preventionTips == [OWN_TIP]
