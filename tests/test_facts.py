"""Static facts of a site (SPEC 5): enclosing fn and impl, doc comment, the condition chain."""

from __future__ import annotations

import pytest
from site_fixtures import explained_all

from pipeline.core.model import Condition, Facts, Site
from pipeline.languages.rust.logic import validation_code
from pipeline.languages.rust.sites import find_sites


def site_of(source: str, message: str = "target") -> Site:
    """The one site of `source` whose message is `message`."""
    scan = find_sites("src/lib.rs", source.encode())
    matching = [s for s in scan.sites if s.message == message]
    assert len(matching) == 1, [s.message for s in scan.sites]
    return matching[0]


def chain(body: str) -> list[tuple[str, str]]:
    """The (kind, text) condition chain of the site "target" inside a fn with `body`."""
    site = site_of(f"fn subject(x: u32) -> anyhow::Result<()> {{\n{body}\n}}\n")
    return [(c.kind, c.text) for c in site.facts.conditions]


CHAINS = [
    pytest.param('    bail!("target");', [], id="unguarded"),
    pytest.param('    if x > 3 {\n        bail!("target");\n    }', [("if", "x > 3")], id="if"),
    pytest.param(
        '    if x > 3 {\n        return Ok(());\n    } else {\n        bail!("target");\n    }',
        [("else", "x > 3")],
        id="else",
    ),
    pytest.param(
        '    if x > 3 {\n        a();\n    } else if x == 2 {\n        bail!("target");\n    }',
        [("else", "x > 3"), ("if", "x == 2")],
        id="else-if",
    ),
    pytest.param(
        '    if ready {\n        if x > 3 {\n            bail!("target");\n        }\n    }',
        [("if", "ready"), ("if", "x > 3")],
        id="nested-if-outermost-first",
    ),
    pytest.param(
        '    match self.state {\n        State::Paused if x > 1 => bail!("target"),\n        _ => {}\n    }',
        [("match_arm", "match self.state: State::Paused if x > 1 =>")],
        id="match-arm-with-guard",
    ),
    pytest.param(
        '    let Some(job) = jobs.get(&x) else {\n        bail!("target");\n    };',
        [("let_else", "let Some(job) = jobs.get(&x) did not match")],
        id="let-else",
    ),
    pytest.param(
        '    if let Some(job) = jobs.get(&x) {\n        bail!("target");\n    }',
        [("if_let", "let Some(job) = jobs.get(&x)")],
        id="if-let",
    ),
    pytest.param(
        '    let v = lookup(x).ok_or_else(|| anyhow!("target"))?;',
        [("closure", "lookup(x) was None (ok_or_else)")],
        id="closure-in-ok_or_else",
    ),
    pytest.param(
        '    let v = headers.get("Metadata-Version").ok_or(anyhow!("target"))?;',
        [("closure", 'headers.get("Metadata-Version") was None (ok_or)')],  # not unguarded
        id="an-error-built-for-ok_or",
    ),
    pytest.param(
        # rustup's `rustup doc std`: the error made for `.context(..)` is the receiver's
        # failure, not the arm's (reading 280 read every `std` topic as failing)
        '    let p = index_html(&doc).context(anyhow!("target"))?;',
        [("closure", "index_html(&doc) was None/Err (context)")],
        id="an-error-built-for-context",
    ),
    pytest.param(
        '    ensure!(x < 10, "x too big");\n    if x == 3 {\n        bail!("target");\n    }',
        [("ensure", "x < 10"), ("if", "x == 3")],
        id="earlier-ensure-guard",
    ),
    pytest.param(
        '    ensure!(x != 0 && ready, "target");',
        [("check_failed", "x != 0 && ready")],
        id="the-ensures-own-check",
    ),
    pytest.param(
        '    assert_eq!(x, 4, "target");',
        [("check_failed", "x == 4")],
        id="assert_eq-check",
    ),
    pytest.param(
        '    assert_eq!(x, 4, "x is four");\n    assert_ne!(x, 5);\n    bail!("target");',
        [("ensure", "x == 4"), ("ensure", "x != 5")],
        id="earlier-assert_eq-guard-keeps-both-operands",
    ),
    pytest.param(
        '    if proxy {\n        debug_assert!(false, "target");\n    }',
        [("if", "proxy")],  # qdrant's: not "the check `false` is false"
        id="an-assert-of-false-checks-nothing",
    ),
    pytest.param(
        '    Err::<(), _>(make(x)).context("target")?;',
        [],  # zellij's: an `Err` built there wraps an error, no call failed
        id="an-err-built-for-its-context",
    ),
    pytest.param(
        '    while x > 0 {\n        bail!("target");\n    }',
        [("while", "x > 0")],
        id="while-loop",
    ),
]


