"""How Rust code names things, for resolving calls: modules by path, crates, receiver types."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

# Methods of std types that a same-named method of the repository would shadow when the
# receiver's type is unknown: a bare-name match on these is a guess, not a resolution.
_STD_NAMES = (
    "new default clone into from get get_mut insert remove push pop len is_empty iter "
    "iter_mut map and_then unwrap expect collect to_string to_owned as_ref as_mut borrow "
    "lock read write send recv next contains extend join split parse fmt eq cmp hash "
    "drop take replace await filter find first last keys values entry or_insert "
    "with_capacity build run start stop close flush poll call apply handle process "
    "execute update set reset clear load store "
    # Path, str, String, Option, Result, iterators, maps, sync and io (a receiver of unknown type
    # calling one of these is far more often std's than the repository's same-named method)
    "exists is_file is_dir display to_str to_path file_name extension parent canonicalize "
    "starts_with ends_with trim to_lowercase to_uppercase chars bytes lines as_str as_bytes "
    "push_str is_some is_none is_ok is_err ok err ok_or ok_or_else unwrap_or unwrap_or_else "
    "unwrap_or_default map_err as_deref cloned copied rev zip enumerate skip chain flat_map "
    "filter_map any all count sum max min sort sort_by dedup retain truncate drain append "
    "contains_key get_or_insert_with iter_mut into_iter try_into try_from as_slice to_vec "
    "position fold for_each peek nth step_by windows chunks spawn block_on "
    "read_to_string write_all read_exact seek metadata subscribe notify wait "
    # traits of std and of crates nearly every Rust repository uses: anyhow's `Context`,
    # `fmt::Write`, `Any`, atomics, `Weak`, `VecDeque`, prometheus metrics (risingwave: 547
    # `.context("..")` calls resolved by name to `ExecutorBuilder::context`). Not `tick`,
    # `boxed`, `and`: repositories define those for their own types and call them so.
    "context with_context write_str write_fmt flatten downcast downcast_ref downcast_mut "
    "upgrade try_with fetch_add fetch_sub elapsed pop_front push_back push_front pop_back "
    "values_mut inc inc_by dec observe with_label_values "
    # itertools' `Itertools` (ruff: `.collect_vec()` on a `Vec`'s iterator matched by name
    # to `ProjectFilesWalker::collect_vec`)
    "collect_vec try_collect sorted_by sorted_by_key sorted_unstable unique unique_by "
    "dedup_by exactly_one at_most_one tuple_windows chunk_by group_by into_group_map "
    "counts positions interleave cartesian_product multi_cartesian_product "
    # futures' and tokio's poll methods (`self: Pin<&mut Self>`, a method since typed `self`
    # counts: `self.inner.poll_next(cx)` is the wrapped stream's, not any repository's)
    "poll_next poll_ready poll_flush poll_close poll_read poll_write poll_shutdown "
    "start_send poll_recv poll_fn "
    # the conversions of std's strings, their errors and collections (nushell's
    # `err.into_bytes()` on a `FromUtf8Error`, matched by name to its `ByteStream::into_bytes`
    # and `ChildProcess::into_bytes`, reading 282)
    "into_bytes into_string to_string_lossy into_owned into_boxed_slice into_vec "
)
STD_METHODS = frozenset(_STD_NAMES.split())
# The methods of `Option` and `Result` themselves: called on a value the code types as one,
# the holder's, never a method of the type it holds that shares the name
_OPTION_NAMES = (
    "map map_or map_or_else and_then and or or_else xor filter flatten zip unzip inspect "
    "inspect_err is_some is_none is_some_and is_none_or is_ok is_err is_ok_and is_err_and ok "
    "err ok_or ok_or_else map_err unwrap_or unwrap_or_else unwrap_or_default take replace "
    "insert get_or_insert get_or_insert_with transpose iter iter_mut as_deref as_deref_mut "
    "copied cloned"
)
OPTION_METHODS = frozenset(_OPTION_NAMES.split())
# Of those, the ones a type held in one seldom has of its own (not `map`, `iter`, `take`)
_HOLDER_ONLY_NAMES = (
    "map_or map_or_else is_some is_none is_some_and is_none_or is_ok is_err is_ok_and "
    "is_err_and ok_or ok_or_else map_err unwrap_or unwrap_or_else unwrap_or_default "
    "get_or_insert get_or_insert_with transpose as_deref as_deref_mut inspect_err"
)
HOLDER_ONLY_METHODS = frozenset(_HOLDER_ONLY_NAMES.split())
# Adapters of futures, itertools and std that a repository may define a method of the same
# name for (risingwave's `fused`): the value a call of one gives is the adapted one's.
_ADAPTER_NAMES = (
    "fused fuse boxed boxed_local peekable buffered buffer_unordered then or_else map_ok "
    "and_then instrument in_current_span timeout left_stream right_stream sorted "
    "into_boxed_slice or_insert_with or_default try_next"
)
ADAPTERS = frozenset(_ADAPTER_NAMES.split())
# Std types and traits a repository's trait or impl may share a name with by accident (a
# parse gone wrong) or by design (`impl X for HashMap<..>`): never a repository trait, and
# never the type a `let` gets from a call (its values' methods are mostly std's).
_STD_TYPE_NAMES = (
    "Box Vec Arc Rc Option Result String HashMap HashSet BTreeMap BTreeSet Cow RefCell Cell "
    "Mutex RwLock Fn FnMut FnOnce Iterator Future Stream Send Sync Clone Copy Default"
)
STD_TYPES = frozenset(_STD_TYPE_NAMES.split())
# Holders a method call sees through, also written with their path (`tokio::sync::Mutex<T>`,
# `parking_lot::RwLock<T>`, `atomic_refcell::AtomicRefCell<T>`: qdrant's id trackers)
_WRAPPERS = re.compile(
    r"^(?:(?:\w+::)*(?:Arc|Rc|Box|Option|RefCell|AtomicRefCell|Mutex|RwLock|Cow|Pin|ManuallyDrop)"
    r"|&|&mut)\s*<(.*)>$"
)

# `normal: &mut impl DerefMut<Target = ApplyFsm<EK>>` (tikv's pollers): a method call on it
# runs the target's
_DEREFS_TO = re.compile(r"^(?:\w+::)*Deref(?:Mut)?\s*<\s*Target\s*=\s*(.*)>$")


def module_of(path: str) -> str:
    """`src/meta/src/stream/mod.rs` -> `stream`; `src/lib.rs` -> ``."""
    _, found, rest = path.partition("/src/")
    if not found:
        rest = path.removeprefix("src/")
    parts = rest.removesuffix(".rs").split("/")
    if parts and parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return "::".join(parts)


@cache  # pure, and asked of the same few thousand types ~70,000 times a graph
def inner_type(type_text: str) -> str:
    """The type a method is called on: `Arc<Mutex<Foo<T>>>` -> `Foo`, `&mut Foo` -> `Foo`,
    `&'static Foo` -> `Foo`."""
    text = _referenced(" ".join(type_text.split()))
    while True:  # `Box<dyn Sink + Send>`, `Arc<&mut impl Sink>`: the trait, the wrappers off
        if text.startswith("(") and text.endswith(")") and "," not in text and text != "()":
            # `&(impl PluginCommand + ?Sized)` (nushell's `create_plugin_signature` calls
            # every command's `examples()` so, reading 282), `&(dyn Tr + Send)`; not a tuple
            text = _referenced(text[1:-1].strip())
        text = text.removeprefix("dyn ").removeprefix("impl ").strip()
        wrapped = _WRAPPERS.match(text) or _DEREFS_TO.match(text)
        if not wrapped:
            break
        text = _referenced(wrapped[1].strip())
    text = text.split("+", 1)[0].strip()
    text = text.split("<", 1)[0]
    return text.rsplit("::", 1)[-1].strip()


def type_module(type_text: str) -> str:
    """The module a type's path names last: `Box<login::Cmd>` -> `login`; `` for a type
    written without one (`Cmd`, `crate::Cmd`, `Self`)."""
    path = _inside(type_text, inner_type(type_text))
    module = path.rpartition("::")[0].rpartition("::")[2]
    return "" if module in ("crate", "self", "super") else module


def _inside(type_text: str, last: str) -> str:
    """The path of `last` as `type_text` writes it: `Arc<a::b::Foo<T>>` -> `a::b::Foo`."""
    found = re.search(rf"((?:\w+::)*){re.escape(last)}\b", type_text) if last else None
    return found[0] if found else ""


def _referenced(text: str) -> str:
    """`&'a mut Foo` -> `Foo`: a reference's type (ripgrep's `Parser::new() -> &'static
    Parser`)."""
    return _LIFETIME.sub("", text.removeprefix("&")).removeprefix("mut ").strip()


_LIFETIME = re.compile(r"^'\w+\s+")


def crate_name(crate: str) -> str:
    """`crates/cargo-util` -> `cargo_util`: the name a crate's directory suggests."""
    return crate.rsplit("/", 1)[-1].replace("-", "_")


