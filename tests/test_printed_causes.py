"""A program that prints an error with its causes needs no advice to print it so: mdBook's
`main` hands an error to `log_backtrace`, which writes each cause on a `Caused by:` line,
and 13 of 20 records told its users to "print the error with `{:#}`" (reading 309). The
index marks a fn that prints causes (`e.chain()`, `{e:#}`, `.as_report()`, a `fn main`
returning anyhow's `Result`); a returned error whose best path starts in a program whose
`main` (or a fn it calls, two calls deep) does is said to be printed so (`Reach.printed_by`)."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

MAIN = """\
use anyhow::Context;

fn main() {
    if let Err(e) = run() {
        report(&e);
        std::process::exit(1);
    }
}

fn report(e: &anyhow::Error) {
    log_backtrace(e);
}

fn log_backtrace(e: &anyhow::Error) {
    for cause in e.chain() {
        eprintln!("Caused by: {cause}");
    }
}

fn run() -> anyhow::Result<()> {
    std::fs::read("book.toml").context("failed to read the book")?;
    Ok(())
}
"""


def test_a_program_that_prints_causes_gets_no_advice_to_print_them(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "book"\n', "src/main.rs": MAIN}
    _, record = committed_and_extracted(files, "o/book", tmp_path / "a", "failed to read")
    said = " ".join(record["solutions"])
    assert "Seeing this message alone" not in said
    assert "`{:#}`" not in said  # how anyhow's formats differ: nothing for this reader to do
    assert (
        "The program's `main` (src/main.rs:3) prints the error with its causes (the error "
        "that failed, if there was one, is kept as this one's cause; a `.context()` on an "
        "`Option` that was `None` keeps none): read the causes it prints with this message "
        "(on the lines under it, or after it on the same line, each after a colon); the last "
        "one is where it began."
    ) in record["solutions"]
    assert not any(t.startswith("Log an error whole") for t in record["preventionTips"])


def test_a_program_that_prints_the_message_alone_keeps_the_advice(tmp_path: Path) -> None:
    plain = MAIN.replace('eprintln!("Caused by: {cause}")', 'eprintln!("{cause}")').replace(
        "for cause in e.chain() {", "for cause in [e] {"
    )
    files = {"Cargo.toml": '[package]\nname = "book"\n', "src/main.rs": plain}
    _, record = committed_and_extracted(files, "o/book", tmp_path / "b", "failed to read")
    assert any("Seeing this message alone" in s for s in record["solutions"])


EXAMPLE = """\
use book::Command;
struct Nop;
impl Command for Nop {
    fn name(&self) -> &str {
        "nop-preprocessor"
    }
    fn run(&self) -> anyhow::Result<()> {
        std::fs::read("blow-up").map(|_| ()).context("expect bool for blow-up")
    }
}
fn main() {
    if let Err(e) = book::handle(&Nop) {
        eprintln!("{e}");
    }
}
"""
LIB = """\
pub trait Command {
    fn name(&self) -> &str;
    fn run(&self) -> anyhow::Result<()>;
}
pub fn handle(command: &dyn Command) -> anyhow::Result<()> {
    command.run()
}
"""


def test_an_example_s_own_command_is_printed_by_that_example_not_the_binary(
    tmp_path: Path,
) -> None:
    """mdBook's nop-preprocessor example names itself (`fn name(&self) -> &str`): a command
    of that example's, whose errors its own `main` prints, not mdbook's `main` (which walks
    `e.chain()`): reading 309's last recheck, 2 F."""
    files = {
        "Cargo.toml": '[package]\nname = "book"\n',
        "src/lib.rs": LIB,
        "src/main.rs": MAIN.replace(
            "use anyhow::Context;\n", "use anyhow::Context;\nuse book::Command;\n"
        ),
        "examples/nop.rs": EXAMPLE.replace(
            "use book::Command;", "use anyhow::Context;\nuse book::Command;"
        ),
    }
    _, record = committed_and_extracted(files, "o/book", tmp_path / "c", "expect bool")
    assert "src/main.rs" not in " ".join(record["solutions"])


def test_where_logging_it_whole_was_the_only_tip_the_tip_says_what_the_causes_are_for(
    tmp_path: Path,
) -> None:
    # fd's `main` prints `{err:#}`; 12 of its 24 records kept "Log an error whole" as their
    # one tip, advice to a program that already does (reading 325)
    dropped = MAIN.replace(
        'std::fs::read("book.toml").context("failed to read the book")?;',
        'overrides().map_err(|_| anyhow::anyhow!("Mismatch in exclude patterns"))?;',
    ).replace("fn run()", "fn overrides() -> Result<(), String> {\n    Ok(())\n}\n\nfn run()")
    files = {"Cargo.toml": '[package]\nname = "book"\n', "src/main.rs": dropped}
    _, record = committed_and_extracted(files, "o/book", tmp_path / "c", "Mismatch")
    assert record["preventionTips"] == [
        "The program's `main` (src/main.rs:3) prints this error with its causes: what the last "
        "of them names (a file, a value, a service) is what to set right before the next run."
    ]
