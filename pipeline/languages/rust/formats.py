"""Rust string literals and format strings: decoding and patterns (SPEC 4).

Contract of `message_pattern`:

- Literal text goes through `re.escape`, except that a space stays a bare space as
  in the seeds (`re.escape` writes `\\ ` for the sake of verbose mode, which these
  patterns never use). `{{` and `}}` are literal braces. Every placeholder of Rust's
  `std::fmt` grammar becomes `(.+?)`; an alternate-debug placeholder (`{:#?}`,
  `{x:#x?}`), whose rendering spans lines, becomes `([\\s\\S]+?)`.
- `(.+?)` is the seeds' form. It deliberately cannot match an empty rendering of an
  argument (`{}` of `""`, `{:.0}` of a string) nor a non-alternate rendering that
  contains a newline: a pattern that accepts nothing in a slot would match far too
  much when `explain` looks up pasted logs, and such renderings are rare.
- A brace that does not open or close a valid placeholder (not valid Rust, but
  hostile or mis-classified input can hold one) is literal text, so any text gives
  a pattern that compiles.
- With `is_format=False` (`.expect("...")`, `Status::invalid_argument("...")`: not
  format strings) the whole message is literal: `{{` stays two braces.

"""

from __future__ import annotations

import re
from collections.abc import Iterator

# `format := '{' [argument] [':' format_spec] [ws]* '}'` from std::fmt. The argument
# also admits `r#ident` and thiserror's `{0.field}`/`{var.field}`; the fill is any
# character, including `}` (rustc's parser takes it when an alignment follows).
_COUNT = r"(?:\d+\$?|(?:r\#)?[^\W\d]\w*\$)"
_PLACEHOLDER = re.compile(
    r"""\{
    (?P<arg>(?:(?:r\#)?[^\W\d]\w*|\d+)(?:\.\w+)*)?
    (?::(?P<spec>
        (?:.?[<^>])?
        [+-]?
        (?P<alt>\#)?
        0?
        """
    + _COUNT
    + r"""?
        (?:\.(?:"""
    + _COUNT
    + r"""|\*))?
        (?P<type>\?|[xX]\?|[^\W\d]\w*)?
    ))?
    [ \t\n\r]*
    \}""",
    re.VERBOSE | re.DOTALL,
)

_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}
_RAW_LITERAL = re.compile(r'(?P<prefix>[bc]?)r(?P<hashes>#*)"(?P<body>.*)"(?P=hashes)', re.DOTALL)
_PLAIN_LITERAL = re.compile(r'(?P<prefix>[bc]?)"(?P<body>.*)"', re.DOTALL)
_UNICODE_ESCAPE = re.compile(r"\{([0-9a-fA-F][0-9a-fA-F_]*)\}")
# rustc skips only ASCII whitespace after a line continuation.
_CONTINUATION_WHITESPACE = " \t\n\r"


def decode_rust_string(literal: str) -> str:
    """The value of a Rust string literal token (`"…"`, `r#"…"#`, `b"…"`, `c"…"`)."""
    # rustc normalises CRLF to LF before lexing, so a CRLF checkout means the same.
    text = literal.replace("\r\n", "\n")
    raw = _RAW_LITERAL.fullmatch(text)
    if raw is not None:
        body = raw["body"]
        if '"' + raw["hashes"] in body:
            raise ValueError(f"not a single raw string literal: {_excerpt(literal)}")
        if raw["prefix"] == "b" and not body.isascii():
            raise ValueError(f"non-ASCII character in a byte string: {_excerpt(literal)}")
        return body
    plain = _PLAIN_LITERAL.fullmatch(text)
    if plain is None:
        raise ValueError(f"not a Rust string literal: {_excerpt(literal)}")
    prefix = plain["prefix"]
    if prefix == "b" and not plain["body"].isascii():
        raise ValueError(f"non-ASCII character in a byte string: {_excerpt(literal)}")
    return _unescape(plain["body"], prefix, literal)


def _unescape(body: str, prefix: str, literal: str) -> str:
    """Decode the escapes of a non-raw literal body; byte and C strings are UTF-8 bytes."""
    if "\\" not in body and '"' not in body and not prefix:
        return body  # most messages: nothing to decode
    out = bytearray()
    i = 0
    while i < len(body):
        char = body[i]
        if char == '"':
            raise ValueError(f"unescaped quote inside a string literal: {_excerpt(literal)}")
        if char != "\\":
            out += char.encode("utf-8", "surrogatepass")
            i += 1
            continue
        if i + 1 >= len(body):
            raise ValueError(f"unterminated string literal: {_excerpt(literal)}")
        code = body[i + 1]
        i += 2
        if code in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[code].encode()
        elif code == "\n":
            while i < len(body) and body[i] in _CONTINUATION_WHITESPACE:
                i += 1
        elif code == "x":
            digits = body[i : i + 2]
            if len(digits) != 2 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise ValueError(f"bad \\x escape in {_excerpt(literal)}")
            value = int(digits, 16)
            if value > 0x7F and prefix == "":
                raise ValueError(f"\\x escape above 0x7f in a str literal: {_excerpt(literal)}")
            out.append(value)
            i += 2
        elif code == "u" and prefix != "b":
            match = _UNICODE_ESCAPE.match(body, i)
            hex_digits = match[1].replace("_", "") if match else ""
            if match is None or len(hex_digits) > 6:
                raise ValueError(f"bad \\u escape in {_excerpt(literal)}")
            value = int(hex_digits, 16)
            if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                raise ValueError(f"\\u escape is not a Unicode scalar: {_excerpt(literal)}")
            out += chr(value).encode("utf-8")
            i = match.end()
        else:
            raise ValueError(f"unknown escape \\{code} in {_excerpt(literal)}")
    # A str literal is valid UTF-8 by construction; byte and C strings may not be.
    return out.decode("utf-8", "replace")


