"""pipeline.source.repository against real git repositories built in tmp_path (SPEC section 2)."""

from __future__ import annotations

import logging
import os
import pickle
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from gitrepo import GitRepo, git

from pipeline.source.globs import compile_filter
from pipeline.source.repository import (
    BlobReader,
    Listing,
    Skipped,
    SourceError,
    TreeEntry,
    list_files,
    open_source,
    resolve_commit,
    validate_repo_name,
)

REPO = "acme/widgets"
LIB = 'pub fn f() -> anyhow::Result<()> { anyhow::bail!("boom") }\n'


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    r.commit({"src/lib.rs": LIB, "README.md": "hi\n"}, message="first")
    return r


# --- names and sources ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("risingwavelabs/risingwave", True),
        ("a/b.c_d-e", True),
        ("owner", False),
        ("a/b/c", False),
        ("-a/b", False),
        ("a/..", False),
        ("a/b.git", False),
        ("a/b c", False),
        ("", False),
    ],
)
def test_validate_repo_name(name: str, ok: bool) -> None:
    if ok:
        assert validate_repo_name(name) == name
    else:
        with pytest.raises(SourceError, match="owner/name"):
            validate_repo_name(name)


def test_nonexistent_source_is_a_clear_error(tmp_path: Path, cache: Path) -> None:
    with pytest.raises(SourceError, match="does not exist; pass a local clone or a git URL"):
        open_source(REPO, str(tmp_path / "nope"), cache)


def test_a_directory_that_is_not_a_repository(tmp_path: Path, cache: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(SourceError, match="is not a git repository"):
        open_source(REPO, str(tmp_path / "plain"), cache)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("ext::sh -c touch% {marker}", "remote helper"),
        ("ext::sh -c 'touch {marker}'", "remote helper"),
        ("fd::3", "remote helper"),
        ("gopher://example.invalid/x.git", "transport 'gopher'"),
        ("ssh://-oProxyCommand=touch%20{marker}/x", "host starting with '-'"),
        ("ssh://git@-oProxyCommand=touch%20{marker}/x", "host starting with '-'"),
        ("-oProxyCommand=touch%20{marker}@host:x", "not a path or URL"),
        ("-oProxyCommand=touch {marker}:x", "not a path or URL"),
        ("--upload-pack=touch {marker}", "not a path or URL"),
        ("-", "not a path or URL"),
    ],
)
def test_refused_sources_run_nothing(
    tmp_path: Path, cache: Path, source: str, message: str
) -> None:
    marker = tmp_path / "pwned"
    with pytest.raises(SourceError, match=message):
        open_source(REPO, source.format(marker=marker), cache)
    assert not marker.exists()
    assert not (cache / "repos").exists()


# --- reading a local source ------------------------------------------------------------------


def test_resolve_short_sha_tag_branch_and_full_sha(repo: GitRepo, cache: Path) -> None:
    first = repo.head()
    repo.tag("v1")
    repo.tag("v1-annotated", annotated=True)
    repo.branch("stable")
    second = repo.commit({"src/more.rs": "fn g() {}\n"}, message="second")
    git_dir = open_source(REPO, str(repo.path), cache)
    table = {
        first[:7]: first,
        first: first,
        "v1": first,
        "v1-annotated": first,  # an annotated tag peels to its commit
        "stable": first,
        "refs/heads/stable": first,
        "main": second,
        "HEAD": second,
        "HEAD~1": first,
    }
    assert {rev: resolve_commit(git_dir, rev) for rev in table} == table


@pytest.mark.parametrize("rev", ["deadbeef", "no-such-branch", "HEAD:src/lib.rs"])
def test_unknown_sha_is_a_clear_error(repo: GitRepo, cache: Path, rev: str) -> None:
    git_dir = open_source(REPO, str(repo.path), cache)
    with pytest.raises(SourceError, match=f"^SHA '{rev}' is not a commit in ") as info:
        resolve_commit(git_dir, rev)
    message = str(info.value)
    assert f" in {repo.git_dir}: " in message  # names the user's SOURCE, not our shim
    assert message.endswith("pass a commit sha, tag or branch that exists there")
    assert "\n" not in message


