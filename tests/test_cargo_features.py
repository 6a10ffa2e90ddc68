"""Whether a build that asks for no feature has a feature on: its package's `default`
features and what they turn on, and what a package of the repository asks for where it
depends on it (`cargo_features`). A site under `#[cfg(feature = "x")]` says so: atuin's
`yaml-serde`, which no manifest turns on, read as an error users meet (reading 327)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.languages.rust.cargo_features import features_on

CLIENT = """\
[package]
name = "client"

[features]
default = ["sync"]
sync = ["hub", "store/fast"]
hub = []
yaml = ["dep:serde_yaml"]

[dependencies]
store = { path = "../store" }
serde_yaml = { version = "0.9", optional = true }
"""
STORE = """\
[package]
name = "store"

[features]
fast = []
zstd = []
"""
APP = """\
[package]
name = "app"

[dependencies]
client = { path = "../client", features = ["yaml"] }
"""
FIXTURE = """\
[package]
name = "client"

[features]
default = ["yaml"]
"""


def _on(manifests: dict[str, str]) -> dict[str, dict[str, str]]:
    return features_on({path: tomllib.loads(text) for path, text in manifests.items()})


def test_a_package_s_defaults_and_what_packages_ask_of_it_are_on_each_with_why() -> None:
    on = _on({"client/Cargo.toml": CLIENT, "store/Cargo.toml": STORE, "app/Cargo.toml": APP})
    assert on["client"] == {
        "default": "default",
        "sync": "default",
        "hub": "default",
        "yaml": "app",
    }
    # `client`'s default asks for `store/fast`: on, by `client`
    assert on["store"] == {"default": "default", "fast": "client"}
    assert "zstd" not in on["store"]


def test_a_package_named_twice_is_read_by_its_own_manifest() -> None:
    """bat's syntax-test fixture `tests/.../Cargo.toml` is named `bat` too."""
    on = _on({"client/Cargo.toml": CLIENT, "client/tests/fixture/Cargo.toml": FIXTURE})
    assert "yaml" not in on["client"]
    assert on["client/tests/fixture"]["yaml"] == "default"


LIB = """\
pub fn load(text: &str) -> anyhow::Result<u32> {
    #[cfg(feature = "yaml")]
    if text.starts_with("---") {
        anyhow::bail!("yaml documents are not read here");
    }
    #[cfg(feature = "sync")]
    if text.is_empty() {
        anyhow::bail!("nothing to sync");
    }
    Ok(0)
}
"""


def test_a_feature_gated_site_says_whether_a_build_has_the_feature_unasked(
    tmp_path: Path,
) -> None:
    files = {"Cargo.toml": CLIENT.replace('path = "../store"', 'version = "1"'), "src/lib.rs": LIB}
    _, yaml = committed_and_extracted(files, "o/client", tmp_path / "a", "yaml documents")
    assert (
        "No manifest of the repository turns `yaml` on unasked (it is not one of its package's "
        "default features, and no package of the repository that depends on it asks for it): "
        "only a build that asks for it (`--features yaml`, or a feature that turns it on) has "
        "this code." in yaml["triggerScenarios"]
    )
    _, sync = committed_and_extracted(files, "o/client", tmp_path / "b", "nothing to sync")
    assert "`sync` is one of its package's default features." in sync["triggerScenarios"]