def _excerpt(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _pieces(message: str, is_format: bool) -> Iterator[tuple[str, re.Match[str] | None]]:
    """Split a message into literal text (`(text, None)`) and placeholders (`("", match)`)."""
    if not is_format:
        yield message, None
        return
    literal: list[str] = []
    i, size = 0, len(message)
    while i < size:
        brace = _BRACE.search(message, i)
        if brace is None:
            literal.append(message[i:])
            break
        j = brace.start()
        if j > i:
            literal.append(message[i:j])
        char = message[j]
        if message.startswith(char * 2, j):
            literal.append(char)
            i = j + 2
            continue
        placeholder = _PLACEHOLDER.match(message, j) if char == "{" else None
        if placeholder is None:
            literal.append(char)  # a lone brace: literal text (see the module docstring)
            i = j + 1
            continue
        if literal:
            yield "".join(literal), None
            literal = []
        yield "", placeholder
        i = placeholder.end()
    if literal:
        yield "".join(literal), None


_BRACE = re.compile(r"[{}]")


def _escape(text: str) -> str:
    """`re.escape`, leaving spaces bare (the seeds' form)."""
    # re.escape writes every escaped character as `\\` + char, so the only `\\ ` in its
    # output is an escaped space.
    return re.escape(text).replace("\\ ", " ")


def _is_multiline(placeholder: re.Match[str]) -> bool:
    """`{:#?}` and `{:#x?}` pretty-print over several lines."""
    kind = placeholder["type"] or ""
    return placeholder["alt"] is not None and kind.endswith("?")


# What `Result::expect(msg)` prints after the message: std panics with "{msg}: {error:?}"
# (`Result::expect_err`, "{msg}: {value:?}"), where `Option::expect` prints "{msg}" alone; the receiver
# is not known from the syntax, so the pattern of an `.expect(..)` site accepts both (the
# `Debug` of an error may span lines: anyhow's "Caused by:"). Not a group: a record's groups
# are its message's placeholders.
EXPECT_SUFFIX = r"(?:: [\s\S]+)?"


def expect_pattern(message: str, *, is_format: bool = True) -> str:
    """The pattern of an `.expect(message)` site: `message_pattern` and `EXPECT_SUFFIX`."""
    return message_pattern(message, is_format=is_format) + EXPECT_SUFFIX


# What std's panicking macros print around their message (Rust 1.73 and later): the panic
# reads "internal error: entered unreachable code: {msg}", "assertion `left == right`
# failed: {msg}\n  left: {left:?}\n right: {right:?}". SPEC 4's pattern matches what is
# printed, so it holds them; a site is still known by its message's pattern
# (`pattern_identity`), as before it held them.
_EQ = "assertion `left == right` failed: "
_NE = "assertion `left != right` failed: "
PANIC_PREFIXES: dict[str, str] = {
    "unreachable": "internal error: entered unreachable code: ",
    "todo": "not yet implemented: ",
    "unimplemented": "not implemented: ",
    "assert_eq": _EQ,
    "debug_assert_eq": _EQ,
    "assert_ne": _NE,
    "debug_assert_ne": _NE,
}
ASSERT_SUFFIX = r"\n  left: [\s\S]+\n right: [\s\S]+"
_PREFIX_PATTERNS = tuple(
    sorted({_escape(p) for p in PANIC_PREFIXES.values()}, key=len, reverse=True)
)


def panic_pattern(macro: str, message: str, *, is_format: bool = True) -> str:
    """The pattern of a site of std's panicking macro `macro` (`core::unreachable` too): its
    message's, with what the macro prints around it (`PANIC_PREFIXES`)."""
    name = macro.rsplit("::", 1)[-1]
    pattern = message_pattern(message, is_format=is_format)
    prefix = PANIC_PREFIXES.get(name)
    if prefix is None:
        return pattern
    suffix = ASSERT_SUFFIX if name.endswith(("assert_eq", "assert_ne")) else ""
    return _escape(prefix) + pattern + suffix


def message_identity(pattern: str) -> str:
    """A site's pattern without what std prints around its message (`EXPECT_SUFFIX`,
    `PANIC_PREFIXES`, `ASSERT_SUFFIX`): how a site is found again across versions."""
    for prefix in _PREFIX_PATTERNS:
        if pattern.startswith(prefix):
            pattern = pattern[len(prefix) :].removesuffix(ASSERT_SUFFIX)
            break
    return pattern.removesuffix(EXPECT_SUFFIX)


def message_pattern(message: str, *, is_format: bool = True) -> str:
    """The regex that `re.fullmatch`es every rendering of `message` (SPEC 4)."""
    parts = []
    for text, placeholder in _pieces(message, is_format):
        if placeholder is None:
            parts.append(_escape(text))
        else:
            parts.append(r"([\s\S]+?)" if _is_multiline(placeholder) else "(.+?)")
    return "".join(parts)


def placeholders(message: str) -> list[str]:
    """The placeholders of a format string in order, braces stripped (`job_id`, ``, `:?`)."""
    return [m.group()[1:-1] for _, m in _pieces(message, True) if m is not None]


def literal_segments(message: str, is_format: bool = True) -> list[str]:
    """The non-empty literal texts between placeholders, braces unescaped."""
    return [text for text, m in _pieces(message, is_format) if m is None and text]
