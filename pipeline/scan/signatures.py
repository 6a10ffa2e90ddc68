"""What a fn's signature says of the values it deals in: the type its value has for a call
on it, and the trait bounding each of its type parameters. Pure text; the link uses them to
type a `let` holding a call's value and a parameter of generic type (`callgraph`)."""

from __future__ import annotations

import re

from pipeline.core.index import Definition
from pipeline.scan.names import generic_parts, inner_type

# A signature longer than this says nothing here (a repository is untrusted: reading one of
# 100,000 characters of nested `Result<..>`s or closures would take minutes); nor does a
# return type wrapped more than `_WRAPS` times.
LONGEST = 2000
_WRAPS = 8


def returned_type(signature: str) -> str:
    """The type a fn's value has for a method call on it: `-> MetaResult<Option<Arc<Foo>>>`
    -> `Foo`, `-> &dyn Command` -> `Command`, `-> Self` -> `Self`; "" for none or `()`."""
    if len(signature) > LONGEST:
        return ""
    written = return_text(signature)
    for _ in range(_WRAPS):
        name, arguments = generic_parts(written)
        if not arguments or not _VALUE_WRAPPERS.fullmatch(name.rsplit("::", 1)[-1]):
            if name.lstrip("&").removeprefix("mut ").strip().startswith(_STD_PATHS):
                return ""  # `std::slice::Iter<'_, T>`: std's, not a repository's `Iter`
            return inner_type(written) if written and written != "()" else ""
        written = arguments[0]
    return ""


_STD_PATHS = ("std::", "core::", "alloc::", "::std::", "::core::")
# `Result<T, E>`, `anyhow::Result<T>`, `MetaResult<T>`, `Poll<T>`: the value is the first argument
_VALUE_WRAPPERS = re.compile(r"\w*Result|Poll|Option|Box|Arc|Rc")


def return_text(signature: str) -> str:
    """What follows `->` after a fn's parameter list: the first `->` with its parentheses and
    angle brackets closed before it (not a closure's in the generics or the parameters)."""
    start = max(signature.find("fn "), 0)
    at = signature.find("->", start)
    while at >= 0:
        before = signature[start:at]
        opens = before.count("(")
        if (
            opens
            and opens == before.count(")")
            and before.count("<") == before.count(">") - before.count("->")
        ):
            return signature[at + 2 :].split(" where ", 1)[0].strip().rstrip("{").strip()
        at = signature.find("->", at + 2)
    return ""


# `<S: Sink>`, `<S: 'a + ?Sized + store::Sink<K>>`, `where S: Sink + Send`: a type parameter and
# its first trait bound (lifetimes and `?Sized` skipped).
_BOUND = re.compile(
    r"[<,]\s*([A-Z]\w*)\s*:\s*(?:(?:'\w+|\?Sized)\s*\+\s*)*((?:\w+::)*[A-Z]\w*)"
    r"|\bwhere\s+([A-Z]\w*)\s*:\s*(?:(?:'\w+|\?Sized)\s*\+\s*)*((?:\w+::)*[A-Z]\w*)"
)


def generic_bounds(signature: str) -> dict[str, str]:
    """A fn signature's type parameters and the trait each is bounded by, first bound first:
    `fn f<S: Sink, T>(..) where T: Store` -> `{S: Sink, T: Store}`."""
    found: dict[str, str] = {}
    if len(signature) > LONGEST:
        return found
    for match in _BOUND.finditer(signature):
        name, bound = (match[1], match[2]) if match[1] else (match[3], match[4])
        found.setdefault(name, bound.rsplit("::", 1)[-1])
    return found


def supertraits(signature: str) -> tuple[str, ...]:
    """The traits a trait declaration names as its supertraits, by name: `pub trait PlanNode:
    ToStream + super::ToBatch<C> + Send + 'static where Self: Sized` -> (ToStream, ToBatch,
    Send); lifetimes and `?Sized` left out."""
    if len(signature) > LONGEST:
        return ()
    head = signature.split(" where ", 1)[0]
    at = head.find("trait ")
    if at < 0:
        return ()
    rest = head[at + len("trait ") :]
    depth, colon = 0, -1
    for index, char in enumerate(rest):  # the `:` after the name and its generics
        if char == "<":
            depth += 1
        elif char == ">" and rest[index - 1 : index] != "-":  # not a `->`
            depth -= 1
        elif char == ":" and depth == 0:
            if rest[index + 1 : index + 2] == ":" or rest[index - 1 : index] == ":":
                continue  # a path's `::`
            colon = index
            break
    if colon < 0:
        return ()
    out: list[str] = []
    depth, start, bounds = 0, colon + 1, rest + "+"
    for index in range(colon + 1, len(bounds)):
        char = bounds[index]
        if char in "<(":
            depth += 1
        elif char in ">)" and bounds[index - 1 : index] != "-":
            depth -= 1
        elif char == "+" and depth == 0:
            bound = bounds[start:index].strip()
            start = index + 1
            if bound and not bound.startswith(("'", "?")):
                out.append(inner_type(bound))
    return tuple(name for name in out if name)


