"""Structural rules of the failure-class classifier, tried before keywords (see taxonomy.py).

A panic states an assumption of the code (`internal-invariant`) unless its message
names a caller's misuse in so many words; a `.context(..)` names the step that failed,
so its verb (read, parse, connect) decides, never a noun in it (`toml`); and a few
phrases say a class outright where single keywords mislead (`--version` is a flag,
not a version problem).
"""

from __future__ import annotations

import re

# Panics: phrases that put the blame on the caller, or on a limit; anything else is an invariant.
PANIC_PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slug, re.compile(pattern, re.IGNORECASE))
    for slug, pattern in (
        # a wait that gave up: tikv's test cluster "region {:?} has not been split after {}ms"
        # read Invalid argument by the retry count it was given (reading 150)
        # (a placeholder's value is left out of the text read: "after {}ms" is "after  ms")
        ("timeout", r"\btimed out\b|\btimes out\b|\b(?:after|within)\s+(?:\d+\s*)?"
         r"(?:ms|secs?|seconds?|milliseconds?|millis|minutes?|mins?)\b|"
         r"\b(?:after|within)\s+\d+\s*s\b"),
        ("invalid-state-transition", r"\bpolled after\b|\bcalled (?:without|before)\b|"
         r"\b(?:called|used) (?:\S+ )?(?:more than once|multiple times|twice)\b|"
         r"\b(?:must|should) (?:not |only )?be (?:called|polled)\b"),
        ("resource-exhausted", r"\bmax(?:imum)? \w+(?: \w+)? exceeded\b|^max \w+$|\breached max\b|"
         r"\bexhausted\b"),
        ("out-of-range", r"\bout of bounds?\b|\boverflow\b"),
        ("invalid-argument", r"\bcannot be zero\b|\bmust be (?:greater|positive|non-?zero|at least)\b"
         r"|\binvalid (?:key|value|flag|length)\b|\bfrom different \w+ instances\b"),
        ("not-found", r"\bsomewhere in PATH\b|\bnot found in PATH\b"),
        # what the user's manifest or configuration lacks (tauri's "Cargo project does not
        # have a version", "Cargo manifest must have the `package.version` field")
        ("configuration-error", r"\b(?:manifest|config\w*|\w+\.toml|project)\b[^.;:]{0,40}"
         r"\b(?:must have|must contain|does not have|doesn't have|does not contain|"
         r"is missing|lacks|has no)\b"),
    )
)  # fmt: skip

# `.context(..)`/`.with_context(..)`: the operation that failed, by its verb.
CONTEXT_VERBS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slug, re.compile(pattern, re.IGNORECASE))
    for slug, pattern in (
        # "error parsing state" (rustup); not "parser", nor "parsed" ("Failed to build URI
        # from parsed arguments": vector's parse went well)
        ("parse-error", r"\b(?:pars(?:e|ing)|deserializ\w*|decod\w*)\b|"
         r"\binvalid (?:json|toml|utf-?8)\b"),
        # "from"/"to" only before a value the message prints (a path: "rename {} to {}",
        # "read from `{}`"), not before what it names ("copy to clipboard", "write data to
        # ExchangeWriter", "read u32 from Time buffer": a channel, a buffer)
        ("io-error", r"\b(?:read|write|create|open|remove|delete|rename|copy|iterate over|"
         r"canonicaliz\w*|flush)\b[^:]*(?:\b(?:files?|dir\w*|archives?|paths?|toml|json|"
         r"manifest|lockfile|stdout|stdin|stderr|pipe)\b|\b(?:from|to)\s+[{`'\"])"),
        ("connection-failure", r"\bconnect\w*\b|\bsend\b[^:]*\brequest\b"),
        ("configuration-error", r"\bmust be set\b|\bnot specified\b|\bis required\b"),
        ("type-mismatch", r"\bshould be an? \w+(?:Array|Type)\b"),
    )
)  # fmt: skip

