"""A web framework's extractors: an HTTP handler's parameter of a type with a `FromRequest`
impl is made by that impl before the handler runs. actix-web's `FromRequest::from_request`
(meilisearch's `GuardedData`, which checks the API key of every route that takes one;
qdrant's `ActixAuth`; lemmy's `LocalUserView`), axum's `FromRequest`/`FromRequestParts`,
rocket's `FromRequest<'r>`. No code of the repository calls them: each such parameter of a
handler the routes name is an edge handler -> the impl's method, resolved `extractor`, on
the handler's line. Pure, over a graph whose HTTP entry points are marked."""

from __future__ import annotations

from pipeline.scan.callgraph import CallGraph, Edge
from pipeline.scan.names import inner_type

_TRAITS = frozenset(("FromRequest", "FromRequestParts"))
_METHODS = frozenset(("from_request", "from_request_parts"))


def add_extractor_edges(graph: CallGraph) -> None:
    """An edge from each HTTP handler to the extractor of each of its parameters' types."""
    makers: dict[str, list[int]] = {}
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.owner and d.trait in _TRAITS and d.name in _METHODS:
            makers.setdefault(d.owner, []).append(node_id)
    if not makers:
        return
    for handler in sorted(n for n, (kind, _) in graph.entries.items() if kind == "http"):
        d = graph.nodes[handler].definition
        for _, written in d.params:
            for maker in makers.get(inner_type(written), ()):
                edges = graph.callers.setdefault(maker, [])
                if not any(e.caller == handler for e in edges):
                    edges.append(Edge(handler, maker, d.line, "extractor"))
