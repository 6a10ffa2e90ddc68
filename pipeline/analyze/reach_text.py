"""Sentences about how a site is reached, for the static analyzer (from `SiteContext.reach`)."""

from __future__ import annotations

from pipeline.core.reach import CallerPath, Hop, Reach


def path_text(path: CallerPath) -> str:
    """`handle` -> `handle_insert` -> RPC `put_key` -> `Engine::write`, ambiguity marked."""
    return " -> ".join(_hop_text(hop) for hop in path.hops)


def _hop_text(hop: Hop) -> str:
    text = f"RPC `{hop.name}`" if hop.resolution == "rpc" else f"`{hop.name}`"
    if hop.candidates:
        text += f" (or {', '.join(f'`{c}`' for c in hop.candidates)}: the call is ambiguous)"
    return text


def trigger_sentence(reach: Reach | None) -> str | None:
    """The path from an entry point, and where the conditions' values come from."""
    if reach is None:
        return None
    parts: list[str] = []
    if reach.paths:
        best = reach.paths[0]
        if best.entry_label:
            parts.append(f"Reached from {best.entry_label}: {path_text(best)}.")
        else:
            parts.append(
                f"Called through {path_text(best)} (no entry point found within "
                f"{len(best.hops)} calls)."
            )
    sources = [
        f"`{d.name}` ({d.kind} `{d.text}`" + (f": {_first_line(d.doc)}" if d.doc else "") + ")"
        for d in reach.dependencies
    ]
    if sources:
        parts.append("The conditions depend on " + "; ".join(sources) + ".")
    return " ".join(parts) or None


def situation_sentence(reach: Reach | None) -> str | None:
    """Which user-facing entry points lead here, and how the error reaches the user."""
    if reach is None:
        return None
    parts: list[str] = []
    labels = list(dict.fromkeys(p.entry_label for p in reach.paths if p.entry_label))
    if labels:
        parts.append("Users meet it through " + ", ".join(labels) + ".")
    if reach.conversion:
        status = f" (HTTP {reach.http_status})" if reach.http_status else ""
        parts.append(f"It reaches the client through {reach.conversion}{status}.")
    return " ".join(parts) or None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