# Phrases that name a class outright, tried on the message of any site that is no panic.
PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slug, re.compile(pattern, re.IGNORECASE))
    for slug, pattern in (
        # a message that opens with the authors' verdict on the state it met, whatever it
        # goes on to name (lemmy's "impossible: if fail count set last retry also set" read
        # Concurrency conflict by "retry", reading 128)
        # (neon's "implementation error: split pgb into reader and writer" read Operation
        # failed, reading 262)
        ("internal-invariant", r"^\W*(?:impossible|unreachable|bug|invariant (?:violated|broken)|"
         r"internal error|(?:implementation|logic|programming|programmer) error)\s*[:!]"),
        ("unsupported-operation", r"\bunstable\b|\bnightly\b|\brequires `-Z|\bonly supports?\b|"
         # "isn't supported", "are not currently supported"; not "are not supported yet"
         # (not implemented, by its keywords)
         r"\bis not supported\b|\b(?:is|are)(?: not|n't) (?:\w+ly )?supported\b(?!\s+yet)|"
         r"\bnot supported for\b|"
         r"\b(?:does|do|can|will)(?: not|n't) (?:\w+ly )support\b"),
        ("version-incompatibility", r"\bhas been renamed\b|\bdifferent cargo\b|"
         r"\bnewer version\b|\bolder version\b|"
         # "not compatible with this version of bat", "Segment version({}) is not compatible
         # with current version({})" (the keyword is `incompatible`)
         r"\bnot compatible with (?:this|the current|current)\b|"
         r"\bversion\b[^.;:]{0,60}\bis not compatible\b"),
        # too few bytes for what a file or an encoding says it holds: truncated, not a
        # resource to raise ("Insufficient file size for GraphLinks file"; "Insufficient
        # storage" stays a resource)
        ("data-corruption", r"\bmalformed file\b|\bcorrupt\w*\b|\bchecksum mismatch\b|"
         r"\binsufficient (?:file size|bytes|length|data)\b"),
        # what a parser met where it wanted something else: just's "unexpected closing
        # delimiter", cargo's "unexpected characters after frontmatter close", minijinja's
        # "unexpected end of input"
        ("parse-error", r"\bunexpected (?:end of (?:input|file|stream|string)|eof|tokens?|"
         r"char(?:acter)?s?|(?:closing |opening )?(?:delimiter|bracket|brace|paren\w*)|"
         r"symbols?|keywords?|identifiers?)\b|"
         # serde's own words for a document of the wrong shape: "missing field `x`",
         # "duplicate field `x`" (not a resource found missing or already there)
         r"\b(?:missing|duplicate) field `|"
         r"\b(?:failed to|unable to|could not|couldn't|cannot|can't|can not) "
         r"parse\b|\binvalid output\b|\bexpected a line\b|"
         r"\binvalid seriali\w+\b|\bexpected field\b|\bto string\b|\binvalid source\b|"
         # a lexer's token shown or described ("Invalid token `{}`", "Invalid token, found
         # invalid character ..": Unauthenticated by "invalid token", reading 322), a
         # parser's operators without precedence ("Chaining range operators has no
         # specified associativity": Out of range by "range")
         r"\binvalid token(?=\s*[`'\",{]|\s+found\b)|\bassociativity\b"),
        ("permission-denied", r"\bmust be (?:the )?owner\b|\bonly superusers?\b|\bpermission\b"),
        # a password, token or credentials judged: wrong, missing from a login, refused;
        # not one named as a setting, an argument or data ("Failed to hash password",
        # "expects a string password", "must not set `password`": reading 322)
        ("unauthenticated", r"\bnot authenticated\b|\b(?:username|user) (?:and|or) password\b|"
         r"\b(?:invalid|incorrect|wrong|bad|expired) (?:password|jwt|credentials?)\b"
         r"(?! hash)|\b(?:password|jwt|credentials?)\b[^.;:]{0,40}\b(?:does not match|"
         r"do not match|did not verify|is (?:incorrect|wrong|invalid|expired)|is not allowed|"
         r"(?:was|were) not provided)\b"),
        ("configuration-error", r"\bnot specified\b|\bmust be set\b|\bwas not defined\b|"
         # the user's home directory, which the environment names (bat's "Could not get
         # home directory" read "I/O error" by "get .. directory", reading 300)
         r"\b(?:get|find|determine|locate|resolve|no|unknown|missing)\s+(?:the\s+|a\s+|your\s+|"
         r"(?:the\s+)?user'?s?\s+)?home\s+dir(?:ectory)?\b|"
         r"\benv vars?\b|\$HOME\b|\bmust be configured\b|\ballowed features\b|"
         r"\bconfiguration type\b|\brequires a `\w+` key\b|\benable [\w-]+ feature\b|"
         r"\bcannot replace\b|\bnot defined in\b[^.;:]{0,30}\bconfig"),
        ("schema-mismatch", r"\bnumber of columns\b|\bnumber of column names\b"),
        # a value outside what a type or a field holds, whatever field it names (hickory's
        # SOA "retry outside i32 range" read Concurrency conflict by "retry", reading 133)
        ("out-of-range", r"\b(?:outside|out of) (?:the )?(?:(?:[\w-]+|`[^`]+`) )?(?:range|bounds)\b"),
        # .. and a function's argument of another type ("Function 'crypto::pbkdf2::compare'
        # expects a string hash, got: {}" read Operation failed, reading 322)
        ("type-mismatch", r"\bexpected \w+, got\b|\bcannot concatenate\b|"
         # a document's value of another kind than the code reads it as ("[permissions] is
         # not a table", "hooks is not a JSON object": reading 324)
         r"\b(?:is|was) not an? (?:(?:json|toml|yaml) )?(?:table|object|array|map|list|"
         r"string|number|integer|boolean|bool|dict(?:ionary)?|sequence)\b|"
         r"\bexpects? an? \w+(?: \w+)?, got\b"),
        ("invalid-argument", r"\b(?:is|was) not an? valid\b(?!\W+(?:utf|unicode|setting))|"
         r"\bno \w+ (?:provided|given)\b|\bsupported (?:\w+ )?values\b|\bis unknown\b|\binvalid character\b|"
         r"\b(?:requires|expects) an? (?:\w+ )?(?:format )?value\b|\bmust not be followed\b|"
         r"\bshould not be specified\b|\bis not allowed\b|\bnot allowed to\b|\bnon UTF-?8\b|"
         r"\bmust be \{\}|\bshould not be part of\b|"
         # a call's, a statement's or a URL's parts counted wrong: what was written, no
         # resource ("Too many/few arguments for pg_catalog.pg_get_expr()", "too many
         # segments on URL"); not "too many requests", "too many open files"
         r"\btoo (?:many|few)(?:/(?:many|few))? (?:\w+ )?(?:arguments|parameters|args|params|"
         r"operands|idents|identifiers|column names|segments|names|fields|columns|values|"
         # .. or a value's ("improper qualified name (too many dotted names)", reading 146)
         r"elements|items|dimensions|components|parts|digits|characters|chars|labels|"
         r"expressions|exprs|types)\b|"
         # a clause or option given twice in one statement or command
         r"\bduplicated? (?:\w+ )?(?:clause|option|keyword|flag)s?\b"),
        # a file-system verb on a file-system noun ("path", "directory" alone choose nothing);
        # not a part of a path's text, which no file system gives ("Couldn't get parent of
        # target path", tauri's: `Path::parent` is `None` at a root)
        ("io-error", r"\b(?:read(?:ing)?|writ(?:e|ing)|creat(?:e|ing)|open(?:ing)?|"
         r"remov(?:e|ing)|delet(?:e|ing)|renam(?:e|ing)|cop(?:y|ying)|sav(?:e|ing)|"
         r"flush(?:ing)?|canonicaliz\w*|list(?:ing)?|walk(?:ing)?|access(?:ing)?|load(?:ing)?|"
         r"get(?:ting)?\b(?! (?:the |a )?(?:parent|file ?name|extension|stem)\b))\b"
         r"[^.;:]{0,30}\b(?:files?|dir|directory|directories|folders?|paths?)\b"),
        # a lock that could not be taken: someone else holds it ("failed to acquire lock")
        ("concurrency-conflict", r"\b(?:acquir\w*|obtain\w*|take|taking)\b[^.;:]{0,30}\block\b"),
        # "no upload token found", "no X was found": absence; "found {} where .. expected"
        # (the keyword `found` alone, dropped) is a mismatch, not a missing thing
        ("not-found", r"\bno\b[^.;:,]{0,40}\b(?:was |were |is |are |be )?found\b|"
         r"\bnot (?:be )?found\b|\bcan ?not be found\b"),
        ("internal-invariant", r"\bshould not have\b|\bnot in the cache\b|"
         r"\bdoes not exceed\b"),
        # what failed is not known: no class to name (the keyword `unknown` is not-found's):
        # "unknown error", just's "failed .. for an unknown reason", "an unknown failure"
        ("operation-failed", r"\bunknown (?:error|reason|failure)\b"),
    )
)  # fmt: skip