@pytest.mark.parametrize(("body", "expected"), CHAINS)
def test_condition_chain(body: str, expected: list[tuple[str, str]]) -> None:
    assert chain(body) == expected


def test_a_variant_built_for_ok_or_is_returned_when_the_value_is_none() -> None:
    """uv's `.ok_or(MetadataError::FieldNotFound("Metadata-Version"))?`: built eagerly,
    returned only for a `None`; an `unwrap_or` argument is a value, no error of it."""
    source = (
        "#[derive(Debug, thiserror::Error)]\n"
        'pub enum MetadataError {\n    #[error("missing {0}")]\n    NotFound(&\'static str),\n}\n'
        "fn parse(headers: &Headers) -> Result<String, MetadataError> {\n"
        '    let v = headers.get("Metadata-Version").ok_or(MetadataError::NotFound("Metadata-Version"))?;\n'
        '    let w = headers.get("Name").unwrap_or(MetadataError::NotFound("Name"));\n'
        "    Ok(v)\n}\n"
    )
    version, name = site_of(source, "Metadata-Version"), site_of(source, "Name")
    assert [(c.kind, c.text) for c in version.facts.conditions] == [
        ("closure", 'headers.get("Metadata-Version") was None (ok_or)')
    ]
    assert name.facts.conditions == ()


def test_else_is_negated_and_if_is_not() -> None:
    body = '    if x > 3 {\n        a();\n    } else if x == 2 {\n        bail!("target");\n    }'
    site = site_of(f"fn f(x: u32) {{\n{body}\n}}\n")
    assert [(c.kind, c.negated, c.line) for c in site.facts.conditions] == [
        ("else", True, 2),
        ("if", False, 4),
    ]


def test_conditions_of_another_fn_do_not_leak_in() -> None:
    source = (
        "fn outer(x: u32) {\n"
        "    if x > 1 {\n"
        "        helper();\n"
        "    }\n"
        "}\n"
        "fn helper() {\n"
        '    bail!("target");\n'
        "}\n"
    )
    assert site_of(source).facts.conditions == ()


def test_the_condition_itself_is_not_a_step() -> None:
    # The site sits inside the `if` condition, not its body: no "if" step; its only step
    # is its own receiver holding no value (`get` returns an Option).
    source = 'fn f(m: &Map) {\n    if m.get(1).expect("target") > 2 {\n        a();\n    }\n}\n'
    assert site_of(source).facts.conditions == (
        Condition("closure", "m.get(1) was None (expect)", 2),
    )