@pytest.mark.parametrize("rev", ["", "-h", "--all", "HEAD..main", "a b", "main\n", "x\x00y"])
def test_option_like_or_range_revs_are_refused(repo: GitRepo, cache: Path, rev: str) -> None:
    git_dir = open_source(REPO, str(repo.path), cache)
    with pytest.raises(SourceError, match="not a valid revision"):
        resolve_commit(git_dir, rev)


def test_bare_mirror_without_config_file(repo: GitRepo, tmp_path: Path, cache: Path) -> None:
    bare = repo.bare_copy(tmp_path / "mirror.git")
    for child in bare.iterdir():  # keep only what the risingwave mirror has
        if child.name not in ("HEAD", "objects", "refs", "packed-refs"):
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    assert sorted(p.name for p in bare.iterdir()) == ["HEAD", "objects", "packed-refs", "refs"]
    git_dir = open_source(REPO, str(bare), cache)
    sha = resolve_commit(git_dir, "main")
    assert sha == repo.head()
    listing = list_files(git_dir, sha)
    assert listing == Listing((TreeEntry("src/lib.rs", repo.blob_sha("src/lib.rs"), len(LIB)),), ())
    with BlobReader(git_dir) as reader:
        assert reader.read(listing.entries[0].blob_sha) == LIB.encode()


def test_linked_worktree_is_a_source(repo: GitRepo, tmp_path: Path, cache: Path) -> None:
    repo.git("worktree", "add", "-q", "-b", "side", str(tmp_path / "wt"))
    git_dir = open_source(REPO, str(tmp_path / "wt"), cache)
    assert resolve_commit(git_dir, "HEAD") == repo.head()
    assert resolve_commit(git_dir, "side") == repo.head()


def test_symlinks_and_submodules_are_skipped_never_read(repo: GitRepo, cache: Path) -> None:
    os.symlink("/etc/passwd", repo.path / "src" / "evil.rs")
    os.symlink("../../outside.rs", repo.path / "src" / "up.rs")
    repo.git("add", "src")
    repo.add_gitlink("vendor/sub", repo.head())
    sha = repo.commit(message="hostile", stage_all=False)
    git_dir = open_source(REPO, str(repo.path), cache)
    listing = list_files(git_dir, sha)
    assert [e.path for e in listing.entries] == ["src/lib.rs"]
    assert set(listing.skipped) == {
        Skipped("src/evil.rs", "symlink"),
        Skipped("src/up.rs", "symlink"),
        Skipped("vendor/sub", "submodule"),
    }


def test_files_over_the_size_cap_are_skipped(repo: GitRepo, cache: Path) -> None:
    sha = repo.commit({"a.rs": "x" * 10, "b.rs": "x" * 11, "c.txt": "x" * 100})
    git_dir = open_source(REPO, str(repo.path), cache)
    listing = list_files(git_dir, sha, max_bytes=10)
    assert [(e.path, e.size) for e in listing.entries] == [("a.rs", 10)]
    assert set(listing.skipped) == {
        Skipped("b.rs", "too-large"),
        Skipped("src/lib.rs", "too-large"),
    }


def test_suffix_selects_other_languages(repo: GitRepo, cache: Path) -> None:
    git_dir = open_source(REPO, str(repo.path), cache)
    listing = list_files(git_dir, repo.head(), suffixes=(".md",))
    assert [e.path for e in listing.entries] == ["README.md"]


def test_missing_blob_reads_as_none(repo: GitRepo, cache: Path) -> None:
    sha = repo.commit({"gone.rs": "fn gone() {}\n", "kept.rs": "fn kept() {}\n"})
    gone, kept = repo.blob_sha("gone.rs"), repo.blob_sha("kept.rs")
    repo.delete_loose_object(gone)
    git_dir = open_source(REPO, str(repo.path), cache)
    listing = list_files(git_dir, sha)
    assert Skipped("gone.rs", "missing-blob") in listing.skipped
    assert "gone.rs" not in [e.path for e in listing.entries]
    with BlobReader(git_dir) as reader:
        assert reader.read(gone) is None
        assert reader.read(kept) == b"fn kept() {}\n"  # the process survived the miss
        assert reader.read("0" * 40) is None
        assert reader.read(sha) is None  # a commit is no blob