# A constraint the message states on a value, read when no keyword of the message chose a
# class: "`closed` must be one of {..}", "fraction must be between 0.0 and 1.0", "filter
# predicate must be of type `Boolean`" (polars, risingwave, meilisearch).
CONSTRAINTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slug, re.compile(pattern, re.IGNORECASE))
    for slug, pattern in (
        ("out-of-range", r"\b(?:must|should) be (?:between|within|in the range)\b"),
        ("type-mismatch", r"\b(?:must|should) be (?:of type\b|an? (?:\w+ )?(?:string|integer|"
         r"number|boolean|struct|list|array|map|dataframe|expression|type)s?\b)"),
        ("invalid-argument", r"\b(?:must|should) be (?:one of|either|at least|at most|larger|"
         r"greater|smaller|less|non-?zero|positive|non-?negative|unique)\b|\bcan only be\b|"
         # lengths that must agree: "the length of `descending` ({}) does not match the
         # length of `by` ({})", "validity mask length must match the number of values"
         r"\b(?:lengths?|number of \w+)\b[^.;:]{0,60}\b(?:does not|do not|doesn't|don't|must|"
         r"should) (?:match|be equal)\b|"
         # a value outside the set the code knows: "expect one of [auto, always]",
         # "unrecognized value `{value}` for `{key}`", "choice '{unk}' is unrecognized"
         r"\bexpect(?:ed|ing|s)? (?:one of|either)\b|\bunrecogni[sz]ed\b|"
         # what a value must or must not be, as a bound, a form or a kind of number: typst's
         # "tile offset must be finite", "`src` must not start or end with a comma", neon's
         # "duration must be 1-60 secs" had no class but "Operation failed" (reading 190).
         # Not "must be initialized", "should be invertible": the code's own state
         r"\b(?:must|should) (?:not |never )?be (?:[<>]=?|=|\d|lower|higher|equal|different|"
         r"finite|zero|empty|[\w-]*relative|absolute|horizontal|vertical|odd|even|whole|"
         r"(?:a )?valid|in the (?:form|format)|x\b)|"
         r"\bmust be\s+or\b|"  # "must be `left` or `right`": the code cut out
         r"\bmust (?:not )?(?:start|end) (?:or end )?with\b"),
    )
)  # fmt: skip

