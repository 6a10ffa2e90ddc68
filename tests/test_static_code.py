"""Issue 11: the static analyzer's code fields are whole, valid Rust, and logically right."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_fixtures import explained, explained_all

from pipeline.analyze import SiteContext
from pipeline.analyze.static import explain
from pipeline.analyze.static_code import printed_values
from pipeline.core.sitetypes import Condition
from pipeline.languages.rust.codecheck import parses_as_code
from pipeline.languages.rust.logic import validation_code
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

SOURCE = """\
use anyhow::{bail, ensure, Result};

impl Scheduler {
    pub fn schedule(&self, id: u32, deferred: bool) -> Result<()> {
        if !deferred {
            if !self.jobs.is_empty() {
                if self.set.contains(&id) {
                    bail!("job {id} is already scheduled while other jobs are pending");
                }
            }
        }
        Ok(())
    }

    pub fn check(&self, n: usize) -> Result<()> {
        anyhow::ensure!(
            n < self.capacity,
            "requested {} slots, more than the configured capacity",
            n
        );
        Ok(())
    }

    fn start(&self, s: &str) -> Result<u64> {
        if let Some(start) = s.strip_prefix("start=") {
            bail!("a start offset is not accepted in this position: {start}");
        }
        Ok(0)
    }
}

static PERMITS: Lazy<Semaphore> = Lazy::new(|| {
    let permits = read_permits();
    assert!(permits != 0, "the permit count must be positive");
    Semaphore::new(permits)
});

fn serve(conf: &Config) -> Result<()> {
    if !conf.auth_enabled {
        bail!("refusing to serve without authentication on a public address");
    }
    Ok(())
}

impl Gate {
    fn admit(&self, user: &str) -> Result<()> {
        if self.conf.auth_enabled {
            if !self.authorized(user) {
                bail!("user {user} is not authorized to open this session");
            }
        }
        Ok(())
    }
}

pub fn emit_flag(flag: &str) {
    if flag.contains(' ') {
        panic!("cannot emit flag: invalid flag {flag:?}");
    }
}

pub fn take(n: usize, buf: &Vec<u8>) {
    assert!(n > 0, "n must be positive");
    let first = buf.first().expect("buf holds a byte");
}

fn lsn(x: u64) -> Result<()> {
    if x == 0 {
        bail!("bad lsn {x}");
    }
    Ok(())
}
"""


def contexts() -> dict[str, SiteContext]:
    scan = find_sites("src/sched.rs", SOURCE.encode())
    found = build_contexts("acme/widgets", "ab" * 20, RepoScan(scans={"src/sched.rs": scan}))
    return {c.site.message.split(" ")[0] + c.site.message.split(" ")[1]: c for c in found}


def test_every_code_field_parses_and_example_fix_holds_the_whole_call() -> None:
    for context in contexts().values():
        explanation = explain(context)
        fields = (explanation.exampleFix, explanation.validationCode, explanation.typeGuard,
                  explanation.tryCatchPattern)  # fmt: skip
        for text in fields:
            assert text is None or parses_as_code(text), text
    fix = explain(contexts()["requested{}"]).exampleFix
    # the whole multi-line `ensure!` call, not its first line `anyhow::ensure!(`
    assert '"requested {} slots, more than the configured capacity",' in fix
    assert not fix.rstrip().endswith("(")


def test_validation_negates_the_whole_chain_by_de_morgan() -> None:
    explanation = explain(contexts()["job{id}"])
    assert explanation.validationCode == (
        "let ok = deferred || scheduler.jobs.is_empty() || !scheduler.set.contains(&id);"
    )


def test_a_let_pattern_becomes_a_test_not_a_let_expression() -> None:
    explanation = explain(contexts()["astart"])
    assert explanation.validationCode == 'let ok = s.strip_prefix("start=").is_none();'


def test_a_static_initializer_is_named_by_its_item_not_the_file() -> None:
    explanation = explain(contexts()["thepermit"])
    assert "`static PERMITS`" in explanation.documentation
    assert "src/sched.rs`" not in " ".join(explanation.solutions + explanation.preventionTips)


def test_a_panic_reads_as_a_broken_assumption_with_how_to_report() -> None:
    explanation = explain(contexts()["thepermit"])
    assert explanation.solutions[0] == (
        "The code assumed `permits != 0` always holds here, and it did not."
    )
    assert "RUST_BACKTRACE=1" in explanation.solutions[1]
    assert explanation.tryCatchPattern is None


@pytest.mark.parametrize(
    ("key", "place", "test"),
    [("cannotemit", "`emit_flag`", "!flag.contains(' ')"), ("nmust", "`take`", "n > 0")],
)
def test_a_panic_that_refuses_its_fn_s_arguments_says_whose_call_to_fix(
    key: str, place: str, test: str
) -> None:
    """A library's `panic!`/`assert!` on its parameters refuses what the caller passed:
    not "a bug, not something to fix in your input" (cargo's `build_rs::output`)."""
    explanation = explain(contexts()[key])
    assert explanation.solutions[0] == (
        f"{place} goes on only when `{test}`, and panics otherwise: it refuses the values it "
        "was given."
    )
    assert "if your code calls it, pass values the check accepts" in explanation.solutions[1]
    assert "RUST_BACKTRACE=1" in explanation.solutions[1]
    advice = " ".join([*explanation.solutions, *explanation.preventionTips])
    assert "not something to fix in your input" not in advice
    assert explanation.preventionTips[0] == f"Before calling {place}, make sure `{test}`."
    assert "is a bug" not in explanation.exampleFix
    assert explanation.backgroundTag == "invalid-argument"  # not a broken invariant


def test_an_expect_in_the_same_fn_is_still_a_broken_assumption() -> None:
    explanation = explain(contexts()["bufholds"])
    assert explanation.backgroundTag == "internal-invariant"
    # (`first()` gives an `Option`, as the scan tells: not "never `None` nor an `Err`")
    assert explanation.solutions[0] == (
        "The code assumed `buf.first()` always gives a value here (never `None`); this time "
        "it did not."
    )
    assert "not something to fix in your input" in explanation.solutions[1]


def test_a_security_check_is_never_advised_away() -> None:
    explanation = explain(contexts()["refusingto"])
    advice = " ".join(explanation.solutions + explanation.preventionTips + [explanation.exampleFix])
    assert "do not switch it off" in advice
    assert "`conf.auth_enabled`" not in advice.replace("if conf.auth_enabled", "")


def test_no_advice_turns_authentication_off() -> None:
    explanation = explain(contexts()["user{user}"])
    advice = " ".join([*explanation.solutions, *explanation.preventionTips, explanation.exampleFix])
    assert "auth_enabled" not in advice
    assert "do not switch it off" in advice


def test_try_catch_walks_the_anyhow_chain_with_the_real_call() -> None:
    pattern = explain(contexts()["job{id}"]).tryCatchPattern
    assert pattern is not None
    assert pattern.startswith("match scheduler.schedule(id, deferred) {")
    assert (
        'e.chain().any(|cause| cause.to_string().contains("is already scheduled while other '
        in pattern
    )
    assert " e.to_string()" not in pattern  # the outermost context only: misses wrapped errors


def test_a_fn_that_returns_a_future_is_awaited_before_its_error_is_matched() -> None:
    """surrealdb's `fn invoke_async(..) -> BoxFut<'a, Result<Value>>` builds its error in the
    future it returns: `match search_analyze.invoke_async(ctx, args) { Err(e) .. }` matched
    the future, which does not compile (reading 313). An `async fn`'s call was awaited
    already; a fn that returns `impl Future`, `BoxFut`, `BoxFuture` or `dyn Future` is too."""
    found = explained_all(
        "impl Function for SearchAnalyze {\n"
        "    fn invoke_async<'a>(&'a self, ctx: &'a Ctx, args: Vec<Value>) -> BoxFut<'a, "
        "Result<Value>> {\n"
        "        Box::pin(async move {\n"
        "            if args.is_empty() {\n"
        '                return Err(anyhow::anyhow!("search::analyze expects two arguments"));\n'
        "            }\n"
        "            Ok(Value::None)\n"
        "        })\n"
        "    }\n"
        "}\n"
        "pub fn later(n: u8) -> impl std::future::Future<Output = anyhow::Result<u8>> {\n"
        "    async move {\n"
        '        anyhow::ensure!(n > 0, "a later value must be positive");\n'
        "        Ok(n)\n"
        "    }\n"
        "}\n"
    )
    analyze = found["search::analyze expects two arguments"].tryCatchPattern
    assert analyze is not None and analyze.startswith(
        "match search_analyze.invoke_async(ctx, args).await {"
    ), analyze
    positive = found["a later value must be positive"].tryCatchPattern
    assert positive is not None and positive.startswith("match later(n).await {"), positive


def test_try_catch_is_null_for_a_needle_as_short_as_lsn() -> None:
    assert explain(contexts()["badlsn"]).tryCatchPattern is None


def test_prevention_tips_are_whole_sentences() -> None:
    for context in contexts().values():
        for tip in explain(context).preventionTips:
            assert not tip.endswith('"cannot ...'), tip
            assert tip.count('"') % 2 == 0, tip


def test_the_last_prevention_tip_is_the_class_s_and_says_what_to_do() -> None:
    """It was the class description's first sentence ("A generic failure: the operation
    could not be completed ..."): what the class is, which the page shows, and no tip."""
    from pipeline.analyze.accessors import ASSUMPTION_TIP
    from pipeline.analyze.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    for context in contexts().values():
        explanation = explain(context)
        known = taxonomy[explanation.backgroundTag]
        tip = explanation.preventionTips[-1]
        if tip == ASSUMPTION_TIP and "before passing" in known.prevention:
            continue  # the code's own assumption: no "before passing" (test_assumption_tips)
        if "Class, by the word" in explanation.documentation:  # the words' class: an "if"
            lead = f'If it is a case of "{known.title}", as '
            assert tip.startswith(lead)
            assert tip.endswith(" suggest: " + known.prevention[0].lower() + known.prevention[1:])
        else:
            assert tip == known.prevention
        assert not any(known.description.startswith(tip) for tip in explanation.preventionTips)


# --- validationCode against an evaluator over generated chains ---------------------------

VARIABLES = ("a", "b", "c", "d")
_atom = st.sampled_from([*VARIABLES, "n == 1", "n != 2", "x.is_some()", "x.is_none()"])


def _expr(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return _atom
    inner = _expr(depth - 1)
    return st.one_of(
        _atom,
        inner.map(lambda e: f"!({e})" if " " in e else f"!{e}"),
        st.tuples(inner, inner).map(lambda p: f"{p[0]} && {p[1]}"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]} || {p[1]})"),
    )


_chain = st.lists(
    st.tuples(st.sampled_from(["if", "else", "ensure", "check_failed", "while"]), _expr(2)),
    min_size=1,
    max_size=4,
)


def _python(rust: str) -> str:
    text = rust.replace("&&", " and ").replace("||", " or ")
    text = text.replace("x.is_some()", "(x is not None)").replace("x.is_none()", "(x is None)")
    return re.sub(r"!(?!=)", " not ", text)


def _states() -> list[dict[str, object]]:
    states: list[dict[str, object]] = []
    for values in itertools.product([False, True], repeat=len(VARIABLES)):
        for n, x in itertools.product([1, 2, 3], [None, 5]):
            states.append({**dict(zip(VARIABLES, values, strict=True)), "n": n, "x": x})
    return states


@settings(max_examples=300, deadline=None)
@given(_chain)
def test_validation_is_exactly_the_negated_chain(chain: list[tuple[str, str]]) -> None:
    conditions = [Condition(kind, text, i) for i, (kind, text) in enumerate(chain, 1)]  # type: ignore[arg-type]
    code = validation_code(conditions)
    # An `ensure` step is an earlier check that passed: a premise of reaching the site,
    # not part of what fails there, so the check negates the other steps only.
    steps = [(k, t) for k, t in chain if k != "ensure"]
    if not steps:
        assert code is None
        return
    assert code is not None and parses_as_code(code), code
    check = code.removeprefix("let ok = ").removesuffix(";")
    for state in _states():
        holds = [bool(eval(_python(t), {}, state)) for _, t in steps]
        reached = all(h if k in ("if", "while") else not h
                      for (k, _), h in zip(steps, holds, strict=True))  # fmt: skip
        assert bool(eval(_python(check), {}, state)) == (not reached), (chain, check, state)


def test_a_name_bound_by_a_let_chain_makes_the_check_null() -> None:
    assert validation_code([Condition("if", "let Some(x) = a && x > 3", 1)]) is None
    assert validation_code([Condition("match_arm", "match v: _ =>", 1)]) is None
    assert validation_code([Condition("if", "a > b…", 1)]) is None


def test_a_name_bound_by_an_earlier_pattern_makes_the_check_null() -> None:
    chain = [
        Condition("while", "let Some(arg) = args.next()", 1),
        Condition("match_arm", "match *arg: s if s.starts_with('-') =>", 2),
    ]
    assert validation_code(chain) is None
    chain = [Condition("if_let", "let Some(x) = a", 1), Condition("if", "x > 3", 2)]
    assert validation_code(chain) is None
    chain = [Condition("if_let", "let Some(x) = a", 1), Condition("if", "y > 3", 2)]
    assert validation_code(chain) == "let ok = a.is_none() || !(y > 3);"


