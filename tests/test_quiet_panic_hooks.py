"""A program that replaces Rust's panic hook with one that prints no backtrace makes
`RUST_BACKTRACE=1` useless: meilisearch's `on_panic` logs the message and its place, and
five of its records told users to report the backtrace (reading 311). The hook counts where
a fn of the panic's best path installs it before calling on down the path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted, extracted_reach

MAIN = """\
fn on_panic(info: &std::panic::PanicHookInfo) {
    let info = info.to_string().replace('\\n', " ");
    eprintln!("{info}");
}

fn main() {
    try_main();
}

fn try_main() {
    std::panic::set_hook(Box::new(on_panic));
    run(std::env::args().count());
}

fn run(n: usize) {
    if n > 3 {
        unreachable!("too many arguments slipped through");
    }
}
"""


def _extracted(tmp_path: Path, source: str) -> tuple[dict[str, Any], dict[str, Any]]:
    files = {"Cargo.toml": '[package]\nname = "srv"\n', "src/main.rs": source}
    _, record = committed_and_extracted(files, "o/srv", tmp_path, "too many arguments")
    return record, extracted_reach(tmp_path, record)


def test_a_hook_that_prints_no_backtrace_makes_the_advice_say_so(tmp_path: Path) -> None:
    record, reach = _extracted(tmp_path, MAIN)
    assert reach["quiet_hook"] == "`on_panic` (src/main.rs:1)"
    assert record["solutions"][-1] == (
        "This program replaces Rust's panic hook with `on_panic` (src/main.rs:1), which names "
        "no backtrace: `RUST_BACKTRACE=1` adds nothing to what it prints, so the message and "
        "the place it names are what there is to report."
    )
    assert not any(
        "the backtrace (`RUST_BACKTRACE=1`) and the version" in s for s in record["solutions"]
    )


def test_a_hook_that_prints_a_backtrace_keeps_the_advice(tmp_path: Path) -> None:
    traced = MAIN.replace(
        'eprintln!("{info}");', 'eprintln!("{info}\\n{}", std::backtrace::Backtrace::capture());'
    )
    record, reach = _extracted(tmp_path, traced)
    assert "quiet_hook" not in reach
    assert any("RUST_BACKTRACE=1" in s for s in record["solutions"])


def test_a_hook_installed_off_the_path_is_not_this_panic_s(tmp_path: Path) -> None:
    # mdBook's `serve` sets its hook for `mdbook serve` alone
    elsewhere = MAIN.replace(
        "    std::panic::set_hook(Box::new(on_panic));\n    run(std::env::args().count());\n",
        "    run(std::env::args().count());\n    std::panic::set_hook(Box::new(on_panic));\n",
    )
    _, reach = _extracted(tmp_path, elsewhere)
    assert "quiet_hook" not in reach
