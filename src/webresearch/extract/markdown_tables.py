"""Table frames → GFM pipe tables or blocks (layout tables). Pure functions.

``colspan`` and ``rowspan`` are padded with empty cells so every row has the same number of
cells; the caption is a paragraph just before the table; layout tables (one column, nested
tables, block content) are unwrapped into their cells' blocks. A row holding only a rule
(``<hr>``) is left out of a pipe table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

__all__ = [
    "MAX_TABLE_COLUMNS",
    "Cell",
    "Row",
    "cell_span",
    "heading_is_bold",
    "layout_shape",
    "table_blocks",
]

MAX_TABLE_COLUMNS = 64

#: A line break before a list item's marker (nested items are indented).
_ITEM_LINE = re.compile(r"\n(?=[ ]*(?:[-*+]|\d{1,9}[.)]) )")
#: A fenced code block as the converter writes it (its info string ignored).
_FENCED = re.compile(r"(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<code>.*?)\n?(?P=fence)[ \t]*", re.S)
_BACKTICKS = re.compile(r"`+")
#: A blank line inside a block (a list item's paragraphs), with the indentation after it.
_PARAGRAPH_BREAK = re.compile(r"\n[ ]*\n[ ]*")


@dataclass(slots=True)
class Cell:
    """One rendered cell: its blocks of markdown and its spans."""

    blocks: list[str]
    header: bool
    colspan: int
    rowspan: int


@dataclass(slots=True)
class Row:
    """One rendered row."""

    cells: list[Cell]
    header: bool


def cell_span(value: str | None) -> int:
    """A ``colspan``/``rowspan`` attribute as a count: 1 when absent or not a number, at most
    :data:`MAX_TABLE_COLUMNS` (a page's ``colspan="1000"`` must not build a huge grid)."""
    try:
        return max(1, min(int((value or "1").strip()), MAX_TABLE_COLUMNS))
    except ValueError:
        return 1


def table_blocks(
    el: etree._Element,
    caption: list[str],
    rows: list[Row],
    nested_tables: int,
    block_cells: int,
) -> list[str]:
    """A table → its caption paragraphs + a GFM table, or its cells' blocks (layout table).

    Args:
        el: the ``<table>`` element (its ``role`` and ``<th>`` cells are looked at).
        caption: blocks of the caption and of stray content directly in the table.
        rows: the rendered rows in document order.
        nested_tables: how many tables are nested inside.
        block_cells: how many cells hold more than one block.
    """
    role = (el.get("role") or "").lower()
    n_cells = sum(len(r.cells) for r in rows)
    widths = {sum(c.colspan for c in r.cells) for r in rows}
    is_layout = (
        role in ("presentation", "none")
        or nested_tables > 0
        or block_cells * 2 > n_cells
        or not rows
        or max(widths, default=0) < 2
        or (len(rows) < 2 and el.find(".//th") is None)
        or n_cells == 0
    )
    if is_layout:
        out = list(caption)
        for row in rows:
            for cell in row.cells:
                out.extend(b for b in cell.blocks if b)
        return out
    rows = [row for row in rows if not _rule_only(row)]
    grid = _grid(rows)
    if not grid:
        return caption
    return [*caption, _gfm(grid, header_rows=_header_rows(rows))]


def layout_shape(el: etree._Element) -> bool:
    """The ``<table>`` ``el`` is unwrapped by :func:`table_blocks` whatever its cells hold:
    a ``presentation`` role, a table nested in it, no row of two columns or more, or one row
    and no ``<th>`` (read from the elements: a heading inside one of its cells stays a
    heading, not bold text of a cell, when it is known before the table is done)."""
    if (el.get("role") or "").lower() in ("presentation", "none"):
        return True
    rows = 0
    width = 0
    for node in el.iterdescendants("table", "tr"):
        if node.tag == "table":
            return True
        rows += 1
        width = max(width, sum(cell_span(c.get("colspan")) for c in node if c.tag in ("td", "th")))
    return width < 2 or (rows < 2 and el.find(".//th") is None)


def heading_is_bold(open_elements: list[tuple[str, etree._Element]]) -> bool:
    """A heading whose open ancestors are ``open_elements`` (tag, element; outermost first)
    is written as bold text: it is inside a cell of a table that may be rendered as a pipe
    table, whose cell holds one line. In a cell of a table of :func:`layout_shape`
    (unwrapped into blocks) it stays a heading, the blocks after it apart (a product's
    name, then its price: session 10 review)."""
    for tag, _ in reversed(open_elements):
        if tag in ("td", "th"):
            table = next((el for t, el in reversed(open_elements) if t == "table"), None)
            return table is None or not layout_shape(table)
    return False


def _rule_only(row: Row) -> bool:
    """Whether ``row`` holds nothing but a rule (``<tr><th colspan=5><hr></th></tr>``: an
    Apache directory listing draws its lines so, review n-17): a pipe table draws its own
    lines, the row would be a row of ``---``."""
    blocks = [b for cell in row.cells for b in cell.blocks if b.strip()]
    return bool(blocks) and all(b.strip() == "---" for b in blocks)


def _header_rows(rows: list[Row]) -> int:
    count = 0
    for row in rows:
        if not row.header:
            break
        count += 1
    return count


def _grid(rows: list[Row]) -> list[list[str]]:
    """Lay rows out on a grid: spanned positions become empty cells."""
    grid: list[list[str | None]] = []
    pending: dict[int, int] = {}  # column → rows still covered by a rowspan above
    for row in rows:
        line: list[str | None] = []
        col = 0
        cells = list(row.cells)
        while cells or any(c >= col for c in pending):
            if pending.get(col, 0) > 0:
                pending[col] -= 1
                line.append("")
                col += 1
                continue
            if not cells:
                break
            cell = cells.pop(0)
            text = "<br>".join(_cell_line(b) for b in cell.blocks if b)
            line.append(text.replace("|", "\\|"))
            for extra in range(cell.colspan):
                if extra:
                    line.append("")
                if cell.rowspan > 1:
                    pending[col + extra] = cell.rowspan - 1
            col += cell.colspan
            if col > MAX_TABLE_COLUMNS:
                break
        pending = {c: n for c, n in pending.items() if n > 0}
        grid.append(line)
    width = max((len(line) for line in grid), default=0)
    if width == 0:
        return []
    return [[c or "" for c in line] + [""] * (width - len(line)) for line in grid]


def _cell_line(block: str) -> str:
    """A block of a cell on the cell's one line: a hard line break (``\\`` at a line's end,
    :func:`~webresearch.extract.markdown_inline.hard_breaks`) and a line starting a list
    item (``- a``, ``2. b``; a paragraph's line starting so is escaped) or a paragraph break
    inside the block (an item's second paragraph, its indentation dropped) as ``<br>``, as a
    paragraph break between the cell's blocks is; other line breaks as spaces. A list in a
    cell so stays one item a line (``- one<br>- two``), not ``- one - two``; a fenced code
    block's lines become code spans, one a line (review r-12: ``a foo<br>- b c``)."""
    fenced = _FENCED.fullmatch(block)
    if fenced is not None:  # a code block: each line a code span (a cell holds no block)
        return "<br>".join(_code_span(line) for line in fenced["code"].split("\n") if line.strip())
    text = _PARAGRAPH_BREAK.sub("<br>", block.replace("\\\n", "<br>"))
    return _ITEM_LINE.sub("<br>", text).replace("\n", " ")


def _code_span(code: str) -> str:
    """``code`` as one inline code span (CommonMark §6.1: a backtick run longer than any
    inside it, padded with a space when it starts or ends with a backtick)."""
    ticks = "`" * (max((len(run) for run in _BACKTICKS.findall(code)), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _gfm(grid: list[list[str]], header_rows: int) -> str:
    """Render a grid as a GFM pipe table (the first row is the header row)."""
    del header_rows  # GFM has one header row; the others stay body rows, in order
    width = len(grid[0])
    lines = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * width]
    lines.extend("| " + " | ".join(row) + " |" for row in grid[1:])
    return "\n".join(line.replace("|  |", "| |") for line in lines)