def is_rpc(d: Definition) -> bool:
    """A gRPC service method: tonic's `async fn x(&self, request: Request<..>) ->
    Result<Response<..>, Status>`, or grpcio's `fn x(&mut self, ctx: RpcContext<'_>, req: R,
    sink: UnarySink<S>)` (any `*Sink<..>`: server, client and duplex streaming alike)."""
    if not d.has_self:
        return False
    types = [written for _, written in d.params]
    if types and types[0].startswith("RpcContext") and any("Sink<" in t for t in types[1:]):
        return True
    return (
        len(d.params) == 1
        and "Request<" in d.params[0][1]
        and "Response<" in d.signature
        # tonic's error is `Status`: cargo's `fn request(&self, Request<Vec<u8>>) ->
        # Result<Response<Vec<u8>>, Self::Error>` is an HTTP client trait, not a service
        and _STATUS_ERROR.search(d.signature) is not None
    )


_STATUS_ERROR = re.compile(
    r",\s*(?:tonic::)?Status\s*>|\bTonic\w*<"
)  # risingwave: TonicResponse<X>


_VISIBILITY = re.compile(r"^(?:#\[[^\]]*\]\s*)*(?:pub(?:\s*\([^)]*\))?\s+)?")


def tuple_fields(signature: str) -> tuple[str, ...]:
    """The field types of a tuple struct, as written, by position: `pub struct
    FrontendMetaClientImpl(pub MetaClient);` -> (`MetaClient`,), which `self.0` holds; ()
    for any other item, or a signature cut short."""
    head, paren, rest = signature.partition("(")
    if not paren or "{" in head or "…" in signature or not re.search(r"\bstruct\s+\w+", head):
        return ()
    if head.count("<") != head.count(">"):  # `struct A<F: Fn(u32)>(F)`: a bound's parentheses
        return ()
    fields, depth, start = [], 0, 0
    for at, char in enumerate(rest):
        if char in "(<[":
            depth += 1
        elif char in ")>]" and not (char == ">" and rest[at - 1 : at] == "-"):
            if depth == 0 and char == ")":
                fields.append(rest[start:at])
                break
            depth -= 1
        elif char == "," and depth == 0:
            fields.append(rest[start:at])
            start = at + 1
    else:
        return ()
    return tuple(_VISIBILITY.sub("", f.strip()) for f in fields if f.strip())


def type_parameters(signature: str) -> frozenset[str]:
    """The type parameters a struct, enum or trait declares, by name: `pub struct Poller<N:
    Fsm, C: Fsm, Handler>` -> {N, C, Handler}; lifetimes and `const` parameters left out."""
    if len(signature) > LONGEST:
        return frozenset()
    head = signature.split(" where ", 1)[0]
    at = head.find("<")
    if at < 0 or "(" in head[:at]:  # `struct B(Vec<u8>)`: no parameters, a field's type
        return frozenset()
    found: set[str] = set()
    depth, start = 0, at + 1
    for index in range(at, len(head)):
        char = head[index]
        if char in "<([":
            depth += 1
        elif char in ">)]" and head[index - 1 : index] != "-":
            depth -= 1
        if (char == "," and depth == 1) or depth == 0:
            found.update(_PARAMETER.findall(head[start:index].strip()))
            start = index + 1
        if depth == 0:
            break
    return frozenset(found)


# A type parameter as declared: `Handler`, `S: Sink`, `T = u32` (not `'a`, not `const N: usize`)
_PARAMETER = re.compile(r"^([A-Za-z_]\w*)(?=\s*(?::|=|$))")


def handled_message(trait: str) -> str | None:
    """The message type an actor's `impl Handler<M> for A` handles (`actix::Handler<Ping>`,
    quickwit's `Handler<ParquetMergeScratch>`), by name; None for another trait."""
    if len(trait) > LONGEST:
        return None
    name, arguments = generic_parts(trait.strip())
    if name.rsplit("::", 1)[-1] != "Handler" or len(arguments) != 1:
        return None
    found = inner_type(arguments[0])
    return found if found[:1].isupper() else None
