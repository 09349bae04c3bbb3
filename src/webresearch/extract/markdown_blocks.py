"""Blocks of the markdown walk (:mod:`webresearch.extract.markdown`): paragraphs from inline
runs, blank-line joins, and lists (``<ol start>``, ``<li value>``, ``<ol reversed>``). Pure
functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from webresearch.extract.markdown_inline import collapse_inline, escape_line_starts, hard_breaks
from webresearch.extract.markdown_tables import Cell, Row

__all__ = [
    "Block",
    "as_blocks",
    "blocks_to_text",
    "definition_list",
    "definition_part",
    "item_text",
    "list_markdown",
    "to_int",
]


@dataclass(slots=True)
class Block:
    """Rendered block markdown.

    ``item`` marks a list item (joined without blank lines), ``value`` its ``<li value>``
    number, ``is_list`` a rendered list and ``only_list`` an item holding nothing but a list.
    """

    text: str
    item: bool = False
    value: int | None = None
    is_list: bool = False
    only_list: bool = False
    #: ``"dt"`` / ``"dd"`` for a definition list's term / definition (:func:`definition_part`)
    part: str = ""


def to_int(value: str | None) -> int | None:
    try:
        return int((value or "").strip())
    except ValueError:
        return None


def item_text(blocks: list[Block]) -> str:
    """A list item's blocks: a nested list follows its line tightly, paragraphs are spaced."""
    out: list[str] = []
    for i, block in enumerate(blocks):
        if i:
            out.append("\n" if block.is_list else "\n\n")
        out.append(block.text)
    return "".join(out)


# --------------------------------------------------------------------------- blocks


def as_blocks(items: Iterable[str | Block | Cell | Row]) -> list[Block]:
    """Group inline runs into paragraphs; keep blocks; cells and rows become paragraphs."""
    blocks: list[Block] = []
    run: list[str] = []
    for item in items:
        if isinstance(item, str):
            run.append(item)
            continue
        if run:
            _flush_run(run, blocks)
        if isinstance(item, Block):
            blocks.append(item)
        elif isinstance(item, Cell):
            blocks.extend(Block(b) for b in item.blocks)
        else:
            blocks.extend(Block(b) for c in item.cells for b in c.blocks)
    if run:
        _flush_run(run, blocks)
    return blocks


def _flush_run(run: list[str], blocks: list[Block]) -> None:
    """An inline run becomes a paragraph (when it holds text); ``run`` is emptied."""
    text = "".join(run)
    run.clear()  # indentation between blocks (most runs) collapses to nothing: not collapsed
    if not text.isspace() and (text := collapse_inline(text).strip()):
        blocks.append(Block(escape_line_starts(hard_breaks(text))))


def blocks_to_text(blocks: list[Block]) -> str:
    """Join blocks with blank lines; consecutive list items join with single newlines."""
    out: list[str] = []
    prev: Block | None = None
    for block in blocks:
        if not block.text:
            continue
        if out:
            out.append("\n" if (prev is not None and prev.item and block.item) else "\n\n")
        out.append(block.text)
        prev = block
    return "".join(out)


def list_markdown(el: etree._Element, tag: str, items: list[str | Block | Cell | Row]) -> str:
    """A markdown list from ``<li>`` items (other content becomes items of its own).

    ``<ol start>`` and ``<li value>`` numbering is kept, and ``<ol reversed>`` counts down
    (from ``start``, else from its number of items; never below 0: a markdown list marker
    has no sign); a list directly inside a list (no ``<li>`` around it) nests under the
    item before it, and an item holding nothing but a list contributes that list's items
    (no ``- - item`` lines). ``<ol type="a">`` / ``"I"`` keep numbers (markdown has no
    letter or roman markers).
    """
    ordered = tag == "ol"
    blocks = [b for b in as_blocks(items) if b.text.strip()]
    start = to_int(el.get("start")) if ordered else None
    step = -1 if ordered and el.get("reversed") is not None else 1
    if start is None:
        start = 1 if step == 1 else _numbered(blocks)
    number = start
    lines: list[str] = []
    indent = ""
    for block in blocks:
        if block.is_list and not block.item and lines:
            lines.append(_indent(block.text, indent))  # <ul><li>a</li><ul>…</ul></ul>
            continue
        if block.only_list:
            lines.append(block.text)  # <li><ul>…</ul></li>: the inner items, once
            continue
        if ordered and block.value is not None:
            number = block.value
        marker = f"{max(number, 0)}. " if ordered else "- "
        number += step
        indent = " " * len(marker)
        lines.append(marker + _indent(block.text, indent)[len(indent) :])
    return "\n".join(lines)


def definition_part(text: str, tag: str) -> Block:
    """A ``<dt>`` (``tag``) as its own line in bold (``**Term**``; as it is when it spans
    lines), a ``<dd>`` as ``: definition`` with its further lines indented: the form of
    PHP Markdown Extra and pandoc definition lists, readable as text by any other."""
    if tag == "dt":
        return Block("**" + text + "**" if "\n" not in text else text, part="dt")
    return Block(": " + _indent(text, "  ")[2:], part="dd")


def definition_list(blocks: list[Block]) -> str:
    """A ``<dl>``'s blocks (:func:`definition_part`, or others): a group of terms and their
    definitions on consecutive lines, groups (and other blocks) apart by a blank line."""
    out: list[str] = []
    prev = ""
    for block in blocks:
        if not block.text:
            continue
        if out:
            tight = (prev == "dt" and block.part in ("dt", "dd")) or prev == block.part == "dd"
            out.append("\n" if tight else "\n\n")
        out.append(block.text)
        prev = block.part
    return "".join(out)


def _numbered(blocks: list[Block]) -> int:
    """How many of a list's blocks get a marker of their own (:func:`list_markdown`)."""
    count = 0
    for i, block in enumerate(blocks):
        nested = block.is_list and not block.item and i > 0
        count += not nested and not block.only_list
    return count


def _indent(text: str, indent: str) -> str:
    return "\n".join((indent + line) if line else "" for line in text.split("\n"))
