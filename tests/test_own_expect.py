"""`x.expect("..")` is std's panic only on an `Option` or a `Result`. typst's `args.expect(
"lightness component")?` calls `Args::expect(&mut self, what: &str) -> SourceResult<T>`,
which returns the user's error "missing argument: lightness component": a stop 54 reading
found it called a panic and a bug to report upstream (29 of typst's records). A `.expect`
whose value `?` passes on, on a parameter (or `self`) whose declared type is a named type
that is no `Option` nor `Result` (nor an alias ending so), is that type's method: no site.
Anything less certain stays a site: a generic, a receiver no parameter declares, no `?`
(risingwave's `datum: DatumRef<'_>` is an alias of an `Option`)."""

from __future__ import annotations

import pytest

from pipeline.languages.rust.sites import find_sites


def messages(body: str, params: str) -> list[str]:
    source = f"fn f({params}) -> SourceResult<()> {{\n    {body}\n    Ok(())\n}}\n"
    return [s.message for s in find_sites("src/lib.rs", source.encode()).sites]


def test_a_declared_type_s_own_expect_is_no_panic() -> None:
    assert messages('let l: u8 = args.expect("lightness component")?;', "args: &mut Args") == []
    assert messages('let v = args.expect("a value")?;', "mut args: typst::Args") == []


def test_a_method_of_self_s_type_is_its_own_too() -> None:
    source = (
        "impl Parser {\n    fn name(&mut self) -> Result<String, Error> {\n"
        '        let n = self.expect("a name here")?;\n        Ok(n)\n    }\n}\n'
    )
    assert [s.message for s in find_sites("src/lib.rs", source.encode()).sites] == []


@pytest.mark.parametrize(
    ("body", "params"),
    [
        ('let x = value.expect("a value is required")?;', "value: Option<Result<u8, E>>"),
        ('let x = value.expect("a value is required")?;', "value: io::Result<Result<u8, E>>"),
        ('let x = value.expect("a value is required")?;', "value: T"),  # a generic
        ('let x = datum.expect("should not be none");', "datum: DatumRef<'_>"),  # no `?`
        ('let x = other.expect("a value is required")?;', "value: &mut Args"),  # undeclared
        ('let x = handle.join().expect("the thread panicked")?;', "handle: JoinHandle"),
    ],
)
def test_anything_less_certain_stays_std_s_expect(body: str, params: str) -> None:
    assert len(messages(body, params)) == 1