@pytest.mark.parametrize(
    ("receiver", "step"),
    [
        ('url.strip_prefix("sparse+")', 'url.strip_prefix("sparse+") was None (expect)'),
        ("text.parse::<u16>()", "text.parse::<u16>() was Err (expect)"),
        ("load(x).await", "load(x).await was None/Err (expect)"),  # the type is not shown
        ("map.remove(&x)", "map.remove(&x) was None (expect)"),
        # std's `remove` takes one argument: tauri's `pm.remove(&packages, dir)` is its own
        ("pm.remove(&x, url)", "pm.remove(&x, url) was None/Err (expect)"),
        # `Path::strip_prefix` gives an `Err`, `str::strip_prefix` a `None`: uv's
        # `path.strip_prefix(root)` is not said to be `None`, nor a `"/tmp"` prefix
        ("path.strip_prefix(root)", "path.strip_prefix(root) was None/Err (expect)"),
        ('path.strip_prefix("/tmp")', 'path.strip_prefix("/tmp") was None/Err (expect)'),
        ("line.strip_suffix('\\n')", "line.strip_suffix('\\n') was None (expect)"),
        ("value.to_str()", "value.to_str() was None/Err (expect)"),  # `HeaderValue`'s: a Result
        # a JSON value's accessor gives an `Option` (meilisearch's `as_u64()`, reading 145)
        ('v["total"].as_u64()', 'v["total"].as_u64() was None (expect)'),
        # an `Option` of `Result`s made a `Result` (neon's `.map(parse).transpose()`, 138)
        ("v.map(|s| s.parse()).transpose()", "v.map(|s| s.parse()).transpose() was Err (expect)"),
        # common crates' fns by their paths (neon's `serde_json::to_value(&config)`, 210)
        ("serde_json::to_value(&x)", "serde_json::to_value(&x) was Err (expect)"),
        ('Regex::new(r"^a+$")', 'Regex::new(r"^a+$") was Err (expect)'),
        ("NonZeroUsize::new(8)", "NonZeroUsize::new(8) was None (expect)"),
        # chrono's, whatever its type is imported as (activitypub's, reading 304)
        ("ChronoDuration::try_seconds(n)", "ChronoDuration::try_seconds(n) was None (expect)"),
        ("FixedOffset::east_opt(0)", "FixedOffset::east_opt(0) was None (expect)"),
        (
            "SystemTime::now().duration_since(UNIX_EPOCH)",
            "SystemTime::now().duration_since(UNIX_EPOCH) was Err (expect)",
        ),
        # a fn of the repository's of a like name is not guessed at
        ("my_json::to_value(&x)", "my_json::to_value(&x) was None/Err (expect)"),
        # std's files and processes (rustup's `file.sync_data()`, reading 280)
        ("file.sync_data()", "file.sync_data() was Err (expect)"),
        ("cmd.output()", "cmd.output() was Err (expect)"),
        # a child process's (cargo's `child.wait()`, reading 302), awaited too (tokio's)
        ("child.wait()", "child.wait() was Err (expect)"),
        ("child.wait().await", "child.wait().await was Err (expect)"),
        ("cmd.spawn()", "cmd.spawn() was Err (expect)"),
        # not reqwest's `try_clone`, an `Option` (uv's requests)
        ("req.try_clone()", "req.try_clone() was None/Err (expect)"),
        # an awaited well-known async method (neon's `encoder.write_all(b"\n").await` and a
        # semaphore's `acquire_owned().await` read "was `None` or `Err`", reading 262), a
        # stream's `next()`; not a `recv()` (tokio's mpsc gives an `Option`, its broadcast a
        # `Result`)
        ('w.write_all(b"\\n").await', 'w.write_all(b"\\n").await was Err (expect)'),
        ("s.clone().acquire_owned().await", "s.clone().acquire_owned().await was Err (expect)"),
        ("stream.next().await", "stream.next().await was None (expect)"),
        ("rx.recv().await", "rx.recv().await was None/Err (expect)"),
        # prometheus' registering macros give a `Result`
        ('register_int_counter!("a", "b")', 'register_int_counter!("a", "b") was Err (expect)'),
        # `write!` gives `fmt::Write`'s or `io::Write`'s `Result` (sqlx's, reading 326)
        ('write!(s, "{x:02x}")', 'write!(s, "{x:02x}") was Err (expect)'),
        # an error mapped is a `Result`'s (an `Option` has no `map_err`)
        ("load(x).map_err(E::from)", "load(x).map_err(E::from) was Err (expect)"),
        # std's conversions by path, of one argument, whatever the type (risingwave's and
        # sqlx's `usize::try_from(n)`, `TryFrom::try_from(v)`, reading 326)
        ("usize::try_from(x)", "usize::try_from(x) was Err (expect)"),
        ("TryFrom::try_from(x)", "TryFrom::try_from(x) was Err (expect)"),
        ("Mode::from_str(text)", "Mode::from_str(text) was Err (expect)"),
        ("Mode::from_str(text, x)", "Mode::from_str(text, x) was None/Err (expect)"),
        # an `Option`'s or a `Result`'s adapter keeps its kind (sqlx's `checked_sub(..).map(..)`)
        ("x.checked_sub(1).map(Money)", "x.checked_sub(1).map(Money) was None (expect)"),
        ("text.parse::<u8>().as_ref()", "text.parse::<u8>().as_ref() was Err (expect)"),
        ("load(x).map(Money)", "load(x).map(Money) was None/Err (expect)"),
        # `Any`'s (arrow's `as_any().downcast_ref::<T>()`), a `Result` made an `Option`
        (
            "a.as_any().downcast_ref::<Int64Array>()",
            "a.as_any().downcast_ref::<Int64Array>() was None (expect)",
        ),
        ("load(x).ok()", "load(x).ok() was None (expect)"),
        ("row.iter().last().flatten()", "row.iter().last().flatten() was None (expect)"),
        # tokio's awaited fns by path: std's files, a task's join, a timeout
        (
            "tokio::fs::create_dir_all(url).await",
            "tokio::fs::create_dir_all(url).await was Err (expect)",
        ),
        (
            "tokio::task::spawn_blocking(f).await",
            "tokio::task::spawn_blocking(f).await was Err (expect)",
        ),
        ("tokio::time::timeout(d, f).await", "tokio::time::timeout(d, f).await was Err (expect)"),
        ("my::spawn_blocking(f).await", "my::spawn_blocking(f).await was None/Err (expect)"),
        ('dotenvy::var("DATABASE_URL")', 'dotenvy::var("DATABASE_URL") was Err (expect)'),
    ],
)
def test_an_expect_step_says_what_its_receiver_held(receiver: str, step: str) -> None:
    source = f'async fn f(url: &str, text: &str, x: u8) {{\n    {receiver}.expect("m");\n}}\n'
    assert site_of(source, "m").facts.conditions == (Condition("closure", step, 2),)


