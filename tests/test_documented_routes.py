"""A handler's route as its OpenAPI document gives it (`#[utoipa::path(post, path = "/p")]`)
is an HTTP entry point, whatever registers the handler: quickwit's warp filters pass
theirs by plain name (`.then(analyze_request)`), which no call edge follows."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, node

from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import caller_paths

HANDLERS = """\
fn analyze_handler() -> impl Filter {
    warp::path!("analyze").and(warp::post()).then(analyze_request)
}

/// Analyzes text with the given tokenizer.
#[utoipa::path(
    post,
    tag = "analyze (path = \\"/not/this\\")",
    path = "/analyze",
    request_body = AnalyzeRequest,
)]
async fn analyze_request(request: AnalyzeRequest) -> Result<Value, Error> {
    tokenize(&request.text)
}

fn tokenize(text: &str) -> Result<Value, Error> {
    if text.is_empty() {
        bail!("nothing to analyze");
    }
    Ok(Value::Null)
}

#[utoipa::path(get, tag = "Debug", path = "/log-level")]
pub fn log_level_handler() -> impl Filter {
    warp::path!("log-level").map(|| "ok")
}

// Documented, but no route: a schema, or a verb it does not name
#[utoipa::path(tag = "x", path = "/nothing")]
fn undocumented() {}
"""


def test_an_openapi_path_attribute_is_the_route_of_its_fn() -> None:
    index = index_file("src/rest_handler.rs", HANDLERS.encode())
    assert [(r.method, r.path, r.handler) for r in index.routes] == [
        ("POST", "/analyze", "analyze_request"),
        ("GET", "/log-level", "log_level_handler"),
    ]


def test_an_error_below_a_documented_handler_is_reached_from_its_route(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "srv"\n', "src/lib.rs": HANDLERS})
    best = caller_paths(graph, node(graph, "tokenize"))[0]
    assert (best.entry, best.entry_label) == ("http", "HTTP POST /analyze")
    assert [h.name for h in best.hops] == ["analyze_request", "tokenize"]