# An input the caller must give and did not ("-t must be specified", "Either a list of
# point ids or a filter must be provided"): like a conflict, the caller's to fix.
# (.. or two that go together: "NATS connect mode `credential` requires both `nkey` and `jwt`"
# read Connection failure by "connect", reading 322)
MISSING_INPUT = re.compile(
    r"\bmust be (?:specified|provided|given|supplied)\b|\brequires both\b", re.IGNORECASE
)
# An input the code has no meaning for, of a kind it knows a fixed set of ("Unknown option
# '{option}'", "unknown fill strategy: {}", "Unknown architecture: {0}", starship's "unknown
# integer allow status" of direnv's output): the keyword
# `unknown` made these "Not found" ("create it first"); also a code read while decoding
# (sqlx's "unknown ip family {family}", vector's "Unknown socket protocol"), a URL's scheme, a
# file's extension, or a value whose message lists the valid ones (stop 54's reading). Not an
# unknown object (a column, a remote, a connection: not found), an "unknown error", nor an
# SSH host key. Read after the
# phrases ("invalid output .. Unknown key" is a parse error).
# (the spaces of a name of code cut out count as none: "unknown `-Z` flag" is one, cargo's)
UNKNOWN_VALUE = re.compile(
    r"\bunknown +(?!error\b)(?:[\w-]+ +){0,2}(?:option|flag|arg|argument|(?<!host )key|type|operator|style|"
    r"format|encoding|algorithm|strategy|architecture|operating system|mode|kind|value|"
    r"variant|state|status|setting|parameter|family|scheme|compression|protocol|extension|"
    r"suffix|escape character|severity|direction|implementation|backend|specification)s?\b|"
    # the message lists the set: "unknown profile name: '{}'; valid profile names are: {}"
    r"\bunknown\b[^.]{0,60}\bvalid (?:[\w-]+ ){1,2}(?:are|is)\b",
    re.IGNORECASE,
)