def test_partial_clone_never_fetches_and_never_dies(
    repo: GitRepo, tmp_path: Path, cache: Path
) -> None:
    sha = repo.commit({"tiny.rs": "fn\n", "big.rs": "fn big() {}\n"})
    partial = repo.partial_clone(tmp_path / "partial.git", "blob:limit=5")
    # git itself would run the promisor remote to fetch a missing blob, or die when it cannot.
    marker = tmp_path / "fetched"
    git(partial, "config", "remote.origin.url", f"ext::sh -c touch% {marker}")
    git_dir = open_source(REPO, str(partial), cache)
    listing = list_files(git_dir, sha)
    assert [e.path for e in listing.entries] == ["tiny.rs"]
    assert set(listing.skipped) == {
        Skipped("big.rs", "missing-blob"),
        Skipped("src/lib.rs", "missing-blob"),
    }
    with BlobReader(git_dir) as reader:
        assert reader.read(repo.blob_sha("big.rs")) is None
        assert reader.read(listing.entries[0].blob_sha) == b"fn\n"
    assert not marker.exists()


def test_blob_reader_refuses_anything_but_a_full_id(repo: GitRepo, cache: Path) -> None:
    git_dir = open_source(REPO, str(repo.path), cache)
    with BlobReader(git_dir) as reader, pytest.raises(ValueError, match="not a full blob id"):
        reader.read("HEAD:src/lib.rs")


def test_blob_reader_pickles_into_worker_processes(repo: GitRepo, cache: Path) -> None:
    git_dir = open_source(REPO, str(repo.path), cache)
    blob = repo.blob_sha("src/lib.rs")
    reader = BlobReader(git_dir)
    assert reader.read(blob) == LIB.encode()  # a running process must not stop pickling
    assert pickle.loads(pickle.dumps(reader)).read(blob) == LIB.encode()
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(reader.read, [blob, blob])) == [LIB.encode()] * 2
    reader.close()


# --- include / exclude -----------------------------------------------------------------------


GLOBS = [
    # path, include, exclude, selected
    ("src/meta/a.rs", ["src/meta/**"], [], True),
    ("src/meta/x/y/a.rs", ["src/meta/**"], [], True),
    ("src/metadata/a.rs", ["src/meta/**"], [], False),
    ("src/meta/a.rs", ["src/meta"], [], True),
    ("src/meta/a.rs", ["src/meta/"], [], True),
    ("src/meta/a.rs", ["src/*/a.rs"], [], True),
    ("src/meta/x/a.rs", ["src/*/a.rs"], [], False),
    ("src/meta/x/a.rs", ["src/**/a.rs"], [], True),
    ("src/a.rs", ["src/**/a.rs"], [], True),
    ("a.rs", ["*.rs"], [], True),
    ("deep/er/a.rs", ["*.rs"], [], True),
    ("deep/er/a.rs", ["/*.rs"], [], False),
    ("x/tests/t.rs", [], ["tests"], False),
    ("x/tests_util/t.rs", [], ["tests"], True),
    ("src/a_test.rs", [], ["*_test.rs"], False),
    ("src/a.rs", [], [], True),
    ("src/a.rs", ["", " "], [], True),
    ("src/a.rs", ["lib/**", "src/**"], ["src/b.rs"], True),
    ("src/b.rs", ["lib/**", "src/**"], ["src/b.rs"], False),
    ("src/a1.rs", ["src/a?.rs"], [], True),
    ("src/a/.rs", ["src/a?.rs"], [], False),
    ("src/ab.rs", ["src/a[bc].rs"], [], True),
    ("src/ad.rs", ["src/a[!bc].rs"], [], True),
    ("src/ab.rs", ["src/a[!bc].rs"], [], False),
    ("src/a.rs", ["src/(a|b).rs"], [], False),  # regex syntax is literal text
    ("src/(a|b).rs", ["src/(a|b).rs"], [], True),
]


@pytest.mark.parametrize(("path", "include", "exclude", "selected"), GLOBS)
def test_glob_table(path: str, include: list[str], exclude: list[str], selected: bool) -> None:
    assert compile_filter(include, exclude)(path) is selected


