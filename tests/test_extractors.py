"""A web framework's extractor runs before the handler whose argument it makes: every
meilisearch route that takes a `GuardedData<..>` has `GuardedData::from_request` check the
request's API key first ("The provided API key is invalid."), and no code of the
repository calls it. An HTTP handler's parameter of a type with a `FromRequest` impl
(actix-web's, axum's `FromRequestParts` too) is an edge handler -> that impl's method,
resolved `extractor`; so the key's errors are reached from the routes. A fn the routes do
not name gets no such edge: its argument was made by whoever calls it."""

from __future__ import annotations

from test_reach import _graph_of

from pipeline.analyze.reach_text import path_text
from pipeline.scan.callerpaths import site_reach

FILES = {
    "crates/web/src/lib.rs": (
        "pub mod auth;\n"
        "pub fn configure(cfg: &mut web::ServiceConfig) {\n"
        '    cfg.service(web::resource("/keys").route(web::post().to(create)));\n'
        '    cfg.route("/health", web::get().to(health));\n'
        "}\n"
        "async fn create(index: GuardedData<ActionPolicy<0>, Data<Scheduler>>, body: Payload)\n"
        "    -> u8 { store(&index) }\n"
        "async fn health(parts: Parts) -> u8 { 0 }\n"
        "fn store(index: &GuardedData<ActionPolicy<0>, Data<Scheduler>>) -> u8 { 1 }\n"
        "fn helper(index: GuardedData<ActionPolicy<0>, Data<Scheduler>>) -> u8 { 2 }\n"
    ),
    "crates/web/src/auth.rs": (
        "pub struct GuardedData<P, D> { data: D, _p: P }\n"
        "impl<P: Policy, D> FromRequest for GuardedData<P, D> {\n"
        "    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {\n"
        '        Err(AuthError::InvalidApiKey).expect("The provided API key is invalid.")\n'
        "    }\n"
        "}\n"
        "pub struct Parts;\n"
        "impl<S> FromRequestParts<S> for Parts {\n"
        "    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, E> {\n"
        "        Ok(Parts)\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_handler_s_argument_is_made_by_its_extractor_before_it_runs() -> None:
    graph = _graph_of(FILES)
    extractors = sorted(
        (graph.nodes[e.caller].label, e.line, graph.nodes[callee].label)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.resolution == "extractor"
    )
    assert extractors == [
        ("create", 6, "GuardedData::from_request"),
        ("health", 8, "Parts::from_request_parts"),
    ]  # `helper` takes one too, but no route names it


def test_the_extractor_s_errors_are_reached_from_the_routes() -> None:
    reach = site_reach(_graph_of(FILES), "crates/web/src/auth.rs", 4)
    assert reach is not None
    (path,) = reach.paths
    assert path.entry_label == "HTTP POST /keys"
    assert path_text(path) == (
        "`create` -> `GuardedData::from_request` (the framework's extractor of an argument of"
        " the previous hop)"
    )