@pytest.mark.parametrize(
    ("lets", "step"),
    [
        # cargo's `unpack`: `let mut result = entry.unpack_in(parent).map_err(..)`, then
        # `result = result.with_context(..)` read "`result` was None/Err" (recheck 319)
        ("let mut held = entry.unpack_in(dir).map_err(anyhow::Error::from);", "held was Err"),
        ("let held = map.get(&x);", "held was None"),  # the nearest `let` of the name
        ("let held = map.get(&x);\n    let held = text.parse::<u8>();", "held was Err"),
        # a loop's binding of the name ends with its body
        ("let held = map.get(&x);\n    for held in items {}", "held was None"),
        ("let held = load(x);", "held was None/Err"),  # a fn of the repository's
    ],
)
def test_a_bare_name_s_step_says_what_its_let_holds(lets: str, step: str) -> None:
    source = f'fn f(x: u8) {{\n    {lets}\n    held.expect("m");\n}}\n'
    (condition,) = site_of(source, "m").facts.conditions
    assert condition.text == f"{step} (expect)"


@pytest.mark.parametrize(
    ("parameters", "body", "step"),
    [
        # a parameter nothing in the body binds again: its written type says (sqlx's
        # `resolve.context(..)` of `resolve: Option<..>` read "was None/Err")
        ("held: Option<u8>", "", "held was None"),
        ("held: &mut std::option::Option<u8>", "", "held was None"),
        ("held: Result<u8, E>", "", "held was Err"),
        ("held: io::Result<u8>", "", "held was Err"),  # an alias named so, as the index reads it
        ("held: Held", "", "held was None/Err"),
        # a pattern in the body binds it again: what it holds there is not the parameter's
        ("held: Vec<Result<u8, E>>", "for held in held {\n", "held was None/Err"),
        ("held: Option<u8>", "let held = load(held);\n", "held was None/Err"),
        ("x: Option<u8>", "", "held was None/Err"),  # no such parameter
    ],
)
def test_a_bare_parameter_s_step_says_what_its_type_holds(
    parameters: str, body: str, step: str
) -> None:
    closing = "}\n" if body.startswith("for") else ""
    source = f'fn f({parameters}) {{\n    {body}    held.expect("m");\n{closing}}}\n'
    assert site_of(source, "m").facts.conditions[-1].text == f"{step} (expect)"


