"""An lxml tree → markdown for a model. Pure functions, no recursion.

Keeps what a reader of the page needs and drops what only a browser needs:

* headings (``#``), paragraphs, line breaks, block quotes (``>``), rules (``---``);
* lists, nested and ordered (``-`` / ``1.``), definition lists;
* tables as GFM pipe tables: ``colspan`` and ``rowspan`` are padded with empty cells so every
  row has the same number of cells, the caption is a paragraph just before the table;
  layout tables (one column, nested tables, block content) are unwrapped into blocks;
* code: ``<pre>`` becomes a fenced block whose info string comes from ``language-xxx`` /
  ``lang-xxx`` / ``highlight-xxx`` classes or ``data-lang``; whitespace is kept verbatim,
  entities are decoded, toolbar buttons and line-number gutters are left out; inline
  ``<code>`` becomes a backtick span;
* links ``[text](url)`` and images ``![alt](url)`` made absolute against the base URL
  (:mod:`webresearch.extract.urls`); ``javascript:`` links keep only their text.

Scripts, styles, forms controls, media players and ``<noscript>`` are never rendered.
The walk is iterative (``lxml.etree.iterwalk`` plus a stack of buffers), so a document nested
thousands of levels deep converts without touching Python's recursion limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from webresearch.extract.code_blocks import PRE_TAGS, fenced_code
from webresearch.extract.urls import absolute_url, image_source

__all__ = ["SKIPPED_TAGS", "element_to_markdown"]

#: Elements whose content is never text for a reader.
SKIPPED_TAGS = frozenset(
    {
        "script", "style", "noscript", "head", "title", "meta", "link", "base", "button",
        "input", "select", "option", "optgroup", "textarea", "datalist", "svg", "math",
        "canvas", "iframe", "frame", "frameset", "object", "embed", "video", "audio",
        "source", "track", "map", "area", "dialog", "portal", "param", "applet",
    }
)  # fmt: skip

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "main", "aside", "header", "footer", "nav",
        "address", "body", "html", "figure", "figcaption", "fieldset", "legend", "details",
        "summary", "center", "form", "hgroup", "search", "menu", "dir", "caption", "tfoot",
        "td", "th", "li", "dd", "dt", "blockquote", "template", "frameset", "noframes",
        "listing", "plaintext", "xmp", "doc", "document", "root",
    }
)  # fmt: skip
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~", "strike": "~~"}
_CODE_INLINE = frozenset({"code", "kbd", "samp", "tt", "var"})
_WS = re.compile(r"[ \t\n\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_BR = "\x1e"  # marks a hard line break inside inline text until whitespace is collapsed
_LINE_START_ESCAPE = re.compile(r"^(\s*)([#>+]|[-*](?=\s)|\d{1,9}[.)](?=\s))", re.M)
_MAX_TABLE_COLUMNS = 64


@dataclass(slots=True)
class _Block:
    """Rendered block markdown; ``item`` marks a list item (joined without blank lines)."""

    text: str
    item: bool = False


@dataclass(slots=True)
class _Cell:
    blocks: list[str]
    header: bool
    colspan: int
    rowspan: int


@dataclass(slots=True)
class _Row:
    cells: list[_Cell]
    header: bool


@dataclass(slots=True)
class _Frame:
    """What one open element has collected so far."""

    el: etree._Element
    tag: str
    items: list[str | _Block | _Cell | _Row] = field(default_factory=list)
    nested_tables: int = 0
    block_cells: int = 0


def element_to_markdown(root: etree._Element, base_url: str) -> str:
    """Convert ``root`` and everything under it to markdown.

    Args:
        root: an element of an lxml HTML tree (``<body>``, an article, or a whole document).
        base_url: absolute URL that relative links and images resolve against (the page URL,
            or the resolved ``<base href>``).

    Returns:
        markdown text: blocks separated by one blank line, no trailing whitespace; empty when
        nothing readable is left.
    """
    stack: list[_Frame] = [_Frame(root, "root")]
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        tag = tag.lower().rpartition("}")[2]
        if event == "start":
            if not tag or tag in SKIPPED_TAGS:
                walker.skip_subtree()
                stack.append(_Frame(el, "#skip"))
                continue
            if tag in PRE_TAGS:
                walker.skip_subtree()
                stack.append(_Frame(el, "#pre"))
                continue
            if tag in ("br", "hr", "img", "wbr"):
                stack.append(_Frame(el, tag))
                continue
            frame = _Frame(el, tag)
            stack.append(frame)
            if el.text:
                frame.items.append(el.text)
            continue
        frame = stack.pop()
        parent = stack[-1]
        _close(frame, parent, base_url)
        if el.tail and el is not root:
            parent.items.append(el.tail)
    return _blocks_to_text(_as_blocks(stack[0].items))


# --------------------------------------------------------------------------- closing elements


def _close(frame: _Frame, parent: _Frame, base_url: str) -> None:
    """Turn a finished element into items of its parent."""
    tag, el, items = frame.tag, frame.el, frame.items
    out = parent.items
    if tag == "#skip" or tag == "wbr":
        return
    if tag == "#pre":
        out.append(_Block(fenced_code(el)))
    elif tag == "br":
        out.append(_BR)
    elif tag == "hr":
        out.append(_Block("---"))
    elif tag == "img":
        image = _image(el, base_url)
        if image:
            out.append(image)
    elif tag in _HEADINGS:
        text = _inline(items)
        if text:
            out.append(_Block("#" * _HEADINGS[tag] + " " + text.replace("\n", " ")))
    elif tag == "a":
        out.append(_link(el, items, base_url))
    elif tag in _EMPHASIS:
        out.append(_emphasis(items, _EMPHASIS[tag]))
    elif tag in _CODE_INLINE:
        out.append(_code_span(items))
    elif tag in ("ul", "ol", "menu", "dir"):
        block = _list(el, tag, items)
        if block:
            out.append(_Block(block))
    elif tag == "li":
        out.append(_Block(_blocks_to_text(_as_blocks(items)), item=True))
    elif tag in ("dt", "dd"):
        text = _blocks_to_text(_as_blocks(items))
        if text:
            out.append(_Block(("**" + text + "**") if tag == "dt" and "\n" not in text else text))
    elif tag == "dl":
        text = "\n".join(b.text for b in _as_blocks(items))
        if text:
            out.append(_Block(text))
    elif tag == "blockquote":
        text = _blocks_to_text(_as_blocks(items))
        if text:
            out.append(_Block("\n".join(("> " + line).rstrip() for line in text.split("\n"))))
    elif tag in ("td", "th"):
        nested = sum(1 for i in items if isinstance(i, _Block))
        parent.block_cells += nested > 1
        parent.nested_tables += frame.nested_tables
        out.append(
            _Cell(
                [b.text for b in _as_blocks(items)],
                tag == "th",
                _span(el.get("colspan")),
                _span(el.get("rowspan")),
            )
        )
    elif tag == "tr":
        cells = [i for i in items if isinstance(i, _Cell)]
        parent.block_cells += frame.block_cells
        parent.nested_tables += frame.nested_tables
        if cells:
            out.append(_Row(cells, all(c.header for c in cells)))
    elif tag in ("thead", "tbody", "tfoot"):
        parent.block_cells += frame.block_cells
        parent.nested_tables += frame.nested_tables
        for item in items:
            if isinstance(item, _Row):
                out.append(_Row(item.cells, item.header or tag == "thead"))
            elif isinstance(item, _Block):
                out.append(item)
    elif tag == "table":
        out.extend(_table(frame))
        parent.nested_tables += 1 + frame.nested_tables
    elif tag in ("caption",):
        text = _blocks_to_text(_as_blocks(items))
        if text:
            out.append(_Block(text))
    elif tag in _BLOCKS or tag in ("tr", "ul", "ol"):
        out.extend(_as_blocks(items))
    else:  # inline or unknown: transparent
        parent.nested_tables += frame.nested_tables
        parent.block_cells += frame.block_cells
        out.extend(items)


def _span(value: str | None) -> int:
    try:
        return max(1, min(int((value or "1").strip()), _MAX_TABLE_COLUMNS))
    except ValueError:
        return 1


# --------------------------------------------------------------------------- inline content


def _collapse(text: str) -> str:
    """Whitespace runs → one space; hard breaks become newlines without spaces around them."""
    text = _WS.sub(" ", text)
    if _BR in text:
        text = re.sub(" ?\x1e ?", "\n", text)
    return text


def _inline(items: Iterable[str | _Block | _Cell | _Row]) -> str:
    """Flatten items to one line of inline markdown (blocks joined by spaces)."""
    parts: list[str] = []
    for item in items:
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, _Block):
            parts.append(" " + item.text.replace("\n", " ") + " ")
        elif isinstance(item, _Cell):
            parts.append(" " + " ".join(item.blocks) + " ")
        else:
            parts.append(" " + " ".join(" ".join(c.blocks) for c in item.cells) + " ")
    return _collapse("".join(parts)).strip()


def _inline_keep_edges(items: list[str | _Block | _Cell | _Row]) -> tuple[str, str, str]:
    """Inline text of ``items`` split into (leading space, text, trailing space)."""
    raw = _collapse("".join(i if isinstance(i, str) else " " + _inline([i]) + " " for i in items))
    text = raw.strip()
    if not text:
        return (" " if raw else ""), "", ""
    return (" " if raw[0] == " " else ""), text, (" " if raw[-1] == " " else "")


def _emphasis(items: list[str | _Block | _Cell | _Row], mark: str) -> str:
    lead, text, trail = _inline_keep_edges(items)
    if not text:
        return lead
    if text.startswith(mark[0]) or text.endswith(mark[0]) or "\n" in text:
        return lead + text + trail
    return f"{lead}{mark}{text}{mark}{trail}"


def _code_span(items: list[str | _Block | _Cell | _Row]) -> str:
    lead, text, trail = _inline_keep_edges(items)
    if not text:
        return lead
    if text.startswith("`") and text.endswith("`") and len(text) > 1:
        return lead + text + trail  # already a code span (nested code elements)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{lead}{fence}{pad}{text}{pad}{fence}{trail}"


def _link(el: etree._Element, items: list[str | _Block | _Cell | _Row], base_url: str) -> str:
    lead, text, trail = _inline_keep_edges(items)
    if not text:
        return lead
    href = absolute_url(el.get("href"), base_url)
    if href is None:
        return lead + text + trail
    text = text.replace("\n", " ")
    return f"{lead}[{_escape_brackets(text)}]({href}){trail}"


def _escape_brackets(text: str) -> str:
    """Escape brackets in link text unless they are balanced markdown (an image)."""
    if text.startswith("![") or ("[" not in text and "]" not in text):
        return text
    depth = 0
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if depth < 0:
            break
    if depth == 0:
        return text
    return text.replace("[", "\\[").replace("]", "\\]")


def _image(el: etree._Element, base_url: str) -> str:
    src = image_source(el, base_url)
    if src is None:
        return ""
    alt = (
        _collapse(el.get("alt") or el.get("title") or "")
        .strip()
        .replace("]", "\\]")
        .replace("[", "\\[")
    )
    return f"![{alt}]({src})"


# --------------------------------------------------------------------------- blocks


def _as_blocks(items: Iterable[str | _Block | _Cell | _Row]) -> list[_Block]:
    """Group inline runs into paragraphs; keep blocks; cells and rows become paragraphs."""
    blocks: list[_Block] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            text = _collapse("".join(run)).strip()
            run.clear()
            if text:
                blocks.append(_Block(_escape_line_starts(text)))

    for item in items:
        if isinstance(item, str):
            run.append(item)
            continue
        flush()
        if isinstance(item, _Block):
            blocks.append(item)
        elif isinstance(item, _Cell):
            blocks.extend(_Block(b) for b in item.blocks)
        else:
            blocks.extend(_Block(b) for c in item.cells for b in c.blocks)
    flush()
    return blocks


def _escape_line_starts(text: str) -> str:
    """Backslash a character that would turn a plain line into a heading, quote or list."""
    return _LINE_START_ESCAPE.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _blocks_to_text(blocks: list[_Block]) -> str:
    """Join blocks with blank lines; consecutive list items join with single newlines."""
    out: list[str] = []
    prev: _Block | None = None
    for block in blocks:
        if not block.text:
            continue
        if out:
            out.append("\n" if (prev is not None and prev.item and block.item) else "\n\n")
        out.append(block.text)
        prev = block
    return "".join(out)


def _list(el: etree._Element, tag: str, items: list[str | _Block | _Cell | _Row]) -> str:
    """A markdown list from ``<li>`` items (other content becomes items of its own)."""
    ordered = tag == "ol"
    try:
        number = int((el.get("start") or "1").strip()) if ordered else 1
    except ValueError:
        number = 1
    lines: list[str] = []
    for block in _as_blocks(items):
        if not block.text.strip():
            continue
        marker = f"{number}. " if ordered else "- "
        number += 1
        indent = " " * len(marker)
        body = "\n".join((indent + line) if line else "" for line in block.text.split("\n"))
        lines.append(marker + body[len(indent) :])
    return "\n".join(lines)


# --------------------------------------------------------------------------- tables


def _table(frame: _Frame) -> list[_Block]:
    """A table element → caption paragraph + GFM table, or its cells as blocks (layout)."""
    caption = [i for i in frame.items if isinstance(i, _Block)]
    rows = [i for i in frame.items if isinstance(i, _Row)]
    # rows directly under <table> arrive as _Row; blocks from <caption> and stray content
    # arrive as _Block (a caption is the first block in document order)
    role = (frame.el.get("role") or "").lower()
    n_cells = sum(len(r.cells) for r in rows)
    widths = {sum(c.colspan for c in r.cells) for r in rows}
    is_layout = (
        role in ("presentation", "none")
        or frame.nested_tables > 0
        or frame.block_cells * 2 > n_cells
        or not rows
        or max(widths, default=0) < 2
        or (len(rows) < 2 and frame.el.find(".//th") is None)
        or n_cells == 0
    )
    if is_layout:
        out = list(caption)
        for row in rows:
            for cell in row.cells:
                out.extend(_Block(b) for b in cell.blocks if b)
        return out
    grid = _grid(rows)
    if not grid:
        return caption
    return [*caption, _Block(_gfm(grid, header_rows=_header_rows(rows)))]


def _header_rows(rows: list[_Row]) -> int:
    count = 0
    for row in rows:
        if not row.header:
            break
        count += 1
    return count


def _grid(rows: list[_Row]) -> list[list[str]]:
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
            text = "<br>".join(b.replace("\n", " ") for b in cell.blocks if b)
            line.append(text.replace("|", "\\|"))
            for extra in range(cell.colspan):
                if extra:
                    line.append("")
                if cell.rowspan > 1:
                    pending[col + extra] = cell.rowspan - 1
            col += cell.colspan
            if col > _MAX_TABLE_COLUMNS:
                break
        pending = {c: n for c, n in pending.items() if n > 0}
        grid.append(line)
    width = max((len(line) for line in grid), default=0)
    if width == 0:
        return []
    return [[c or "" for c in line] + [""] * (width - len(line)) for line in grid]


def _gfm(grid: list[list[str]], header_rows: int) -> str:
    """Render a grid as a GFM pipe table (the first row is the header row)."""
    del header_rows  # GFM has one header row; the others stay body rows, in order
    width = len(grid[0])
    lines = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * width]
    lines.extend("| " + " | ".join(row) + " |" for row in grid[1:])
    return "\n".join(line.replace("|  |", "| |") for line in lines)