# Two inputs given together that exclude each other ("cannot specify both `url` and `path`",
# "`lib` and `no_package` are mutually exclusive", "only one of 'skip_rows'/'skip_lines' may
# be set"): the caller's combination is wrong, nothing failed. `taxonomy.py` calls it a
# configuration error when the prose names settings, else an invalid argument.
CONFLICT = re.compile(
    r"\b(?:can ?not|can't|must not|may not|should not)\b[^.;:]{0,30}\bboth\b|"
    r"\bmutually exclusive\b|"
    r"\bonly one of\b[^.;]{0,60}\b(?:may|can|should|must) be (?:set|specified|given|provided|used)\b|"
    r"\bboth\b[^.;:]{0,60}\b(?:are|were) (?:present|given|provided|specified|set)\b|"
    # one input ruling another out: sccache's "If setting S3 credentials,
    # SCCACHE_S3_NO_CREDENTIALS must not be set." (read as Unauthenticated by "credentials",
    # reading 126), "`--bump post` cannot be used with another `--bump` value" (the prose,
    # its code left out: "Relative range values cannot be used with streams .." is no pair)
    r"\bif (?:setting|using|you set|you use|[\w`-]+ is set)\b[^.;]{0,60}\b(?:must not|cannot|"
    r"can't|may not) be (?:set|used|given|specified)\b|"
    r"\b(?:must not|cannot|can't|may not) be (?:used|given|specified|combined) "
    r"(?:together )?with (?:any other|another)\b",
    re.IGNORECASE,
)


# A message that is a flag (`--version`) or code in backticks names no class by its words.
# Backticked code, `--flags`, and names in SCREAMING_SNAKE_CASE (environment variables,
# constants): `RUSTUP_IO_THREADS` is no I/O error, `MAX_RETRIES` no limit.
# (and a quoted key of dotted or snake-case words: bottom's "Update 'disk.name_filter' in your
# config file" is a setting, no disk's, reading 124)
_CODE = re.compile(
    r"`[^`]*`|(?<!\w)--?[A-Za-z][\w-]*|(?<!\w)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w)"
    r"|(?<!\w)(['\"])[A-Za-z_][\w-]*(?:[._][\w-]+)+\1(?!\w)"
    # (and a TOML table's header, `[permissions]`, `[tool.uv]`: atuin's "[permissions] is
    # not a table" read Permission denied by its name, reading 324)
    r"|(?<![\w\]])\[[A-Za-z_][\w.-]*\](?=\s+\w)"
)
# A word in camel or Pascal case is a name of code too: starship's "DuplicateToken failed" is
# the Win32 call that failed, nothing that already exists (reading 113). It stays a word
# ("x"), so that "Unknown MySQL data type" still reads as an unknown value's phrase. Not the
# name of an error's kind, whose words say what failed: `ParseError`, "KdlDeserialization
# error: {0}".
_CAMEL_NAME = re.compile(
    r"(?<![\w.:])(?![A-Za-z]+Error\b)[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?![\w:])"
    r"(?!\s+(?:error|Error)\b)"
)


# A word of four capitals or more inside a sentence is a name too (an SQL keyword, an enum
# value): "duplicate OWNER clause in CREATE DATABASE" is about a clause, nobody's ownership.
# Initialisms stay words (`IO`, `TLS`, `JSON`, `GRPC`), and so does a message written all in
# capitals.
_NAME_IN_CAPITALS = re.compile(r"(?<!\w)(?!(?:JSON|TOML|YAML|GRPC|HTTPS?)(?!\w))[A-Z]{4,}(?!\w)")


# A file's name in backticks (`pyvenv.cfg`, `Cargo.toml`, `src/main.rs`): it stays the word
# "file", so that uv's "`pyvenv.cfg` is missing" is still about a file that is not there.
_FILE_NAME = re.compile(
    r"`[^`\s]*\.(?:toml|json|ya?ml|cfg|conf|ini|lock|txt|md|rs|py|sh|zip|tar|gz|whl|so|dll|exe)`",
    re.IGNORECASE,
)


def _code_word(found: re.Match[str]) -> str:
    return " file " if _FILE_NAME.fullmatch(found.group()) else " "


def without_code(text: str) -> str:
    """The message's prose: backticked code, `--flags` and names in capitals cut out."""
    prose = _CAMEL_NAME.sub("x", _CODE.sub(_code_word, text))
    if any(c.islower() for c in prose):
        prose = _NAME_IN_CAPITALS.sub(" ", prose)
    return prose


def first_match(
    table: tuple[tuple[str, re.Pattern[str]], ...], text: str
) -> tuple[str, str] | None:
    """(slug, the words that matched) of the first rule of `table` that matches `text`."""
    for slug, pattern in table:
        match = pattern.search(text)
        if match:
            return slug, match.group()
    return None