def test_a_model_answer_with_broken_code_is_published_with_that_field_null() -> None:
    from pipeline.dataset.records import build_record

    context = contexts()["job{id}"]
    answer = explain(context).model_copy(
        update={"validationCode": "let ok = (let Some(x) = y);", "typeGuard": "matches!(x"}
    )
    record = build_record(context, answer, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z")
    assert record.validationCode is None and record.typeGuard is None
    assert record.tryCatchPattern == answer.tryCatchPattern


def test_types_keep_their_spaces_and_a_bare_error_from_anyhow_is_anyhow() -> None:
    source = """\
use anyhow::{Context, Error};

fn a(x: u8) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    bail!("the first error of this fixture");
}

fn b(x: u8) -> Result<u8, &'static str> {
    Err("the second error of this fixture")
}

fn c(x: u8) -> Result<u8, Error> {
    bail!("the third error of this fixture");
}
"""
    scan = find_sites("src/t.rs", source.encode())
    found = build_contexts("acme/widgets", "ab" * 20, RepoScan(scans={"src/t.rs": scan}))
    classes = {c.site.message.split()[1]: c.error_class for c in found}
    assert classes == {
        "first": "Box<dyn std::error::Error + Send + Sync>",
        "second": "&'static str",
        "third": "anyhow::Error",
    }


def test_a_comment_inside_a_condition_does_not_swallow_the_rest_of_the_trigger() -> None:
    source = """\
fn f(a: bool, b: bool) -> anyhow::Result<()> {
    if a // the first flag
        && b
    {
        bail!("both flags are set, which this fixture rejects");
    }
    Ok(())
}
"""
    scan = find_sites("src/t.rs", source.encode())
    [context] = build_contexts("acme/widgets", "ab" * 20, RepoScan(scans={"src/t.rs": scan}))
    explanation = explain(context)
    assert "`a && b` is true" in explanation.triggerScenarios
    assert "//" not in explanation.triggerScenarios
    assert explanation.validationCode == "let ok = !a || !b;"


def test_no_prevention_tip_is_cut_inside_a_quote() -> None:
    from pipeline.analyze.static_advice import first_sentence
    from pipeline.analyze.taxonomy import load_taxonomy

    for failure_class in load_taxonomy().values():
        tip = first_sentence(failure_class.description)
        assert tip.count('"') % 2 == 0 and not tip.endswith(("...", '"cannot')), tip
    state = first_sentence(load_taxonomy()["invalid-state-transition"].description)
    assert state.endswith('"cannot ... while running/paused/creating".')


READ_BACK = """\
use anyhow::{bail, format_err, Result};

fn parse_semver_flag(v: &str) -> Result<u8> {
    let first = v
        .chars()
        .next()
        .ok_or_else(|| format_err!("no version provided for the `--version` flag"))?;
    Ok(0)
}

fn generate(sink: &Sink) -> Result<()> {
    if crate::manager::is_pk_index_sink(&sink.properties) {
        bail!("crate types can only be specified for libraries.\\nBinaries are always `bin`");
    }
    Ok(())
}
"""


def test_what_reading_records_against_the_source_found() -> None:
    scan = find_sites("src/r.rs", READ_BACK.encode())
    found = build_contexts("acme/widgets", "ab" * 20, RepoScan(scans={"src/r.rs": scan}))
    flag, crate_types = (explain(c) for c in found)
    # a chain broken over lines reads as written, not `v .chars() .next()`
    assert flag.validationCode == "let ok = v.chars().next().is_some();"
    # `--version` is a flag, not a version problem
    assert flag.backgroundTag == "invalid-argument"
    # `crate::` holds no `rate` limit: no security advice for an ordinary check
    assert not any("do not switch it off" in s for s in crate_types.solutions)
    # a needle with a newline is written with `\\n`, on one line
    assert crate_types.tryCatchPattern is not None
    assert 'contains("crate types can only be specified for libraries.\\nBinaries are always `' in (
        crate_types.tryCatchPattern
    )


def test_a_match_arm_is_taken_only_when_no_earlier_arm_matched() -> None:
    source = """\
fn pick(v: Option<u8>) -> anyhow::Result<u8> {
    match v {
        Some(0) => Ok(0),
        Some(n) if n > 200 => Ok(200),
        Some(_) => anyhow::bail!("a value between 1 and 200 is not accepted here"),
        None => Ok(1),
    }
}

fn other(v: u8) -> anyhow::Result<u8> {
    match v {
        0 => Ok(0),
        _ => anyhow::bail!("only zero is accepted by this fixture"),
    }
}
"""
    scan = find_sites("src/p.rs", source.encode())
    found = build_contexts("acme/widgets", "ab" * 20, RepoScan(scans={"src/p.rs": scan}))
    checks = {c.site.message.split()[0]: explain(c).validationCode for c in found}
    # `Some(0)` and `Some(201)` never reach the bail: the check must accept them
    assert checks["a"] == (
        "let ok = matches!(v, Some(0)) || matches!(v, Some(n) if n > 200) || v.is_none();"
    )
    assert checks["only"] == "let ok = matches!(v, 0);"


def test_a_catch_all_arm_reads_as_one_or_pattern_of_the_values_before_it() -> None:
    # cargo's `parse_edge_kinds`: `_ => unreachable!(..)` after five string arms
    chain = [
        Condition(
            "match_arm",
            "match *kind: _ =>",
            1,
            excluded=('"all"', '"features"', '"normal"', '"build"', '"dev"'),
        )
    ]
    assert (
        validation_code(chain) == 'let ok = matches!(*kind, "all" | "features" | "normal" | '
        '"build" | "dev");'
    )
    # the name an arm binds is `_` in the test (no check needs it), so it joins the others
    chain = [Condition("match_arm", "match v: _ =>", 1, excluded=("A::X", "A::Y(n)", "A::Z"))]
    assert validation_code(chain) == "let ok = matches!(v, A::X | A::Y(_) | A::Z);"
    # the arm taken: none of the earlier ones matched, and this one did; a value of another
    # variant never matches this one, so the earlier arms add nothing to the check
    chain = [Condition("match_arm", "match v: A::Z =>", 1, excluded=("A::X", "A::Y(..)"))]
    assert validation_code(chain) == "let ok = !matches!(v, A::Z);"
    # whatever the earlier arms bind (helix's `MappableCommand::Typable { name, .. }`)
    excluded = ("C::Typable { name, .. }", "C::Static(s)", "Some((a, b))")
    chain = [Condition("match_arm", "match item: C::Macro { .. } =>", 1, excluded=excluded[:2])]
    assert validation_code(chain) == "let ok = !matches!(item, C::Macro { .. });"
    chain = [Condition("match_arm", "match v: None =>", 1, excluded=excluded[2:])]
    assert validation_code(chain) == "let ok = v.is_some();"
    # .. unless an earlier arm may match the same values (`Some(0)` is a `Some(_)`)
    chain = [Condition("match_arm", "match v: Some(_) =>", 1, excluded=("Some(0)",))]
    assert validation_code(chain) == "let ok = matches!(v, Some(0)) || v.is_none();"
    chain = [Condition("match_arm", "match v: A::Z =>", 1, excluded=("A::X", "A::Z"))]
    assert validation_code(chain) == "let ok = matches!(v, A::X | A::Z) || !matches!(v, A::Z);"


@pytest.mark.parametrize(
    "scrutinee",
    [
        "self.state.compare_exchange(EMPTY, PARKED, SeqCst, SeqCst)",  # tokio runtime/park.rs
        "self.inner.write(buf)",  # an I/O write: a check must not repeat it
        "ready!(self.inner.poll_action(cx))",
        "rx.recv().await",
    ],
)
def test_a_check_never_repeats_a_call_that_does_something(scrutinee: str) -> None:
    chain = [Condition("match_arm", f"match {scrutinee}: Err(actual) =>", 1)]
    assert validation_code(chain) is None


def test_a_check_may_repeat_calls_that_only_read() -> None:
    chain = [Condition("match_arm", "match map.get(key, 1): Some(v) =>", 1)]
    assert validation_code(chain) == "let ok = map.get(key, 1).is_none();"
    chain = [Condition("if", "text.chars().next() == Some('-')", 1)]
    assert validation_code(chain) == "let ok = text.chars().next() != Some('-');"
    chain = [Condition("if", "args.next() == Some('-')", 1)]  # consumes what the code reads
    assert validation_code(chain) is None


GENERIC_IMPL = """\
impl<'gctx> RegistryData for HttpRegistry<'gctx> {
    fn load(&self, orig: &str, name: &str) -> anyhow::Result<()> {
        if name.is_empty() {
            anyhow::bail!("cannot replace `{orig}` with `{name}`: `{orig}` has checksums, {}", 1);
        }
        Ok(())
    }
}
"""


def test_a_trait_impl_s_method_is_named_as_its_type_s_and_a_value_printed_twice_once() -> None:
    scan = find_sites("src/http.rs", GENERIC_IMPL.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/http.rs": scan}))
    explanation = explain(context)
    text = " ".join([explanation.documentation, *explanation.solutions])
    assert "`HttpRegistry::load`" in text
    assert "RegistryData for" not in text and "'gctx" not in text
    assert "(`{orig}`, `{name}`): they show what it is about" in " ".join(explanation.solutions)


def test_a_debug_assertion_says_it_checks_only_in_debug_builds() -> None:
    source = b'pub fn f(a: usize) {\n    debug_assert!(a > 1, "a must exceed one");\n}\n'
    scan = find_sites("src/x.rs", source)
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/x.rs": scan}))
    assert "`debug_assert!` checks only where debug assertions are on" in (
        explain(context).documentation
    )
    assert "debug assertions" not in explain(contexts()["nmust"]).documentation  # `assert!`


def test_the_help_the_error_carries_is_the_first_solution() -> None:
    source = (
        "fn tables(span: Span) -> Result<(), LabeledError> {\n"
        '    Err(LabeledError::new("cannot retrieve a table").with_help("No table found."))\n'
        "}\n"
    )
    scan = find_sites("src/q.rs", source.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/q.rs": scan}))
    assert explain(context).solutions[0] == 'Its authors\' help for this error: "No table found."'


NOT_CHECKS = """\
use anyhow::Context;

fn compact(path: &str) -> anyhow::Result<()> {
    let env = open_env(read_txn_without_tls(), path)
        .with_context(|| format!("While trying to open the index at path {path:?}"))?;
    for token in tokens() {
        anyhow::bail!("cannot compact while the index is in use");
    }
    Ok(())
}

fn serve(conf: &Config) -> anyhow::Result<()> {
    if !conf.tls_enabled {
        anyhow::bail!("refusing to serve in plain text on a public address");
    }
    Ok(())
}
"""


def test_only_a_check_can_be_a_guard_not_a_failed_call_or_a_loop() -> None:
    """A `context` on a call named `read_txn_without_tls` and a bail inside `for token in ..`
    are no security checks (meilisearch's meilitool read "a deliberate check ... do not
    switch it off"); `if !conf.tls_enabled` is one."""
    scan = find_sites("src/m.rs", NOT_CHECKS.encode())
    found = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/m.rs": scan}))
    advice = {c.site.message.split()[0]: " ".join(explain(c).solutions) for c in found}
    assert "do not switch it off" not in advice["While"]
    assert "do not switch it off" not in advice["cannot"]
    assert "do not switch it off" in advice["refusing"]


MIETTE = """\
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ParseError {
    /// Invalid assignment left-hand side
    ///
    /// ## Resolution
    ///
    /// Assignment requires that you assign to a mutable variable or cell path.
    #[error("Assignment to an immutable variable.")]
    #[diagnostic(
        code(nu::parser::assignment_requires_mutable_variable),
        help("declare the variable with `mut`, or shadow it again with `let`")
    )]
    AssignmentRequiresMutableVar(Span),

    /// A name was given twice
    ///
    /// ## Resolution
    ///
    /// Give each parameter
    /// its own name.
    #[error("Duplicate parameter name in the signature.")]
    DuplicateName(Span),

    /// An open delimiter with no closing one
    #[error("Unclosed delimiter.")]
    #[diagnostic(code(nu::parser::unclosed_delimiter), help("{3}"))]
    Unclosed(String, Span, Span, String),
}
"""


def test_an_error_type_s_diagnostic_help_or_documented_resolution_is_its_first_solution() -> None:
    """miette's `#[diagnostic(help(..))]` (what a user is shown under the error), else the
    doc comment's `## Resolution` paragraph; the doc's first sentence stops at its paragraph."""
    scan = find_sites("src/errors.rs", MIETTE.encode())
    found = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/errors.rs": scan}))
    by_message = {c.site.message.split()[0]: explain(c) for c in found}
    assigned, duplicate = by_message["Assignment"], by_message["Duplicate"]
    assert assigned.solutions[0] == (
        "Its authors' help for this error: \"declare the variable with `mut`, or shadow it "
        'again with `let`"'
    )
    assert duplicate.solutions[0] == (
        'Its authors\' help for this error: "Give each parameter its own name."'
    )
    assert 'Its doc comment says: "Invalid assignment left-hand side"' in assigned.documentation
    assert "Resolution" not in assigned.documentation
    # nushell's `help("{3}")` prints a field: quoting the placeholder would tell nothing
    assert not any("authors' help" in s for s in by_message["Unclosed"].solutions)


LOCAL_STATE = """\
pub fn uninstall(specs: &[String]) -> anyhow::Result<()> {
    let mut scheduled_error = false;
    for spec in specs {
        scheduled_error |= remove(spec).is_err();
    }
    if scheduled_error {
        anyhow::bail!("some packages failed to uninstall");
    }
    Ok(())
}
"""


def test_no_caller_is_told_to_make_sure_of_a_value_the_fn_computes_itself() -> None:
    """cargo's `uninstall` read "Before calling `uninstall`, make sure `!scheduled_error`":
    a local its loop sets, which no caller can test; what the code requires stays said."""
    scan = find_sites("src/u.rs", LOCAL_STATE.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/u.rs": scan}))
    explanation = explain(context)
    assert not any(t.startswith("Before calling") for t in explanation.preventionTips)
    assert "The code goes on only when `!scheduled_error`." in explanation.solutions
    # a parameter's test still is (the `schedule` fixture reads its arguments and `self`)
    tips = explain(contexts()["job{id}"]).preventionTips
    assert tips[0].startswith("Before calling `Scheduler::schedule`, make sure `deferred ||")


CAUSES = """\
fn bind(conn: &Conn, user: &str) -> anyhow::Result<()> {
    if let Err(e) = conn.bind(user) {
        anyhow::bail!("LDAP bind failed: {}", e);
    }
    Ok(())
}

fn load(path: &str) -> anyhow::Result<()> {
    match read(path) {
        Err(err) => anyhow::bail!("failed to read {path}: {err:?}"),
        Ok(_) => Ok(()),
    }
}

fn header(parser: &mut Events) -> anyhow::Result<()> {
    match parser.next() {
        Some(Event::Text(_)) => Ok(()),
        e => anyhow::bail!("expected plain text in man header, got {:?}", e),
    }
}

fn ready(inner: &mut Grpc) -> Result<(), tonic::Status> {
    inner.ready().map_err(|e| tonic::Status::unknown(format!("Service was not ready: {}", e.into())))
}
"""


def test_a_printed_cause_is_read_as_the_error_underneath_not_a_rejected_value() -> None:
    """risingwave's "LDAP bind failed: {}" read "Look at the value(s) the message prints
    (`{}`): they name the input or object that was rejected"; the `{}` is the LDAP error."""
    scan = find_sites("src/l.rs", CAUSES.encode())
    found = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/l.rs": scan}))
    by_word = {c.site.message.split()[0]: explain(c) for c in found}
    ldap, read = by_word["LDAP"].solutions, by_word["failed"].solutions
    assert ldap[0].startswith("The message prints the error underneath (`{}`)")
    assert not any("Look at the value(s)" in s for s in ldap)
    assert read[0].startswith("The message prints the error underneath (`{err:?}`)")
    assert any("Look at the value(s) the message prints (`{path}`)" in s for s in read)
    assert "`{err:?}`" not in by_word["failed"].commonSituations
    # no failure word, no name: the argument it prints is the error (tonic's generated client)
    tonic = by_word["Service"].solutions
    assert tonic[0].startswith("The message prints the error underneath (`{}`)")
    assert not any("Look at the value(s)" in s for s in tonic)
    # "got {:?}" prints what the code did not want: an event named `e` is no error
    assert any("Look at the value(s)" in s for s in by_word["expected"].solutions)


def test_a_local_compared_with_not_equal_is_still_a_local() -> None:
    """cargo's `fail_if_stable_opt_custom_z` read "make sure `enabled || (channel != ..)`":
    `channel != "dev"` was taken for a macro call (`channel!`), so `channel`, a local, was
    not seen."""
    source = (
        "pub fn gate(enabled: bool) -> anyhow::Result<()> {\n"
        "    let channel = channel();\n"
        '    if !enabled && channel == "nightly" {\n'
        '        anyhow::bail!("the flag is unstable on this channel");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    scan = find_sites("src/g.rs", source.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/g.rs": scan}))
    assert not any(t.startswith("Before calling") for t in explain(context).preventionTips)


STRUCT_FIELD = """\
fn filters(index_uid: &str, keys: &Keys) -> Result<(), Error> {
    let foreign_keys = keys.get(index_uid).ok_or(Error::Milli {
        error: milli::Error::UserError(milli::UserError::InvalidFilter(
            "Index does not have foreign keys".to_string(),
        )),
        index_uid: Some(index_uid.to_string()),
    })?;
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    #[error("invalid grenad file with an invalid version format")]
    GrenadInvalidFormatVersion,
}
"""


def test_an_example_fix_shows_a_statement_or_promises_none() -> None:
    """A site in a struct literal's field quotes the statement that holds the literal (its
    field alone, `error: ..`, is no code); an `#[error]` variant, which no statement makes
    where it is declared, says where its fix is instead of "this statement:" and nothing."""
    scan = find_sites("src/filter.rs", STRUCT_FIELD.encode())
    by_message = {
        c.site.message: explain(c)
        for c in build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/filter.rs": scan}))
    }
    field = by_message["Index does not have foreign keys"].exampleFix
    assert field.startswith("// The error comes from this statement in filters (src/filter.rs):\n")
    assert "let foreign_keys = keys.get(index_uid).ok_or(Error::Milli {" in field
    assert parses_as_code(field)
    declared = by_message["invalid grenad file with an invalid version format"].exampleFix
    assert declared == (
        "// `InternalError::GrenadInvalidFormatVersion` is declared in src/filter.rs; no "
        "statement here makes it: the code that builds and returns it decides when it occurs, "
        "and what that code checks says what to change (an input, a setting, or the code)."
    )
    # not "and is where to fix it": the fix is often the input it refused (meilisearch's
    # `documentTemplate`, reading 193)


WRAPPED = """\
fn build(status: u16, raw: Vec<u8>) -> Result<String, SinkError> {
    if status != 200 {
        let body = String::from_utf8(raw).map_err(|err| {
            SinkError::Connect(anyhow!(err).context("failed to parse response body"))
        })?;
        return Ok(body);
    }
    Ok(String::new())
}
"""


def test_a_context_on_an_error_value_wraps_it_and_guards_no_call() -> None:
    """`anyhow!(err).context(..)` adds a message to an error it already has: nothing
    "was None/Err" there (risingwave: 82 records said `anyhow!(err)` returned an error)."""
    scan = find_sites("src/sink.rs", WRAPPED.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={"src/sink.rs": scan}))
    explanation = explain(context)
    assert explanation.documentation.startswith(
        "`build` wraps the error `anyhow!(err)` in this message in `src/sink.rs`."
    )
    assert "The call it guards" not in explanation.documentation
    assert "anyhow!(err)` was" not in explanation.triggerScenarios
    assert "`String::from_utf8(raw)` failed (`map_err`)" in explanation.triggerScenarios


def test_a_context_on_an_error_made_there_wraps_it_and_guards_no_call() -> None:
    # risingwave's MySQL parser: `Some(Err(e)) => Err(anyhow::Error::new(e.clone())
    # .context(..).context(..))` said `anyhow::Error::new(..)` "returned `None` or an error"
    source = (
        "fn value(row: &Row) -> anyhow::Result<i64> {\n"
        "    match row.take_opt::<Option<u64>, _>(0) {\n"
        "        Some(Ok(v)) => Ok(v as i64),\n"
        "        Some(Err(e)) => Err(anyhow::Error::new(e.clone())\n"
        '            .context("failed to deserialize the MySQL value")),\n'
        '        None => Err(anyhow::anyhow!("no column at 0")),\n'
        "    }\n}\n"
    )
    explanation = explained_all(source, "src/mysql.rs")["failed to deserialize the MySQL value"]
    assert "The call it guards" not in explanation.documentation
    assert "anyhow::Error::new(e.clone())` was" not in explanation.triggerScenarios
    assert "Some(Err(e))" in explanation.triggerScenarios


def test_each_printed_value_is_named_by_the_argument_that_prints_it() -> None:
    # `{}` the next positional argument, `{0}` that one, `{name}` the one named so; a
    # captured variable (`{id}`) names itself; a long argument is cut
    source = (
        "fn f(t: &str) -> Result<()> {\n"
        '    bail!("toolchain {} lacks {:?}, {0} again, {kind} {id}", t, self.target(), '
        "kind = job.kind_of_the_job_with_a_very_long_name_indeed);\n}\n"
    )
    scan = find_sites("src/x.rs", source.encode())
    (site,) = scan.sites
    assert printed_values(site) == (
        "`{:?}` from `self.target()`, `{0}` from `t`, "
        "`{kind}` from `job.kind_of_the_job_with_a_very_long_na…`, `{id}`, `{}` from `t`"
    )


def test_a_value_the_code_fixes_is_not_said_to_tell_which_object_it_was() -> None:
    # lemmy's `{REPLACEABLE_SCHEMA_PATH}` (a const), sccache's `"bearer"` (a literal): the
    # same text on every run; `{path}` and `{}` of a variable tell which object
    source = (
        "fn f(path: &str, n: usize) -> Result<()> {\n"
        '    bail!("in {REPLACEABLE_SCHEMA_PATH}: {} {} {} {path} {}", "bearer", '
        "consts::MAX_LEN, 42, n);\n}\n"
    )
    scan = find_sites("src/x.rs", source.encode())
    (site,) = scan.sites
    assert printed_values(site) == "`{path}`, `{}` from `n`"
    # a type parameter's associated const names each type's own value (helix's `E::ID`)
    generic = 'fn f<E: Event>() {\n    panic!("Event {} was registered twice", E::ID);\n}\n'
    (site,) = find_sites("src/x.rs", generic.encode()).sites
    assert printed_values(site) == "`{}` from `E::ID`"
    only_fixed = 'fn f() -> Result<()> {\n    bail!("no {} in {SCHEMA_DIR}", "bearer");\n}\n'
    (site,) = find_sites("src/x.rs", only_fixed.encode()).sites
    assert printed_values(site) == ""
    # a literal styled for the terminal is the same hint on every run (uv's
    # `"UV_SKIP_WHEEL_FILENAME_CHECK=1".green()`, reading 147); a styled variable is not
    styled = (
        'fn f(name: &str) -> Result<()> {\n    bail!("bad {} ({}); set `{env_var}`", '
        'name.green(), MAX.to_string(), env_var = "SKIP=1".green().bold());\n}\n'
    )
    (site,) = find_sites("src/x.rs", styled.encode()).sites
    assert printed_values(site) == "`{}` from `name.green()`"


def test_a_parameter_is_read_by_its_name_not_by_a_method_or_field_of_that_name() -> None:
    """cargo's `to_real_manifest(.., source_id, ..)` read "depends on what is passed
    (`source_id`)" from `prev != Some(dep.source_id())`, a method of another value."""
    source = """\
fn to_manifest(deps: &[Dep], source_id: SourceId, values: &Values) -> anyhow::Result<()> {
    for dep in deps {
        if dep.source_id() != self.source_id && self.values.is_some() {
            anyhow::bail!("dependency has a different source");
        }
    }
    Ok(())
}

fn check(source_id: SourceId, name: &str) -> anyhow::Result<()> {
    if !source_id.is_path() && name != "source_id" {
        anyhow::bail!("only path sources are accepted");
    }
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    # `deps` is read (the loop walks it); `source_id` and `values` are not
    assert "(`deps`): the values its caller passes" in advice["dependency has a different source"]
    assert (
        "(`source_id`, `name`): the values its caller passes decide it"
        in (advice["only path sources are accepted"])
    )


def test_a_parameter_a_failed_call_was_given_is_not_a_check_to_satisfy() -> None:
    """zellij's `send_to_screen(instruction).context("failed to async-send to screen")`
    read "The check depends on what is passed (`instruction`): pass values the check
    accepts": no check read it, a channel send failed. A lookup that gave nothing for a
    parameter, and a real check of one, are told apart."""
    source = """\
fn forward(senders: &Senders, instruction: Instruction) -> anyhow::Result<()> {
    senders.send_to_screen(instruction).context("failed to async-send to screen")?;
    Ok(())
}

fn geometry(panes: &Panes, id: PaneId) -> anyhow::Result<Geom> {
    let geom = panes.get(&id).context("no pane with that id")?;
    Ok(geom)
}

fn resize(panes: &Panes, id: PaneId, by: i32) -> anyhow::Result<()> {
    if by == 0 {
        anyhow::bail!("nothing to resize");
    }
    Ok(())
}

fn level(target: &mut Config, change: &Change) -> anyhow::Result<()> {
    let idx = change.level() as usize;
    let filter = target.filters.get_mut(idx).context("no such level")?;
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    # the key the fn made itself, not the container passed, is what found nothing
    # (risingwave's `target.sstable_filter_type.get_mut(idx)`, reading 146)
    assert (
        "`target.filters.get_mut(idx)` found nothing for `idx` in `target`, which the caller "
        "of `level` passes: `target` lacks that entry, or `idx` names none."
    ) in advice["no such level"]
    sent = advice["failed to async-send to screen"]
    assert "the values its caller passes decide it" not in sent
    # (`senders` is what the call works on, not a value it was given: helix's `cx`, reading
    # 252)
    assert (
        "`senders.send_to_screen(instruction)` was given `instruction`, which the caller of "
        "`forward` passes: if the error underneath says it refused it, where that value"
    ) in sent
    looked_up = advice["no pane with that id"]
    assert "`panes.get(&id)` gave nothing for `panes`, `id`, which the caller of `geometry`" in (
        looked_up
    )
    assert "(`by`): the values its caller passes decide it" in advice["nothing to resize"]


def test_a_write_that_failed_failed_on_where_it_writes_not_what() -> None:
    """starship's `temp_file.write_all(text.as_bytes()).map_err(..)` read "was given `text`
    ..: if the error underneath says it refused that, pass another": no write refuses its
    bytes; a full disk or a closed pipe fails it. A bare `write(batch)` (an Arrow writer's,
    which refuses another schema) keeps the general advice."""
    source = """\
fn write_file(temp_file: &mut File, text: &str) -> Result<(), String> {
    if let Err(err) = temp_file.write_all(text.as_bytes()) {
        return Err(format!("Error writing to temporary file: {err}"));
    }
    Ok(())
}

fn write_batch(writer: &mut Writer, batch: Batch) -> anyhow::Result<()> {
    writer.write(batch).context("failed to write Arrow IPC batch")?;
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    written = advice["Error writing to temporary file: {err}"]
    assert "where that value comes from" not in written
    assert (
        "`temp_file.write_all(text.as_bytes())` failed to write what it was given: the cause is "
        "the system's"
    ) in written
    assert (
        "`writer.write(batch)` was given `batch`, which the caller of `write_batch` passes: if "
        "the error underneath says it refused it, where that value comes from"
    ) in advice["failed to write Arrow IPC batch"]


def test_a_match_arm_a_call_s_failure_takes_is_a_failed_call_not_a_check() -> None:
    """cargo's `match self.values.set(values.into()) { Err(_) => bail!("could not fill
    values") }` read "The check depends on what is passed (`values`)": a `OnceLock` that
    was set already refuses any value. An arm on a value, not a call, still checks it."""
    source = """\
fn set_values(cell: &Cell, values: Values) -> anyhow::Result<()> {
    match cell.set(values.into()) {
        Ok(()) => Ok(()),
        Err(_) => anyhow::bail!("could not fill values"),
    }
}

fn first(lines: Option<Lines>) -> anyhow::Result<()> {
    match lines {
        Some(_) => Ok(()),
        None => anyhow::bail!("no lines given"),
    }
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    filled = advice["could not fill values"]
    assert "the values its caller passes decide it" not in filled
    assert "`cell.set(values.into())` was given `values`, which the caller" in filled
    assert "(`lines`): the values its caller passes decide it" in advice["no lines given"]


def test_checks_on_the_way_to_a_call_that_failed_are_no_checks_to_satisfy() -> None:
    """cargo's `tar` read "The check depends on what is passed to `tar` (`ar_files`): pass
    values the check accepts" for "failed to open for archiving": the loop and the arm only
    chose the file to open; opening it failed. A check of its own in the same fn, and a
    value that was None, are still checks of what was passed."""
    source = """\
fn tar(ar_files: Vec<ArchiveFile>, limit: Option<u64>) -> anyhow::Result<()> {
    if ar_files.is_empty() {
        anyhow::bail!("nothing to archive");
    }
    for ar_file in ar_files {
        match ar_file.contents {
            FileContents::OnDisk(disk_path) => {
                let file = File::open(&disk_path)
                    .with_context(|| {
                        format!("failed to open for archiving: `{}`", disk_path.display())
                    })?;
            }
            FileContents::Generated(_) => {}
        }
    }
    let limit = limit.context("no size limit given")?;
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    opened = advice["failed to open for archiving: `{}`"]
    assert "the values its caller passes decide it" not in opened
    assert "(`ar_files`): the values its caller passes decide it" in advice["nothing to archive"]
    # the parameter itself was None (its type says it is an `Option`): nothing was "given"
    assert (
        "`limit` was None as the caller of `tar` passed it: pass one that holds a value."
        in (advice["no size limit given"])
    )


def test_a_security_check_that_only_led_to_a_failed_read_is_not_called_deliberate() -> None:
    """risingwave's "Failed to read CA certificate" (`fs::read(cert)` failed under `let
    Some(cert) = &self.ca_cert`) read "This is a deliberate check (access, a limit or
    validation) ... do not switch it off": reading the file failed. A refusal under the same
    kind of check still reads so, and neither shows the way around it."""
    source = """\
fn client_config(&self) -> anyhow::Result<Config> {
    if let Some(ca_cert) = &self.ca_cert {
        let pem = fs::read(ca_cert).context("Failed to read CA certificate")?;
        if !self.tls_verify_peer {
            anyhow::bail!("peer verification must stay on with a CA certificate");
        }
    }
    Ok(Config::default())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    read = advice["Failed to read CA certificate"]
    refused = advice["peer verification must stay on with a CA certificate"]
    assert "deliberate check" not in read and "goes on only when" not in read
    assert "deliberate check" in refused and "goes on only when" not in refused


def test_configuration_a_failed_call_was_given_is_not_a_setting_a_check_reads() -> None:
    """tauri's `freedesktop::copy_icon_files(settings, &data_dir).with_context(..)` read
    "The check reads configuration (`settings`): review that setting": nothing checked it,
    the copy failed. A check of a setting, and one setting a failed call was given, still
    read so."""
    source = """\
fn generate_data(settings: &Settings, data_dir: &Path) -> anyhow::Result<()> {
    freedesktop::copy_icon_files(settings, data_dir).context("Failed to create icon files")?;
    let format = parse_format(&settings.format).context("tree format not valid")?;
    if settings.offline_mode {
        anyhow::bail!("cannot bundle offline");
    }
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    assert "The check reads configuration" not in advice["Failed to create icon files"]
    # one setting given to a call that refused it is still the one to review
    assert "The check reads configuration (`settings.format`)" in advice["tree format not valid"]
    assert (
        "The check reads configuration (`settings.offline_mode`)"
        in (advice["cannot bundle offline"])
    )


def test_a_path_or_a_name_after_a_colon_is_a_value_shown_not_the_error_underneath() -> None:
    """cargo's "failed to open for archiving: `{}`" (`disk_path.display()`) and "failed to
    parse lock file at: {}" (`f.path().display()`) read "The message prints the error
    underneath (`{}`)": they print the file. An error's name still says it is the error."""
    from pipeline.analyze.static_code import cause_slot

    source = """\
fn load(f: &File, code: u16, command: &str) -> anyhow::Result<()> {
    let parsed = parse(f).with_context(|| format!("failed to parse lock file at: {}", f.path().display()))?;
    send(command).with_context(|| format!("error sending command: {command}"))?;
    if code != 200 { anyhow::bail!("Failed to stop web server, got status code: {}", code); }
    fetch(f).map_err(|why| anyhow::anyhow!("failed to fetch: {}", why))?;
    fetch(f).map_err(|e| anyhow::anyhow!("failed to fetch {}: {}", f.name, e))?;
    fetch(f).map_err(|error_path| anyhow::anyhow!("failed to read: {}", error_path))?;
    anyhow::ensure!(code > 1, "uncommitted changes; to suppress this error commit these files:\n\n{}\n", files_list);
    anyhow::ensure!(code > 2, "cannot write; the error is in: {}", dirty_list);
    anyhow::ensure!(code > 3, "Unable to write config file to: {}", config_file.to_string_lossy());
    anyhow::ensure!(code > 4, "failed to open: {}", f.path().to_str().unwrap());
    Ok(())
}
"""
    slots = {s.message: cause_slot(s) for s in find_sites("src/m.rs", source.encode()).sites}
    assert slots == {
        "failed to parse lock file at: {}": None,
        "error sending command: {command}": None,
        "Failed to stop web server, got status code: {}": None,
        "failed to fetch: {}": "`{}`",
        "failed to fetch {}: {}": "`{}`",
        "failed to read: {}": "`{}`",
        # cargo's `cargo fix` refusal lists the files: "these files:", `files_list`
        "uncommitted changes; to suppress this error commit these files:\n\n{}\n": None,
        "cannot write; the error is in: {}": None,
        # bat's config path, as text (reading 109)
        "Unable to write config file to: {}": None,
        "failed to open: {}": None,
    }


def test_a_value_named_so_or_after_is_colon_is_shown_not_the_error_underneath() -> None:
    """surrealdb's `#[error("Cannot execute INSERT statement where property 'in' is:
    {value}")]` (`value: String`, the offending value's SurrealQL text) read "The message
    prints the error underneath (`{value}`)" (reading 313). A slot after "is:", "was:",
    "got:" shows a value, and so does one named `value`; an error's name still says error."""
    from pipeline.analyze.static_code import cause_slot

    source = """\
#[derive(thiserror::Error, Debug)]
pub enum Error {
    #[error("Cannot execute INSERT statement where property 'in' is: {value}")]
    InsertStatementIn { value: String },
    #[error("Failed to parse the setting: {value}")]
    Setting { value: String },
    #[error("Failed to write the file: {message}")]
    Write { message: String },
}
fn load(v: u8, x: &str) -> anyhow::Result<()> {
    anyhow::ensure!(v > 1, "cannot start, the mode was: {}", x);
    anyhow::ensure!(v > 2, "cannot start: {}", x);
    Ok(())
}
"""
    slots = {s.message: cause_slot(s) for s in find_sites("src/m.rs", source.encode()).sites}
    assert slots == {
        "Cannot execute INSERT statement where property 'in' is: {value}": None,
        "Failed to parse the setting: {value}": None,
        "Failed to write the file: {message}": "`{message}`",
        "cannot start, the mode was: {}": None,
        "cannot start: {}": "`{}`",
    }


def test_a_value_the_word_before_its_colon_names_is_not_the_error_underneath() -> None:
    """greptimedb's `#[snafu(display("Failed to read a record from Kafka, topic: {}",
    topic))]` read "The message prints the error underneath (`{}`)": it prints the topic,
    the Kafka error is its source (reading 321). The word before the colon names what the
    placeholder prints; a name that says error is the error still."""
    from pipeline.analyze.static_code import cause_slot

    source = """\
#[derive(Debug, Snafu)]
pub enum Error {
    #[snafu(display("Failed to read a record from Kafka, topic: {}", topic))]
    ConsumeRecord { topic: String, source: rskafka::client::error::Error },
}
fn load(topic: &str, region_id: u64, io_error: std::io::Error, why: String) -> anyhow::Result<()> {
    anyhow::ensure!(region_id > 1, "failed to open the region, region id: {}", region_id);
    anyhow::ensure!(region_id > 2, "failed to open the region, region_id: {}", self.region_id);
    anyhow::ensure!(region_id > 3, "failed to connect, io_error: {}", io_error);
    anyhow::ensure!(region_id > 4, "failed to subscribe: {}", why);
    anyhow::ensure!(region_id > 5, "failed to subscribe, topic: {topic}");
    Ok(())
}
"""
    slots = {s.message: cause_slot(s) for s in find_sites("src/m.rs", source.encode()).sites}
    assert slots == {
        "Failed to read a record from Kafka, topic: {}": None,
        "failed to open the region, region id: {}": None,
        "failed to open the region, region_id: {}": None,
        "failed to connect, io_error: {}": "`{}`",
        "failed to subscribe: {}": "`{}`",
        "failed to subscribe, topic: {topic}": None,
    }


def test_an_error_type_s_field_that_holds_a_value_is_not_the_error_underneath() -> None:
    """cargo's `#[error("failed to convert header value of `{name}` to string: {bytes:?}")]`
    on `BadHeader { name: String, bytes: Vec<u8> }` read "The message prints the error
    underneath (`{bytes:?}`)": it prints the header's bytes (reading 140). A field whose type
    is an error, or may be one, still is."""
    from pipeline.analyze.static_code import cause_slot

    source = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("failed to convert header value of `{name}` to string: {bytes:?}")]
    BadHeader { name: String, bytes: Vec<u8> },
    #[error("failed to run `op signin`: {0}")]
    Signin(std::process::ExitStatus),
    #[error("failed to read the index: {0}")]
    Io(#[from] std::io::Error),
    #[error("failed to load the plugin: {source}")]
    Plugin { source: Box<dyn std::error::Error + Send + Sync> },
    #[error("failed to call the service: {status}")]
    Rpc { status: tonic::Status },
    #[error("failed to decode: {0}")]
    Decode(String),
}
#[derive(Debug, thiserror::Error)]
#[error("failed to parse {path}: {kind}")]
pub struct ParseError { path: String, kind: ParseErrorKind }
"""
    scan = find_sites("src/m.rs", source.encode())
    slots = {s.message.split(":")[0]: cause_slot(s) for s in scan.sites}
    assert slots == {
        "failed to convert header value of `{name}` to string": None,
        "failed to run `op signin`": None,
        "failed to read the index": "`{0}`",
        "failed to load the plugin": "`{source}`",
        "failed to call the service": "`{status}`",
        # text may be an error's: the message's words decide, as before
        "failed to decode": "`{0}`",
        "failed to parse {path}": "`{kind}`",
    }
    (bad,) = [s for s in scan.sites if s.message.startswith("failed to convert")]
    assert bad.facts.fields == (("name", "String"), ("bytes", "Vec<u8>"))


def test_a_field_whose_type_is_an_error_is_the_error_underneath_whatever_the_words() -> None:
    """tikv's `#[error("Encryption {0:?}")] Encryption(#[from] encryption::Error)` and
    `#[error("Openssl {0}")] Openssl(#[from] ErrorStack)` read "it prints the value(s) involved (`{0:?}`), which tell
    which object it was": they print the error they wrap (reading 181). A kind or code of an
    error is a value the message shows."""
    from pipeline.analyze.static_code import cause_slot, printed_values

    source = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("Encryption {0:?}")]
    Encryption(#[from] encryption::Error),
    #[error("Openssl {0}")]
    Openssl(#[from] openssl::error::ErrorStack),
    #[error("bad request {code}")]
    Request { code: ErrorCode },
    #[error("Io {kind}")]
    Other { kind: IoErrorKind },
    #[error("region {0} not found")]
    RegionNotFound(u64),
}
"""
    scan = find_sites("src/m.rs", source.encode())
    by_message = {s.message: s for s in scan.sites}
    assert {m: cause_slot(s) for m, s in by_message.items()} == {
        "Encryption {0:?}": "`{0:?}`",
        "Openssl {0}": "`{0}`",
        "bad request {code}": None,
        "Io {kind}": None,
        "region {0} not found": None,
    }
    assert printed_values(by_message["Encryption {0:?}"]) == ""
    assert printed_values(by_message["region {0} not found"]) == "`{0}`"
    found = explained_all(source)
    assert "which object" not in found["region {0} not found"].commonSituations
    assert "(`{0}`)" in found["region {0} not found"].commonSituations


def test_an_impl_for_a_reference_names_the_type_it_refers_to() -> None:
    """nushell's `impl GetSpan for &'a StateWorkingSet<'a>` read as `'a StateWorkingSet` in
    paths and `&EngineState::get_span` in the text."""
    from pipeline.analyze.static_code import impl_type
    from pipeline.languages.rust.index_items import base_name

    for impl in ("GetSpan for &'a StateWorkingSet<'a>", "GetSpan for &EngineState",
                 "X for &mut StateWorkingSet", "StateWorkingSet<'a>"):  # fmt: skip
        assert impl_type(impl) in ("StateWorkingSet", "EngineState")
        assert base_name(impl.rpartition(" for ")[2]) == impl_type(impl)


def test_a_context_on_an_empty_option_has_no_cause_to_read() -> None:
    """`.context()` on a `None` adds no `Caused by:` line: not promised where the standard
    call that makes the receiver gives an `Option`; said with "if it has any" elsewhere
    (helix's `doc.path().map(..)` is an `Option` the text cannot tell)."""
    source = """\
fn run(path: &Path, name: &str) -> anyhow::Result<()> {
    let dir = path.parent().context("a path with no parent")?;
    let doc = open(name).map(ToOwned::to_owned).context("no document by that name")?;
    Ok(())
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/c.rs").items()}
    assert "Caused by" not in advice["a path with no parent"]
    # how it is printed decides whether the cause shows: `{}` leaves it out (helix's
    # `build_grammars` prints `{error}`), so the text says which printing shows it
    assert (
        "`{:?}` of the error (what a `main` that returns it prints) lists it under this "
        "message (anyhow's `Caused by:` lines), `{:#}` after a colon, and `{}` leaves it out"
        in (advice["no document by that name"])
    )


def test_eyre_s_other_names_of_its_report_are_told_eyre_s_causes() -> None:
    """atuin's `Result<Router, eyre::Error>`: `eyre::Error` is eyre's `Report`, whose causes
    `{:?}` lists; it had been told of anyhow's `Caused by:` lines and `{:#}` (reading 327)."""
    source = """\
async fn make_router(settings: Settings) -> Result<Router, eyre::Error> {
    let db = Db::new(&settings.db).await.wrap_err_with(|| format!("failed to connect to db"))?;
    Ok(router(db))
}
"""
    advice = " ".join(explained(source, "src/lib.rs").solutions)
    assert "(eyre's `Caused by:` lines)" in advice
    assert "print the report with `{:?}` to read it" in advice
    assert "anyhow" not in advice


def test_a_long_condition_keeps_its_tail_which_often_decides() -> None:
    # risingwave's `handle_new_barrier`: the cut at 160 characters dropped
    # `&& self.state.is_paused()`, the one part the message ("when paused") is about
    source = (
        "fn handle(&self, command: &Option<Command>) -> anyhow::Result<()> {\n"
        "    if let Some(Command::CreateStreamingJob { job_type: CreateStreamingJobType::"
        "SnapshotBackfill { .. } | CreateStreamingJobType::BatchRefresh(_), .. }) = &command\n"
        "        && self.state.is_paused()\n"
        "    {\n"
        '        anyhow::bail!("cannot create streaming job with snapshot backfill when paused");\n'
        "    }\n    Ok(())\n}\n"
    )
    (site,) = find_sites("src/control.rs", source.encode()).sites
    (condition,) = site.facts.conditions
    assert len(condition.text) <= 160
    assert condition.text.startswith("let Some(Command::CreateStreamingJob { job_type:")
    assert condition.text.endswith("= &command && self.state.is_paused()")
    assert " … " in condition.text


def test_a_from_variant_says_which_question_marks_build_it() -> None:
    # meilisearch's `Input(#[from] FetchInputError)`, tikv's `Crypter(#[from] #[backtrace]
    # openssl::error::ErrorStack)`: "no statement here makes it" hid that each `?` does
    source = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        "    /// The input could not be fetched.\n"
        '    #[error("error while fetching input: {0}")]\n'
        "    Input(#[from] FetchInputError),\n"
        '    #[error("crypter failed: {0}")]\n'
        "    Crypter(\n        #[from]\n        #[backtrace]\n        openssl::error::ErrorStack,\n    ),\n"
        '    #[error("the source failed: {source}")]\n'
        "    Source { #[from] source: std::io::Error },\n"
        '    #[error("a plain failure: {0}")]\n'
        "    Plain(String),\n"
        "}\n"
    )
    fixes = {m: e.exampleFix for m, e in explained_all(source, "src/error.rs").items()}
    assert fixes["error while fetching input: {0}"] == (
        "// `Error::Input` is declared in src/error.rs with `#[from] FetchInputError`: each `?` "
        "on a call that fails with `FetchInputError`, in a fn that returns this error type, "
        "builds it; the fix is where that call fails."
    )
    assert "`#[from] openssl::error::ErrorStack`" in (fixes["crypter failed: {0}"] or "")
    assert "`#[from] std::io::Error`" in (fixes["the source failed: {source}"] or "")
    assert "no statement here makes it" in (fixes["a plain failure: {0}"] or "")


def test_a_class_single_words_chose_is_said_to_be_theirs_and_prescribes_nothing() -> None:
    """alacritty's `scrolling.history` range check reads "exceeded maximum" (resource
    exhausted: "retry", "watch the resource"), vector's "Delivery error" was an invalid state
    transition by `status` in its condition: the words chose the class, the code did not
    (readings 106-108). The class is said to be the words', its tip is an "if", and the
    strategy the class would prescribe is given only where the code checks what it says."""
    source = """\
const MAX_SCROLLBACK_LINES: u32 = 100_000;

fn history(lines: u32) -> Result<u32, String> {
    if lines > MAX_SCROLLBACK_LINES {
        return Err(format!("exceeded maximum scrolling history ({lines}/{MAX_SCROLLBACK_LINES})"));
    }
    Ok(lines)
}

fn open(pool: &Pool) -> anyhow::Result<Conn> {
    let Some(conn) = pool.take() else {
        anyhow::bail!("request timed out while waiting for a connection");
    };
    Ok(conn)
}
"""
    explained = explained_all(source)
    guessed = next(e for m, e in explained.items() if m.startswith("exceeded maximum"))
    assert guessed.backgroundTag == "resource-exhausted"
    assert guessed.documentation.endswith('Class, by the word "exceeded": Resource exhausted.')
    assert guessed.handlingStrategy == "try-catch"  # not "retry": the same value fails again
    assert guessed.preventionTips[-1].startswith(
        'If it is a case of "Resource exhausted", as its words suggest: watch the resource'
    )
    # a word of the checks that lead to it is said to be theirs, not the message's (vector's
    # "Delivery error" under `status == BatchStatus::Errored`)
    delivery = explained_all(
        "fn export(status: BatchStatus) -> Result<(), String> {\n"
        "    if status == BatchStatus::Errored {\n"
        '        return Err("Delivery error".to_string());\n    }\n    Ok(())\n}\n'
    )["Delivery error"]
    assert delivery.documentation.endswith(
        'Class, by the word "status" in the checks that lead here: Invalid state transition.'
    )
    assert delivery.preventionTips[-1].startswith(
        'If it is a case of "Invalid state transition", as the checks\' words suggest: '
    )
    # an assertion above that held is a premise, not a check that leads here: lemmy's
    # `debug_assert!(!inbox_urls.is_empty())` classed a missing actor row by "empty"
    asserted = explained_all(
        "fn send(urls: &[Url], id: Option<u64>) -> Result<()> {\n"
        "    debug_assert!(!urls.is_empty());\n"
        '    let actor = lookup(id).context("the actor row was gone (was it removed?)")?;\n'
        "    Ok(())\n}\n"
    )["the actor row was gone (was it removed?)"]
    assert asserted.backgroundTag == "operation-failed"
    assert '"empty"' not in asserted.documentation
    # a phrase of the failure itself ("timed out") is no guess: the class's own strategy
    timed_out = explained["request timed out while waiting for a connection"]
    assert timed_out.backgroundTag == "timeout"
    assert "Class: Timeout." in timed_out.documentation
    assert timed_out.handlingStrategy == "retry"


def test_a_site_no_check_encloses_is_not_said_to_run_unconditionally() -> None:
    """rustup's `with_source` reaches its `Err` only past a `match` whose other arms return
    (reading 107): "reached whenever execution gets there" read as "always"; then "No `if`,
    `match` .. decides whether this site runs" was false of that `match` (reading 312): the
    arm that goes on is a step."""
    source = """\
fn with_source(name: &str) -> anyhow::Result<()> {
    let found = match lookup(name) {
        Err(NotInstalled) => None,
        other => return other,
    };
    anyhow::bail!("override toolchain '{name}' is not installed")
}
"""
    (explanation,) = explained_all(source).values()
    assert explanation.triggerScenarios == (
        "In `with_source`: 1. `let Err(NotInstalled) = lookup(name)` matches; 2. `anyhow::bail` "
        "produces the error."
    )


def test_a_panic_whose_message_says_what_to_do_is_not_called_a_bug() -> None:
    """axum's `route_layer` panics "Adding a route_layer before any routes is a no-op. Add
    the routes you want the layer to apply to first.": the caller's to do (reading 108)."""
    source = """\
impl MethodRouter {
    pub fn route_layer(mut self) -> Self {
        if self.get.is_none() && self.post.is_none() {
            panic!(
                "Adding a route_layer before any routes is a no-op. \\
                 Add the routes you want the layer to apply to first."
            );
        }
        self
    }
}
"""
    (explanation,) = explained_all(source).values()
    assert explanation.exampleFix.endswith(
        "// A panic here: do what its message tells you; if that does not fit your case, "
        "report it with its backtrace."
    )
    assert "a bug, not bad input" not in explanation.exampleFix


def test_a_call_that_gave_no_value_for_a_parameter_is_not_said_to_have_an_error_beneath() -> None:
    """sqlx's `value.num_nanoseconds().map_or(Err(..), ..)`: `None` for a duration too long,
    no error underneath to read (reading 107's recheck)."""
    source = """\
pub fn interval(value: Duration) -> Result<Interval, String> {
    value.num_nanoseconds().map_or(Err("overflow converting the duration".to_string()), |n| Ok(Interval(n)))
}
"""
    (explanation,) = explained_all(source).values()
    said = " ".join(explanation.solutions)
    assert "gave no value (`None` or an error) for `value`" in said
    assert "if the error underneath says it refused that" not in said


def test_an_error_of_a_spawned_task_is_the_task_s_output_not_the_fn_s() -> None:
    """yazi's `Rename::act` hands `tokio::spawn` an async block that `bail!`s: `act` itself
    returns `Ok`, and a `match Rename::act(..)` never sees the error (reading 107)."""
    source = """\
fn act(cx: &mut Ctx, name: String) -> anyhow::Result<()> {
    tokio::spawn(async move {
        let Some(new) = join(&name) else {
            anyhow::bail!("Failed to join new name with parent directory");
        };
        Ok::<_, anyhow::Error>(())
    });
    Ok(())
}
"""
    (explanation,) = explained_all(source).values()
    assert explanation.documentation.startswith(
        "A task that `act` starts with `tokio::spawn` returns early with `bail!` in `src/x.rs`. "
        "The error is made inside that task, not by `act` itself: it reaches the caller of "
        "`act` only through the task (its handle awaited and the error passed on, or a channel "
        "it sends the error on)."
    )
    assert explanation.tryCatchPattern is None


def test_a_check_on_a_value_the_fn_computes_itself_is_no_validation_code() -> None:
    """mdBook's `let ok = found;`, gitui's `let ok = hunk_index.is_some();`, starship's
    `rc.is_ok()` on the failing call's own result (readings 113-115): no caller holds those
    values, so no caller can run the check. The field is null; the prose still says when the
    code goes on. A check on the fn's arguments, `self`, an element of an argument it loops
    over, or what a fn it calls returns stays."""
    found = explained_all(
        "pub fn reset(path: &str, hash: u64) -> anyhow::Result<()> {\n"
        "    let hunk_index = find(path, hash);\n"
        '    anyhow::ensure!(hunk_index.is_some(), "hunk not found");\n'
        "    Ok(())\n}\n"
        "pub fn limit(name: &str, max: usize) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(name.len() <= max && is_valid(name), "name too long");\n'
        "    Ok(())\n}\n"
        "pub fn each(items: &[Item]) -> anyhow::Result<()> {\n"
        "    for item in items {\n"
        '        anyhow::ensure!(item.size < 10, "item over ten");\n'
        "    }\n    Ok(())\n}\n"
    )
    local = found["hunk not found"]
    assert local.validationCode is None
    assert "The code goes on only when `hunk_index.is_some()`." in local.solutions
    assert found["name too long"].validationCode == "let ok = name.len() <= max && is_valid(name);"
    assert found["item over ten"].validationCode == "let ok = item.size < 10;"


def test_a_check_on_a_parameter_the_fn_binds_again_is_no_caller_s_check() -> None:
    """neon's `normalize_key(key: &str)` runs `let key = clean_utf8(&Utf8PathBuf::from(key));`
    and then checks `key.starts_with("..")` on the path: the same test on the `&str` a
    caller passes lets `"a/../.."` through (reading 138). No caller's check is offered, and
    the parameter is named as one the fn binds again; a copy of the value
    (`let name = name.to_string();`) is still the caller's."""
    source = (
        "pub fn normalize_key(key: &str) -> Result<Utf8PathBuf, String> {\n"
        "    let key = clean_utf8(&Utf8PathBuf::from(key));\n"
        '    if key.starts_with("..") || key == "." {\n'
        '        return Err(format!("invalid key {key}"));\n'
        "    }\n"
        "    Ok(key)\n}\n"
        "pub fn limit(name: &str, max: usize) -> anyhow::Result<()> {\n"
        "    let name = name.to_string();\n"
        '    anyhow::ensure!(name.len() <= max, "name too long");\n'
        "    Ok(())\n}\n"
        # ripgrep's `matched_path_or_any_parents`: an `assert!`'s own test (reading 315)
        "pub fn matched(&self, path: &Path) -> bool {\n"
        "    let path = self.strip(path);\n"
        '    assert!(!path.has_root(), "path is expected to be under the root");\n'
        "    true\n}\n"
    )
    scan = find_sites("src/m.rs", source.encode())
    rebound = {s.message: s.facts.rebound for s in scan.sites}
    assert rebound == {
        "invalid key {key}": ("key",),
        "name too long": (),
        "path is expected to be under the root": ("path",),
    }
    found = explained_all(source, "src/m.rs")
    invalid = found["invalid key {key}"]
    assert invalid.validationCode is None
    assert (
        "The check depends on what is passed to `normalize_key` (`key` (as the fn binds it "
        "again first)): the values its caller passes decide it, and where they come from (an "
        "input, a setting, or the program's own state) is what to change."
    ) in invalid.solutions
    assert "normalize_key(key)" not in (invalid.exampleFix or "")
    assert found["name too long"].validationCode == "let ok = name.len() <= max;"
    assert found["path is expected to be under the root"].validationCode is None


def test_a_program_s_main_is_no_call_to_match_on() -> None:
    """crates.io's smoke test wrote `match main().await { .. }` for a `.context(..)` in its
    `#[tokio::main] async fn main()`: the macro makes `main` a sync fn, and no code calls it
    (reading 139). A method or a fn named `main` with parameters is called as any other."""
    found = explained_all(
        "#[tokio::main]\n"
        "async fn main() -> anyhow::Result<()> {\n"
        '    create_project(&options).await.context("Failed to create project")?;\n'
        "    Ok(())\n}\n"
        "fn run(args: &[String]) -> anyhow::Result<()> {\n"
        '    create(args).context("Failed to create the run")?;\n'
        "    Ok(())\n}\n"
    )
    assert found["Failed to create project"].tryCatchPattern is None
    assert (found["Failed to create the run"].tryCatchPattern or "").startswith("match run(args)")


def test_an_earlier_arm_that_panics_is_no_value_the_code_goes_on_with() -> None:
    """cargo's `-Zfeatures` parser read "The code goes on only when `matches!(opt.as_ref(),
    "build_dep" | .. | "ws")`", and its `"ws"` arm is `unimplemented!()` (reading 140). The
    trigger still says the arm is tried first."""
    found = explained_all(
        "fn enable(opt: &str) -> anyhow::Result<()> {\n"
        "    match opt {\n"
        '        "dev_dep" => decouple(),\n'
        '        "ws" => unimplemented!(),\n'
        '        "all" => { panic!("not yet") }\n'
        '        "old" => anyhow::bail!("the old flag is gone"),\n'
        '        s => anyhow::bail!("-Zfeatures flag `{}` is not supported", s),\n'
        "    }\n"
        "    Ok(())\n}\n"
    )
    flag = found["-Zfeatures flag `{}` is not supported"]
    assert flag.validationCode == 'let ok = matches!(opt, "dev_dep");'
    assert 'The code goes on only when `matches!(opt, "dev_dep")`.' in flag.solutions


def test_an_arm_followed_by_another_failing_arm_states_no_value_that_goes_on() -> None:
    """sccache's `match resp { Ok(None) => .., Ok(Some(b)) => .., Err(e) => bail!(..), _ =>
    bail!("unexpected response") }` read "The code goes on only when .. ||
    `!matches!(resp, Err(e))`", and the `_` arm fails too (reading 170). An arm after the site
    that fails, or one before it, leaves no test of this arm alone that says the code goes on."""
    found = explained_all(
        "fn get(resp: Response) -> anyhow::Result<Vec<u8>> {\n"
        "    let out = match resp {\n"
        "        Response::Hit(bytes) => bytes,\n"
        '        Response::Failed(e) => anyhow::bail!("remote failed: {}", e),\n'
        '        _ => anyhow::bail!("unexpected response"),\n'
        "    };\n"
        "    Ok(out)\n}\n"
        "fn put(resp: Response) -> anyhow::Result<()> {\n"
        "    match resp {\n"
        "        Response::Stored => (),\n"
        '        Response::Busy => anyhow::bail!("the store is busy"),\n'
        "        Response::Hit(_) => (),\n"
        "    }\n"
        "    Ok(())\n}\n"
    )
    failed = found["remote failed: {}"]
    assert failed.validationCode is None
    assert not any("goes on only when" in s for s in failed.solutions)
    # the `_` arm after every other: the arms before it that go on are the test
    unexpected = found["unexpected response"]
    assert unexpected.validationCode == "let ok = matches!(resp, Response::Hit(_));"
    # no other arm fails: a value this arm does not match goes on
    busy = found["the store is busy"]
    assert busy.validationCode == "let ok = !matches!(resp, Response::Busy);"


def test_an_if_whose_other_branches_fail_too_states_no_value_that_goes_on() -> None:
    """qdrant's `if status.is_server_error() { Err(..) } else if status.is_client_error() {
    Err(..) } else { Err(..) }` read "The code goes on only when `!status.is_server_error()`"
    (this stop's diff): every branch fails, so the tests before it decide. An `if` whose
    `else` goes on keeps its test; an `if` that fails before an `else` is a premise of it, as
    an earlier check is."""
    found = explained_all(
        "fn classify(status: u16) -> anyhow::Result<()> {\n"
        "    if status >= 500 {\n"
        '        anyhow::bail!("server error {}", status)\n'
        "    } else if status >= 400 {\n"
        '        anyhow::bail!("client error {}", status)\n'
        "    } else {\n"
        '        Err(anyhow::anyhow!("unexpected status {}", status))\n'
        "    }\n}\n"
        "fn write(upgraded: bool, expected: bool) {\n"
        "    if upgraded != expected {\n"
        "        if upgraded {\n"
        '            panic!("upgraded body on a plain session")\n'
        "        } else {\n"
        '            panic!("plain body on an upgraded session")\n'
        "        }\n"
        "    }\n}\n"
        "fn check(n: u16) -> anyhow::Result<()> {\n"
        "    if n > 10 {\n"
        '        anyhow::bail!("too many: {}", n)\n'
        "    } else if n == 0 {\n"
        '        anyhow::bail!("none at all")\n'
        "    } else {\n"
        "        log(n);\n"
        "    }\n"
        "    Ok(())\n}\n"
    )
    for message in ("server error {}", "client error {}", "unexpected status {}"):
        assert found[message].validationCode is None, message
        assert not any("goes on only when" in s for s in found[message].solutions)
    # pingora's `write_non_empty_body`: either branch panics, the outer test decides
    for message in ("upgraded body on a plain session", "plain body on an upgraded session"):
        assert found[message].validationCode == "let ok = upgraded == expected;", message
    assert found["too many: {}"].validationCode == "let ok = !(n > 10);"
    assert found["none at all"].validationCode == "let ok = n != 0;"


def test_an_earlier_arm_whose_value_is_an_err_is_no_value_the_code_goes_on_with() -> None:
    """quickwit's `validate_update` is a `match` whose value the fn returns; its arm `(current,
    new) if current.source_type() != new.source_type() => Err(anyhow!(..))` read as a case
    where the code goes on (reading 172)."""
    found = explained_all(
        "fn validate_update(&self, new: &Params) -> anyhow::Result<()> {\n"
        "    match (self, new) {\n"
        "        (Params::Kafka(c), Params::Kafka(n)) => c.validate_update(n),\n"
        '        (c, n) if c.kind() != n.kind() => Err(anyhow::anyhow!("type cannot change")),\n'
        '        _ => Err(anyhow::anyhow!("source type {} cannot be updated", self.kind())),\n'
        "    }\n}\n"
    )
    last = found["source type {} cannot be updated"]
    assert last.validationCode == (
        "let ok = matches!((&self, &new), (Params::Kafka(_), Params::Kafka(_)));"
    )


def test_a_panic_that_is_all_a_target_s_build_does_is_an_unsupported_target() -> None:
    """neon's `vm-monitor` has a `#[cfg(not(target_os = "linux"))] fn main()` that only
    panics "the monitor requires cgroups, which are only available on linux": it read as a
    broken invariant and a bug to report (reading 138). A panic under the same gate that a
    condition leads to is classed by that condition."""
    found = explained_all(
        '#[cfg(not(target_os = "linux"))]\n'
        "fn main() {\n"
        '    panic!("the monitor requires cgroups, which are only available on linux")\n'
        "}\n"
        '#[cfg(not(target_os = "linux"))]\n'
        "fn check(n: usize) {\n"
        '    if n > 3 { panic!("more than three cgroups at once") }\n'
        "}\n"
    )
    stub = found["the monitor requires cgroups, which are only available on linux"]
    assert stub.backgroundTag == "unsupported-operation"
    assert stub.solutions[-1] == (
        'Only builds where `#[cfg(not(target_os = "linux"))]` holds have this code, and '
        "`main` panics there each time it gets this far: those targets are not supported. "
        "Build and run it for a target where that gate does not hold."
    )
    assert not any("bug" in s for s in stub.solutions)
    assert "bug" not in (stub.exampleFix or "") and not any(
        "report" in t for t in stub.preventionTips
    )
    assert found["more than three cgroups at once"].backgroundTag != "unsupported-operation"


def test_an_error_that_is_all_a_target_s_build_returns_is_an_unsupported_target() -> None:
    """tikv's `#[cfg(not(any(target_os = "linux", ..)))] mod stub` returns "No I/O tracing
    tool available" from `init` on every run: it read "I/O error", with disk tips (reading
    150). An error under the same gate that a condition leads to keeps its class."""
    found = explained_all(
        '#[cfg(not(target_os = "linux"))]\n'
        "mod stub {\n"
        "    pub fn init() -> Result<(), String> {\n"
        '        Err("No I/O tracing tool available".to_owned())\n'
        "    }\n"
        "    pub fn read(path: &str) -> anyhow::Result<()> {\n"
        '        if path.is_empty() { anyhow::bail!("cannot read an empty path") }\n'
        "        Ok(())\n"
        "    }\n"
        "    pub fn disk_stat(dev: u32) -> Result<u32, String> {\n"
        "        for line in lines() {\n"
        "            if line.dev == dev { return Ok(line.stat); }\n"
        "        }\n"
        '        Err(format!("disk stat for {} not found", dev))\n'
        "    }\n"
        "}\n"
    )
    # tikv's Linux `disk_stat`: an error after a loop that looked, no stub
    assert found["disk stat for {} not found"].backgroundTag != "unsupported-operation"
    # meilisearch's `get_arch`: one gated block per target, and the gated `bail!` after them
    arch = explained_all(
        "fn get_arch() -> anyhow::Result<&'static str> {\n"
        '    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]\n'
        '    {\n        Ok("linux-amd64")\n    }\n'
        '    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]\n'
        '    anyhow::bail!("unsupported platform")\n'
        "}\n"
    )["unsupported platform"]
    assert arch.backgroundTag == "unsupported-operation"
    stub = found["No I/O tracing tool available"]
    assert stub.backgroundTag == "unsupported-operation"
    assert stub.solutions[0] == (
        'Only builds where `#[cfg(not(target_os = "linux"))]` holds have this code, and '
        "`init` returns this error there each time it gets this far: those targets are not "
        "supported. Build and run it for a target where that gate does not hold."
    )
    assert stub.preventionTips[0] == "Build and run it only for the targets it supports."
    assert found["cannot read an empty path"].backgroundTag != "unsupported-operation"


def test_an_options_value_is_reviewed_as_an_option_not_as_configuration() -> None:
    """cargo's `options.filter` is the `--example`/`--bin` flags: "The check reads
    configuration (`options.filter`)" sent the reader to a config file (reading 140)."""
    found = explained_all(
        "pub fn run(options: &CompileOptions) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(options.filter.is_specific(), "no example given to run");\n'
        "    Ok(())\n}\n"
        "pub fn fetch(config: &Config) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(config.offline, "cannot fetch while online here");\n'
        "    Ok(())\n}\n"
    )
    assert (
        "The check reads an option (`options.filter`): review the value given for it."
    ) in found["no example given to run"].solutions
    assert (
        "The check reads configuration (`config.offline`): review that setting."
        in found["cannot fetch while online here"].solutions
    )


def test_a_context_unwrapped_right_after_it_is_a_panic_not_a_returned_error() -> None:
    """crates.io's `build_s3` ends `.build().context("Failed to initialize S3 code")
    .unwrap()`: the record said "try-catch" and how to print the returned error (reading
    139). It is a panic whose message holds the context and its causes."""
    source = (
        "fn build_s3(config: &S3Config) -> AmazonS3 {\n"
        '    AmazonS3Builder::new().build().context("Failed to initialize S3 code").unwrap()\n'
        "}\n"
        "fn load(path: &Path) -> anyhow::Result<String> {\n"
        '    let text = std::fs::read_to_string(path).context("failed to read the manifest")?;\n'
        "    Ok(text)\n}\n"
    )
    sites = {s.message: s for s in find_sites("src/m.rs", source.encode()).sites}
    assert sites["Failed to initialize S3 code"].facts.unwrapped == "unwrap"
    assert sites["failed to read the manifest"].facts.unwrapped is None
    scan = find_sites("src/m.rs", source.encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/m.rs": scan}))
    kinds = {c.site.message: (c.error_type, c.error_class) for c in contexts}
    assert kinds["Failed to initialize S3 code"] == ("panic", None)
    assert kinds["failed to read the manifest"] == ("exception", "anyhow::Error")
    found = explained_all(source, "src/m.rs")
    s3 = found["Failed to initialize S3 code"]
    assert (s3.handlingStrategy, s3.tryCatchPattern) == ("fail-fast", None)
    assert "The `.unwrap()` right after it panics on that error" in s3.documentation
    assert "3. `.unwrap()` panics on it" in s3.triggerScenarios
    assert s3.solutions[1] == (
        "The panic message prints the error the call gave, with its causes: they say what "
        "failed beneath this step; start there."
    )
    assert found["failed to read the manifest"].handlingStrategy != "fail-fast"


def test_a_fn_that_builds_the_error_it_returns_has_no_check_that_avoids_it() -> None:
    """starship's `ValueDeserializer::error` is called once an error exists; its `match`
    only chooses how to word it (reading 113). A fn returning a `Result` with the same
    `match` does choose whether."""
    found = explained_all(
        "impl Des {\n"
        "    fn error(&self, msg: String) -> ValueError {\n"
        "        match self.key {\n"
        '            Some(key) => ValueError::custom(format!("Error at {key}: {msg}")),\n'
        "            _ => ValueError::custom(msg),\n"
        "        }\n"
        "    }\n"
        "    fn check(&self) -> Result<(), ValueError> {\n"
        "        match self.key {\n"
        '            Some(key) => Err(ValueError::custom(format!("No value at {key}"))),\n'
        "            _ => Ok(()),\n"
        "        }\n"
        "    }\n"
        "}\n"
    )
    built = found["Error at {key}: {msg}"]
    assert built.validationCode is None
    # a trait's impl building its `Self` the same (zellij's `impl From<rusqlite::Error> for
    # TokenError`: its `match` picks the variant)
    converted = explained_all(
        "impl From<io::Error> for ValueError {\n"
        "    fn from(e: io::Error) -> Self {\n"
        "        match e.kind() {\n"
        '            ErrorKind::NotFound => ValueError::custom(format!("no such value: {e}")),\n'
        "            _ => ValueError::custom(e.to_string()),\n"
        "        }\n"
        "    }\n"
        "}\n"
    )
    assert converted["no such value: {e}"].validationCode is None
    assert not any(s.startswith("The code goes on only when") for s in built.solutions)
    assert found["No value at {key}"].validationCode == "let ok = des.key.is_none();"


def test_a_caller_check_names_the_value_a_caller_holds_not_self() -> None:
    """hickory's `Alpn::emit` read `let ok = !self.0.is_empty();`, the callee's view
    (reading 133): `self` is the value the caller calls it on, `Self` the impl's type."""
    from site_fixtures import explained

    source = (
        "pub struct Alpn(pub Vec<String>);\n"
        "impl Alpn {\n"
        "    pub fn emit(&self, encoder: &mut Encoder) -> Result<(), ProtoError> {\n"
        '        if self.0.is_empty() {\n            return Err(ProtoError::from("target"));\n'
        "        }\n        Ok(())\n    }\n}\n"
    )
    assert explained(source).validationCode == "let ok = !alpn.0.is_empty();"
    kinds = (
        "pub enum Sources { Paths(Vec<String>), Files }\n"
        "impl Sources {\n"
        "    pub fn first(self, n: usize) -> Result<(), E> {\n"
        '        if matches!(self, Self::Files) {\n            return Err(E::msg("target"));\n'
        "        }\n        Ok(())\n    }\n}\n"
    )
    assert explained(kinds).validationCode == "let ok = !matches!(sources, Sources::Files);"


def test_advice_never_sends_the_reader_to_an_error_the_code_drops() -> None:
    """hickory's SOA `.try_into().map_err(|_e| ParseError::from("retry outside i32
    range"))` keeps none of the error it replaces: "if the error underneath says .." pointed
    at nothing (reading 133's recheck)."""
    from site_fixtures import explained

    source = (
        "fn from_tokens(tokens: &mut Tokens) -> Result<u32, ParseError> {\n"
        "    let retry: i32 = tokens\n        .next()\n        .and_then(parse_ttl)?\n"
        "        .try_into()\n"
        '        .map_err(|_e| ParseError::from("retry outside i32 range"))?;\n'
        "    Ok(1)\n}\n"
    )
    solutions = explained(source).solutions
    assert solutions == [
        "`tokens.next().and_then(parse_ttl)?.try_into()` was given `tokens`, which the caller "
        "of `from_tokens` passes. The code keeps none of its error (`.map_err(|_e| ..)`), so "
        "this message is all it tells: check that value against what the call accepts."
    ]
    kept = explained(
        source.replace("|_e|", "|e|")
        .replace('("retry', '(format!("retry')
        .replace('range")', 'range: {e}")')
    )
    assert any("if the error underneath says" in s for s in kept.solutions)


def test_an_err_arm_that_binds_nothing_keeps_no_error_underneath() -> None:
    """uv's `match installed_tools.get_tool_receipt(name) { .., Err(_) => return
    Err(anyhow!("`{}` is missing a valid receipt; ..")) }` read "if the error underneath says
    it refused that, pass another": the arm throws it away (reading 180). An arm that binds
    the error keeps the advice."""
    source = (
        "fn upgrade_tool(name: &str, tools: &Tools) -> anyhow::Result<()> {\n"
        "    let receipt = match tools.get_tool_receipt(name) {\n"
        "        Ok(Some(receipt)) => receipt,\n"
        '        Ok(None) => anyhow::bail!("not installed"),\n'
        "        Err(_) => {\n"
        '            return Err(anyhow::anyhow!("`{}` is missing a valid receipt", name));\n'
        "        }\n"
        "    };\n"
        "    Ok(())\n}\n"
    )
    dropped = explained_all(source)["`{}` is missing a valid receipt"]
    assert not any("error underneath" in s for s in dropped.solutions)
    assert any("The code keeps none of its error (`Err(_) =>`)" in s for s in dropped.solutions)
    kept = explained_all(
        source.replace("Err(_) =>", "Err(e) =>").replace('receipt", name', 'receipt: {e}", name')
    )["`{}` is missing a valid receipt: {e}"]
    assert not any("keeps none of its error" in s for s in kept.solutions)


def test_only_the_closure_that_makes_the_error_is_asked_whether_it_ignores_one() -> None:
    """Read on the syntax tree, not on the lines above: cargo's `.or_else(|_| url.into_url())
    .with_context(|| ..)` keeps the error of `into_url` under its message; nushell's
    `.map_err(|_| { ..7 lines.. GenericError::new(..) })` and bat's `write!(.., x.map_err(|_|
    ..))` (inside a macro's tokens) keep none."""
    from pipeline.languages.rust.sites import find_sites

    source = (
        "fn patch(ctx: &Ctx, url: &str) -> anyhow::Result<Url> {\n"
        "    let u = ctx\n        .index(url)\n        .or_else(|_| url.into_url())\n"
        '        .with_context(|| format!("entry `{}` should be a URL", url))?;\n'
        "    Ok(u)\n}\n"
        "fn load(plugin: &Plugin) -> Result<Id, ShellError> {\n"
        "    let id = Id::new(plugin.name.clone()).map_err(|_| {\n"
        '        let help = format!("the name {}", plugin.name);\n'
        "        let a = 1;\n        let b = 2;\n        let c = 3;\n"
        '        GenericError::new("Invalid plugin filename", help)\n    })?;\n    Ok(id)\n}\n'
        "fn print(buf: &[u8], out: &mut String) -> Result<(), Error> {\n"
        '    write!(out, "{}", std::str::from_utf8(buf).map_err(|_e| Error::Msg("invalid utf8"))?)?;\n'
        "    Ok(())\n}\n"
    )
    ignored = {
        s.message: s.facts.ignored_error for s in find_sites("src/x.rs", source.encode()).sites
    }
    assert ignored == {
        "entry `{}` should be a URL": None,
        "Invalid plugin filename": "`.map_err(|_| ..)`",
        "invalid utf8": "`.map_err(|_e| ..)`",
    }


def test_a_type_guard_on_a_parameter_the_fn_binds_again_is_none() -> None:
    """neon's `let endpoint_id = from_endpoint.or(spec.endpoint_id); let Some(endpoint_id) =
    endpoint_id else { bail!(..) }` gave the `typeGuard` `endpoint_id.is_some()`: callers
    pass `None` and the fn goes on (reading 141)."""
    found = explained_all(
        "fn prewarm(endpoint_id: Option<u32>, spec: &Spec) -> anyhow::Result<u32> {\n"
        "    let endpoint_id = endpoint_id.or(spec.endpoint_id);\n"
        '    let Some(id) = endpoint_id else { anyhow::bail!("no endpoint id to prewarm") };\n'
        "    Ok(id)\n}\n"
        "fn warm(endpoint_id: Option<u32>) -> anyhow::Result<u32> {\n"
        '    let Some(id) = endpoint_id else { anyhow::bail!("no endpoint id to warm") };\n'
        "    Ok(id)\n}\n"
    )
    assert found["no endpoint id to prewarm"].typeGuard is None
    assert found["no endpoint id to warm"].typeGuard == "endpoint_id.is_some()"


def test_a_type_guard_on_the_fn_s_own_local_is_none() -> None:
    """cargo's frontmatter parser: `let Some(nl) = input.find_slice("\n") else { .. }`, with
    `input` made inside the fn from its parameter, gave the `typeGuard`
    `input.find_slice("\n").is_some()`, which no caller can evaluate (reading 302)."""
    found = explained_all(
        "fn parse(text: &str) -> anyhow::Result<usize> {\n"
        "    let input = text.trim_start();\n"
        '    let Some(nl) = input.find("\\n") else { anyhow::bail!("unclosed frontmatter") };\n'
        "    Ok(nl)\n}\n"
        "fn first(text: &str) -> anyhow::Result<usize> {\n"
        '    let Some(nl) = text.find("\\n") else { anyhow::bail!("no line") };\n'
        "    Ok(nl)\n}\n"
    )
    assert found["unclosed frontmatter"].typeGuard is None
    assert found["no line"].typeGuard == 'text.find("\\n").is_some()'


def test_a_poll_fn_s_error_is_no_err_a_caller_matches() -> None:
    """neon's `poll_read` returns `Poll<io::Result<()>>`: `match result { Err(e) .. }` does
    not type-check on it (reading 141)."""
    found = explained_all(
        "impl AsyncRead for Reader {\n"
        "    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {\n"
        '        Poll::Ready(Err(io::Error::other("the reader was closed early")))\n'
        "    }\n"
        "}\n"
    )
    assert found["the reader was closed early"].tryCatchPattern is None


VALIDATED = """\
pub fn validate_span(lo: u32, hi: u32) -> anyhow::Result<()> {
    anyhow::ensure!(lo <= hi, "the span ends before it starts");
    Ok(())
}

pub fn take(queue: &mut Queue, n: usize) -> anyhow::Result<()> {
    anyhow::ensure!(n > 0, "nothing to take");
    queue.advance(n);
    Ok(())
}

impl Session {
    pub fn check_not_in_transaction(&self) -> anyhow::Result<()> {
        anyhow::ensure!(!self.in_transaction, "not allowed in a transaction");
        Ok(())
    }
}
"""


def test_a_caller_s_test_before_the_call_answers_the_values_it_refuses() -> None:
    """`if n > 0 { take(queue, n)?; }` alone skipped the call in silence where `n` is 0:
    the example answers the refused values in an `else` (reading 144)."""
    fix = explained_all(VALIDATED)["nothing to take"].exampleFix
    assert fix.endswith(
        "// It is reached only when this check fails; a caller can test it first:\n"
        "if n > 0 {\n"
        "    take(queue, n)?;\n"
        "} else {\n"
        "    // here take would fail: handle this case (pass other values, or report it)\n"
        "}"
    )
    assert parses_as_code(fix)


def test_a_fn_named_as_a_check_is_not_guarded_by_its_own_test() -> None:
    """qdrant's `if lookup != .. { validate_integer_index_params(lookup, range)?; }` ran the
    validator only where it passes: invalid values went on unchecked (reading 144)."""
    explanation = explained_all(VALIDATED)["the span ends before it starts"]
    assert "caller can test it first" not in explanation.exampleFix
    assert explanation.exampleFix.endswith(
        "// It is reached only when this does not hold: lo <= hi"
    )
    assert explanation.validationCode == "let ok = lo <= hi;"
    assert "`validate_span` is itself the check: give it values for which `lo <= hi` holds." in (
        explanation.preventionTips
    )
    assert not any(t.startswith("Before calling") for t in explanation.preventionTips)
    # one with no argument is called in a state, not given values (reading 146's recheck)
    stateful = explained_all(VALIDATED)["not allowed in a transaction"]
    assert (
        "`Session::check_not_in_transaction` is itself the check: call it where "
        "`!session.in_transaction` holds."
    ) in stateful.preventionTips


CONVERTED = """\
impl From<ParseError> for ShellError {
    fn from(error: ParseError) -> Self {
        match error {
            ParseError::DuplicateKey { duplicate, span } => GenericError::new(
                "Duplicate Mapping Key",
                format!("The key {duplicate:?} already appeared in the mapping"),
                span,
            )
            .into(),
            ParseError::Other(e) => ShellError::Io(e),
        }
    }
}
"""


def test_a_from_conversion_s_arm_chooses_which_error_not_whether() -> None:
    """nushell's `impl From<ParseError> for ShellError` read "goes on only when
    `!matches!(error, ParseError::DuplicateKey { .. })`" and "pass values the check
    accepts": every value it is given becomes an error (reading 148)."""
    explanation = explained_all(CONVERTED, "src/error.rs")["Duplicate Mapping Key"]
    assert explanation.validationCode is None
    assert explanation.solutions == [
        "`ShellError::from` converts a `ParseError` into this error (its "
        "`ParseError::DuplicateKey` arm); it refuses nothing itself. Where that `ParseError` "
        "is made decides when this shows, and what it refuses there says what to change."
    ]
    assert "does not hold" not in explanation.exampleFix


def test_a_changed_host_key_is_a_guard_whose_inputs_are_not_swapped() -> None:
    """cargo's `HostKeyHasChanged` arm read "pass another `config_known_hosts`": swapping the
    trust input until a possible man-in-the-middle warning goes away (reading 149)."""
    source = """\
fn certificate_check(host_key: &HostKey, config_known_hosts: Option<&[String]>) -> Result<()> {
    match check_ssh_known_hosts(host_key, config_known_hosts) {
        Ok(()) => Ok(()),
        Err(KnownHostError::HostKeyHasChanged { hostname, .. }) => {
            anyhow::bail!("SSH host key has changed for `{hostname}`")
        }
        Err(e) => Err(e.into()),
    }
}
"""
    (explanation,) = explained_all(source).values()
    advice = " ".join(explanation.solutions)
    assert "where that value comes from" not in advice
    assert "config_known_hosts" not in advice


def test_a_panic_in_a_const_initializer_fails_the_build_not_a_run() -> None:
    """meilisearch's `const _CELLULITE_DB_CHECK: () = if .. { panic!(..) }` can only fail
    the build; it read as a panic users meet at run time (reading 153). A panic in a
    closure a `const` holds runs where the closure is called."""
    found = explained_all(
        "fn database_sizes() -> usize {\n"
        "    const _CHECK: () = if DB_COUNT != 25 {\n"
        '        panic!("database count has changed, update the sizes")\n'
        "    };\n"
        "    DB_COUNT\n"
        "}\n"
        "const HOOK: fn(u8) = |x| {\n"
        '    if x == 0 { panic!("no zero here") }\n'
        "};\n"
    )
    checked = found["database count has changed, update the sizes"]
    assert "never a run" in checked.documentation
    assert "A panic is no `Err`" not in checked.documentation
    assert checked.solutions[-1].startswith(
        "This panic is in the initializer of `const _CHECK`, which the compiler evaluates"
    )
    assert checked.exampleFix.endswith(
        "// The compiler evaluates `const _CHECK`: a build fails here, no run does."
    )
    assert "never a run" not in found["no zero here"].documentation


def test_a_match_on_an_error_type_code_outside_cannot_name_says_where_it_compiles() -> None:
    """uv's `pub(crate) enum GitInfoError` and `ValidationError` got `Err(GitInfoError::InvalidRef
    { .. })` with nothing said: it compiles only inside the crate (reading 180). A `pub` type
    keeps its match as it was."""
    found = explained_all(
        "#[derive(Debug, thiserror::Error)]\n"
        "pub(crate) enum GitInfoError {\n"
        '    #[error("The repository at {0} has an invalid reference: `{1}`")]\n'
        "    InvalidRef(String, String),\n"
        "}\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "enum Private {\n"
        '    #[error("private failure of {0}")]\n'
        "    Failed(String),\n"
        "}\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub(super) enum Parent {\n"
        '    #[error("parent failure of {0}")]\n'
        "    Failed(String),\n"
        "}\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Public {\n"
        '    #[error("public failure of {0}")]\n'
        "    Failed(String),\n"
        "}\n"
    )
    heads = {
        message: (record.tryCatchPattern or "").splitlines()[0] for message, record in found.items()
    }
    assert heads == {
        "The repository at {0} has an invalid reference: `{1}`": (
            "// Only code in its own crate can name `GitInfoError`; code there could handle it so."
        ),
        "private failure of {0}": (
            "// Only code in its own module can name `Private`; code there could handle it so."
        ),
        "parent failure of {0}": (
            "// Only code in its parent module can name `Parent`; code there could handle it so."
        ),
        "public failure of {0}": "match result {",
    }


def test_the_cause_s_own_cause_is_no_value_involved() -> None:
    """nushell's "Could not fetch AWS credentials: {} - {}" prints `e` and
    `e.source().map(..)`: both are error texts, and the second read as "the value(s) involved
    .. say which input or object the failure is about" (reading 182)."""
    found = explained_all(
        "fn creds(p: &P) -> Result<(), ShellError> {\n"
        "    p.provide().map_err(|e| ShellError::Generic(format!(\n"
        '        "Could not fetch AWS credentials: {} - {}",\n'
        "        e,\n"
        '        e.source().map(|e| format!("{e}")).unwrap_or("".to_string())\n'
        "    )))?;\n"
        "    Ok(())\n}\n"
    )
    record = found["Could not fetch AWS credentials: {} - {}"]
    assert "value(s) involved" not in record.commonSituations
    assert not any("Look at the value(s)" in s for s in record.solutions)
    assert record.solutions[0].startswith("The message prints the error underneath (`{}`)")


def test_an_error_returned_in_a_tuple_beside_the_value_has_no_match_on_err() -> None:
    """nushell's `lite_parse(..) -> (LiteBlock, Option<ParseError>)` got `match lite_parse(..)
    { Err(e) .. other => { other?; } }`, which does not type-check on a tuple (reading 182)."""
    found = explained_all(
        "pub fn lite_parse(tokens: &[Token]) -> (LiteBlock, Option<ParseError>) {\n"
        "    let mut error = None;\n"
        "    if tokens.is_empty() {\n"
        '        error = error.or(Some(ParseError::Expected("redirection target", span)));\n'
        "    }\n"
        "    (LiteBlock::default(), error)\n"
        "}\n"
        "pub fn parse(tokens: &[Token]) -> Result<LiteBlock, ParseError> {\n"
        "    if tokens.is_empty() {\n"
        '        return Err(ParseError::Expected("a block after the keyword", span));\n'
        "    }\n"
        "    Ok(LiteBlock::default())\n"
        "}\n"
    )
    assert found["redirection target"].tryCatchPattern is None
    assert found["a block after the keyword"].tryCatchPattern is not None


def test_an_error_handed_to_a_reporting_call_is_not_said_to_be_returned() -> None:
    """nushell's parser reports `working_set.error(ParseError::Expected(..));` and goes on;
    the record said `parse_signature_helper` "returns an error built by
    `ParseError::Expected`" (reading 182). A value the error goes on through (`.map_err(..)`)
    is still returned. Whether the fn returns the error later (qdrant's `errors.add(..);
    Err(errors)`) its return type says, as for any site."""
    found = explained_all(
        "pub fn parse_signature_helper(working_set: &mut StateWorkingSet, span: Span) -> "
        "Result<Box<Signature>, ParseError> {\n"
        "    if span.start > 3 {\n"
        '        working_set.error(ParseError::Expected("short flag to be single character", '
        "span));\n"
        "    }\n"
        "    Ok(Box::new(Signature::default()))\n"
        "}\n"
        "pub fn collect(errors: &mut Vec<anyhow::Error>, n: u32) -> Result<(), Error> {\n"
        "    if n > 3 {\n"
        '        errors.push(anyhow::anyhow!("too many items in the batch: {}", n));\n'
        "    }\n"
        '    thing().map_err(|e| Error::Wrapped("failed to read the thing", e))?;\n'
        "    Ok(())\n"
        "}\n"
    )
    reported = found["short flag to be single character"]
    assert reported.documentation.startswith(
        "`parse_signature_helper` hands an error built by `ParseError::Expected` to "
        "`working_set.error(..)` in `src/x.rs`. The code goes on after that call."
    )
    pushed = found["too many items in the batch: {}"]
    assert "hands an error built by `anyhow::anyhow!` to `errors.push(..)`" in (
        pushed.documentation
    )
    returned = found["failed to read the thing"]
    assert returned.documentation.startswith("`collect` returns an error built by")
    assert returned.tryCatchPattern is not None


@pytest.mark.parametrize(
    ("call", "tip"),
    [
        (
            "fs::create_dir_all(p)",
            "Check before the run that nothing but directories is in the way on that path, that "
            "it may write there, and that the disk has room.",
        ),
        (
            "std::fs::read_to_string(p)",
            "Check before the run that what it reads exists and that it may read it.",
        ),
        (
            "File::create(p)",
            "Check before the run that it may write where it does and that the disk has room.",
        ),
    ],
)
def test_an_io_error_s_tip_is_what_its_file_system_call_needs(call: str, tip: str) -> None:
    """cargo's `fs::create_dir_all(p).with_context(|| format!("failed to create directory
    `{}`", p.display()))` got the I/O class's tip "that what it creates anew does not yet
    (`create_dir`, `create_new`)": `create_dir_all` succeeds where the directory exists
    (reading 183). A call the code shows gets its own needs."""
    found = explained_all(
        "fn make(p: &Path) -> anyhow::Result<()> {\n"
        f'    {call}.with_context(|| format!("failed to create directory `{{}}`", p.display()))?;\n'
        "    Ok(())\n}\n"
    )
    (record,) = found.values()
    assert record.backgroundTag == "io-error"
    assert record.preventionTips[-1] == tip


def test_a_create_dir_whose_already_exists_the_code_lets_through_wants_no_fresh_directory() -> None:
    """ripgrep's index: `if let Err(err) = std::fs::create_dir(path) && err.kind() !=
    ErrorKind::AlreadyExists { bail!(..) }` read "Check before the run that the directory
    does not exist yet" (reading 315, F): an existing directory is what the code goes on
    with. Without that test the tip stays."""
    source = (
        "fn make(path: &Path) -> anyhow::Result<()> {\n"
        "    if let Err(err) = std::fs::create_dir(path)\n"
        "        && err.kind() != std::io::ErrorKind::AlreadyExists\n"
        "    {\n"
        '        anyhow::bail!("{}: failed to create directory: {}", path.display(), err);\n'
        "    }\n"
        '    std::fs::create_dir(path).context("failed to make the fresh directory")?;\n'
        "    Ok(())\n}\n"
    )
    found = explained_all(source)
    tolerant = found["{}: failed to create directory: {}"].preventionTips
    assert not any("does not exist yet" in t for t in tolerant)
    assert (
        "Check before the run that the directory's parent exists and that it may write there "
        "(an existing directory is fine: the code goes on with it)."
    ) in tolerant
    strict = found["failed to make the fresh directory"].preventionTips
    assert any("the directory does not exist yet" in t for t in strict)


def test_an_error_its_authors_call_a_bug_is_a_broken_invariant_whatever_its_words() -> None:
    """nushell's "Internal YAML Parser Error" with `.with_help("This is most likely a bug.
    Please report it.")` read "by the words "parser", "yaml": Parse error" (reading 182). A
    help that names a bug as one cause among others keeps the words' class."""
    found = explained_all(
        "fn from(error: ParseError) -> ShellError {\n"
        "    match error {\n"
        "        ParseError::Internal { span } => GenericError::new(\n"
        '            "Internal YAML Parser Error",\n'
        '            "The YAML parser got into an unexpected state",\n'
        "            span,\n"
        "        )\n"
        '        .with_help("This is most likely a bug. Please report it."),\n'
        "        ParseError::Other { span } => GenericError::new(\n"
        '            "YAML parser error in the document",\n'
        '            "The YAML parser could not read this",\n'
        "            span,\n"
        "        )\n"
        '        .with_help("the input may be broken, or there was a bug"),\n'
        "    }\n"
        "}\n"
    )
    assert found["Internal YAML Parser Error"].backgroundTag == "internal-invariant"
    assert found["YAML parser error in the document"].backgroundTag == "parse-error"


def test_the_object_a_failed_call_works_on_is_no_value_it_was_given() -> None:
    """helix's `theme`: `cx.editor.theme_loader.load(theme_name).map_err(..)?` read
    "`..load(theme_name)` was given `cx`, which the caller of `theme` passes: .. where that
    value comes from is what to change" (reading 252): `cx` is the context the loader is
    reached through, not what it loads; likewise a channel's sender (quickwit's
    `assignment_tx.send(offsets)`, reading 251). A lookup's receiver is what it looks in,
    and stays named; so does a value a call converts (`s.parse()`)."""
    source = """\
fn theme(cx: &mut Context, name: &str) -> anyhow::Result<()> {
    let theme_name = name.trim();
    cx.editor.theme_loader.load(theme_name).map_err(|e| anyhow::anyhow!("Could not load theme: {}", e))?;
    Ok(())
}

fn forward(assignment_tx: &Sender<u64>, offsets: u64) -> anyhow::Result<()> {
    assignment_tx.send(offsets).context("consumer context was dropped")?;
    Ok(())
}

fn lookup(inferred: &Inferred, data: Key) -> anyhow::Result<Vector> {
    inferred.get_vector(&data).cloned().context("no inferred vector")
}

fn port(s: &str) -> anyhow::Result<u16> {
    s.parse::<u16>().context("bad port")
}
"""
    advice = {m: " ".join(e.solutions) for m, e in explained_all(source, "src/m.rs").items()}
    assert "was given `cx`" not in advice["Could not load theme: {}"]
    assert "was given `assignment_tx`" not in advice["consumer context was dropped"]
    assert (
        "`assignment_tx.send(offsets)` was given `offsets`, which the caller of `forward` passes"
    ) in advice["consumer context was dropped"]
    assert "was given `inferred`, `data`" in advice["no inferred vector"]
    assert "was given `s`" in advice["bad port"]


def test_an_arm_an_exit_above_left_on_first_is_not_taken_as_written() -> None:
    """starship's `load_formatter_and_modules`: `if context.target == Target::Continuation {
    .. return ..; }`, then `match context.target { .. Target::Continuation =>
    unreachable!(..) }`; its trigger asked for both, and its `validationCode` held whatever
    was passed (reading 314, F). The arm says the exit leaves on it first, and no check is
    offered. An arm of another pattern is as before."""
    source = """\
pub fn load(context: &Context) -> u8 {
    if context.target == Target::Continuation {
        return 0;
    }
    match context.target {
        Target::Main => 1,
        Target::Continuation => unreachable!("Continuation prompt should have been handled above"),
        Target::Right => panic!("no right prompt here"),
    }
}
"""
    found = explained_all(source, "src/lib.rs")
    handled = found["Continuation prompt should have been handled above"]
    assert (
        "2. the arm `match context.target: Target::Continuation =>` is taken (the exit above "
        "leaves on it first: as the code stands, never)"
    ) in handled.triggerScenarios
    assert handled.validationCode is None
    right = found["no right prompt here"]
    assert "as the code stands, never" not in right.triggerScenarios
    assert right.validationCode is not None


def test_an_expect_whose_none_a_check_above_stops_cannot_fail_as_written() -> None:
    """neon's storage controller: `if az_id.is_none() { panic!("Availablity zone id could
    not be inferred ..") }`, then `az_id.expect("Checked above")`; its record read "1.
    `az_id.is_none()` is false; 2. `az_id` was None/Err" (reading 262, contradictory). The
    scan tells it `None`, and the advice says the check above stops first. An `expect`
    whose value the scan tells is an `Err` says only that."""
    source = """\
pub fn zone(az: Option<u8>) -> u8 {
    let az_id = az;
    if az_id.is_none() {
        panic!("no zone inferred");
    }
    az_id.expect("Checked above")
}

pub async fn write(w: &mut W) {
    w.write_all(b"x").await.expect("write failed");
}
"""
    found = explained_all(source, "src/lib.rs")
    checked = found["Checked above"]
    assert "It fails only if `az_id` is `None`, which `az_id.is_none()` above already stops" in (
        checked.documentation
    )
    assert (
        "2. `az_id` was None (`expect`) (the check above stops a `None` first: as the code "
        "stands, never)" in checked.triggerScenarios
    )
    (said,) = checked.solutions
    assert said.startswith(
        "This panic does not come about as the code stands: `az_id.is_none()` above already "
        "stops the code, with its own message, when the value is `None`."
    )
    assert (
        found["write failed"]
        .solutions[0]
        .startswith(
            'The code assumed `w.write_all(b"x").await` always gives a value here (never an `Err`)'
        )
    )


def test_an_item_of_a_collection_a_check_above_found_holding_one_cannot_be_missing() -> None:
    """surrealdb's `if values.len() == 1 { values.into_iter().next().expect("values verified
    non-empty") }` read "1. `values.len() == 1` is true; 2. `values.into_iter().next()` was
    None", and "this time it did not" (reading 322, contradictory). The check says there is
    an item: as the code stands, never. A loop between the two (which may empty it) and a
    check of another collection say nothing."""
    source = """\
pub fn single(values: Vec<u8>) -> u8 {
    if values.len() == 1 {
        return values.into_iter().next().expect("values verified non-empty");
    }
    0
}

pub fn newest(epochs: &[u8]) -> u8 {
    if epochs.is_empty() {
        return 0;
    }
    *epochs.last().expect("non-empty epochs")
}

pub fn drained(stack: &mut Vec<u8>) -> u8 {
    if !stack.is_empty() {
        while let Some(x) = stack.pop() {
            let _ = x;
        }
        return *stack.first().expect("still holds one");
    }
    0
}

pub fn other(a: &[u8], b: &[u8]) -> u8 {
    if !a.is_empty() {
        return *b.first().expect("b holds one");
    }
    0
}
"""
    found = explained_all(source, "src/lib.rs")
    single = found["values verified non-empty"]
    assert (
        "It fails only if `values` is empty, which `values.len() == 1` above rules out: "
        "`values.into_iter().next()` gives an item here." in single.documentation
    )
    assert (
        "2. `values.into_iter().next()` was None (`expect`) (`values.len() == 1` above says "
        "`values` holds an item: as the code stands, never)" in single.triggerScenarios
    )
    assert single.solutions[0].startswith(
        "This panic does not come about as the code stands: `values.len() == 1` above says "
        "`values` holds an item when `values.into_iter().next()` runs."
    )
    # an early exit on the opposite test is the same check
    assert "which `epochs.is_empty()` above rules out" in found["non-empty epochs"].documentation
    for message in ("still holds one", "b holds one"):
        assert "rules out" not in found[message].documentation
        assert "as the code stands, never" not in found[message].triggerScenarios


def test_a_serde_trait_s_method_is_handled_where_the_format_returns_its_error() -> None:
    """alacritty's `RawBindingVisitor::visit_map`, a local type's: its handling read `match
    raw_binding_visitor.visit_map(map) { .. }`, a call no code makes (serde does) and no
    other fn could compile (reading 290: F)."""
    source = (
        "struct RawBindingVisitor;\n"
        "impl<'de> Visitor<'de> for RawBindingVisitor {\n"
        "    type Value = u8;\n"
        "    fn visit_map<V: MapAccess<'de>>(self, mut map: V) -> Result<u8, V::Error> {\n"
        "        if map.next_key::<String>()?.is_none() {\n"
        '            return Err(V::Error::custom("action is only available for mouse bindings"));\n'
        "        }\n"
        "        Ok(1)\n"
        "    }\n"
        "}\n"
    )
    pattern = explained(source).tryCatchPattern
    assert pattern is not None
    assert pattern.startswith(
        "// serde calls `visit_map` as a format reads or writes the value: where the program "
        "reads it with a format's call (`serde_json::from_str`, `toml::from_str`, ..), the "
        "error comes back from that call; code that reads each value apart may handle it "
        "there instead.\n"
        "match result {\n"
        '    Err(e) if e.to_string().contains("action is only available for mouse bindings")'
    )
    assert "visit_map(" not in pattern.split("\n", 1)[1]


def test_a_site_an_exit_above_leaves_before_is_not_reached_through_its_fn_s_paths(
    tmp_path: Path,
) -> None:
    """Reading 314's recheck: starship's `Continuation` arm read "(the exit above leaves on
    it first: as the code stands, never)" and yet "it is reached from 4 entry points", "runs
    get here through ..". Its fn is reached; the site is not."""
    from test_crate_only import explained as explained_with_reach

    text = """\
pub fn run(context: &Context) -> u8 {
    load(context)
}
fn load(context: &Context) -> u8 {
    if context.target == Target::Continuation {
        return 0;
    }
    match context.target {
        Target::Continuation => unreachable!("Continuation prompt should have been handled above"),
        _ => 2,
    }
}
"""
    found = explained_with_reach(tmp_path, text)

    assert " its fn is reached from public API `run`: `run` -> `load`." in (found.triggerScenarios)
    assert "As the code stands, no run gets past the check above to this step." in (
        found.triggerScenarios
    )
    assert "runs reach its fn through public API `run`; a check above leaves before " in (
        found.commonSituations
    )
    assert "runs get here" not in found.commonSituations
