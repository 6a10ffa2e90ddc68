"""A configuration type's own check refuses a setting the user wrote: a configuration
error, whatever class its message's words would choose (tikv's "quota", quickwit's "rpc",
reading 241)."""

from __future__ import annotations

from site_fixtures import explained_all

QUOTA = """\
pub struct QuotaConfig { pub max_delay: u64 }
impl QuotaConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.max_delay > 10 {
            anyhow::bail!("quota.max-delay-duration must be at most 10 seconds");
        }
        Ok(())
    }
}
pub struct Quota { pub left: u64 }
impl Quota {
    pub fn take(&self, n: u64) -> anyhow::Result<()> {
        if n > self.left {
            anyhow::bail!("quota exceeded for this request");
        }
        Ok(())
    }
}
"""


def test_a_configuration_s_check_is_a_configuration_error() -> None:
    found = explained_all(QUOTA, "src/config.rs")[
        "quota.max-delay-duration must be at most 10 seconds"
    ]
    assert "Class: Configuration error." in found.documentation
    assert found.handlingStrategy == "configuration"


def test_the_same_words_elsewhere_keep_their_class() -> None:
    found = explained_all(QUOTA, "src/config.rs")["quota exceeded for this request"]
    assert "Configuration error" not in found.documentation


MANIFEST = """\
pub fn to_real_manifest(version: Option<String>, publish: Option<Vec<String>>) -> anyhow::Result<()> {
    if version.is_none() && publish != Some(vec![]) {
        anyhow::bail!("`package.publish` requires `package.version` be specified");
    }
    Ok(())
}
pub fn open(path: &str) -> anyhow::Result<()> {
    if path.is_empty() {
        anyhow::bail!("Failed to resolve a `sys.prefix` from the `pyvenv.cfg` file");
    }
    if path.len() > 3 {
        anyhow::bail!("could not write `Cargo.lock` at `{}`", path);
    }
    Ok(())
}
"""


def test_a_message_that_names_a_setting_s_key_is_a_configuration_error() -> None:
    """cargo's "`package.publish` requires `package.version` be specified" read "Class:
    Operation failed", with try-catch advice (reading 250): the message names the manifest's
    keys it refuses. A step that failed, and a file's name, name no setting."""
    found = explained_all(MANIFEST, "src/workspace/parser/mod.rs")
    refused = found["`package.publish` requires `package.version` be specified"]
    assert "Class: Configuration error." in refused.documentation
    assert refused.handlingStrategy == "configuration"
    failed = found["Failed to resolve a `sys.prefix` from the `pyvenv.cfg` file"]
    assert "Configuration error" not in failed.documentation
    assert "Configuration error" not in found["could not write `Cargo.lock` at `{}`"].documentation
