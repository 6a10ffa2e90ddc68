"""A site in a `static`'s initializer (`LazyLock::new(|| Settings::init().expect(..))`) sits
in no fn and no call names it: it runs when the static is first used. Its paths lead to the
fns that use the static (lemmy's `SETTINGS`, read in `start_lemmy_server`), the last hop's
line where; a static whose name other files also give their statics is used only where its
module is named. The static text, the page and the model's prompt say so."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted, reach_section

from pipeline.analyze.reach_text import trigger_sentence
from pipeline.core.reach import Reach, reach_from_json, reach_to_json
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph

SETTINGS = """\
use std::sync::LazyLock;

pub static SETTINGS: LazyLock<Settings> = LazyLock::new(|| {
    Settings::init().expect("Failed to load settings file")
});

static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new("^a").expect("compile regex"));

pub struct Settings { pub port: u16 }
impl Settings {
    pub fn init() -> Result<Settings, String> { Ok(Settings { port: 1 }) }
    pub fn hostname(&self) -> String { String::new() }
}
pub fn valid(name: &str) -> bool {
    RE.is_match(name)
}
"""

SERVER = """\
use crate::settings::SETTINGS;

pub fn start_server() {
    let port = 1;
    listen(&SETTINGS, port);
    connect(SETTINGS.hostname());
}
fn listen(s: &Settings, port: u16) {}
fn connect(host: String) {}
"""

OTHER = """\
static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new("^b").expect("compile regex"));

pub fn check(name: &str) -> bool {
    RE.is_match(name)
}
pub fn unrelated(hostname: &str) {
    let SETTINGS = 3;
}
"""

MAIN = "fn main() {\n    tool::server::start_server();\n}\n"
FILES = {
    "src/settings/mod.rs": SETTINGS,
    "src/server.rs": SERVER,
    "src/other.rs": OTHER,
    "src/lib.rs": "pub mod settings;\npub mod server;\npub mod other;\n",
    "src/main.rs": MAIN,
}


def graph_of(files: dict[str, str]) -> CallGraph:
    return build_graph({path: index_file(path, text.encode()) for path, text in files.items()})


def hops(reach: Reach | None) -> list[list[tuple[str, int | None]]]:
    assert reach is not None
    return [[(h.name, h.call_line) for h in p.hops] for p in reach.paths]


def test_a_static_s_initializer_is_reached_where_the_static_is_used() -> None:
    graph = graph_of(FILES)
    reach = site_reach(graph, "src/settings/mod.rs", 4)
    assert reach is not None
    assert reach.initialized == "SETTINGS" and reach.built is None
    assert reach.callers == 1  # `start_server`, its first use on line 5
    assert hops(reach) == [[("main", 2), ("start_server", 5)]]
    assert reach.paths[0].entry == "main"


def test_a_static_of_a_name_other_files_use_is_used_only_where_its_module_is() -> None:
    """Both `settings` and `other` have a `static RE`: each file's `RE.is_match` is its
    own static's use, not the other's."""
    graph = graph_of(FILES)
    assert hops(site_reach(graph, "src/settings/mod.rs", 7)) == [[("valid", 15)]]
    assert hops(site_reach(graph, "src/other.rs", 1)) == [[("check", 4)]]


def test_a_static_nothing_uses_and_a_site_in_no_static_have_no_reach() -> None:
    files = {**FILES, "src/server.rs": "pub fn start_server() {}\n"}
    assert site_reach(graph_of(files), "src/settings/mod.rs", 4) is None
    assert site_reach(graph_of(FILES), "src/settings/mod.rs", 10) is None  # an impl line


def test_the_sentence_and_the_json_name_the_static() -> None:
    reach = site_reach(graph_of(FILES), "src/settings/mod.rs", 4)
    assert reach is not None
    assert reach_from_json(reach_to_json(reach)) == reach
    assert reach_to_json(reach)["initialized"] == "SETTINGS"
    assert trigger_sentence(reach, "0123456789abcdef") == (
        "At commit 0123456789, this code sets up the static `SETTINGS` on its first use; "
        "`start_server` uses it at src/server.rs:5, reached from `main` (fn main): "
        "`main` -> `start_server`."
    )


def test_an_extraction_says_so_in_the_static_text_and_the_page(tmp_path: Path) -> None:
    files = {**FILES, "Cargo.toml": '[package]\nname = "tool"\n'}
    sha, record = committed_and_extracted(files, "o/tool", tmp_path, "Failed to load settings")
    assert record["triggerScenarios"].endswith(
        f" At commit {sha[:10]}, this code sets up the static `SETTINGS` on its first use;"
        " `start_server` uses it at src/server.rs:5, reached from `tool` (fn main):"
        " `main` -> `start_server`."
    )
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "in the initializer of the static <code>SETTINGS</code>" in section
    assert (
        f'uses <code>SETTINGS</code> at <a href="https://github.com/o/tool/blob/{sha}/'
        'src/server.rs#L5" rel="nofollow noopener noreferrer">line 5</a>'
    ) in section
