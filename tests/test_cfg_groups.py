"""The groups of a `cfg` dispatcher are items: lemmy's error.rs declares `LemmyResult` and
every `LemmyError` impl inside `cfg_select! { feature = "full" => { .. } }`, and the cfg-if
crate's `cfg_if! { if #[cfg(unix)] { .. } else { .. } }` wraps whole modules (uv, bottom,
sqlx). The macro's body is no list of items, so none of it was read: no fns in the index,
"top-level code" for its sites, and `LemmyResult` unknown, so an `anyhow!` in a fn that
returns it read as an anyhow error (reading 128: a handler calling `e.chain()`, which
`LemmyError` lacks). Each group that parses as items is now read as those items."""

from __future__ import annotations

from pipeline.languages.rust.index import index_file
from pipeline.languages.rust.sites import find_sites

ERROR_RS = """\
cfg_select! {
  feature = "full" => {
    pub type LemmyResult<T> = Result<T, LemmyError>;

    impl LemmyError {
      pub fn inspect(&self) -> LemmyResult<()> {
        Err(anyhow::anyhow!("cannot inspect this error").into())
      }
    }
  }
  _ => {}
}

cfg_if::cfg_if! {
    if #[cfg(unix)] {
        fn home() -> String {
            std::env::var("HOME").expect("HOME is set on unix")
        }
    } else {
        fn home() -> String {
            std::env::var("USERPROFILE").expect("USERPROFILE is set on windows")
        }
    }
}

cfg_if! {
    if #[cfg(any(test, feature = "test"))] {
        fn test_only() -> u8 { 1 }
    } else if #[cfg(unix)] {
        let not_an_item = 1;
    } else {
        fn fine() {}
    }
}
"""


def test_each_group_that_parses_as_items_is_indexed() -> None:
    index = index_file("src/error.rs", ERROR_RS.encode())
    fns = sorted((d.owner or "", d.name, d.line) for d in index.definitions if d.kind == "fn")
    # the third macro's test-only group is test code; its second group does not parse, its
    # third is still items
    assert fns == [
        ("", "fine", 32),
        ("", "home", 16),
        ("", "home", 20),
        ("LemmyError", "inspect", 6),
    ]


def test_a_site_in_a_group_has_its_own_fn_and_the_groups_aliases_count() -> None:
    scan = find_sites("src/error.rs", ERROR_RS.encode())
    by_message = {s.message: s for s in scan.sites}
    assert by_message["HOME is set on unix"].facts.enclosing_fn == "home"
    assert by_message["USERPROFILE is set on windows"].facts.enclosing_fn == "home"
    assert by_message["cannot inspect this error"].facts.enclosing_fn == "inspect"
    assert [(a.name, a.error_type) for a in scan.aliases] == [("LemmyResult", "LemmyError")]
