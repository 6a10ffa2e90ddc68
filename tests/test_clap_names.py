"""A clap-derive subcommand is named as clap names it: the variant in heck's kebab case.
rustup's and uv's `Self_` is the command `self` (the label read `self_`)."""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import index_entries
from pipeline.source.repository import list_files

MAIN = """\
use clap::{Parser, Subcommand};

#[derive(Subcommand)]
enum Cmd {
    Self_ { force: bool },
    HTTPServer,
    DumpTestament,
    Ipv4Check,
}

fn main() {
    match Cmd::parse() {
        Cmd::Self_ { force } => uninstall(force),
        Cmd::HTTPServer => serve(),
        Cmd::DumpTestament => dump(),
        Cmd::Ipv4Check => check(),
    }
}

fn uninstall(force: bool) { if !force { panic!("refusing to uninstall rustup") } }
fn serve() { panic!("no port") }
fn dump() { panic!("no testament") }
fn check() { panic!("no address") }
"""


def test_each_subcommand_is_labelled_by_the_name_a_user_types(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": MAIN})
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    graph = build_graph(index_entries(repo.git_dir, listing.entries, tmp_path / "c", jobs=1))
    labels = {}
    for fn in ("uninstall", "serve", "dump", "check"):
        (at,) = [i for i, n in enumerate(graph.nodes) if n.label == fn]
        labels[fn] = [p.entry_label for p in caller_paths(graph, at) if p.entry == "cli"]
    assert labels == {
        "uninstall": ["subcommand `self` (`Cmd::Self_`)"],
        "serve": ["subcommand `http-server` (`Cmd::HTTPServer`)"],
        "dump": ["subcommand `dump-testament` (`Cmd::DumpTestament`)"],
        "check": ["subcommand `ipv4-check` (`Cmd::Ipv4Check`)"],
    }


NESTED = """\
use clap::{Parser, Subcommand};

#[derive(Subcommand)]
enum Commands {
    Pip(PipNamespace),
    Target { subcmd: TargetSubcmd },
    Venv,
}

pub struct PipNamespace { pub command: PipCommand }

#[derive(Subcommand)]
enum PipCommand {
    Compile(CompileArgs),
    Sync,
}

#[derive(Subcommand)]
enum TargetSubcmd {
    Add { name: String },
}

fn main() {
    match Commands::parse() {
        Commands::Pip(PipNamespace { command: PipCommand::Compile(args) }) => compile(args),
        Commands::Pip(PipNamespace { command: PipCommand::Sync }) | Commands::Venv => venv(),
        Commands::Target { subcmd } => match subcmd {
            TargetSubcmd::Add { name } => target_add(&name),
        },
    }
}

fn compile(args: CompileArgs) { panic!("nothing to compile") }
fn venv() { panic!("no interpreter") }
fn target_add(name: &str) { panic!("unknown target") }
"""


def test_a_nested_subcommand_is_labelled_by_every_word_a_user_types(tmp_path: Path) -> None:
    """uv's `Commands::Pip(PipNamespace { command: PipCommand::Compile(..), .. })` read
    "subcommand `pip`", rustup's `RustupSubcmd::Target { subcmd } => match subcmd {
    TargetSubcmd::Add ..` "subcommand `target`": the commands are `uv pip compile` and
    `rustup target add`."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": NESTED})
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    graph = build_graph(index_entries(repo.git_dir, listing.entries, tmp_path / "c", jobs=1))
    labels = {}
    for fn in ("compile", "venv", "target_add"):
        (at,) = [i for i, n in enumerate(graph.nodes) if n.label == fn]
        labels[fn] = [p.entry_label for p in caller_paths(graph, at) if p.entry == "cli"]
    assert labels == {
        "compile": ["subcommand `pip compile` (`PipCommand::Compile`)"],
        # an arm of two patterns keeps its first variant alone, as before
        "venv": ["subcommand `pip` (`Commands::Pip`)"],
        "target_add": ["subcommand `target add` (`TargetSubcmd::Add`)"],
    }
