"""An example's code runs only in that example's program. A library that dispatches on a
`dyn` value (mdBook's `preprocess_book` runs `pre.run(..)` on each `dyn Preprocessor`) runs
an example's impl only where that example made the value: mdBook's nop-preprocessor
example's `Nop::run` read "reached from `mdbook build`", a program that never holds a `Nop`
(reading 309, 2 F). A walk that enters an example's code from outside it needs a caller in
that example above (`buildable.program_needs`); another program's code, and an entry point
of the library or of another program, are no way in for it."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.core.reach import reach_from_json

FILES = {
    "Cargo.toml": '[package]\nname = "book"\n',
    "src/lib.rs": (
        "pub trait Preprocessor {\n    fn run(&self) -> anyhow::Result<()>;\n}\n"
        "pub struct Links;\n"
        "impl Preprocessor for Links {\n"
        "    fn run(&self) -> anyhow::Result<()> {\n        Ok(())\n    }\n}\n"
        "pub fn preprocess(pre: &dyn Preprocessor) -> anyhow::Result<()> {\n    pre.run()\n}\n"
        "pub fn build() -> anyhow::Result<()> {\n    preprocess(&Links)\n}\n"
    ),
    "src/main.rs": "fn main() {\n    book::build().unwrap();\n}\n",
    "examples/nop.rs": (
        "use book::Preprocessor;\n"
        "struct Nop;\n"
        "impl Preprocessor for Nop {\n"
        "    fn run(&self) -> anyhow::Result<()> {\n"
        '        anyhow::bail!("Boom!!1!")\n    }\n}\n'
        "fn main() {\n    book::preprocess(&Nop).unwrap();\n}\n"
    ),
}


def test_an_example_s_impl_is_reached_from_that_example_alone(tmp_path: Path) -> None:
    _, record = committed_and_extracted(FILES, "o/book", tmp_path, "Boom!!1!")
    rows = json.loads((tmp_path / "out" / "o" / "book" / "reach.json").read_text())["records"]
    paths = reach_from_json(rows[record["id"]]).paths
    assert [(p.entry, p.entry_label, [h.name for h in p.hops]) for p in paths] == [
        ("example", "example `nop` (fn main)", ["main", "preprocess", "Nop::run"]),
    ]  # not `book` (fn main) through `build`, nor the library's `build` as its public API
    assert "`book` (fn main)" not in record["triggerScenarios"]
