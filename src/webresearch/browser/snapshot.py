"""Compact snapshots with document-stamped element refs (SPEC §1.4). Pure.

The page-side collector (:data:`~.snapshot_js.COLLECT_JS`) returns one node per line, in
document order; :func:`render_snapshot` lays them out within a byte budget. A snapshot reads
like the page: every visible text in order, with the controls inside it written inline where
they are, and lines of their own for controls that stand alone::

    - main
      - heading "Configuration reference" [level=1]
      - text: Paragraph with a link "link" [ref=d1e1] inside it.
      - listitem: Parent item
        - listitem: child
      - form
        - textbox "User name" [ref=d1e2] value="alice"
        - button "Log in" [ref=d1e3]

Refs: every interactive element gets a ref ``d<doc>e<n>``, stamped with the document it came
from; using one after a navigation is a clear "stale ref — take a new snapshot" error, never
a click on something else (:mod:`.page_elements`). Within one document refs are never
reused.

Node shapes (dicts): ``kind`` ``i`` — a control line (``role``, ``name``, ``ref``, and
``checked``, ``disabled``, ``value``, ``url`` when they apply); ``c`` — a heading or an
image (``role``, ``name``, ``level``); ``s`` — a section (``role``, ``name``, ``note``);
``t`` — a text line (``role``: ``text``, ``listitem``, ``row``, ``heading``; ``parts``: text
strings and controls / ``{"img": alt}`` inline). Every node has a ``depth``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..invisible import strip_invisible
from ..wording import count
from .snapshot_js import COLLECT_JS, RESOLVE_JS, STATE_KEY

__all__ = [
    "COLLECT_JS",
    "MAX_NODES",
    "REF_PATTERN",
    "RESOLVE_JS",
    "STATE_KEY",
    "parse_ref",
    "refs_of",
    "render_snapshot",
]

#: Element refs as issued by the collector: ``d<doc>e<n>``.
REF_PATTERN = re.compile(r"^d(\d+)e(\d+)$")
#: Most nodes (lines) collected per snapshot (the renderer's budget cuts further).
MAX_NODES = 3000
#: Indentation levels shown (deeper lines are indented as much as this).
MAX_INDENT = 4


def parse_ref(ref: str) -> tuple[int, int] | None:
    """``"d3e12"`` → ``(3, 12)``; ``None`` when ``ref`` is not a snapshot ref."""
    m = REF_PATTERN.match(ref.strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def _quoted(text: object) -> str:
    return '"' + str(text).replace('"', "'") + '"'


def _control(node: Mapping[str, Any], *, with_url: bool) -> str:
    """``link "name" [ref=d1e2] …`` — a control with its state."""
    parts = [str(node.get("role", ""))]
    if node.get("name"):
        parts.append(_quoted(node["name"]))
    if node.get("ref"):
        parts.append(f"[ref={node['ref']}]")
    if node.get("checked") is not None:
        parts.append("[checked]" if node["checked"] else "[unchecked]")
    if node.get("disabled"):
        parts.append("[disabled]")
    if node.get("value"):
        parts.append("value=" + _quoted(node["value"]))
    if with_url and node.get("url"):
        parts.append(f"-> {node['url']}")
    return " ".join(parts)


def _inline(parts: Sequence[Any]) -> str:
    """A text line's parts: text as it is, controls and images written inline."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Mapping) and "img" in part:
            out.append("img " + _quoted(part["img"]))
        elif isinstance(part, Mapping):
            out.append(_control(part, with_url=False))
    text = ""
    for piece in out:  # a space between a control and the words around it
        if text and not text.endswith(" ") and not piece.startswith((" ", ",", ".", ";", ":")):
            text += " "
        text += piece
    return " ".join(text.split())


def _line(node: Mapping[str, Any]) -> str:
    indent = "  " * min(int(node.get("depth", 0) or 0), MAX_INDENT)
    role = str(node.get("role", ""))
    if node.get("kind") == "t":
        head = role if not node.get("level") else f"{role} [level={node['level']}]"
        return f"{indent}- {head}: {_inline(node.get('parts') or [])}"
    if node.get("kind") == "i":
        return f"{indent}- {_control(node, with_url=True)}"
    parts = [f"{indent}- {role}"]
    if node.get("name"):
        parts.append(_quoted(node["name"]))
    if node.get("level"):
        parts.append(f"[level={node['level']}]")
    if node.get("note"):
        parts.append(f"({node['note']})")
    return " ".join(parts)


def refs_of(node: Mapping[str, Any]) -> int:
    """How many refs (controls) a node holds: its own, or those inline in its text."""
    if node.get("ref"):
        return 1
    return sum(
        1 for part in node.get("parts") or () if isinstance(part, Mapping) and part.get("ref")
    )


def render_snapshot(
    nodes: Sequence[Mapping[str, Any]], max_bytes: int
) -> tuple[str, dict[str, Any]]:
    """Lay out snapshot nodes in document order within ``max_bytes`` (UTF-8).

    When everything does not fit, lines holding controls (refs) are kept first, then
    headings, sections and text as room allows, still in document order; a final line says
    how many were left out.

    Args:
        nodes: collected nodes in document order (see the module docstring).
        max_bytes: budget for the lines (bytes of UTF-8).

    Returns:
        (text, stats: ``elements`` (lines), ``interactive`` (refs), ``omitted`` (lines),
        ``truncated``, ``hidden_chars_removed`` — invisible characters removed from the
        page's texts).
    """
    cleaned = [strip_invisible(_line(n)) for n in nodes]
    lines = [line for line, _removed in cleaned]
    sizes = [len(line.encode("utf-8")) + 1 for line in lines]
    refs = [refs_of(n) for n in nodes]
    interactive = [i for i, count in enumerate(refs) if count]
    stats: dict[str, Any] = {
        "elements": len(nodes),
        "interactive": sum(refs),
        "hidden_chars_removed": sum(removed for _line, removed in cleaned),
    }
    if sum(sizes) <= max_bytes:
        stats.update(omitted=0, truncated=False)
        return "\n".join(lines), stats
    reserve = 200  # room for the truncation line (its longest form is ~170 bytes)
    budget = max(0, max_bytes - reserve)
    keep: set[int] = set()
    used = 0
    for i in interactive:
        if used + sizes[i] > budget:
            break
        keep.add(i)
        used += sizes[i]
    priority = sorted(
        (i for i in range(len(nodes)) if i not in keep),
        key=lambda i: (0 if nodes[i].get("role") == "heading" else 1, i),
    )
    for i in priority:
        if used + sizes[i] <= budget:
            keep.add(i)
            used += sizes[i]
    kept = [lines[i] for i in sorted(keep)]
    omitted = len(nodes) - len(keep)
    omitted_interactive = sum(refs[i] for i in interactive if i not in keep)
    note = f"[snapshot truncated: {omitted} of {count(len(nodes), 'line')} left out"
    if omitted_interactive:
        note += (
            f", with {count(omitted_interactive, 'interactive element')}; scroll or use selectors"
        )
    note += "; use content for the page text]"
    stats.update(omitted=omitted, truncated=True)
    return "\n".join([*kept, note]), stats
