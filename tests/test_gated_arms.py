"""An arm under `#[cfg(..)]` takes its values only in the builds that have it: in the
others they fall through to the arm after it. lance's `build_base_tokenizer` accepts
`lindera/..` only with the `tokenizer-lindera` feature (reading 232), so no single check
holds in every build, and the record says which arms depend on the build."""

from __future__ import annotations

from site_fixtures import explained_all

from pipeline.languages.rust.sites import find_sites

TOKENIZER = """\
pub fn build(name: &str) -> anyhow::Result<u8> {
    match name {
        "simple" => Ok(1),
        "raw" => Ok(2),
        #[cfg(feature = "tokenizer-lindera")]
        s if s.starts_with("lindera/") => Ok(3),
        _ => anyhow::bail!("unknown base tokenizer {}", name),
    }
}
"""


def test_the_gate_of_each_earlier_arm_is_kept_with_the_arm() -> None:
    (site,) = find_sites("src/t.rs", TOKENIZER.encode()).sites
    (arm,) = [c for c in site.facts.conditions if c.kind == "match_arm"]
    assert arm.excluded == ('"simple"', '"raw"', 's if s.starts_with("lindera/")')
    assert arm.excluded_gates == ("", "", 'feature = "tokenizer-lindera"')


def test_no_check_is_offered_when_an_earlier_arm_is_in_some_builds_only() -> None:
    found = explained_all(TOKENIZER)["unknown base tokenizer {}"]
    assert found.validationCode is None
    said = " ".join(found.solutions)
    assert (
        '`s if s.starts_with("lindera/")` only where `#[cfg(feature = "tokenizer-lindera")]` holds'
        in said
    )
    assert '(every build takes `"simple"`, `"raw"`)' in said


def test_arms_every_build_has_keep_their_check() -> None:
    source = TOKENIZER.replace('        #[cfg(feature = "tokenizer-lindera")]\n', "")
    (site,) = find_sites("src/t.rs", source.encode()).sites
    (arm,) = [c for c in site.facts.conditions if c.kind == "match_arm"]
    assert arm.excluded_gates == ()
    found = explained_all(source)["unknown base tokenizer {}"]
    assert found.validationCode == (
        'let ok = matches!(name, "simple" | "raw") || matches!(name, s if s.starts_with("lindera/"));'
    )


CACHES = """\
pub enum CacheType { Azure { url: String }, Gcs { bucket: String }, Disk { dir: String }, Redis(u8) }

pub fn build(cache: CacheType) -> anyhow::Result<u8> {
    match cache {
        #[cfg(feature = "azure")]
        CacheType::Azure { url } => Ok(url.len() as u8),
        #[cfg(feature = "azure")]
        CacheType::Gcs { bucket } => Ok(bucket.len() as u8),
        CacheType::Disk { dir } if dir.is_empty() => anyhow::bail!("no cache directory"),
        CacheType::Disk { dir } => Ok(dir.len() as u8),
        _ => anyhow::bail!("cache type not built in"),
    }
}
"""


def test_the_arms_one_gate_holds_are_named_together_without_their_bindings() -> None:
    found = explained_all(CACHES)["cache type not built in"]
    said = " ".join(found.solutions)
    assert (
        "it has the arms `CacheType::Azure { .. }`, `CacheType::Gcs { .. }` only where "
        '`#[cfg(feature = "azure")]` holds; a build without them brings those values here too'
        " (every build takes `CacheType::Disk { .. }`)." in said
    )
    assert found.validationCode is None


def test_an_arm_of_another_variant_owes_nothing_to_the_gated_arms() -> None:
    source = CACHES.replace(
        '        _ => anyhow::bail!("cache type not built in"),\n',
        '        CacheType::Redis(n) => anyhow::bail!("redis cache {} is off", n),\n'
        "        _ => Ok(0),\n",
    )
    found = explained_all(source)["redis cache {} is off"]
    assert "depends on how the crate was built" not in " ".join(found.solutions)
    assert found.validationCode == "let ok = !matches!(cache, CacheType::Redis(_));"
