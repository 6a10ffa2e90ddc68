"""A clap-derive subcommand is named as clap names it: the variant in heck's kebab case.
rustup's and uv's `Self_` is the command `self` (the label read `self_`)."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, node

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph

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


def _cli_labels(graph: CallGraph, *fns: str) -> dict[str, list[str | None]]:
    """Each fn's CLI entry points, as their paths label them."""
    return {
        fn: [p.entry_label for p in caller_paths(graph, node(graph, fn)) if p.entry == "cli"]
        for fn in fns
    }


def test_each_subcommand_is_labelled_by_the_name_a_user_types(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": MAIN})
    assert _cli_labels(graph, "uninstall", "serve", "dump", "check") == {
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
    Show { subcmd: Option<ShowSubcmd> },
    Venv,
}

#[derive(Subcommand)]
enum ShowSubcmd {
    ActiveToolchain,
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
        Commands::Show { subcmd } => match subcmd {
            None => show(),
            Some(ShowSubcmd::ActiveToolchain) => show_active_toolchain(),
        },
    }
}

fn show() {}
fn show_active_toolchain() { panic!("no active toolchain") }

fn compile(args: CompileArgs) { panic!("nothing to compile") }
fn venv() { panic!("no interpreter") }
fn target_add(name: &str) { panic!("unknown target") }
"""


def test_a_nested_subcommand_is_labelled_by_every_word_a_user_types(tmp_path: Path) -> None:
    """uv's `Commands::Pip(PipNamespace { command: PipCommand::Compile(..), .. })` read
    "subcommand `pip`", rustup's `RustupSubcmd::Target { subcmd } => match subcmd {
    TargetSubcmd::Add ..` "subcommand `target`": the commands are `uv pip compile` and
    `rustup target add`."""
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": NESTED})
    assert _cli_labels(graph, "compile", "venv", "target_add") == {
        "compile": ["subcommand `pip compile` (`PipCommand::Compile`)"],
        # an arm of two patterns keeps its first variant alone, as before
        "venv": ["subcommand `pip` (`Commands::Pip`)"],
        "target_add": ["subcommand `target add` (`TargetSubcmd::Add`)"],
    }
    # an arm inside `Some(..)` (rustup's `Some(ShowSubcmd::ActiveToolchain { .. })`: it read
    # "subcommand `show`", which prints the same words as a status line, reading 280)
    assert _cli_labels(graph, "show_active_toolchain") == {
        "show_active_toolchain": [
            "subcommand `show active-toolchain` (`ShowSubcmd::ActiveToolchain`)"
        ],
    }


BY_CONST = """\
use clap::{Parser, Subcommand};

pub struct DoubleSpawnInfo;

impl DoubleSpawnInfo {
    pub const SUBCOMMAND_NAME: &'static str = "__double-spawn";
}

const SHOW: &str = "show-config";

#[derive(Subcommand)]
enum Cmd {
    /// Private command, used to double-spawn test processes.
    #[command(name = DoubleSpawnInfo::SUBCOMMAND_NAME, hide = true)]
    DoubleSpawn,
    #[command(name = SHOW)]
    Show,
    #[command(name = MISSING)]
    Gone,
}

fn main() {
    match Cmd::parse() {
        Cmd::DoubleSpawn => spawn(),
        Cmd::Show => show(),
        Cmd::Gone => gone(),
    }
}

fn spawn() { panic!("no args") }
fn show() { panic!("no config") }
fn gone() { panic!("nothing") }
"""


def test_a_subcommand_named_by_a_const_is_labelled_by_the_consts_string(tmp_path: Path) -> None:
    """nextest's `#[command(name = DoubleSpawnInfo::SUBCOMMAND_NAME, hide = true)]` is the
    command `__double-spawn`, not `double-spawn` (reading 131); a const the index does not
    hold leaves the variant's kebab case."""
    graph = graph_of(
        tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": BY_CONST}
    )
    assert _cli_labels(graph, "spawn", "show", "gone") == {
        "spawn": ["subcommand `__double-spawn` (`Cmd::DoubleSpawn`)"],
        "show": ["subcommand `show-config` (`Cmd::Show`)"],
        "gone": ["subcommand `gone` (`Cmd::Gone`)"],
    }


BENCHED = """\
use clap::{Parser, Subcommand};

#[derive(Subcommand)]
enum Cmd {
    Objbench,
    Start,
}

fn main() {
    match Cmd::parse() {
        Cmd::Objbench => bench_objects(),
        Cmd::Start => start(),
    }
}

fn bench_objects() { open_store() }
fn start() { serve() }
fn serve() { open_store() }
fn open_store() { panic!("no store") }
"""


def test_a_benchmark_subcommand_comes_after_the_product_s_own(tmp_path: Path) -> None:
    # greptimedb's `datanode objbench` runs the engine's reader to time it: a way in, but
    # after `datanode start`, though its path is shorter (reading 230's recheck)
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": BENCHED})

    assert _cli_labels(graph, "open_store") == {
        "open_store": [
            "subcommand `start` (`Cmd::Start`)",
            "subcommand `objbench` (`Cmd::Objbench`)",
        ]
    }