def test_a_name_a_use_of_tokio_brings_in_is_tokio_s() -> None:
    source = (
        "use tokio::signal::unix::{signal, SignalKind};\nuse tokio::time::timeout;\n"
        'async fn f(d: u8) {\n    signal(SignalKind::terminate()).expect("m");\n'
        '    timeout(d, g()).await.expect("n");\n}\n'
    )
    assert site_of(source, "m").facts.conditions[-1].text == (
        "signal(SignalKind::terminate()) was Err (expect)"
    )
    assert (
        site_of(source, "n").facts.conditions[-1].text == "timeout(d, g()).await was Err (expect)"
    )


@pytest.mark.parametrize(
    ("closure", "outcome"),
    [
        # `Option::unwrap_or_else` runs a closure of no parameter, `Result::unwrap_or_else`
        # one of the error (risingwave's `usize::try_from(n).unwrap_or_else(|_| panic!(..))`)
        ("||", "None"),
        ("|_|", "Err"),
        ("|e: Error|", "Err"),
        ("|(a, b)|", "Err"),
    ],
)
def test_unwrap_or_else_s_closure_says_which_value_held_nothing(closure: str, outcome: str) -> None:
    source = f'fn f(x: u8) {{\n    load(x).unwrap_or_else({closure} panic!("m"));\n}}\n'
    assert site_of(source, "m").facts.conditions[-1].text == (
        f"load(x) was {outcome} (unwrap_or_else)"
    )


def test_a_name_a_pattern_around_it_binds_is_not_the_let_above() -> None:
    source = (
        "fn f(x: u8) {\n    let held = map.get(&x);\n"
        '    if let Ok(held) = other(x) {\n        held.expect("m");\n    }\n}\n'
    )
    assert site_of(source, "m").facts.conditions[-1].text == "held was None/Err (expect)"


def test_a_passed_assert_is_a_premise_not_the_failure_of_an_expect_after_it() -> None:
    # cargo src/sources/registry/http_remote.rs: `assert!(source_id.is_sparse())`, then
    # `url.strip_prefix("sparse+").expect(..)`; the check is the prefix, not the assert.
    source = (
        "fn new(source_id: SourceId, url: &str) {\n"
        "    assert!(source_id.is_sparse());\n"
        '    let url = url.strip_prefix("sparse+").expect("needs sparse+ prefix");\n'
        "}\n"
    )
    chain = site_of(source, "needs sparse+ prefix").facts.conditions
    assert [c.kind for c in chain] == ["ensure", "closure"]
    assert validation_code(chain) == 'let ok = url.strip_prefix("sparse+").is_some();'


FN_SOURCE = """\
pub struct Barrier;

impl Barrier {
    /// Injects the initial barrier of a database.
    ///
    /// The database must not be paused.
    #[instrument(skip(self))]
    pub async fn inject_initial(&self, paused: bool) -> MetaResult<()> {
        if paused {
            bail!("target");
        }
        Ok(())
    }
}

impl fmt::Display for Barrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("display target")
    }
}

trait Store {
    fn put(&self) {
        unimplemented!("trait default target")
    }
}

fn free() {
    // not a doc comment
    todo!("free target")
}
"""


@pytest.mark.parametrize(
    ("message", "fn", "impl", "doc", "returns"),
    [
        (
            "target",
            "inject_initial",
            "Barrier",
            "Injects the initial barrier of a database.\n\nThe database must not be paused.",
            "MetaResult<()>",
        ),
        ("display target", "fmt", "fmt::Display for Barrier", None, "fmt::Result"),
        ("trait default target", "put", "Store", None, None),
        ("free target", "free", None, None, None),
    ],
)
def test_enclosing_fn_impl_doc_and_return_type(
    message: str, fn: str, impl: str | None, doc: str | None, returns: str | None
) -> None:
    facts = site_of(FN_SOURCE, message).facts
    assert (facts.enclosing_fn, facts.enclosing_impl, facts.fn_doc, facts.return_type) == (
        fn,
        impl,
        doc,
        returns,
    )


