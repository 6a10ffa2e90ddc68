"""A fn a framework registers by its attribute and calls by name from outside is an entry
point: tauri's `#[tauri::command]` (the webview's `invoke("toggle")`, over IPC; tauri's
own plugins write `#[command(root = "crate")]`), serenity's and poise's chat commands. The
repository never calls it by name (`generate_handler![..]` writes the call), so its errors
had no entry, or only an example's `main`. Not a method, and not a `command = ..` value."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

FILES = {
    "Cargo.toml": '[package]\nname = "app"\n',
    "src/lib.rs": """\
pub mod commands;
pub mod menu;
""",
    "src/commands.rs": """\
use tauri::command;
#[tauri::command]
pub fn toggle(label: String) -> Result<(), String> {
    crate::menu::toggle_item(&label)
}
#[command(root = "crate")]
pub async fn create_webview(label: String) -> Result<(), String> {
    crate::menu::toggle_item(&label)
}
#[poise::command(slash_command)]
pub async fn ping(ctx: Context<'_>) -> Result<(), String> {
    Ok(())
}
pub struct Plugin;
impl Plugin {
    #[command]
    pub fn method(&self) {}
}
#[cfg_attr(feature = "x", command = "y")]
pub fn configured() {}
""",
    "src/menu.rs": """\
pub(crate) fn toggle_item(label: &str) -> Result<(), String> {
    if label.is_empty() {
        return Err("no menu item with an empty label".to_string());
    }
    Ok(())
}
""",
}


def test_a_fn_registered_as_a_command_by_its_attribute_is_an_entry_point(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    entries = {graph.nodes[n].label: entry for n, entry in graph.entries.items()}
    assert entries["toggle"] == ("rpc", "command `toggle` (`#[tauri::command]`)")
    assert entries["create_webview"] == ("rpc", "command `create_webview` (`#[command]`)")
    assert entries["ping"] == ("rpc", "command `ping` (`#[poise::command]`)")
    assert entries.get("Plugin::method", ("",))[0] != "rpc"
    assert entries.get("configured", ("",))[0] != "rpc"
