"""A condition on a field clap's derive makes a command-line option of is that option: the
reader is told to change what the command is given, not to "make sure `!doc_args.serve`"
of a private field (foundry's `forge doc --serve`, reading 323)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of

from pipeline.analyze.static import explain, explain_apart, with_reach
from pipeline.languages.rust.index_items import clap_option
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import SiteSpec, reaches_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

DOC = """\
#[derive(clap::Parser)]
pub struct DocArgs {
    /// Deprecated: docs are served by another tool now.
    #[arg(long)]
    serve: bool,
    #[arg(long = "out-dir", short = 'o')]
    out: Option<String>,
    jobs: usize,
}
impl DocArgs {
    pub fn run(self) -> eyre::Result<()> {
        if self.serve {
            eyre::bail!("`--serve` has been removed");
        }
        if self.jobs > 8 {
            eyre::bail!("too many jobs");
        }
        Ok(())
    }
}
"""


def test_the_option_a_clap_field_is() -> None:
    assert clap_option("serve", ("arg(long)",)) == "--serve"
    assert clap_option("out", ("arg(long = \"out-dir\", short = 'o')",)) == "--out-dir"
    assert clap_option("verbose", ("clap(short)",)) == "-v"
    assert clap_option("path", ('arg(value_name = "PATH")',)) == "<PATH>"
    assert clap_option("cmd", ("command(subcommand)",)) is None
    assert clap_option("global", ("clap(flatten)",)) is None
    assert clap_option("jobs", ()) is None


def test_a_check_of_a_flag_field_says_to_change_the_flag(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "forge"\n', "src/lib.rs": DOC}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", DOC.encode())
    contexts = build_contexts("o/forge", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    told = {}
    for context in contexts:
        spec = SiteSpec(
            "r",
            None,
            "src/lib.rs",
            context.site.line,
            tuple(c.text for c in context.site.facts.conditions),
            kinds=tuple(c.kind for c in context.site.facts.conditions),
        )
        reach = reaches_of([spec], graph)["r"]
        whole = explain(replace(context, reach=reach))
        # as a run with more than one job makes it: the text apart from the reach in a worker
        # (`StaticAnalyzer.prepared`), the reach's added after: the same text
        apart = explain_apart(replace(context, reach=None))
        assert with_reach(apart, reach, context.sha, context.site, context.error_class) == whole
        told[context.site.message] = (reach, whole)
    reach, served = told["`--serve` has been removed"]
    assert reach is not None
    assert [(d.name, d.option) for d in reach.dependencies] == [("self.serve", "--serve")]
    assert (
        "What the command was given on its command line decides this (`self.serve` is the "
        "option `--serve`): the values passed there are where to look first."
    ) in served.solutions
    assert "the command-line option `--serve`" in (served.triggerScenarios or "")
    # a field clap's derive makes no option of (no `#[arg]`): nothing said of a command line
    reach, jobs = told["too many jobs"]
    assert not any("command line" in s for s in jobs.solutions)
