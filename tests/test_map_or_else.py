"""`x.map_or_else(|| Err(..), Ok)` and `x.map_or(Err(..), Ok)` return the error when `x`
holds nothing: gitui's "invalid workdir" and "invalid hunk" read "No `if`, `match` .. guards
this site: it is reached whenever execution gets there". The first argument is what runs
on a `None` or an `Err`; a site in the second runs on the value, no such condition."""

from __future__ import annotations

from pipeline.languages.rust.sites import find_sites

SOURCE = b"""\
pub fn repo_work_dir(p: &Path) -> Result<String> {
    work_dir(p)?.to_str().map_or_else(
        || Err(Error::Generic("invalid workdir".to_string())),
        |w| Ok(w.to_string()),
    )
}
pub fn hunk(h: Option<Hunk>) -> Result<Hunk> {
    h.map_or(Err(Error::Generic("invalid hunk".to_owned())), Ok)
}
pub fn parsed(s: &str) -> Result<u32> {
    s.parse::<u32>().map_or_else(|e| Err(anyhow::anyhow!("not a number: {e}")), Ok)
}
pub fn interval(value: Duration) -> Result<Self, BoxDynError> {
    value.num_nanoseconds().map_or::<Result<_, Self::Error>, _>(
        Err("overflow in Duration to PgInterval conversion".into()),
        |nanos| Ok(Self { nanos }),
    )
}
pub fn present(h: Option<Hunk>) -> Result<String> {
    h.map_or_else(|| Ok(String::new()), |v| Err(anyhow::anyhow!("has a value")))
}
"""


def test_the_first_argument_of_map_or_else_runs_when_the_value_holds_nothing() -> None:
    conditions = {
        s.message: [c.text for c in s.facts.conditions]
        for s in find_sites("src/sync/utils.rs", SOURCE).sites
    }
    assert conditions == {
        # `to_str` may be `HeaderValue`'s, a `Result`: the closure of no parameter says it is
        # an `Option`'s (a `Result`'s `map_or_else` gives its first closure the error)
        "invalid workdir": ["work_dir(p)?.to_str() was None (map_or_else)"],
        # a parameter of an `Option`'s type
        "invalid hunk": ["h was None (map_or)"],
        "not a number: {e}": ["s.parse::<u32>() was Err (map_or_else)"],
        # with a turbofish as well (sqlx's `PgInterval::try_from`, reading 107)
        "overflow in Duration to PgInterval conversion": [
            "value.num_nanoseconds() was None/Err (map_or)"
        ],
        "has a value": [],
    }
