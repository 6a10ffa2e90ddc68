"""A subcommand's handler is reached through the arm that unpacks it: clap CLIs hold each
subcommand's arguments in a struct of its own module, wrap it in a variant, and dispatch
`match self.command { Commands::Login(cmd) => cmd.run(..), .. }`. The binding `cmd` has the
type the variant holds (`Login(login::Cmd)`), and of the many `Cmd::run`s (atuin has dozens,
one per command module) the call runs the one of the module the type names. Before, `cmd`
was untyped and `run` one name among dozens: atuin's `account login` and `register` errors
had no caller."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph

ACCOUNT = (
    "use clap::Subcommand;\n"
    "pub mod login;\n"
    "pub mod register;\n"
    "#[derive(clap::Args)]\n"
    "pub struct Cmd {\n    #[command(subcommand)]\n    command: Commands,\n}\n"
    "#[derive(Subcommand)]\n"
    "pub enum Commands {\n"
    "    Login(login::Cmd),\n"
    "    Register(Box<register::Cmd>),\n"
    "    Logout,\n"
    "}\n"
    "impl Cmd {\n"
    "    pub fn run(self, settings: &str) -> anyhow::Result<()> {\n"
    "        match self.command {\n"
    "            Commands::Login(cmd) => cmd.run(settings),\n"  # 18
    "            Commands::Register(cmd) => {\n"  # 19
    "                cmd.run(settings)\n"  # 20
    "            }\n"
    "            Commands::Logout => Ok(()),\n"
    "        }\n"
    "    }\n"
    "}\n"
)


def command(name: str, message: str) -> str:
    return (
        "pub struct Cmd {\n    pub user: String,\n}\n"
        "impl Cmd {\n"
        "    pub fn run(self, settings: &str) -> anyhow::Result<()> {\n"
        f'        anyhow::ensure!(!settings.is_empty(), "{message}");\n'
        "        Ok(())\n"
        "    }\n"
        "}\n"
    )


FILES = {
    "Cargo.toml": '[package]\nname = "tool"\n',
    "src/main.rs": (
        "mod account;\n"
        "fn main() {\n"
        "    let cmd = account::Cmd { command: account::Commands::Logout };\n"
        '    cmd.run("x").unwrap();\n'
        "}\n"
    ),
    "src/account.rs": ACCOUNT,
    "src/account/login.rs": command("login", "login needs settings"),
    "src/account/register.rs": command("register", "register needs settings"),
    "src/other.rs": command("other", "other needs settings"),  # a third `Cmd::run`
}


def dispatching(arms: str) -> str:
    """`account.rs` with a `dispatch` fn whose `match &self.command` has `arms` and a `_`."""
    return ACCOUNT.replace(
        "impl Cmd {\n",
        "impl Cmd {\n"
        "    pub fn dispatch(&self, settings: &str) -> anyhow::Result<()> {\n"
        "        match &self.command {\n"
        f"{arms}"
        "            _ => Ok(()),\n"
        "        }\n"
        "    }\n",
    )


def matching_login_above(enum: str) -> str:
    """`main.rs` whose `main` matches `account::Commands::Login` inside its own `enum`'s
    `Account` arm and only there calls `cmd.dispatch(..)`."""
    return (
        "mod account;\n"
        "#[derive(clap::Subcommand)]\n"
        f"enum {enum} {{\n    Account(account::Cmd),\n}}\n"
        "fn main() {\n"
        f"    let top: {enum} = parse();\n"
        "    match top {\n"
        f"        {enum}::Account(cmd) => match cmd.command {{\n"
        '            account::Commands::Login(ref login) => cmd.dispatch("x").unwrap(),\n'
        "            _ => {}\n"
        "        },\n"
        "    }\n"
        "}\n"
    )


def calls_from(graph: CallGraph, path: str) -> list[tuple[int, str, str]]:
    """What the one fn of the file `path` calls: (line, callee's file, resolution)."""
    (caller,) = [i for i, n in enumerate(graph.nodes) if n.path == path]
    return sorted(
        (e.line, graph.nodes[callee].path, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == caller
    )


def test_an_arm_s_binding_runs_the_method_of_the_type_its_variant_holds(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    assert calls_from(graph, "src/account.rs") == [
        (18, "src/account/login.rs", "type"),
        (20, "src/account/register.rs", "type"),
    ]
    (login,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/account/login.rs"]
    assert [
        (p.entry, p.entry_label, [(h.name, h.call_line, h.resolution) for h in p.hops])
        for p in caller_paths(graph, login)
    ] == [
        # the arm is the subcommand's dispatch: the user's way in is `login`
        ("cli", "subcommand `login` (`Commands::Login`)", [
            ("account::Cmd::run", 18, None),
            ("login::Cmd::run", None, "type"),
        ]),
    ]  # fmt: skip


MERGE = """\
pub struct Buckets;
pub struct Metrics;
impl Buckets {
    pub fn merge_fruits(&mut self, other: Buckets) {}
}
impl Metrics {
    pub fn merge_fruits(&mut self, other: Metrics) {}
}
pub enum Fruit {
    Bucket(Buckets),
    Metric(Metrics),
}
impl Fruit {
    pub fn merge_fruits(&mut self, other: Fruit) {
        match (self, other) {
            (
                Fruit::Bucket(b1),
                Fruit::Bucket(b2),
            ) => b1.merge_fruits(b2),
            (Fruit::Metric(m1), Fruit::Metric(m2)) => m1.merge_fruits(m2),
            _ => panic!("mixed metric and buckets"),
        }
    }
}
"""


def test_each_variant_a_tuple_pattern_binds_runs_its_type_s_method(tmp_path: Path) -> None:
    """tantivy's `match (self, other) { (R::Bucket(b1), R::Bucket(b2)) => b1.merge_fruits(b2),
    .. }`: `b1` holds the `Bucket`'s value, and its `merge_fruits` (whose `_ =>` arms panic
    "try merge on different types") had no caller (reading 301)."""
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "agg"\n', "src/lib.rs": MERGE})
    edges = sorted(
        (graph.nodes[e.caller].label, e.line, graph.nodes[callee].label, e.resolution)
        for callee, es in graph.callers.items()
        for e in es
    )
    assert edges == [
        ("Fruit::merge_fruits", 19, "Buckets::merge_fruits", "type"),
        ("Fruit::merge_fruits", 20, "Metrics::merge_fruits", "type"),
    ]


def test_a_binding_of_a_variant_no_definition_shows_is_not_typed(tmp_path: Path) -> None:
    """`Commands::Logout(cmd)` of a variant the index has no value for: `cmd.run()` is one
    of three `run`s by name, too many to guess: no edge, as before."""
    files = {**FILES, "src/account.rs": ACCOUNT.replace("Login(login::Cmd)", "Login")}
    graph = graph_of(tmp_path, files)
    assert [line for line, _, _ in calls_from(graph, "src/account.rs")] == [20]


def test_self_in_an_enum_s_own_fn_is_the_enum(tmp_path: Path) -> None:
    """`impl Commands { fn run(self) { match self { Self::Login(cmd) => cmd.run(..) } } }`:
    the binding holds `Login`'s value, and the arm dispatches the subcommand `login`."""
    own = (
        ACCOUNT.replace("impl Cmd {", "impl Commands {")
        .replace("match self.command {", "match self {")
        .replace("Commands::Login(cmd)", "Self::Login(cmd)")
        .replace("Commands::Register(cmd)", "Self::Register(cmd)")
    )
    graph = graph_of(tmp_path, {**FILES, "src/account.rs": own})
    assert calls_from(graph, "src/account.rs") == [
        (18, "src/account/login.rs", "type"),
        (20, "src/account/register.rs", "type"),
    ]
    (register,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/account/register.rs"]
    best = caller_paths(graph, register)[0]
    assert (best.entry, best.entry_label) == (
        "cli",
        "subcommand `register` (`Commands::Register`)",
    )


def top_level(*, flattened: bool = False) -> str:
    """`src/main.rs`: a subcommand enum whose `Account` variant holds `account::Cmd`, and its
    dispatch (`#[command(flatten)]` on the variant when `flattened`)."""
    flatten = "    #[command(flatten)]\n" if flattened else ""
    return (
        "mod account;\n"
        "#[derive(clap::Subcommand)]\n"
        f"enum Top {{\n{flatten}    Account(account::Cmd),\n}}\n"
        "impl Top {\n"
        "    fn run(self) -> anyhow::Result<()> {\n"
        "        match self {\n"
        '            Self::Account(cmd) => cmd.run("x"),\n'
        "        }\n"
        "    }\n"
        "}\n"
        "fn main() {\n    let top: Top = parse();\n    top.run().unwrap();\n}\n"
    )


def test_a_subcommand_dispatched_under_another_is_named_after_both(tmp_path: Path) -> None:
    """atuin's `scripts new`: the client's dispatch runs `scripts::Cmd::run` from its arm
    `Cmd::Scripts`, which runs `new` from its own. The user types both."""
    top = top_level()
    graph = graph_of(tmp_path, {**FILES, "src/main.rs": top})
    (login,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/account/login.rs"]
    best = caller_paths(graph, login)[0]
    assert (best.entry, best.entry_label, [h.name for h in best.hops]) == (
        "cli",
        "subcommand `account login` (`Commands::Login`)",
        ["account::Cmd::run", "login::Cmd::run"],
    )


def test_a_flattened_variant_adds_no_subcommand(tmp_path: Path) -> None:
    """uv's `#[command(flatten)] Project(Box<ProjectCommand>)`: `ProjectCommand::Add` is
    `uv add`, not `uv project add`."""
    top = top_level(flattened=True)
    graph = graph_of(tmp_path, {**FILES, "src/main.rs": top})
    (login,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/account/login.rs"]
    assert caller_paths(graph, login)[0].entry_label == "subcommand `login` (`Commands::Login`)"


def test_a_dispatch_split_in_two_fns_keeps_the_commands_above_it(tmp_path: Path) -> None:
    """`Self::Account(cmd) => cmd.run(..)` runs `account::Cmd::run`, which only calls
    `run_inner`, whose arms dispatch `login`: still `account login`."""
    top = top_level()
    split = ACCOUNT.replace(
        "    pub fn run(self, settings: &str) -> anyhow::Result<()> {\n        match",
        "    pub fn run(self, settings: &str) -> anyhow::Result<()> {\n"
        "        self.run_inner(settings)\n    }\n"
        "    fn run_inner(self, settings: &str) -> anyhow::Result<()> {\n        match",
    )
    graph = graph_of(tmp_path, {**FILES, "src/main.rs": top, "src/account.rs": split})
    (login,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/account/login.rs"]
    best = caller_paths(graph, login)[0]
    assert (best.entry_label, [h.name for h in best.hops]) == (
        "subcommand `account login` (`Commands::Login`)",
        ["Cmd::run_inner", "Cmd::run"],
    )


def test_a_subcommand_matched_above_and_again_in_the_fn_it_runs_is_said_once(
    tmp_path: Path,
) -> None:
    """greptimedb's `start` matches `datanode::SubCommand::Start` inside its `Datanode` arm
    and calls `cmd.build_with(..)`, whose own `match` on the same `Start` runs the
    datanode: its errors read "subcommand `datanode start start`" (reading 230, FALSE)."""
    account = dispatching("            Commands::Login(cmd) => login::check(settings),\n")
    top = matching_login_above("Top")
    login = command("login", "empty settings") + (
        "pub fn check(settings: &str) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(!settings.is_empty(), "no settings");\n'
        "    Ok(())\n}\n"
    )
    graph = graph_of(
        tmp_path,
        {**FILES, "src/main.rs": top, "src/account.rs": account, "src/account/login.rs": login},
    )
    (check,) = [i for i, n in enumerate(graph.nodes) if n.definition.name == "check"]
    best = caller_paths(graph, check)[0]
    assert best.entry_label == "subcommand `account login` (`Commands::Login`)"


def test_an_arm_of_another_variant_of_the_enum_matched_above_is_no_way_in(
    tmp_path: Path,
) -> None:
    """greptimedb's `start` calls `cmd.build_with(..)` only in its `SubCommand::Start` arm,
    and `build_with` matches the same `SubCommand` again, running the scan benchmark in its
    `Scanbench` arm: that arm never runs when `start` calls it (the value is `Start`), yet
    the benchmark's errors read "subcommand `datanode start scanbench`" (reading 321). The
    `Login` arm is the one the value above can take; the `Register` arm is dead on that path.
    A variant of another enum of the same name (the top level's `Top::Account`) is no
    conflict: only an enum that has both variants is the same one."""
    account = dispatching(
        "            Commands::Login(cmd) => login::check(settings),\n"
        "            Commands::Register(cmd) => register::check(settings),\n"
    )
    top = matching_login_above("Commands")

    def checked(name: str) -> str:
        return command(name, "empty settings") + (
            "pub fn check(settings: &str) -> anyhow::Result<()> {\n"
            f'    anyhow::ensure!(!settings.is_empty(), "no {name} settings");\n'
            "    Ok(())\n}\n"
        )

    graph = graph_of(
        tmp_path,
        {
            **FILES,
            "src/main.rs": top,
            "src/account.rs": account,
            "src/account/login.rs": checked("login"),
            "src/account/register.rs": checked("register"),
        },
    )
    login, register = (
        next(
            i for i, n in enumerate(graph.nodes) if n.path == path and n.definition.name == "check"
        )
        for path in ("src/account/login.rs", "src/account/register.rs")
    )
    assert [p.entry_label for p in caller_paths(graph, login)] == [
        "subcommand `account login` (`Commands::Login`)"
    ]
    assert [(p.entry_label, [h.name for h in p.hops]) for p in caller_paths(graph, register)] == []