@lru_cache(maxsize=4096)
def generic_parts(text: str) -> tuple[str, tuple[str, ...]]:
    """`Result<Vec<A>, B>` -> ("Result", ("Vec<A>", "B")); spaces inside a type are kept.
    The `>` of an arrow (`Box<dyn Fn() -> T>`) closes nothing."""
    text = re.sub(r"\s+", " ", text).strip()
    if "<" not in text or not text.endswith(">"):
        return text, ()
    name, _, inner = text.partition("<")
    name, inner = name.strip(), inner[:-1]
    args, depth, current = [], 0, ""
    for ch in inner:
        if ch in "<([":
            depth += 1
        elif ch in ">)]" and not (ch == ">" and current.endswith("-")):
            depth -= 1
        if ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        args.append(current.strip())
    return name, tuple(args)


def relative_module(segments: Sequence[str], module: str) -> str:
    """The module a path names, seen from `module`: a `crate::`, `self::` or `super::` path
    as it says, any other as a child of `module` (`builder::Builder` in `task`: `task::
    builder`, edition 2018's paths)."""
    base = [] if segments[0] == "crate" else (module.split("::") if module else [])
    at = 0
    while at < len(segments) and segments[at] in ("crate", "self", "super"):
        if segments[at] == "super" and base:
            base = base[:-1]
        at += 1
    return "::".join([*base, *segments[at:]])
