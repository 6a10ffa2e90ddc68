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
