"""A fn passed as a value is called on the caller's behalf: by its path (`.map(Self::f)`), and
a free fn of the same file by its bare name (just's table of functions, `"env" =>
Binary(env)`: `env`'s errors had "no caller found", reading 316)."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

TABLE = """\
pub enum Function { Binary(fn(&str, &str) -> Result<String, String>), Nullary(fn() -> String) }
pub fn get(name: &str) -> Option<Function> {
    let function = match name {
        "env" => Binary(env),
        "home" => Nullary(home),
        _ => return None,
    };
    Some(function)
}
pub fn apply(words: &[&str], parse: fn(&str) -> u8, home: String) -> Vec<u8> {
    let env = |s: &str| s.len() as u8;
    let a: Vec<u8> = words.iter().map(|w| env(w)).collect();
    let b = words.iter().copied().map(parse_word);
    wrap(env, home.clone(), parse)
}
fn env(key: &str, default: &str) -> Result<String, String> {
    std::env::var(key).map_err(|_| format!("environment variable `{key}` not present"))
}
fn home() -> String { String::new() }
fn parse_word(w: &str) -> u8 { w.len() as u8 }
fn wrap<F>(f: F, home: String, parse: fn(&str) -> u8) -> Vec<u8> { vec![] }
"""


def test_a_free_fn_passed_by_its_bare_name_is_called_by_who_passes_it(tmp_path: Path) -> None:
    edges = [e for e in calls_in(tmp_path, TABLE) if e[2] in ("env", "home", "parse_word")]
    assert edges == [
        ("apply", 13, "parse_word", "local"),
        ("get", 4, "env", "local"),
        ("get", 5, "home", "local"),
    ]
    # in `apply`, `env` is the closure its `let` binds and `home` the parameter: no fn's


ROUTES = """\
pub fn router() -> Router {
    Router::new().route("/keys", post(create_key)).route("/", get(index).post(create_key))
}
async fn create_key(body: String) -> Result<(), String> { Err(format!("bad key {body}")) }
async fn index() -> String { String::new() }
"""


def test_a_handler_a_route_registers_is_no_fn_the_router_calls(tmp_path: Path) -> None:
    """The handler is an HTTP entry point of its own (`HTTP POST /keys`): an edge from the fn
    that builds the router would add a way in through it to every handler's paths."""
    edges = [e for e in calls_in(tmp_path, ROUTES) if e[2] in ("create_key", "index")]
    assert edges == []
