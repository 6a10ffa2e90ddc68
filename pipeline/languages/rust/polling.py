"""A site after a wait that ran out: a loop that tries again, sleeping between tries, and
returns once what it waits for holds; past it, the code gives up. Pure.

tikv's `must_peer_state` polls a region's state 100 times, 10 ms apart, and panics after
the loop: the state never came (reading 241 read it "Internal invariant violated, report
upstream"). A loop right before the site's statement, in the same block, counts; inside
such a loop, only a site under a test of the tries or the time spent (`if try_cnt > 250`,
`if start.elapsed() > timeout`: `must_region_exist`): any other error there is a try's
own failure, not the wait's end.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from pipeline.languages.rust.index_items import text_of

_LOOPS = frozenset(("for_expression", "loop_expression", "while_expression"))
_SLEEP = re.compile(rb"\bsleep(?:_ms|_until)?\s*\(")
_GIVE_UP = re.compile(rb"\breturn\b|\bbreak\b")
_HEAD_CHARS = 80
_GIVES_UP_ITSELF = re.compile(rb"\breturn\s+Err\b")
# a test of how many tries were made or how long it waited
_COUNTED = re.compile(
    r"(?i)(?:tr(?:y|ies)|retr|attempt|cnt|count|times|elapsed|deadline|waited|timeout)\w*[^<>=]*[<>]=?"
    r"|[<>]=?[^<>=]*(?:tr(?:y|ies)|retr|attempt|cnt|count|times|elapsed|deadline|waited|timeout)"
)


def waited_by(node: Node) -> str | None:
    """The head of the polling loop (`for _ in 0..100`, `loop`) the site's statement comes
    right after, when that loop sleeps between tries and leaves by `return` or `break`;
    None otherwise."""
    inside = _counted_exit(node)
    if inside is not None:
        return inside
    statement = node
    while statement.parent is not None and statement.parent.type != "block":
        if statement.type in ("function_item", "closure_expression"):
            return None
        statement = statement.parent
    before = statement.prev_named_sibling
    while before is not None and before.type in ("line_comment", "block_comment"):
        before = before.prev_named_sibling
    if before is not None and before.type == "expression_statement" and before.named_child_count:
        before = before.named_children[0]
    if before is None or not _bounded(before):
        return None
    body = before.child_by_field_name("body")
    if body is not None and _GIVES_UP_ITSELF.search(body.text or b""):
        # its last try returns the error itself (greptimedb's `retry`, neon's scrubber):
        # past the loop is only a run of no tries at all ("MAX_RETRIES is not allowed to be 0")
        return None
    return _polling_head(before)


def _bounded(loop: Node) -> bool:
    """Whether leaving a loop means it ran out of tries or time: a `for` over a range of
    tries (`for _ in 0..100`), a `while` that tests the tries or the time; not a `while`
    that runs until what it waits for holds (neon's `while !shards.is_empty()`), after
    which the code goes on with it."""
    if loop.type == "for_expression":
        value = loop.child_by_field_name("value")
        return value is not None and value.type == "range_expression"
    if loop.type == "while_expression":
        condition = loop.child_by_field_name("condition")
        return condition is not None and bool(_COUNTED.search(text_of(condition)))
    return False


def _counted_exit(node: Node) -> str | None:
    """The polling loop a site sits in under an `if` that tests the tries or the time
    (`if try_cnt > 250 { panic!(..) }`), as `waited_by` names it; None otherwise."""
    test: Node | None = None
    current = node.parent
    while current is not None and current.type not in ("function_item", "closure_expression"):
        if current.type == "if_expression" and test is None:
            test = current.child_by_field_name("condition")
        if current.type in _LOOPS:
            counted = test is not None and _COUNTED.search(text_of(test))
            return _polling_head(current) if counted else None
        current = current.parent
    return None


def _polling_head(loop: Node) -> str | None:
    """A loop's head (`for _ in 0..100`, `loop`) when it sleeps between tries and leaves by
    `return` or `break`; None for any other node."""
    if loop.type not in _LOOPS:
        return None
    body = loop.child_by_field_name("body")
    text = body.text if body is not None else None
    if body is None or not text or not _SLEEP.search(text) or not _GIVE_UP.search(text):
        return None
    head = (loop.text or b"")[: body.start_byte - loop.start_byte]
    written = " ".join(head.decode("utf-8", "replace").split())
    return written[:_HEAD_CHARS] or None
