"""`reach.json`'s form of a `Reach`: what `dataclasses.asdict` with empty fields pruned gives."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.reach import CallerPath, Dependency, Hop, Reach, reach_from_json, reach_to_json

text = st.text(max_size=8)
maybe_text = st.none() | text
maybe_int = st.none() | st.integers(0, 10_000)
hops = st.builds(
    Hop,
    name=text,
    file_path=text,
    line=st.integers(1, 10_000),
    signature=text,
    doc=maybe_text,
    call_line=maybe_int,
    resolution=st.none() | st.sampled_from(["self", "local", "import", "name"]),
    candidates=st.lists(text, max_size=3).map(tuple),
    also_at=st.lists(st.integers(1, 10_000), max_size=3).map(tuple),
)
paths = st.builds(
    CallerPath,
    hops=st.lists(hops, min_size=1, max_size=3).map(tuple),  # a path has its site's fn
    entry=st.none() | st.sampled_from(["main", "cli", "rpc", "pub-api"]),
    entry_label=maybe_text,
)
dependencies = st.builds(
    Dependency,
    name=text,
    kind=st.sampled_from(["parameter", "field", "const", "local"]),
    text=text,
    file_path=maybe_text,
    line=maybe_int,
    doc=maybe_text,
)
reaches = st.builds(
    Reach,
    paths=st.lists(paths, max_size=3).map(tuple),
    callers=st.integers(0, 50),
    dependencies=st.lists(dependencies, max_size=3).map(tuple),
    conversion=maybe_text,
    http_status=st.none() | st.sampled_from([400, 404, 500]),
)


def reference(reach: Reach) -> Any:
    """The JSON form as first written: asdict, then None and empty lists dropped at every level."""

    def pruned(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: pruned(v) for k, v in value.items() if v is not None and v not in ([], ())}
        if isinstance(value, list | tuple):
            return [pruned(v) for v in value]
        return value

    return pruned(asdict(reach))


@settings(max_examples=300)
@given(reaches)
def test_the_json_form_is_asdict_pruned_and_reads_back(reach: Reach) -> None:
    data = reach_to_json(reach)
    assert data == reference(reach)
    assert list(data) == list(reference(reach))  # key order too: reach.json's bytes
    assert reach_from_json(data) == reach


def test_empty_and_none_fields_are_left_out_but_zero_is_kept() -> None:
    hop = Hop("f", "src/a.rs", 3, "fn f()", call_line=0)
    reach = Reach(paths=(CallerPath((hop,)),), callers=0)
    assert reach_to_json(reach) == {
        "paths": [{"hops": [{"name": "f", "file_path": "src/a.rs", "line": 3,
                             "signature": "fn f()", "call_line": 0}]}],
        "callers": 0,
    }  # fmt: skip


def test_a_reach_sent_between_processes_comes_back_equal() -> None:
    import pickle

    hop = Hop("DdlController::drop", "src/ddl.rs", 12, "fn drop(&self)", candidates=("x",))
    reach = Reach(
        paths=(CallerPath((hop, hop), "rpc", "RPC `Ddl::drop`"),),
        callers=2,
        dependencies=(Dependency("deferred", "parameter", "deferred: bool", line=3),),
        http_status=404,
    )
    back = pickle.loads(pickle.dumps(reach))
    assert back == reach and type(back.paths[0].hops[1]) is Hop
    assert back.paths[0].hops[0] is back.paths[0].hops[1]  # shared once, as sent
