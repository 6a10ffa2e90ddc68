"""A panic on the code's own assumption, which no value a reader passes decides, gets no
"before passing them" tip from its class's words: its solutions say it is a bug to report
(reading 230: greptimedb's "size pass and encode pass disagree: cursor out of bounds
(encoder bug)" read "Keep numbers and indexes within the bounds the code states before
passing them")."""

from __future__ import annotations

from pipeline.analyze.accessors import ASSUMPTION_TIP
from pipeline.analyze.static import explain
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

PASSING = "Keep numbers and indexes within the bounds the code states before passing them."


def tips_of(text: str) -> dict[str, list[str]]:
    scan = find_sites("src/lib.rs", text.encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    return {c.site.message: explain(c).preventionTips for c in contexts}


def test_an_overflow_of_the_code_s_own_counter_gets_no_tip_about_passing_values() -> None:
    tips = tips_of(
        "pub struct Ids { next: u32 }\n"
        "impl Ids {\n"
        "    pub fn take(&mut self) -> u32 {\n"
        '        self.next = self.next.checked_add(1).expect("id counter overflow");\n'
        "        self.next\n"
        "    }\n"
        "}\n"
    )

    assert tips["id counter overflow"] == [ASSUMPTION_TIP]


def test_a_bound_the_caller_s_argument_breaks_keeps_the_tip() -> None:
    tips = tips_of(
        "pub fn pick(items: &[u32], i: usize) -> anyhow::Result<u32> {\n"
        '    anyhow::ensure!(i < items.len(), "index {i} out of bounds");\n'
        "    Ok(items[i])\n"
        "}\n"
    )

    assert PASSING in tips["index {i} out of bounds"]
