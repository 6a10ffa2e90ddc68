"""An axum route's path is the one a client requests: under every `.nest("/p", ..)` its
router is built in. greptimedb's admin handlers read "HTTP GET /status" where the route is
`/admin/maintenance/status`, and its Prometheus API "/query" where it is
`/v1/prometheus/api/v1/query` (reading 230: 4 FALSE of 21 records). A nest is written around
the router (`.nest("/maintenance", Router::new().route(..))`), around a `let` of it (`let
admin = ..; Router::new().nest("/admin", admin)`), or around a fn that builds it
(`.nest(&format!("/{V}/prometheus/api/v1"), route_prometheus(h))`, `V` a `const` of the
file)."""

from __future__ import annotations

from test_reach import _graph_of

ADMIN = """\
pub fn make_admin_router(h: Handler) -> Router {
    let admin_router = AxumRouter::new()
        .route("/health", routing::get(health))
        .nest(
            "/maintenance",
            AxumRouter::new()
                .route("/", routing::get(status))
                .route("/enable", routing::post(enable))
                .with_state(h),
        )
        .nest(
            "/sequence",
            AxumRouter::new().nest("/table", AxumRouter::new().route("/next-id", routing::get(next_id))),
        );

    AxumRouter::new().nest("/admin", admin_router)
}

async fn health() {}
async fn status() {}
async fn enable() {}
async fn next_id() {}
"""

SERVER = """\
pub const HTTP_API_VERSION: &str = "v1";

pub struct HttpServer { router: Router }

impl HttpServer {
    pub fn with_prometheus_handler(self, handler: H) -> Self {
        Self {
            router: self.router.nest(
                &format!("/{HTTP_API_VERSION}/prometheus/api/v1"),
                HttpServer::route_prometheus(handler),
            ),
        }
    }

    pub fn route_prometheus<S>(h: H) -> Router<S> {
        Router::new()
            .route("/query", routing::post(instant_query))
            .route("/labels", routing::get(labels_query))
    }

    pub fn plain(self) -> Self {
        Self { router: self.router.route("/health", routing::get(server_health)) }
    }
}

async fn instant_query() {}
async fn labels_query() {}
async fn server_health() {}
"""


def http_entries(files: dict[str, str]) -> list[tuple[str, str]]:
    graph = _graph_of(files)
    return sorted(
        (graph.nodes[n].label, label)
        for n, (kind, label) in graph.entries.items()
        if kind == "http"
    )


def test_a_route_is_read_under_each_nest_around_its_router() -> None:
    assert http_entries({"src/admin.rs": ADMIN}) == [
        ("enable", "HTTP POST /admin/maintenance/enable"),
        ("health", "HTTP GET /admin/health"),
        ("next_id", "HTTP GET /admin/sequence/table/next-id"),
        ("status", "HTTP GET /admin/maintenance"),
    ]


def test_a_fn_s_routes_are_mounted_where_a_nest_takes_what_it_builds() -> None:
    """The `format!`'s `{HTTP_API_VERSION}` is the file's `const` of that name."""
    assert http_entries({"src/http.rs": SERVER}) == [
        ("instant_query", "HTTP POST /v1/prometheus/api/v1/query"),
        ("labels_query", "HTTP GET /v1/prometheus/api/v1/labels"),
        ("server_health", "HTTP GET /health"),
    ]


def test_two_fns_of_one_name_in_a_crate_mount_neither() -> None:
    """Which `route_prometheus` a `.nest` takes, a name does not tell: neither's routes get
    the path (as before nests were read), rather than one the other's."""
    twin = 'pub fn route_prometheus() -> Router {\n    Router::new().route("/other", get(other))\n}\nasync fn other() {}\n'
    assert http_entries({"src/http.rs": SERVER, "src/twin.rs": twin}) == [
        ("instant_query", "HTTP POST /query"),
        ("labels_query", "HTTP GET /labels"),
        ("other", "HTTP GET /other"),
        ("server_health", "HTTP GET /health"),
    ]
