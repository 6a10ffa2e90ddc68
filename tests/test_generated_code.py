"""A site inside `quote!` is code a procedural macro writes into the crate that uses it,
not code the macro runs (sqlx's derived `Decode` for an enum: `_ => Err(format!("invalid
value {:?} for enum {}", ..))` inside `quote! { .. }` read "returned as the using crate
compiles", reading 308). The scan marks it (`Facts.generated`); the explanation says where
the code comes from and what runs it, and drops what it said in the macro fn's terms."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.analyze.static import explain
from pipeline.core.model import Explanation
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

LIB = """\
use proc_macro::TokenStream;
use quote::quote;

#[proc_macro_derive(Decode)]
pub fn derive_decode(input: TokenStream) -> TokenStream {
    expand(input).unwrap_or_else(|e| e.to_compile_error()).into()
}

fn expand(input: TokenStream) -> syn::Result<proc_macro2::TokenStream> {
    let ident = parse(input)?;
    if ident.is_empty() {
        panic!("expected an enum");
    }
    Ok(quote! {
        impl Decode for #ident {
            fn decode(value: &str) -> Result<Self, String> {
                match value {
                    #(#names => Ok(#ident::#variants),)*
                    _ => Err(format!("invalid value {:?} for enum {}", value, stringify!(#ident))),
                }
            }
            fn key() -> u8 {
                panic!("primary key is required")
            }
        }
    })
}
"""
FILES = {
    "Cargo.toml": '[package]\nname = "db_macros"\n[lib]\nproc-macro = true\n',
    "src/lib.rs": LIB,
}


def _sites() -> dict[str, str | None]:
    scan = find_sites("src/lib.rs", LIB.encode())
    return {s.message: s.facts.generated for s in scan.sites}


def test_the_scan_marks_a_site_inside_quote_and_no_other() -> None:
    assert _sites() == {
        "expected an enum": None,  # the macro's own error, as it expands
        "invalid value {:?} for enum {}": "quote!",  # the generated `decode`'s
        "primary key is required": "quote!",
    }


def _told(tmp_path: Path, message: str) -> Explanation:
    """The static explanation of the site whose message starts with `message`, its reach
    from the fixture's call graph."""
    reach = site_reach(graph_of(tmp_path, FILES), "src/lib.rs", line_of_text(LIB, message))
    scan = find_sites("src/lib.rs", LIB.encode())
    contexts = build_contexts("acme/db", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    (context,) = [c for c in contexts if c.site.message.startswith(message)]
    return explain(replace(context, reach=reach))


def test_the_generated_code_s_error_is_told_as_the_using_crate_s_run_time_error(
    tmp_path: Path,
) -> None:
    told = _told(tmp_path, "invalid value")

    assert told.documentation.startswith(
        "This is code that `expand` writes with `quote!` in `src/lib.rs`, not code it runs: "
        "a procedural macro's output, which the compiler puts into the crate that uses "
        "`#[derive(Decode)]`. That code produces this error at run time"
    )
    assert told.triggerScenarios.startswith(
        "It runs when the code `#[derive(Decode)]` generates runs and reaches this statement."
    )
    assert "writes it: `derive_decode` -> `expand`." in told.triggerScenarios
    assert "compiles" not in told.triggerScenarios + told.commonSituations
    assert told.commonSituations.startswith(
        "When a program built from a crate that uses `#[derive(Decode)]` runs the code"
    )
    assert told.solutions[0].startswith(
        "The error comes from the code `#[derive(Decode)]` generated for your crate, at run time"
    )
    # nothing in the macro fn's terms: no check, guard or catch of `expand`'s
    assert (told.validationCode, told.typeGuard, told.tryCatchPattern) == (None, None, None)
    assert all("`expand`" not in tip for tip in told.preventionTips)


def test_the_macro_s_own_error_is_still_a_compile_error(tmp_path: Path) -> None:
    told = _told(tmp_path, "expected an enum")
    assert "as the using crate compiles" in told.triggerScenarios
    assert not told.documentation.startswith("This is code that")


def test_a_panic_of_the_generated_code_unwinds_the_program_that_runs_it(tmp_path: Path) -> None:
    """Not "a panic while a procedural macro expands stops no program": that is the macro's
    own panic; the code it writes panics where it runs."""
    told = _told(tmp_path, "primary key is required")
    assert "it unwinds the thread or task it runs in" in told.documentation
    assert "proc macro panicked" not in told.documentation