ATTR_SOURCE = """\
/// Errors of the catalog.
#[derive(Debug, Error)]
pub enum CatalogError {
    /// The id is unknown.
    #[error("not found: {0}")]
    NotFound(u32),
    #[error("duplicate: {0}")]
    Duplicate(String),
}

/// The connection dropped.
#[derive(Debug, Error)]
#[error("connection closed")]
pub struct Closed;
"""


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        (
            "not found: {0}",
            Facts(
                enclosing_type="CatalogError",
                variant="NotFound",
                type_doc="The id is unknown.",
                fields=(("0", "u32"),),
                type_visibility="pub",
                cause="",  # no `#[source]`, `#[from]` nor `source` field: it keeps no cause
            ),
        ),
        (
            # a variant with no doc comment has the enum's, said to be the enum's
            "duplicate: {0}",
            Facts(
                enclosing_type="CatalogError",
                variant="Duplicate",
                enum_doc="Errors of the catalog.",
                fields=(("0", "String"),),
                type_visibility="pub",
                cause="",
            ),
        ),
        (
            "connection closed",
            Facts(
                enclosing_type="Closed",
                type_doc="The connection dropped.",
                type_visibility="pub",
                cause="",
            ),
        ),
    ],
)
def test_error_attribute_facts_name_the_type_and_variant(message: str, facts: Facts) -> None:
    assert site_of(ATTR_SOURCE, message).facts == facts


@pytest.mark.parametrize(
    ("source", "receiver", "callee"),
    [
        ('fn f() { let a = cfg.port.expect("target"); }', "cfg.port", None),
        (
            'fn f() { let a = load(p)\n    .await\n    .context("target")?; }',
            "load(p).await",
            None,
        ),
        (
            'fn f() -> R { Err(MetaError::invalid_parameter("target")) }',
            None,
            "MetaError::invalid_parameter",
        ),
    ],
)
def test_receiver_and_callee(source: str, receiver: str | None, callee: str | None) -> None:
    facts = site_of(source).facts
    assert (facts.receiver, facts.callee) == (receiver, callee)


HELPS = [
    pytest.param(
        'Err(LabeledError::new("a target").with_label("x", span).with_help("Pass a table."))',
        "Pass a table.",
        id="with_help-on-the-chain",
    ),
    pytest.param(
        'Err(GenericError::new("a target", "m", span).with_help(format!("use {} instead", 3)))',
        "use {} instead",
        id="a-format-as-written",
    ),
    pytest.param(
        'Err(Wrapped { source: Error::new("a target"), help: Some("Give a path.".into()) })',
        "Give a path.",
        id="the-help-field-of-its-struct",
    ),
    pytest.param(
        'Err(report.with_help(Error::new("a target")))',  # the site is the help, not helped
        None,
        id="given-as-an-argument",
    ),
    pytest.param('Err(Error::new("a target"))', None, id="none"),
]


@pytest.mark.parametrize(("expression", "help"), HELPS)
def test_the_help_an_error_carries(expression: str, help: str | None) -> None:
    site = site_of(
        f"fn subject(span: Span) -> Result<(), E> {{\n    {expression}\n}}\n", "a target"
    )
    assert site.facts.help == help