def test_list_files_applies_globs(repo: GitRepo, cache: Path) -> None:
    sha = repo.commit(
        {
            "src/meta/a.rs": "",
            "src/meta/deep/b.rs": "",
            "src/meta/tests/t.rs": "",
            "src/batch/c.rs": "",
        }
    )
    git_dir = open_source(REPO, str(repo.path), cache)
    listing = list_files(git_dir, sha, include=["src/meta/**"], exclude=["tests"])
    assert [e.path for e in listing.entries] == ["src/meta/a.rs", "src/meta/deep/b.rs"]


# --- URL sources and the cache ---------------------------------------------------------------


def test_file_url_is_cloned_once_then_fetched(
    repo: GitRepo, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"file://{repo.path}"
    first = open_source(REPO, url, cache)
    assert first.parent == cache / "repos" and first.name.startswith("acme+widgets-")
    assert not (first / "src").exists()  # bare: no work tree
    assert resolve_commit(first, "main") == repo.head()
    inode = first.stat().st_ino
    newer = repo.commit({"src/new.rs": "fn n() {}\n"})
    repo.tag("v2")
    second = open_source(REPO, url, cache)
    assert second == first and second.stat().st_ino == inode  # reused, not cloned again
    assert resolve_commit(second, "main") == newer  # ... and fetched
    assert resolve_commit(second, "v2") == newer
    shutil.rmtree(repo.path)  # the origin is gone: warn and go on offline
    with caplog.at_level(logging.WARNING, logger="pipeline.source.repository"):
        third = open_source(REPO, url, cache)
    assert third == first and resolve_commit(third, "main") == newer
    assert "going on with the cached copy" in caplog.text


def test_unreachable_url_is_a_clear_error(tmp_path: Path, cache: Path) -> None:
    with pytest.raises(SourceError, match=r"^could not clone file://.*check the URL"):
        open_source(REPO, f"file://{tmp_path}/missing.git", cache)
    assert list((cache / "repos").iterdir()) == []  # no half clone left behind


def test_credentials_in_a_url_never_reach_the_message(cache: Path) -> None:
    # 127.0.0.1:9 refuses at once; nothing leaves the machine.
    with pytest.raises(
        SourceError, match=r"could not clone https://\[redacted\]@127\.0\.0\.1"
    ) as info:
        open_source(REPO, "https://user:s3cret@127.0.0.1:9/x.git", cache)
    assert "s3cret" not in str(info.value)
    assert "\n" not in str(info.value)


HOOKS = [
    "post-checkout",
    "reference-transaction",
    "post-update",
    "pre-auto-gc",
    "post-merge",
    "pre-push",
    "fsmonitor-watchman",
]


@pytest.mark.parametrize("as_url", [False, True])
def test_hooks_and_hostile_config_never_run(
    repo: GitRepo, tmp_path: Path, cache: Path, as_url: bool
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    hooks = repo.git_dir / "hooks"
    for name in HOOKS:
        (hooks / name).write_text(f"#!/bin/sh\ntouch {markers}/{name}\n")
        (hooks / name).chmod(0o755)
    hostile = {
        "core.hooksPath": str(hooks),
        "core.fsmonitor": f"touch {markers}/fsmonitor",
        "core.pager": f"touch {markers}/pager",
        "log.showSignature": "true",
        "gpg.program": f"{markers}/../gpg",
        "uploadpack.packObjectsHook": f"touch {markers}/packobjects",
        "core.alternateRefsCommand": f"touch {markers}/altrefs",
    }
    (tmp_path / "gpg").write_text(f"#!/bin/sh\ntouch {markers}/gpg\n")
    (tmp_path / "gpg").chmod(0o755)
    for key, value in hostile.items():
        repo.git("config", key, value)
    repo.tag("v1", annotated=True)
    source = f"file://{repo.path}" if as_url else str(repo.path)
    for _ in range(2):  # the second open fetches into the cached copy
        git_dir = open_source(REPO, source, cache)
        sha = resolve_commit(git_dir, "v1")
        listing = list_files(git_dir, sha)
        with BlobReader(git_dir) as reader:
            assert reader.read(listing.entries[0].blob_sha) == LIB.encode()
    assert sorted(p.name for p in markers.iterdir()) == []
    # the test's own hooks are live: running them by hand does leave a marker
    git(repo.path, "-c", f"core.hooksPath={hooks}", "commit", "-q", "--allow-empty", "-m", "x")
    assert (markers / "reference-transaction").exists()
