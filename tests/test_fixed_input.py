"""A panic on a call that parses or compiles only literals fails on every run that gets
there, or on none: lemmy's `Url::parse("http://example.com").expect("parse dummy url")` read
"users meet it through 11 entry points" (reading 128, MISLEADING), as if a request could make
it fail. The documentation says the input is fixed, and the ways in are where runs get, not
where users make it fail. A call that reads the machine (`File::open("x")`) or a variable is
as before."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.analyze.fixed_input import fixed_input
from pipeline.analyze.reach_text import situation_sentence
from pipeline.core.reach import CallerPath, Hop, Reach
from pipeline.languages.rust.sites import find_sites


def _guarded(call: str) -> str | None:
    source = f'fn f(pattern: &str) {{\n    let r = {call}.expect("it parses");\n}}\n'
    (site,) = find_sites("src/x.rs", source.encode()).sites
    return fixed_input(site)


@pytest.mark.parametrize(
    "call",
    [
        'Regex::new(r"^(?:[a-zA-Z0-9_]+)$")',
        'regex::Regex::new("a|b")',
        'Url::parse("http://example.com")',
        '"127.0.0.1:0".parse::<SocketAddr>()',
        'serde_json::from_str::<Value>("{}")',
        "NonZeroUsize::new(4)",
        'CString::new("name")',
        # reading 282: nushell's examples, a date parsed from a text and its format, a
        # constant of 100 made non-zero, chrono's spans and offsets of numbers
        'DateTime::parse_from_str("2021-12-30 00:00:00 -0500", "%Y-%m-%d %H:%M:%S %z")',
        "NonZeroUsize::new(REGEX_CACHE_SIZE)",
        "chrono::TimeDelta::try_days(1)",
        "chrono::FixedOffset::east_opt(0)",
        'ProgressStyle::with_template("{spinner} {msg}")',
        # a span of a constant number (activitypub's `static` of 86400, reading 304)
        "ChronoDuration::try_seconds(ACTOR_REFETCH_INTERVAL_SECONDS)",
        "prometheus::exponential_buckets(0.005, 2.0, BUCKETS)",
    ],
)
def test_a_parse_of_literals_is_fixed_input(call: str) -> None:
    assert _guarded(call) == call


@pytest.mark.parametrize(
    "call",
    [
        "Regex::new(pattern)",  # a variable
        "Regex::new(PATTERN)",  # a name: a constant, or a static built at run time
        "NonZeroUsize::new(workers)",
        "ChronoDuration::try_seconds(interval)",
        'File::open("config.toml")',  # reads the machine
        'TcpListener::bind("0.0.0.0:80")',
        'Client::new("http://example.com")',  # a `new` of a type the rule does not know
        'Url::parse(&format!("http://{}", "x"))',
    ],
)
def test_a_call_that_reads_more_than_literals_is_not(call: str) -> None:
    assert _guarded(call) is None


def test_the_documentation_says_the_input_is_fixed_and_its_failure_a_bug() -> None:
    explanation = explained(
        'fn dummy() -> Url {\n    Url::parse("http://example.com").expect("parse dummy url")\n}\n'
    )
    assert (
        # `Url::parse` is known to fail with an error (facts' `_RESULT_FNS`)
        'The call it guards, `Url::parse("http://example.com")`, returned an error. It is '
        "given only literals, so it gives the same answer on every run: this panics on every "
        "run that gets here, or on none"
    ) in explanation.documentation
    assert (
        '1. `Url::parse("http://example.com")` was Err (`expect`) (given only fixed values: on '
        "every run that gets here, or on none)"
    ) in explanation.triggerScenarios
    # not "this time it did not": no run differs from another (reading 282)
    assert explanation.solutions[0] == (
        'The code assumed `Url::parse("http://example.com")` always gives a value here (never '
        "an `Err`): it is given only fixed values, so if it did not, it fails on every run "
        "that gets here, and those values are what to correct in the code."
    )
    # whatever step the message names: only the literal can be wrong (vector's vdev read
    # "Operation failed" for "cannot build regex")
    worded = explained(
        'fn vars() -> Regex {\n    Regex::new(r"\\$\\{(\\w+)\\}").expect("cannot build regex")\n}\n'
    )
    assert worded.backgroundTag == "internal-invariant"


def test_its_ways_in_are_where_runs_get_not_where_users_make_it_fail() -> None:
    path = CallerPath(
        (Hop("register", "src/api.rs", 1, "pub fn register()", call_line=2),
         Hop("is_valid_actor_name", "src/validation.rs", 40, "fn is_valid_actor_name()")),
        "http", "HTTP POST /user/register",
    )  # fmt: skip
    reach = Reach(paths=(path,), callers=1, entries=5)
    assert situation_sentence(reach, "a" * 40, fixed=True) == (
        "At commit aaaaaaaaaa, runs get here through 5 entry points, among them HTTP POST "
        "/user/register; its input is fixed in the code, so nothing a user sends makes it fail."
    )
    assert situation_sentence(reach, "a" * 40).startswith(
        "At commit aaaaaaaaaa, users meet it through 5 entry points"
    )


def test_a_constant_given_is_said_with_the_literals() -> None:
    explanation = explained(
        "const CACHE_SIZE: usize = 100;\n"
        "fn cache() -> LruCache<u8, u8> {\n"
        '    LruCache::new(NonZeroUsize::new(CACHE_SIZE).expect("tried to create cache of size zero"))\n'
        "}\n"
    )
    assert "It is given only literals and constants, so it gives the same answer on every run" in (
        explanation.documentation
    )