def test_a_context_after_a_question_mark_guards_only_the_steps_after_it() -> None:
    """crates.io's `self.repository.find_commit(self.head_oid()?)?.as_object()
    .peel_to_tree().context("failed to find tree for HEAD")` said the whole chain "returned
    `None` or an error": `find_commit` failing returns at its own `?` (reading 139). A `?`
    inside an argument is no step of the chain."""
    source = """\
fn files(&self) -> anyhow::Result<Tree> {
    let tree = self.repository.find_commit(self.head_oid()?)?
        .as_object()
        .peel_to_tree()
        .context("failed to find tree for HEAD")?;
    let conn = connect(&var("DATABASE_URL").context("DATABASE_URL must be set")?).await.context("failed to connect")?;
    Ok(tree)
}
"""
    tree = site_of(source, "failed to find tree for HEAD").facts
    assert tree.receiver == (
        "self.repository.find_commit(self.head_oid()?)?.as_object().peel_to_tree()"
    )
    assert tree.conditions[-1].text == "\u2026?.as_object().peel_to_tree() was None/Err (context)"
    # `f(x)?.expect(..)`: the value `?` gave is what the `expect` guards
    ident = 'fn f(e: &E) -> Result<()> {\n    e.get(KEY)?.expect("store should have bootstrapped");\n}\n'
    assert site_of(ident, "store should have bootstrapped").facts.receiver == "e.get(KEY)?"
    conn = site_of(source, "failed to connect").facts
    assert (
        conn.receiver == 'connect(&var("DATABASE_URL").context("DATABASE_URL must be set")?).await'
    )
    said = explained_all(source)["failed to find tree for HEAD"].documentation
    assert (
        "The call it guards, `\u2026?.as_object().peel_to_tree()`, returned `None` or an error. "
        "The steps before its `?` ran first: one that failed returned there, at its `?`, "
        "with the error it gave."
    ) in said


def test_steps_on_one_line_read_outermost_first() -> None:
    """crates.io's `Ok(opt) => opt.ok_or_else(|| anyhow!(..))` wrote `let ok = opt.is_some()
    || !matches!(res, Ok(opt));`: `opt` is the arm's binding, no value outside it (reading
    142). With the arm first, the closure reads a name it bound: no check is written."""
    source = (
        "fn required<T>(res: anyhow::Result<Option<T>>, key: &str) -> anyhow::Result<T> {\n"
        "    match res {\n"
        '        Ok(opt) => opt.ok_or_else(|| anyhow!("Failed to find required {key}")),\n'
        "        Err(error) => Err(error),\n"
        "    }\n"
        "}\n"
    )
    site = site_of(source, "Failed to find required {key}")
    assert [c.kind for c in site.facts.conditions] == ["match_arm", "closure"]
    assert validation_code(site.facts.conditions) is None


EITHER_BRANCH = """\
fn receive(state: &State, name: &str) -> Result<(), ShellError> {
    if state.closed {
        return Ok(());
    }
    let error = if let Some(span) = state.span {
        GenericError::new(format!("Failed to receive a response from `{}`", name), span)
    } else {
        GenericError::new_internal(format!("Failed to receive a response from `{}`", name))
    };
    Err(ShellError::Generic(error))
}

fn limit(n: u32) -> anyhow::Result<()> {
    if n > 3 {
        anyhow::bail!("out of range: {n}");
    } else if n == 0 {
        anyhow::bail!("out of range: {n}");
    }
    Ok(())
}

fn notify(cancel: &Token) -> anyhow::Result<()> {
    if cancel.is_cancelled() {
        return Err(anyhow::anyhow!("shutting down"));
    }
    if cfg!(debug_assertions) {
        panic!("shutting down");
    } else {
        Err(anyhow::anyhow!("shutting down"))
    }
}
"""


def test_a_branch_that_only_picks_how_the_same_error_is_built_is_no_step_to_it() -> None:
    """nushell's `if let Some(span) = state.span { GenericError::new(..) } else {
    GenericError::new_internal(..) }` with one message read "goes on only when
    `state.span.is_some()`": a span fails the same way (reading 148)."""
    scan = find_sites("src/lib.rs", EITHER_BRANCH.encode())
    chains = [
        (s.line, [(c.kind, c.text, c.negated) for c in s.facts.conditions]) for s in scan.sites
    ]
    assert chains == [
        (6, [("exit", "state.closed", True)]),
        (8, [("exit", "state.closed", True)]),
        (15, [("if", "n > 3", False)]),  # both tests decide: 0 and 4 fail, 2 does not
        (17, [("else", "n > 3", True), ("if", "n == 0", False)]),
        # past an `if` that returned the same error is another way, not its other branch
        (24, [("if", "cancel.is_cancelled()", False)]),
        # a panic in one branch and an `Err` in the other: the test says when it panics
        (27, [("ensure", "cancel.is_cancelled()", True), ("if", "cfg!(debug_assertions)", False)]),
        (29, [("ensure", "cancel.is_cancelled()", True), ("else", "cfg!(debug_assertions)", True)]),
    ]


