"""A diagnostic's place may come before its message: typst's `bail!(span, "not enough
arguments")` (its own `bail!`, re-exported under anyhow's name) was no site at all, 300 of
its 446 `bail!`s. anyhow's `bail!` takes a literal first whenever more follows, so a
non-literal first argument followed by a literal is such a place; a lone expression is
anyhow's error form, as before."""

from __future__ import annotations

from pipeline.languages.rust.sites import find_sites

SOURCE = b"""\
fn check(args: &mut Args, arg: Arg) -> SourceResult<()> {
    if args.items.is_empty() {
        bail!(args.span, "not enough arguments");
    }
    match arg.name {
        Some(name) => bail!(arg.span, "unexpected argument: {name}"),
        None => bail!(arg.span, "unexpected {} argument", arg.kind),
    }
}
fn plain(x: u32) -> anyhow::Result<()> {
    anyhow::bail!("too many: {}", x);
}
fn wrapped(err: Error) -> anyhow::Result<()> {
    anyhow::bail!(err);
}
"""


def test_a_message_after_a_place_is_the_site_s_message() -> None:
    sites = {s.message: s for s in find_sites("src/args.rs", SOURCE).sites}
    assert sorted(sites) == [
        "not enough arguments",
        "too many: {}",
        "unexpected argument: {name}",
        "unexpected {} argument",
    ]
    assert sites["unexpected {} argument"].format_args == ("arg.kind",)
    assert sites["too many: {}"].format_args == ("x",)
    # the place is no check: the only condition of the first is the `if` around it
    assert [c.text for c in sites["not enough arguments"].facts.conditions] == [
        "args.items.is_empty()"
    ]


def test_a_sentence_about_code_outside_any_fn_starts_with_a_capital() -> None:
    """typst's `cast! { .. }` blocks hold sites in no fn: "the code that `cast!` generates
    .. returns early with `bail!`" opens the documentation and a solution."""
    from site_fixtures import explained

    source = (
        "cast! {\n    Color,\n    v: Func => match Space::of(v) {\n"
        '        None => bail!("expected a color space"),\n'
        "        Some(s) => s,\n    },\n}\n"
    )
    explanation = explained(source)
    texts = [explanation.documentation, *explanation.solutions, *explanation.preventionTips]
    assert explanation.documentation.startswith("The code that `cast!` generates from `cast! {")
    assert all(text[:1].isupper() or text[:1] == "`" for text in texts)
