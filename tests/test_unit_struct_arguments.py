"""A unit struct passed as a value says which impl a generic fn's call runs: qdrant's
`load_segment` calls `StorageVersion::load_universal(&MmapFs, path)`, whose `read_whole_via(fs,
..)` opens `fs.open(..)`: `MmapFs::open`, not the disk cache's (one of this stop's sampled
paths went through `DiskCacheFs::open`: an argument that is no parameter nor `let` had
dropped what the type needs)."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, paths_of

SOURCE = """\
pub trait Fs { fn open(&self) -> anyhow::Result<u32>; }
pub struct MmapFs;
pub struct DiskFs;
impl Fs for MmapFs { fn open(&self) -> anyhow::Result<u32> { anyhow::bail!("mmap failed") } }
impl Fs for DiskFs { fn open(&self) -> anyhow::Result<u32> { anyhow::bail!("disk not ready") } }
fn read_via<F: Fs>(fs: &F) -> anyhow::Result<u32> { fs.open() }
fn load_universal<F: Fs>(fs: &F) -> anyhow::Result<u32> { read_via(fs) }
pub fn load_mmap() -> anyhow::Result<u32> { load_universal(&MmapFs) }
pub fn load_disk() -> anyhow::Result<u32> { load_universal(&DiskFs) }
"""


def test_a_unit_struct_argument_picks_the_impl_a_generic_call_runs(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fs"\n', "src/lib.rs": SOURCE})
    tops = {label: {p[2][0][0] for p in paths_of(graph, label)} for label in
            ("DiskFs::open", "MmapFs::open")}  # fmt: skip
    assert tops == {"DiskFs::open": {"load_disk"}, "MmapFs::open": {"load_mmap"}}


def test_a_struct_literal_argument_picks_the_impl_too(tmp_path: Path) -> None:
    """zoxide's `import::run(&import::ZLua {}, &mut db)` among six importers: `run(importer:
    &impl Importer)` calls `importer.dirs()`, and the path to `ZLua::dirs` goes through the
    `ZLua` arm, not the first arm's `Atuin` (paths reading 120, 4 wrong edges)."""
    source = (
        SOURCE.replace("pub struct MmapFs;", "pub struct MmapFs { pub size: u32 }")
        .replace("fn read_via<F: Fs>(fs: &F)", "fn read_via(fs: &impl Fs)")
        .replace("load_universal(&MmapFs)", "load_universal(&fs::MmapFs { size: 1 })")
        .replace("load_universal(&DiskFs)", "load_universal(&DiskFs {})")
    )
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fs"\n', "src/lib.rs": source})
    tops = {label: {p[2][0][0] for p in paths_of(graph, label)} for label in
            ("DiskFs::open", "MmapFs::open")}  # fmt: skip
    assert tops == {"DiskFs::open": {"load_disk"}, "MmapFs::open": {"load_mmap"}}