def test_a_debug_assert_above_is_no_premise_of_the_site() -> None:
    """qdrant's `debug_assert!(false, "..")` above a return read "the earlier check `false`
    passed": a release build skips it, so the site is reached whatever it says (reading
    152). An `assert!` above still is a premise."""
    site = site_of(
        "fn subject(x: u32) -> anyhow::Result<()> {\n"
        '    debug_assert!(x > 1, "small");\n'
        '    assert!(x < 9, "big");\n'
        '    anyhow::bail!("target")\n'
        "}\n"
    )
    assert [(c.kind, c.text) for c in site.facts.conditions] == [("ensure", "x < 9")]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("Some(true)", "let ok = !self.enabled || !matches!(self.titan, Some(true));"),
        ("Some(flag)", "let ok = !self.enabled || self.titan.is_none();"),
        ("Ok(false)", "let ok = !self.enabled || !matches!(self.titan, Ok(false));"),
    ],
)
def test_a_literal_in_a_let_pattern_is_tested_not_bound(pattern: str, expected: str) -> None:
    """tikv's `if let Some(true) = self.titan.enabled { return Err(..) }` read "The code goes on
    only when `.. || self.titan.enabled.is_none()`", false for `Some(false)` (reading 181)."""
    source = (
        "fn validate(&self) -> Result<(), String> {\n"
        "    if self.enabled {\n"
        f"        if let {pattern} = self.titan {{\n"
        '            return Err("target".into());\n'
        "        }\n"
        "    }\n"
        "    Ok(())\n}\n"
    )
    assert validation_code(site_of(source, "target").facts.conditions) == expected


def test_a_fn_declared_in_a_method_s_body_is_no_method_of_the_impl() -> None:
    """cargo's `fn parse_option_bool(..)` inside `CliUnstable::add` was named
    `CliUnstable::parse_option_bool`, a name that does not resolve (reading 183)."""
    source = (
        "impl CliUnstable {\n"
        "    pub fn add(&mut self, k: &str, v: Option<&str>) -> anyhow::Result<()> {\n"
        "        fn parse_option_bool(key: &str, value: Option<&str>) -> anyhow::Result<bool> {\n"
        '            anyhow::bail!("flag -Z{key} expected `no` or `yes`")\n'
        "        }\n"
        "        if k.is_empty() {\n"
        '            anyhow::bail!("no flag given")\n'
        "        }\n"
        "        Ok(())\n"
        "    }\n"
        "}\n"
    )
    nested = site_of(source, "flag -Z{key} expected `no` or `yes`").facts
    assert (nested.enclosing_fn, nested.enclosing_impl) == ("parse_option_bool", None)
    method = site_of(source, "no flag given").facts
    assert (method.enclosing_fn, method.enclosing_impl) == ("add", "CliUnstable")


def test_a_name_tested_as_an_option_above_an_expect_holds_none_there() -> None:
    """neon's `if az_id.is_none() { panic!(..) }` above `az_id.expect("Checked above")` read
    "`az_id` was None/Err" (reading 262): the check says it is an `Option`."""
    source = (
        "fn f(az: Option<u8>) -> u8 {\n"
        "    let az_id = az;\n"
        '    if az_id.is_none() {\n        panic!("no zone");\n    }\n'
        '    az_id.expect("Checked above")\n'
        "}\n"
    )
    assert site_of(source, "Checked above").facts.conditions[-1].text == ("az_id was None (expect)")
