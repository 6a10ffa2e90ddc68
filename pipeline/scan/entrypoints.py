"""Entry points by code shape, for any repository: `fn main`, RPC server methods, HTTP
routes, dispatch arms over statement and CLI command enums (clap derive and builder), the
fns clap calls to parse an option's value (`#[arg(long, value_parser = parse_size)]`),
commands users type by a name the code gives them (an impl's `fn name() -> &str { "x" }`
beside its `run`, a table's `Cmd { name: "x", fun: f }`), and the public fns of a library
crate that nothing in the repository calls."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from pipeline.core.index import ARM_LINK, COMMAND_NAME, Definition, FileIndex
from pipeline.core.reach import EntryKind
from pipeline.languages import RepositoryModules, language_of
from pipeline.scan.buildable import program_of
from pipeline.scan.callgraph import CallGraph, Edge, MemoInput, Node, derives_clap, link
from pipeline.scan.context import _crate
from pipeline.scan.conversions import add_conversion_edges
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.exports import Exports
from pipeline.scan.extractors import add_extractor_edges
from pipeline.scan.names import crate_name
from pipeline.scan.signatures import is_rpc

_STATEMENT_ENUM = re.compile(r"(?:Statement|Stmt)$")


def build_graph(
    indexes: Mapping[str, FileIndex],
    jobs: int | None = 1,
    patterns: Sequence[EntryPattern] = (),
    memo: MemoInput | None = None,
    modules: RepositoryModules | None = None,
) -> CallGraph:
    """The call graph of a repository from its file indexes, entry points marked (`jobs`
    processes resolve the calls; None: one per core; `patterns`: the repository's own
    entry points, from repos.toml; `memo`: the previous link's, `callgraph.link`;
    `modules`: what the build manifests call the files, for the entry points' names)."""
    graph = link(_without_test_modules(indexes), jobs, memo=memo)
    add_conversion_edges(graph)
    _packages(graph, modules or RepositoryModules())
    _calls_into_own_library(graph, modules or RepositoryModules())
    _entries(graph, modules or RepositoryModules())
    _named_commands(graph)
    _custom_entries(graph, patterns)
    return graph


def _packages(graph: CallGraph, modules: RepositoryModules) -> None:
    """Each node's package and what each package sees (`CallGraph.packages`): the walks
    refuse a chain no build could make (`buildable.needs_above`)."""
    of_file = {path: modules.package_of(path) for path in graph.by_file}
    graph.packages = [of_file.get(node.path) for node in graph.nodes]
    program = {
        path: program_of(modules.target_kind(path), modules.target_root(path))
        for path in graph.by_file
    }
    graph.programs = [program.get(node.path, "") for node in graph.nodes]
    graph.reachable = {p: modules.reachable_packages(p) for p in set(of_file.values()) if p}
    graph.dependency_tables = modules.dependency_tables()
    clap: dict[str, set[str | None]] = {}  # the packages of each clap enum's definitions
    for name in graph.clap_enums:
        for path, definition in graph.named.get(("enum", name), ()):
            if derives_clap(definition):
                clap.setdefault(name, set()).add(modules.package_of(path))
    graph.clap_packages = {n: tuple(sorted(p, key=str)) for n, p in sorted(clap.items())}


def _calls_into_own_library(graph: CallGraph, modules: RepositoryModules) -> None:
    """A program's calls into the library of its own package by the library's name: just's
    `main` calls `just::run(..)`. The link names a crate after its directory, and the root
    package's is the repository's root, so no crate was called `just`: `run` looked like a
    public API nobody in the repository calls. The manifests say the library's name.

    Only a free fn, and only one: `lib::f` or `lib::a::f` to the one `pub` fn `f` of that
    library (of module `a` when named), else nothing (no guess). Kept out of the link (and of
    its memo): the manifests are no index, and these calls are a program's few."""
    libraries: dict[str, str] = {}  # library name -> its crate's directory
    for path in graph.indexes:
        name = modules.module_path(path) or ""
        library_root = name and "::" not in name and modules.target_kind(path) == "lib"
        if library_root and crate_name(_crate(path)) != name:  # else the link resolves it
            libraries[name] = _crate(path)
    calls = [  # a program's path calls by a library's name
        (caller, call)
        for path, index in graph.indexes.items()
        if modules.target_kind(path) in ("bin", "example")
        for call in index.calls
        if call.kind == "path"
        and call.qualifier.partition("::")[0] in libraries
        and (caller := graph.by_file.get(path, {}).get(call.caller)) is not None
    ]
    if not calls:
        return
    resolved = {(e.caller, e.line) for edges in graph.callers.values() for e in edges}
    free: dict[tuple[str, str], list[int]] = {}
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.owner is None and d.public and node.crate in libraries.values():
            free.setdefault((node.crate, d.name), []).append(node_id)
    for caller, call in calls:
        if (caller, call.line) in resolved:
            continue
        head, _, rest = call.qualifier.partition("::")
        wanted = rest.split("::")[-1] if rest else None
        found = [
            n
            for n in free.get((libraries[head], call.name), [])
            if wanted is None or graph.nodes[n].module.rsplit("::", 1)[-1] == wanted
        ]
        if len(found) == 1:
            graph.callers[found[0]].append(Edge(caller, found[0], call.line, "import", (), call))


def _named_commands(graph: CallGraph) -> None:
    """The `run` of a trait impl that names itself with a string literal is a command users
    type by that name: nushell's `impl Command for MathStddev { fn name(&self) -> &str {
    "math stddev" } .. fn run(..) }` (its 761 commands and plugin commands), which the engine
    finds by name at run time; nothing in the repository calls `MathStddev::run` but through
    `dyn Command`. Both fns of one impl (same file, type, trait and module); a literal with
    escapes is no name. Over a public-API guess, not over another shape found."""
    names: dict[tuple[str, str, str, str], str] = {}
    runs: dict[tuple[str, str, str, str], int] = {}
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.kind != "fn" or not d.owner or not d.trait or d.name not in ("name", "run"):
            continue
        key = (node.path, d.owner, d.trait, d.module)
        if d.name == "run":
            runs[key] = node_id
        elif d.value and COMMAND_NAME.fullmatch(d.value):
            names[key] = d.value[1:-1]
    for key, node_id in runs.items():
        name = names.get(key)
        if name and graph.entries.get(node_id, ("pub-api",))[0] == "pub-api":
            graph.entries[node_id] = ("cli", f"command `{name}`")


def _custom_entries(graph: CallGraph, patterns: Sequence[EntryPattern]) -> None:
    """The fns a repository's `entries` patterns name: entry points of kind `custom` (over
    any shape found for them: the repository knows how its users reach it)."""
    if not patterns:
        return
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        for pattern in patterns:
            if pattern.matches(d.name, d.owner, d.trait, node.path, d.attrs):
                label = pattern.label_of(d.name, d.owner, d.trait, node.path, d.attrs)
                graph.entries[node_id] = ("custom", label)
                break


def _without_test_modules(indexes: Mapping[str, FileIndex]) -> Mapping[str, FileIndex]:
    """The indexes but those of files a parent declares test code (`#[cfg(test)] mod x;`,
    as the scan reads them): `test_utils.rs`'s fns are no public API and call nobody's
    product code on a user's behalf."""
    prefixes = tuple(
        prefix
        for path in sorted(indexes)
        if indexes[path].test_modules
        for prefix in language_of(path).test_module_paths(path, indexes[path].test_modules)
    )
    if not prefixes:
        return indexes
    return {path: index for path, index in indexes.items() if not path.startswith(prefixes)}


def _entries(graph: CallGraph, modules: RepositoryModules) -> None:
    """Entry points by code shape: main, RPC server methods, HTTP routes, public library API
    (a `pub` fn of a library that nothing but examples, tests and benches calls), an
    example's main (ranked after the API it demonstrates); named as the build manifests
    say where they do (`rg`, not `crates`)."""
    lib_crates = {_crate(p) for p in graph.indexes if p.endswith("src/lib.rs")}
    python_classes = _python_classes(graph.indexes.values())
    free: dict[str, list[int]] = {}
    owned: dict[tuple[str, str], list[int]] = {}  # (type, name) -> its methods
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.owner is None:
            free.setdefault(d.name, []).append(node_id)
        else:
            owned.setdefault((d.owner, d.name), []).append(node_id)
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.name == "main" and d.owner is None and not d.module:
            entry = _program_entry(node.path, modules)
            if entry is not None:
                graph.entries[node_id] = entry
        elif d.owner and d.trait and is_rpc(d):
            graph.entries[node_id] = ("rpc", f"RPC `{d.trait}::{d.name}`")
        elif d.owner is None and (registered := _command_attribute(d.attrs)):
            shown = registered.partition("(")[0].strip()  # `#[command]`, not its arguments
            graph.entries[node_id] = ("rpc", f"command `{d.name}` (`#[{shown}]`)")
        elif (export := exported_to(d.attrs)) is not None:
            named = python_name(d, python_classes) if export[0].startswith("Python") else None
            shown = node.label if named is None else named
            rust = f"Rust `{node.label}`, " if named is not None and named != node.label else ""
            what = _python_kind(d.attrs) if named is not None and d.owner else export[0]
            graph.entries[node_id] = ("custom", f"{what} `{shown}` ({rust}`#[{export[1]}]`)")
            graph.derived.setdefault(EXPORTED, set()).add(node_id)
        elif d.owner is None and (written := proc_macro_use(d.name, d.attrs)) is not None:
            graph.entries[node_id] = ("macro", f"{written}, as the using crate compiles")
    mounted = _mount_points(graph.indexes)
    # a route a fn registers is mounted by that fn's name (`.nest("/v1", routes(..))`): not
    # where its crate has two fns of the name, which a name does not tell apart
    fns = Counter((n.crate, n.definition.name) for n in graph.nodes)
    for path, index in graph.indexes.items():
        crate = _crate(path)
        for route in index.routes:
            if route.method == "SUB":
                continue
            if route.method == "ARG":  # a clap field's `value_parser = f`
                for node_id in _parsers(graph, (free, owned), path, route.handler):
                    kind = "argument" if route.path.startswith("<") else "option"
                    label = f"{kind} `{route.path}` (`{route.owner}`)"
                    graph.entries.setdefault(node_id, ("cli", label))
                continue
            if route.method == "CMD":  # a table's registration (`index.registered`)
                for node_id in _handlers(graph, free, path, route.handler):
                    label = f"command `{route.path}` (`{route.owner}`)"
                    graph.entries.setdefault(node_id, ("cli", label))
                continue
            mount = mounted.get((crate, route.owner), "") if fns[(crate, route.owner)] < 2 else ""
            full = mount + route.path
            for node_id in _handlers(graph, free, path, route.handler):
                if not full and graph.entries.get(node_id, ("",))[0] == "http":
                    continue  # registered twice (meilisearch's list and its actix `configure`)
                where = full or "(a scoped route)"  # actix `resource("")` in a scope
                graph.entries[node_id] = ("http", f"HTTP {route.method} {where}")
    add_extractor_edges(graph)  # the routes' handlers run their parameters' extractors
    # by file, once: asked of every caller of every `pub` fn (24,821 times on risingwave)
    in_product = {path: _in_product(path, modules) for path in graph.indexes}
    exports = Exports(graph.indexes)
    graph.unnamed_types = exports.unnamed_types()
    own_traits = {
        d.name for i in graph.indexes.values() for d in i.definitions if d.kind == "trait"
    }
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.signature.startswith(("pub ", "pub(crate)")) and not d.trait:
            # a method is seen where its type is: rustup's `pub(crate) use distributable::
            # DistributableToolchain` in `toolchain` makes its `pub fn`s the crate's (reading
            # 280 read "only code in module `toolchain` can call" one of them)
            within = exports.seen_within(node.crate, node.module, d.owner or d.name)
            if within is not None:
                graph.seen_within[node_id] = within
        through = _foreign_trait(d, own_traits)
        if (
            node_id not in graph.entries
            and (d.public or through is not None)
            and node.crate in lib_crates
            and in_product[node.path]
            and exports.public(node.crate, node.module, d)
        ):
            graph.public_api.add(node_id)
            if for_tests(d) or test_support(node):  # callable, but no way a user takes
                continue
            internal = any(  # a guessed or ambiguous call does not make it internal
                in_product[graph.nodes[e.caller].path]
                and not e.candidates
                and e.resolution != "name"
                for e in graph.callers.get(node_id, [])
            )
            # A published library's front door stays a way in, whoever else calls it (typst's
            # CLI calls `typst::compile`, as does any program built on the crate): the way in
            # of a walk that finds no other (`callerpaths._walk`).
            at_root = exports.at_root(node.crate, node.module, d)
            if internal and not (modules.published(node.path) and at_root):
                continue
            module = modules.module_path(node.path)
            # the file's module and the inline `mod`s around the fn (lance-datagen's
            # `generator::array::step_custom`, in `pub mod array { .. }` of `generator.rs`:
            # "`lance_datagen::generator::step_custom`" named no item, reading 232); a
            # method's, where its type is declared there too (risingwave's `mod private {
            # impl ScalarImpl { .. } }`: `ScalarImpl` is `types`')
            inline = module
            if module and d.module and (d.owner is None or _declared_in(graph, node, d.module)):
                inline = f"{module}::{d.module}"
            parts: tuple[str, ...] = (inline,) if inline else (crate_name(node.crate), node.module)
            exported = exports.shown_module(node.crate, node.module, d)
            if exported is not None:  # a private module's item, by its `pub use`'s path
                parts = ((module or crate_name(node.crate)).split("::")[0], exported)
            if at_root:  # the name code outside calls
                parts = (parts[0].split("::")[0],)
            shown = node.label if through is None else node.label.rsplit("::", 1)[0]
            where = "::".join(p for p in (*parts, shown) if p)
            held = graph.front_doors if internal else graph.entries
            if through is None:
                held[node_id] = ("pub-api", f"public API `{where}`")
            elif not any(graph.definitions(kind, d.owner or "") for kind in _TYPE_KINDS):
                # sccache's `impl Service<SccacheRequest> for Arc<SccacheService<C>>`: the
                # index keeps `Arc` of the type, which names no item of the repository ("public
                # API `sccache::server::Arc`", reading 126); the impl, by its place, does
                held[node_id] = (
                    "pub-api",
                    f"`{through}` of the impl for another crate's `{d.owner}` "
                    f"({node.path}:{d.line})",
                )
            else:  # `.await` on a `Connection`, a `for` over an iterator, a drop
                held[node_id] = ("pub-api", f"public API `{where}` through `{through}`")


# Traits whose methods the language or a runtime calls on a value code outside holds: an
# `.await`, a `for` loop, an I/O copy. Not the conversions (`From`, `TryFrom`, `FromStr`)
# nor serde's: over 35 repositories those made 1,100 entries of application crates'
# internals, cutting paths that had callers (zellij's `Event::try_from` -> `Action::try_from`
# read "public API `Action` through `TryFrom::try_from`"). Not `Drop`: 160 entries, most of
# them quickwit's permits and guards, which its own code drops (a drop is no call the index
# sees, so nothing made them internal).
_USED_THROUGH = frozenset(
    ("Future", "Stream", "Iterator", "DoubleEndedIterator", "Read", "Write", "BufRead", "Seek",
     "AsyncRead", "AsyncWrite", "AsyncBufRead", "AsyncSeek", "Sink", "Service")
)  # fmt: skip


_TYPE_KINDS = ("struct", "enum", "type")  # what the repository declares a type as


def _declared_in(graph: CallGraph, node: Node, module: str) -> bool:
    """Whether the type a method's impl is for is declared in the inline `module` of the
    method's own file."""
    owner = node.definition.owner
    return any(
        d.kind in _TYPE_KINDS and d.name == owner and d.module == module
        for d in graph.indexes[node.path].definitions
    )


# What a doc comment says of a fn meant for tests (lemmy's `init_test_context`: "Initialize a
# context for use in tests"; vector's `VectorSink::run_events`: ".., for use in tests";
# readings 161-162; risingwave's `SessionImpl::run_statement`: "This function only used for
# test now", reading 202): an entry point no user of the library takes
_FOR_TESTS_DOC = re.compile(
    r"\b(?:for|in) use in (?:unit |integration )?tests\b|\bfor (?:unit |integration )?"
    r"(?:tests|testing)\b|\btest[- ]only\b"
    r"|\bonly (?:be )?(?:used |meant |called )?(?:for|in|by) (?:the )?tests?\b"
    r"|\b(?:used|meant|called) (?:only )?(?:for|in|by) (?:the )?tests? only\b"
    r"|\bdo not use (?:this |it )?in production\b|\bfor testing purposes\b",
    re.IGNORECASE,
)
# a name that says so (`new_for_tests`, `state_for_testing`), or a `cfg` that builds it only
# with a test feature (`#[cfg(any(test, feature = "test-utils"))]`)
_FOR_TESTS_NAME = re.compile(r"_for_(?:tests?|testing)$")
# a name that says it is there for tests or benchmarks (risingwave's
# `StateStoreImpl::for_test`, sccache's `SccacheService::mock_with_storage`, neon's
# `PageServerConf::dummy_conf`, `io_engine_for_bench`, lemmy's `init_test_context`); not a
# `test_` first word (risingwave's `test_paid_tier` checks a license, cargo's `test_target`)
_SUPPORT_NAME = re.compile(
    r"^for_(?:tests?|testing|bench(?:es|mark)?)$|_for_bench(?:es|mark)?$|^(?:mock|dummy|fake)(?:_|$)"
    r"|^(?:init|new|create|setup|make|build|start|spawn)_(?:test|mock|fake|dummy)(?:_|s?$)"
)
# words of a program's or a subcommand's name that say it runs a benchmark
_BENCH_WORDS = frozenset(("bench", "benches", "benchmark", "benchmarks"))
# words of a crate's name that say it holds test or benchmark support (ruff's
# `ruff_benchmark`, cargo's `cargo-test-support`, greptimedb's `tests-fuzz`)
_SUPPORT_WORDS = frozenset(
    ("test", "tests", "testing", "testutil", "testutils", "mock", "mocks", "mocking", "fake",
     "fakes", "dummy", "fuzz", "fuzzing")
) | _BENCH_WORDS  # fmt: skip
# a module's name that says so: greptimedb's `meta_srv::mocks`, helix's `helix_core::test`,
# tikv's `encoder_for_test`, risingwave's `sink::mock_coordination_client`; not a name that
# only ends in such a word (cargo's `ops::cargo_test` runs `cargo test`)
_SUPPORT_MODULE = re.compile(
    r"^(?:tests?|testing|test_?utils?|test_?helpers?|test_?support|mocks?|mocking|fakes?|dummy"
    r"|bench(?:es|mark|marks)?|fuzz(?:ing)?)$|^(?:test|mock|fake|dummy)_|_for_(?:tests?|testing)$"
)
# the first word of a type's name that says so: tikv's `TestEngineBuilder`, risingwave's
# `MockSinkCoordinationRpcClient`
_SUPPORT_TYPE = re.compile(r"^(?:Test|Mock|Fake|Dummy)(?=[A-Z]|$)")
_TEST_FEATURE = re.compile(r"^cfg\b(?!.*\bnot\s*\().*\bfeature\s*=\s*\"[\w-]*test[\w-]*\"")


# a doc that says tests are one use among others: typst's `Source::detached` ("usually for
# testing"), pingora's `Session::new_h1` ("mostly used for testing and mocking"), quickwit's
# "for testing and CLI tools"
_HEDGED = re.compile(r"\b(?:usually|mostly|mainly|primarily|often|also|e\.g\.)\W+(?:\w+\W+)?$")
_ALSO_ELSE = re.compile(r"\s*(?:and|or|/)\s+(?!mocks?\b|mocking\b|benchmarks?\b)\w")


def for_tests(d: Definition) -> bool:
    """Whether a `pub` fn is there for tests, by its doc comment, its name or the feature
    that builds it."""
    said = next(
        (
            m
            for m in _FOR_TESTS_DOC.finditer(d.doc or "")
            if not _HEDGED.search(d.doc or "", 0, m.start())
            and not _ALSO_ELSE.match(d.doc or "", m.end())
        ),
        None,
    )
    return (
        said is not None
        or bool(_FOR_TESTS_NAME.search(d.name))
        or any(_TEST_FEATURE.match(a) for a in d.attrs)
    )


def test_support(node: Node) -> bool:
    """Whether a fn is test or benchmark support by the names around it: its crate's name
    holds such a word (`_SUPPORT_WORDS`), a module's says so (`_SUPPORT_MODULE`), its type's
    starts with one (`_SUPPORT_TYPE`), or its own says so (`_SUPPORT_NAME`). A `pub` fn no product code
    calls is then no public API a user starts from (readings 161-162, 230: greptimedb's
    `meta_srv::mocks::mock_with_memstore` had been 15 errors' way in)."""
    d = node.definition
    if _SUPPORT_NAME.search(d.name) or (d.owner and _SUPPORT_TYPE.match(d.owner)):
        return True
    words = re.split(r"[^a-z0-9]+", crate_name(node.crate).lower())
    return any(w in _SUPPORT_WORDS for w in words) or any(
        _SUPPORT_MODULE.search(part) for part in node.module.split("::")
    )


def _foreign_trait(d: Definition, own_traits: set[str]) -> str | None:
    """`Trait::method` of a method of an impl of a trait the language or a runtime calls
    (`_USED_THROUGH`) that the repository does not declare: code outside runs it wherever it
    holds the type (hyper's `Connection::poll` when a server awaits its connection, reading
    122); None otherwise. Calls through it are seldom written (an `.await` calls no `poll`
    the index sees), so a type the repository's own code awaits is an entry too."""
    if d.owner is None or d.trait is None or d.kind != "fn":
        return None
    trait = d.trait.rsplit("::", 1)[-1].partition("<")[0]
    if trait not in _USED_THROUGH or trait in own_traits:
        return None
    return f"{trait}::{d.name}"


# A fn a framework registers by its attribute and calls by name from outside: tauri's
# `#[tauri::command]` (the webview's `invoke("name")`, over IPC), serenity's and poise's
# `#[command]` (a chat user's command). Nothing in the repository calls it (tauri's
# `generate_handler![..]` writes the call); the attribute is on a free fn.
_COMMAND_ATTRIBUTE = re.compile(r"^(?:(?:tauri|poise|serenity(?:::\w+)*)::)?command\b(?!\s*=)")


# A fn another language calls through the binding its attribute generates: typst's `#[func]`
# (a Typst script's `tiling(..)`, `color.transparentize(..)`; godot-rust's too), pyo3's
# `#[pyfunction]`, `#[wasm_bindgen]`, `#[napi]`, `#[uniffi::export]`. Its callers are that
# language's code, not the Rust crate's public API (typst's `Tiling::construct` read as
# "public API `typst_library::visualize::Tiling::construct`", reading 190).
_EXPORTS = (
    (re.compile(r"^func\b(?!\s*=)"), "script function"),
    (re.compile(r"^(?:pyo3::)?pyfunction\b"), "Python function"),
    (re.compile(r"^(?:pyo3::)?pymethods\b"), "Python method"),  # its impl's (`index`)
    (re.compile(r"^(?:wasm_bindgen::prelude::)?wasm_bindgen\b(?!\s*=)"), "JavaScript binding"),
    (re.compile(r"^(?:napi_derive::)?napi\b(?!\s*=)"), "Node.js binding"),
    (re.compile(r"^uniffi::export\b"), "foreign-language binding"),
)


# `graph.derived[EXPORTED]`: the fns `exported_to` made entry points. A path from one ranks
# after a program's own commands (ruff's CLI `format` before its playground's
# `#[wasm_bindgen]` `Workspace::new`, which is fewer calls from the same error).
EXPORTED = "exported fns"


# pyo3's names as Python reads them: `#[pyclass(name = "_Dataset")]` on a struct,
# `#[pyo3(name = "drop")]` (or `#[pyfunction(name = ..)]`) on a fn
_PY_NAME = re.compile(
    r"^(?:pyo3::)?(?:pyclass|pyo3|pyfunction)\s*\((?:.*[(,\s])?name\s*=\s*\"([^\"]+)\""
)


def _python_classes(indexes: Iterable[FileIndex]) -> dict[str, str]:
    """The Python name of each struct or enum pyo3 exports as a class (`#[pyclass]`: its own
    name, or the `name = ".."` it gives), by its Rust name; a Rust name two classes share
    with two Python names is left out."""
    found: dict[str, set[str]] = {}
    for index in indexes:
        for d in index.definitions:
            if d.kind not in ("struct", "enum") or not any(
                a.startswith(("pyclass", "pyo3::pyclass")) for a in d.attrs
            ):
                continue
            found.setdefault(d.name, set()).add(_python_own_name(d))
    return {name: next(iter(py)) for name, py in found.items() if len(py) == 1}


def _python_own_name(d: Definition) -> str:
    """The name pyo3 gives an item: its attribute's `name = ".."`, else its Rust name."""
    return next((m[1] for a in d.attrs if (m := _PY_NAME.match(a))), d.name)


def _python_kind(attrs: Sequence[str]) -> str:
    """What Python calls a `#[pymethods]` method: the class itself for its `#[new]`
    (`KMeans(..)`), the class's for a `#[staticmethod]` or `#[classmethod]`, else an
    object's."""
    if "new" in attrs:
        return "Python constructor"
    if any(a in ("staticmethod", "classmethod") for a in attrs):
        return "Python static method"
    return "Python method"


def python_name(d: Definition, classes: Mapping[str, str]) -> str | None:
    """How Python calls a fn pyo3 exports: `_Dataset.drop_columns` for a method of a class
    (lance's `#[pyclass(name = "_Dataset")] struct Dataset`, reading 232), `list_tags` for a
    function, each under the name its `#[pyo3(name = ..)]` gives; None for a method whose
    type pyo3 exports under no one name the index saw."""
    own = _python_own_name(d)
    if d.owner is None:
        return own
    owner = classes.get(d.owner)
    if owner is None:
        return None
    return owner if "new" in d.attrs else f"{owner}.{own}"  # `#[new]`: `KMeans(..)` makes one


def exported_to(attrs: Sequence[str]) -> tuple[str, str] | None:
    """(what calls it, the attribute as written up to its arguments) for a fn an attribute
    exports to another language (`_EXPORTS`); None for any other fn."""
    for attr in attrs:
        for pattern, caller in _EXPORTS:
            if pattern.match(attr):
                return caller, attr.partition("(")[0].strip()
    return None


_DERIVED_NAME = re.compile(r"^proc_macro_derive\s*\(\s*([A-Za-z_]\w*)")


def proc_macro_use(name: str, attrs: Sequence[str]) -> str | None:
    """How a crate uses the procedural macro a fn is, from its attribute: `macro
    `expand_query!`` (`#[proc_macro]`), `` `#[derive(Type)]` `` (`#[proc_macro_derive(Type,
    ..)]`), `attribute `#[command]`` (`#[proc_macro_attribute]`); None for any other fn.
    The compiler runs it while it builds the crate that writes it, and its errors are that
    build's (sqlx's `query!` turns them into `compile_error!`): no program calls it."""
    for attr in attrs:
        if attr == "proc_macro":
            return f"macro `{name}!`"
        if attr == "proc_macro_attribute":
            return f"attribute `#[{name}]`"
        derived = _DERIVED_NAME.match(attr)
        if derived is not None:
            return f"`#[derive({derived.group(1)})]`"
    return None


def _command_attribute(attrs: Sequence[str]) -> str | None:
    """The attribute that registers a fn as a command (`_COMMAND_ATTRIBUTE`), or None."""
    return next((a for a in attrs if _COMMAND_ATTRIBUTE.match(a)), None)


def _handlers(
    graph: CallGraph, free: Mapping[str, list[int]], path: str, handler: str
) -> list[int]:
    """The fns a route names (`search`, `fields::post_index_fields`), of the crate of the file
    that registers it: the one of that file when it defines one (meilisearch has a `search`
    handler per route file), else those of the module the path names, else every one."""
    *segments, name = handler.split("::")
    crate = _crate(path)
    found = [n for n in free.get(name, []) if graph.nodes[n].crate == crate]
    if not found:  # another crate's handler the file imports (lemmy's `api/routes` mounts
        return _imported_handlers(graph, free, path, name)  # `lemmy_routes`' handlers)
    if len(found) < 2:
        return found
    here = [n for n in found if graph.nodes[n].path == path]
    module = [s for s in segments if s not in ("crate", "self", "super")]
    named = [
        n for n in found if module and graph.nodes[n].module.split("::")[-len(module) :] == module
    ]
    return here or named or found


def _imported_handlers(
    graph: CallGraph, free: Mapping[str, list[int]], path: str, name: str
) -> list[int]:
    """The fns of the name a route's file imports from another crate (`use
    lemmy_routes::images::{download::get_image, ..}`): those whose module ends with the
    modules the `use` names after the crate (`images::download`); none when the file imports
    no such name, or the `use` names no module (reading 270: lemmy's image handlers read
    "public API `lemmy_routes::images::download::get_image`", not `GET /api/v4/image/..`)."""
    use = next((u for u in graph.indexes[path].uses if u.alias == name), None)
    if use is None:
        return []
    _, *modules, original = use.path.split("::")
    wanted = [m for m in modules if m not in ("crate", "self", "super")]
    if not wanted:
        return []
    return [
        n
        for n in free.get(original, [])
        if graph.nodes[n].module.split("::")[-len(wanted) :] == wanted
    ][:3]


def _parsers(
    graph: CallGraph,
    fns: tuple[Mapping[str, list[int]], Mapping[tuple[str, str], list[int]]],
    path: str,
    handler: str,
) -> list[int]:
    """The fns a clap field's `value_parser = ..` names: a type's (`SizeFilter::from_string`,
    of the crate of the file that names it when it has one), else a free fn (`_handlers`).
    `fns`: the free fns by name, the methods by type and name."""
    free, owned = fns
    *segments, name = handler.split("::")
    owner = segments[-1] if segments and segments[-1][:1].isupper() else None
    if owner is None:  # of another crate when it is the one fn of that name
        alone = free.get(name, [])
        return _handlers(graph, free, path, handler) or (alone if len(alone) == 1 else [])
    found = owned.get((owner, name), [])
    crate = _crate(path)
    return [n for n in found if graph.nodes[n].crate == crate] or found


def _mount_points(indexes: Mapping[str, FileIndex]) -> dict[tuple[str, str], str]:
    """The path each route-listing item sits under, by (crate, item name): `"/batches" =>
    sub(batches::BatchesApi)` in `MeilisearchApi`'s list puts `BatchesApi`'s `"/{id}"` at
    `/batches/{id}`, and under whatever mounts `MeilisearchApi`. The first mount in path order
    when an item is mounted twice; a cycle ends where it closes."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}  # item -> (its mounting item, path)
    for path in sorted(indexes):
        crate = _crate(path)
        for route in indexes[path].routes:
            if route.method == "SUB" and route.owner:
                child = (crate, route.handler.rsplit("::", 1)[-1])
                parent.setdefault(child, (route.owner, route.path))

    def prefix(item: tuple[str, str], seen: frozenset[tuple[str, str]]) -> str:
        if item not in parent or item in seen:
            return ""
        owner, path = parent[item]
        return prefix((item[0], owner), seen | {item}) + path

    return {item: prefix(item, frozenset()) for item in parent}


# Targets that use a library rather than make it: a `pub` fn they alone call is still its
# public API (hyper's `SendRequest::send_request`, called by its examples), and theirs is none.
_USERS_OF_THE_API = frozenset(("example", "test", "bench"))


def _in_product(path: str, modules: RepositoryModules) -> bool:
    return modules.target_kind(path) not in _USERS_OF_THE_API


def _program_entry(path: str, modules: RepositoryModules) -> tuple[EntryKind, str] | None:
    """What a top-level `fn main` of `path` is: a program's start, an example's (ranked
    after the API it demonstrates), a benchmark's (ranked with examples: a tool the
    developers run, not the users' way in), a package's build script (Cargo runs it while
    building the package: its errors stop `cargo build`), or none (a `main` some other file
    calls)."""
    package = modules.build_script_of(path)
    if package is not None:
        return ("build", f"the build script of `{package}` (fn main)")
    if path.endswith("build.rs") or not _runs_as_program(path, modules):
        return None
    binary = modules.binary_of(path) or _binary(path)
    if modules.target_kind(path) == "example" or _example_program(path, modules):
        return ("example", f"example `{binary}` (fn main)")
    if _benchmark(binary) or _benchmark(modules.package_of(path) or ""):
        return ("bench", f"benchmark `{binary}` (fn main)")
    return ("main", f"`{binary}` (fn main)")


def _example_program(path: str, modules: RepositoryModules) -> bool:
    """Whether a program is an example of its own package: one under an `examples/`
    directory, or of a package whose name has the word (sqlx's `examples/postgres/listen`
    is the package `sqlx-example-postgres-listen`, axum's `examples/jwt` is `example-jwt`;
    59 of them had been "where users meet" axum's routing errors, reading 108)."""
    words = re.split(r"[^a-z0-9]+", (modules.package_of(path) or "").lower())
    return "examples" in path.split("/")[:-1] or "example" in words or "examples" in words


def _benchmark(name: str) -> bool:
    """Whether a program's or its package's name says it is a benchmark: a word of it
    `bench`, `benches`, `benchmark` (risingwave's `sink-bench` binary of `risingwave_bench`,
    which runs every sink's log sinker and had become 120 sink errors' way in)."""
    words = re.split(r"[^a-z0-9]+", name.rpartition(":")[2].lower())
    return any(word in _BENCH_WORDS for word in words)


_SUBCOMMAND_LABEL = re.compile(r"^subcommand `([^`]*)`")


def benchmark_subcommand(label: str) -> bool:
    """Whether an entry's label is a subcommand a word of whose name says it runs a
    benchmark (greptimedb's `datanode objbench`, `scanbench`; risingwave's `risectl bench
    scan`): a tool over the product's code, ranked with benchmark programs (reading 230's
    recheck: `datanode scanbench`, which never sends the request that fails, had been the
    way in above `MitoEngineBuilder::try_build`)."""
    found = _SUBCOMMAND_LABEL.match(label)
    words = re.split(r"[^a-z0-9]+", found[1].lower()) if found else []
    return any(w in _BENCH_WORDS or w.endswith("bench") for w in words)


def tooling_program(path: str) -> bool:
    """Whether a program's file is a developer's tool over the product's code, by the
    conventions its directory follows: a fuzzing harness (`fuzz/`, `fuzzers/`, a binary
    named `fuzz*`) or a `cargo xtask` crate: ranked with benchmark programs, after the
    product's own (meilisearch's `fuzz-indexing` was the way into `write_to_db` before the
    server's indexing, reading 311)."""
    parts = path.split("/")
    return bool(_TOOLING_DIRS.intersection(parts[:-1])) or bool(_FUZZ_BINARY.match(parts[-1]))


_TOOLING_DIRS = frozenset(("fuzz", "fuzzers", "fuzzing", "xtask"))
_FUZZ_BINARY = re.compile(r"fuzz(?:[-_].*)?\.rs$")  # `fuzz-indexing.rs`, not `fuzzy.rs`


def _runs_as_program(path: str, modules: RepositoryModules) -> bool:
    """Whether a top-level `fn main` of `path` is where a program starts: its file is a
    binary's or an example's root, or no manifest places the file. Cargo's own
    `src/bin/cargo/cli.rs` has a `pub fn main(gctx)` that `src/bin/cargo/main.rs` calls:
    not the program a user runs."""
    return modules.binary_of(path) is not None or modules.module_path(path) is None


def _binary(path: str) -> str:
    """The name a user runs a `fn main` by: its `bin/` or `examples/` file (or directory),
    else its crate's directory."""
    parts = path.split("/")
    if "bin" in parts[:-1] or "examples" in parts[:-1]:
        return parts[-1].removesuffix(".rs") if parts[-1] != "main.rs" else parts[-2]
    crate = _crate(path)
    return crate.rsplit("/", 1)[-1] or "main"


def arm_entry(
    graph: CallGraph, label: str, caller: int | None = None
) -> tuple[EntryKind, str] | None:
    """A dispatch arm that is an entry point: a statement, or a CLI subcommand.

    `label` is the arm's variant, or the chain of them from the outermost (`ARM_LINK`): an
    arm's pattern that names another (uv's `Commands::Pip(PipNamespace { command:
    PipCommand::Compile(args), .. })`), an arm in an arm (rustup's `RustupSubcmd::Target {
    subcmd } => match subcmd { TargetSubcmd::Add { .. } => ..`). A statement is its outermost
    variant; a subcommand is the run of subcommands the chain leads with, as a user types
    them: `pip compile`, `target add`. `caller`, the fn whose arm it is: the subcommands
    whose arms reach that fn come first (`commands_above`)."""
    names, variants = _subcommands(graph, label, caller)
    last = variants[-1] if variants else ""
    if names:
        named = f" (`{last}`)" if last else ""
        above = commands_above(graph, caller) if caller is not None else ()
        return "cli", f"subcommand `{' '.join(_joined(above, names))}`{named}"
    first = label.split(ARM_LINK)[0]
    if "::" in first and _STATEMENT_ENUM.search(first.split("::", 1)[0]):
        return "statement", f"statement `{first}`"
    return None


def nested_dispatch(graph: CallGraph, caller: int, label: str) -> frozenset[str]:
    """The arms of other fns' dispatches over the same enum, each of a variant that wraps a
    value of the enum (`_wraps`), that reach the fn `caller`, whose arm `label` is (within 3
    calls up): risingwave's `do_handle_explain` matches the
    statement an `EXPLAIN` wraps and is reached from `handle`'s `Statement::Explain` arm, so
    its `Statement::CreateSink` arm is no statement a user gives: `handle`'s is (the walks
    rank such arms after the others). Empty for a dispatch no other one reaches."""
    enum = label.split(ARM_LINK)[0].split("::", 1)[0]
    known: dict[tuple[int, str], frozenset[str]] = graph.derived.setdefault("nested", {})
    key = (caller, enum)
    if key not in known:
        known[key] = _arms_above(graph, caller, enum)
    return known[key]


def _arms_above(graph: CallGraph, fn: int, enum: str) -> frozenset[str]:
    seen, frontier, arms = {fn}, [fn], set()
    for _ in range(3):
        above = []
        for node in frontier:
            for edge in graph.callers.get(node, ()):
                outer = edge.arm.split(ARM_LINK)[0] if edge.arm else ""
                if edge.caller != fn and outer.split("::", 1)[0] == enum:
                    if _wraps(graph, outer):
                        arms.add(outer)
                    continue  # an arm ends the way up: what is above it is its own
                if edge.caller not in seen:
                    seen.add(edge.caller)
                    above.append(edge.caller)
        frontier = above[:64]
    return frozenset(arms)


def _wraps(graph: CallGraph, arm: str) -> bool:
    """Whether an enum's variant holds a value of the enum itself (`Explain { statement:
    Box<Statement>, .. }`, `Fetch(Box<Statement>)`): the statement a user gives wraps
    another. A struct variant's fields are the file's fields on its lines."""
    known: dict[str, bool] = graph.derived.setdefault("wrapping variants", {})
    if arm not in known:
        enum, _, variant = arm.partition("::")
        word = re.compile(rf"\b{re.escape(enum)}\b")
        known[arm] = any(
            word.search(d.signature)
            or any(
                f.kind == "field" and d.line <= f.line <= d.end_line and word.search(f.signature)
                for f in graph.indexes[path].definitions
            )
            for path, d in graph.named.get(("variant", variant), ())
            if d.owner == enum
        )
    return known[arm]


def _subcommands(graph: CallGraph, label: str, caller: int | None) -> tuple[list[str], list[str]]:
    """The subcommands a chain of arms leads with, as a user types them, and the variants of
    clap's derive among its arms (none for a builder's `"name"` arm). `caller`: the fn whose
    arm it is."""
    names: list[str] = []
    variants: list[str] = []
    for arm in label.split(ARM_LINK):
        if arm.startswith('"') and arm.strip('"') in graph.subcommands:
            names.append(arm.strip('"'))
        elif "::" in arm and _clap_enum(graph, arm.split("::", 1)[0], caller):
            # a `DdlCommand` of a server is no CLI: clap's derive says which enums are;
            # a `#[command(flatten)]` variant's subcommands sit at its own level (uv's
            # `Commands::Project` holds `add`, typed `uv add`): it adds no name
            if not _flattened(graph, *arm.split("::", 1)):
                names.append(_subcommand_name(graph, *arm.split("::", 1)))
            variants.append(arm)
        else:
            break
    return names, variants


def dead_arm(graph: CallGraph, label: str, caller: int) -> bool:
    """Whether the subcommand arm `label` of the fn `caller` never runs the way the fn is
    reached: every subcommand arm that calls the fn (`variants_above`) took another variant
    of the enum the arm matches. greptimedb's `start` calls `cmd.build_with(..)` only in its
    `datanode::SubCommand::Start` arm, and `build_with` matches the same value again: its
    `Scanbench` arm had made the benchmark's errors "subcommand `datanode start scanbench`"
    (reading 321). The same enum is one that has both variants: greptimedb's top-level
    `SubCommand::Datanode` and the datanode's `SubCommand::Start` are two enums."""
    above = variants_above(graph, caller)
    if not above:
        return False
    for arm in _subcommands(graph, label, caller)[1]:
        enum, _, variant = arm.partition("::")
        for taken in above:
            other_enum, _, other = taken.partition("::")
            if other_enum == enum and other != variant and _one_enum(graph, enum, variant, other):
                return True
    return False


def _one_enum(graph: CallGraph, enum: str, variant: str, other: str) -> bool:
    """Whether an enum named `enum` defines both variants (its file and name are one)."""
    owners = [{(path, d.owner) for path, d in graph.definitions("variant", v) if d.owner == enum}
              for v in (variant, other)]  # fmt: skip
    return bool(owners[0] & owners[1])


def variants_above(graph: CallGraph, node: int) -> tuple[str, ...]:
    """The variants of clap's derive that the subcommand arms above the fn `node` took, from
    the outermost, when every such arm that calls the fn agrees (as `commands_above`);
    else `()`."""
    return _agreed_above(graph, node, "variants above", _arm_variants, _chained)


def _arm_variants(graph: CallGraph, label: str, caller: int) -> tuple[str, ...]:
    return tuple(_subcommands(graph, label, caller)[1])


def _arm_names(graph: CallGraph, label: str, caller: int) -> tuple[str, ...]:
    return tuple(_subcommands(graph, label, caller)[0])


def _chained(above: Sequence[str], own: Sequence[str]) -> tuple[str, ...]:
    return (*above, *own)


def _agreed_above(
    graph: CallGraph,
    node: int,
    key: str,
    of_arm: Callable[[CallGraph, str, int], tuple[str, ...]],
    join: Callable[[Sequence[str], Sequence[str]], tuple[str, ...]],
) -> tuple[str, ...]:
    """What the live subcommand arms above the fn `node` say (`of_arm` of each arm, joined to
    what is above its own fn by `join`), when every such arm that calls the fn agrees; a fn
    no arm calls has what its one caller has; else `()`. Kept in `graph.derived[key]`."""
    memo: dict[int, tuple[str, ...]] = graph.derived.setdefault(key, {})
    if node in memo:
        return memo[node]
    memo[node] = ()  # a dispatch that reaches itself adds nothing
    found = set()
    edges = graph.callers.get(node, ())
    for edge in edges:
        if edge.arm is None or dead_arm(graph, edge.arm, edge.caller):
            continue
        own = of_arm(graph, edge.arm, edge.caller)
        if own:
            found.add(join(_agreed_above(graph, edge.caller, key, of_arm, join), own))
    callers = {edge.caller for edge in edges}
    if not found and len(callers) == 1:
        found.add(_agreed_above(graph, callers.pop(), key, of_arm, join))
    memo[node] = found.pop() if len(found) == 1 else ()
    return memo[node]


def _clap_enum(graph: CallGraph, name: str, caller: int | None) -> bool:
    """Whether the enum `name` an arm of `caller` matches is one clap derives: one of that
    name does, in a package the caller's sees (sqlx-sqlite's worker matches its own
    `Command::Describe`; sqlx-cli's clap `Command` is no enum of sqlx-sqlite's). Without a
    caller or its package, any of that name."""
    if name not in graph.clap_enums:
        return False
    mine = graph.packages[caller] if caller is not None and graph.packages else None
    if mine is None:
        return True
    sees = graph.reachable.get(mine, frozenset((mine,)))
    return any(p is None or p in sees for p in graph.clap_packages.get(name, (None,)))


def _flattened(graph: CallGraph, enum: str, variant: str) -> bool:
    """Whether clap's derive flattens the variant `enum::variant` (`#[command(flatten)]`)."""
    return any(
        d.owner == enum and any(_FLATTEN.match(a) for a in d.attrs)
        for _, d in graph.definitions("variant", variant)
    )


_FLATTEN = re.compile(r"^(?:command|clap)\s*\(\s*flatten\s*\)")
# `#[command(name = "z.lua")]`, `#[clap(name = "x")]` on a variant: the name a user types
_NAMED = re.compile(r'^(?:command|clap)\s*\((?:[^)]*,)?\s*name\s*=\s*"([^"]+)"')
# `name = DoubleSpawnInfo::SUBCOMMAND_NAME`: a const's (nextest's `__double-spawn`)
_NAMED_BY_CONST = re.compile(
    r"^(?:command|clap)\s*\((?:[^)]*,)?\s*name\s*=\s*((?:[A-Za-z_]\w*::)*[A-Z][A-Z0-9_]*)\s*[,)]"
)
_STRING = re.compile(r'"([^"\\]+)"')


def _subcommand_name(graph: CallGraph, enum: str, variant: str) -> str:
    """The subcommand `enum::variant` of clap's derive as a user types it: the `name` its
    attribute gives (zoxide's `#[clap(name = "z.lua")] ZLua`: `import z.lua`, not `import
    z-lua`, reading 118), else the variant's name in kebab case."""
    for _, definition in graph.definitions("variant", variant):
        if definition.owner == enum:
            for attribute in definition.attrs:
                named = _NAMED.match(attribute)
                if named is not None:
                    return named[1]
                by_const = _NAMED_BY_CONST.match(attribute)
                value = _const_string(graph, by_const[1]) if by_const is not None else None
                if value is not None:
                    return value
    return _kebab(variant)


def _const_string(graph: CallGraph, written: str) -> str | None:
    """The string a const named as written holds (`DoubleSpawnInfo::SUBCOMMAND_NAME` ->
    `__double-spawn`, reading 131): of the consts of that name, those of the type written
    before it if any is, each holding a string literal, all the same; None otherwise (no
    guess)."""
    owner = written.rpartition("::")[0].rpartition("::")[2]
    consts = [d for _, d in graph.definitions("const", written.rpartition("::")[2])]
    owned = [d for d in consts if owner and d.owner == owner]
    values = {
        found[1]
        for d in owned or consts
        if (found := _STRING.fullmatch((d.value or "").strip())) is not None
    }
    return values.pop() if len(values) == 1 and len(owned or consts) else None


def _joined(above: Sequence[str], names: Sequence[str]) -> tuple[str, ...]:
    """The subcommands `above` a fn's and the fn's own, as a user types them, the run they
    share said once: greptimedb's `start` matches `datanode::SubCommand::Start` and then
    calls `build_with`, whose own `match self` on `SubCommand::Start` had read `datanode
    start start` (reading 230)."""
    shared = max(
        (
            k
            for k in range(1, min(len(above), len(names)) + 1)
            if tuple(above[-k:]) == tuple(names[:k])
        ),
        default=0,
    )
    return (*above, *names[shared:])


def commands_above(graph: CallGraph, node: int) -> tuple[str, ...]:
    """The subcommands a user types before those a fn dispatches: atuin's `scripts::Cmd::run`
    matches `Cmd::New` (`new`) and is run by the arm `Cmd::Scripts` of the client's
    dispatch, itself under no other: `("scripts",)`, and the command reads `scripts new`.
    Only when every subcommand arm that calls the fn agrees (else `()`: no guess). A fn no
    arm calls has the commands of its one caller, when it has one (a dispatch split in two
    fns, `run` calling `run_inner`)."""
    return _agreed_above(graph, node, "commands above", _arm_names, _joined)


def _kebab(name: str) -> str:
    """A variant's name as clap's derive spells its subcommand (heck's kebab case): `Self_`
    -> `self` (rustup's, uv's), `HTTPServer` -> `http-server`, `Ipv4Addr` -> `ipv4-addr`."""
    return "-".join(word.lower() for word in _WORD.findall(name))


# heck's words: runs of capitals before a capitalised word, a capital and its lower case
# and digits, a run of capitals; `_` only separates
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+[0-9]*")
