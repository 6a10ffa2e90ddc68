"""A panic on a call given only literals that parses or compiles them:
`Regex::new(r"^[a-z]+$").expect("compile regex")`, `Url::parse("http://example.com")
.expect(..)`, `"127.0.0.1:0".parse::<SocketAddr>().unwrap()`. Its answer is the same on
every run, whoever reaches it: it fails on every run that gets there, or on none (lemmy's
reading 128 read "users meet it through 11 entry points" for a constant URL). Only a call
that reads nothing but its literals: a parse, a conversion or a compile, or a `new` of a
type that only checks its text (a regular expression, a glob, a C string, a non-zero
number). Not `File::open("x")`, `TcpListener::bind("0.0.0.0:80")` nor `X::new("x")` of
any other type: those read the machine. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

# A Rust literal, maybe borrowed: a string (raw, byte), a number, a char (byte), a bool
LITERAL = (
    r'(?:&?\s*(?:b?r#*"[^"]*"#*|b?"(?:[^"\\]|\\.)*"|-?\d[\w.]*|b?\'(?:[^\'\\]|\\.)\'|true|false))'
)
# a constant by its name: `REGEX_CACHE_SIZE`, `Self::LIMIT`, `u64::MAX`
_CONSTANT = r"(?:[A-Za-z_]\w*::)*[A-Z][A-Z0-9_]*"
_LITERALS = rf"\(\s*{LITERAL}(?:\s*,\s*{LITERAL})*\s*,?\s*\)"
# .. and of numbers, a constant among them as fixed (activitypub's `try_seconds(ACTOR_
# REFETCH_INTERVAL_SECONDS)`, a `static` of 86400, read "this time it did not", reading 304);
# not a text's name, which may be a `static` built at run time (`Lazy<String>`)
_FIXED = rf"(?:{LITERAL}|{_CONSTANT})"
_NUMBERS = rf"\(\s*{_FIXED}(?:\s*,\s*{_FIXED})*\s*,?\s*\)"
_TURBOFISH = r"(?:::<[^()]*>)?"
# `T::parse(lit)`, `T::from_str(lit)`, `serde_json::from_str(lit)`, `Regex::new(lit)`; a
# date, time or span built from numbers or parsed from a text and its format (chrono's
# `DateTime::parse_from_str(lit, lit)`, `FixedOffset::east_opt(0)`, `TimeDelta::try_days(1)`:
# 47 of nushell's examples, reading 282), a template or a path parsed from text (indicatif's
# `ProgressStyle::with_template`, vrl's `parse_value_path`), a metric's buckets
_PATH_CALL = re.compile(
    rf"(?:[A-Za-z_]\w*{_TURBOFISH}::)*"
    rf"(?:(?:parse|from_str|try_from|from_static|compile|parse_str|from_str_radix"
    r"|parse_from_str|parse_from_rfc3339|parse_from_rfc2822|parse_borrowed|parse_value_path"
    rf"|with_template){_TURBOFISH}"
    r"|(?:Regex|RegexSet|Glob|Pattern|CString|Selector|Version|VersionReq)"
    rf"{_TURBOFISH}::new){_LITERALS}"
    rf"|(?:[A-Za-z_]\w*{_TURBOFISH}::)*"
    r"(?:east_opt|west_opt|try_weeks|try_days|try_hours|try_minutes|try_seconds"
    r"|try_milliseconds|from_ymd_opt|from_hms_opt|from_hms_milli_opt|from_hms_micro_opt"
    rf"|from_hms_nano_opt|exponential_buckets|linear_buckets){_TURBOFISH}{_NUMBERS}"
    # a non-zero number of a literal or a constant (nushell's `NonZeroUsize::new(
    # REGEX_CACHE_SIZE)`, a `const` of 100, reading 282)
    rf"|(?:[A-Za-z_]\w*::)*NonZero\w*{_TURBOFISH}::new\(\s*(?:{LITERAL}|{_CONSTANT})\s*\)"
)
# `"127.0.0.1:0".parse::<SocketAddr>()`, `"x".try_into()`
_METHOD_CALL = re.compile(rf"{LITERAL}\s*\.\s*(?:parse|try_into){_TURBOFISH}\(\s*\)")


def fixed_input(site: Site) -> str | None:
    """The guarded call of a panicking `expect`/`unwrap` when it parses or compiles only
    literals (the same answer on every run), as written; None otherwise."""
    if site.kind != "expect":
        return None
    call = guarded_call(site, ("Err", "None", "None/Err"))
    if call is None or len(call) > 400:
        return None
    if _PATH_CALL.fullmatch(call) or _METHOD_CALL.fullmatch(call):
        return call
    return None


def fixed_input_note(call: str) -> str:
    """The sentence the documentation adds after naming such a call (`call`, as
    `fixed_input` gives it: a constant among its arguments is said)."""
    given = "literals and constants" if _NAMED_CONSTANT.search(call) else "literals"
    return (
        f" It is given only {given}, so it gives the same answer on every run: this panics "
        "on every run that gets here, or on none (a test that runs it once tells which)."
    )


_NAMED_CONSTANT = re.compile(rf"[(,]\s*{_CONSTANT}\s*[,)]")
