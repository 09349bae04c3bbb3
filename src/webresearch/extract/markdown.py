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
  ``<code>`` becomes a backtick span; a ``<pre>`` whose lines start with links (a web
  server's directory listing) is lines with their links (:mod:`.pre_links`);
* links ``[text](url)`` and images ``![alt](url)`` made absolute against the base URL
  (:mod:`webresearch.extract.urls`); ``javascript:`` links keep only their text; a link
  card's heading holds its link (``### [Title](url)``), the card's other blocks follow it.

Scripts, styles, forms controls, media players and ``<noscript>`` are never rendered; of a
``<button>`` only its images are (a lightbox button around a content picture).
The walk is iterative (``lxml.etree.iterwalk`` plus a stack of buffers), so a document nested
thousands of levels deep converts without touching Python's recursion limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from webresearch.extract.code_blocks import PRE_TAGS, fenced_code
from webresearch.extract.markdown_blocks import (
    Block,
    as_blocks,
    blocks_to_text,
    definition_list,
    definition_part,
    item_text,
    list_markdown,
    to_int,
)
from webresearch.extract.markdown_escape import (
    Emphasis,
    beside_emphasis,
    element_emphasis,
    resolve_markdown,
)
from webresearch.extract.markdown_inline import (
    EDIT_LINK,
    LINE_BREAK,
    MATH_END,
    code_span,
    collapse_inline,
    heading_text,
    image_markdown,
    is_permalink,
    math_text,
    one_line,
)
from webresearch.extract.markdown_links import card_heading, link_markdown
from webresearch.extract.markdown_prose import prose_marker
from webresearch.extract.markdown_scripts import beside_script, following_char, script_text
from webresearch.extract.markdown_tables import Cell, Row, cell_span, heading_is_bold, table_blocks
from webresearch.extract.pre_links import link_listing

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
#: Blocks and inline elements that need nothing but their content (a fast path).
_PLAIN_BLOCKS = frozenset(
    {"div", "section", "article", "main", "header", "footer", "nav", "aside", "p", "figure",
     "figcaption", "center", "form", "fieldset", "address", "hgroup", "details", "summary"}
)  # fmt: skip
_PLAIN_INLINE = frozenset(
    {"span", "font", "small", "big", "label", "abbr", "time", "cite", "mark", "u", "bdi", "bdo",
     "ins", "nobr", "data", "acronym", "dfn"}
)  # fmt: skip
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~", "strike": "~~"}
_CODE_INLINE = frozenset({"code", "kbd", "samp", "tt", "var"})
_HEADING_LINE = re.compile(r"#{1,6} \S")


@dataclass(slots=True)
class _Frame:
    """What one open element has collected so far."""

    el: etree._Element
    tag: str
    items: list[str | Block | Cell | Row] = field(default_factory=list)
    nested_tables: int = 0
    block_cells: int = 0
    #: the last code span appended to ``items``: (its item, the text before it, its code)
    code: tuple[str, str, str] | None = None
    code_tag: str = ""


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
    prose_text = prose_marker(etree.tostring(root, method="text", encoding=str, with_tail=False))
    kinds: dict[str, tuple[str, int]] = {}  # each tag's frame and kind, worked out once
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            raw = el.tag
            known = kinds.get(raw) if raw.__class__ is str else _NO_ELEMENT
            if known is None:
                known = kinds[raw] = _tag_kind(raw)
            tag, kind = known
            if kind == _LEAF:
                stack.append(_Frame(el, tag))
                continue
            if kind == _SKIP or is_permalink(el):
                walker.skip_subtree()
                stack.append(_Frame(el, tag if kind == _SKIP else "#skip"))
                continue
            frame = _Frame(el, tag)
            stack.append(frame)
            text = el.text  # read once: lxml makes a new string at each read
            if text:
                frame.items.append(prose_text(text))
            continue
        frame = stack.pop()
        parent = stack[-1]
        _close(frame, parent, base_url, stack)
        text = el.tail
        if text and el is not root:
            parent.items.append(prose_text(text))
    return resolve_markdown(blocks_to_text(as_blocks(stack[0].items)))


#: The kinds of start tag (:func:`_tag_kind`): content not read, an empty element, one read.
_SKIP, _LEAF, _OPEN = 0, 1, 2
#: A comment or a processing instruction: nothing read.
_NO_ELEMENT = ("#skip", _SKIP)


def _tag_kind(raw: str) -> tuple[str, int]:
    """The frame's tag for an element named ``raw`` and its kind: ``_SKIP`` (its content
    is not walked: a skipped element, a lightbox button read for its images, preformatted
    text, a formula), ``_LEAF`` (``<br>``, ``<hr>``, ``<img>``, ``<wbr>``) or ``_OPEN`` (its
    content is read, unless it is a permalink: :func:`.markdown_inline.is_permalink`)."""
    tag = raw.lower().rpartition("}")[2]
    if not tag or (tag in SKIPPED_TAGS and tag != "math"):
        return ("#images" if tag == "button" else "#skip"), _SKIP
    if tag in PRE_TAGS:
        return "#pre", _SKIP
    if tag in ("br", "hr", "img", "wbr"):
        return tag, _LEAF
    if tag == "math":
        return "#math", _SKIP
    return tag, _OPEN


# --------------------------------------------------------------------------- closing elements


def _close(frame: _Frame, parent: _Frame, base_url: str, open_frames: list[_Frame]) -> None:
    """Turn a finished element into items of its parent (``open_frames``: its ancestors)."""
    tag, el, items = frame.tag, frame.el, frame.items
    out = parent.items
    if tag in _PLAIN_BLOCKS:  # the most frequent elements first
        if items:
            out.extend(as_blocks(items))
        return
    if tag in _PLAIN_INLINE:
        parent.nested_tables += frame.nested_tables
        parent.block_cells += frame.block_cells
        _add_inline(out, items)
        return
    if tag == "#skip" or tag == "wbr":
        return
    if tag == "#images":  # a lightbox button around a picture: the picture stays
        out.extend(md for md in (image_markdown(i, base_url) for i in el.iter("img")) if md)
        return
    if tag == "#math":
        text = math_text(el)  # a display formula is a block of its own
        out.append(Block(text) if text.startswith("$$") else f" {text}{MATH_END}" if text else "")
        return
    if tag == "#pre":  # a directory listing's links stay links (pre_links.py)
        out.append(Block(link_listing(el, base_url) or fenced_code(el)))
    elif tag == "br":
        out.append(LINE_BREAK)
    elif tag == "hr":
        out.append(Block("---"))
    elif tag == "img":
        image = image_markdown(el, base_url)
        if image:
            out.append(image)
    elif tag in _HEADINGS:
        text = EDIT_LINK.sub("", _inline(items)).strip()
        if not text:
            pass
        elif heading_is_bold([(f.tag, f.el) for f in open_frames]):
            out.append(" " + _emphasis([text], "**") + " ")  # a heading in a cell: bold text
        else:
            out.append(Block("#" * _HEADINGS[tag] + " " + heading_text(text)))
    elif tag == "a":
        in_heading = any(f.tag in _HEADINGS for f in open_frames)
        heading = None if in_heading else _first_heading(items)
        if heading is None:
            out.append(_link(el, items, base_url, in_heading))
        else:
            out.extend(_card(el, items, heading, base_url))
    elif tag == "q":  # a browser shows the quotation marks (inside another <q>: single)
        lead, text, trail = _inline_keep_edges(items)
        marks = "‘’" if any(f.tag == "q" for f in open_frames) else "“”"
        out.append(lead + marks[0] + text + marks[1] + trail if text else lead)
    elif tag in ("sup", "sub"):
        out.append(_script(el, items, tag))
    elif tag in _EMPHASIS:  # inside one of its kind (<em>a<em>b</em></em>): one emphasis
        mark = _EMPHASIS[tag]
        inside = any(_EMPHASIS.get(f.tag) == mark for f in open_frames)
        _add_inline(out, items if inside else [_emphasis(items, mark, el, out)])
    elif tag in _CODE_INLINE:  # inside code (<kbd><kbd>Ctrl</kbd>+C</kbd>): the outer span's
        if any(f.tag in _CODE_INLINE for f in open_frames):
            out.extend(items)
        else:
            _code_span(items, parent, tag)
    elif tag in ("ul", "ol", "menu", "dir"):
        block = list_markdown(el, tag, items)
        if block:
            out.append(Block(block, is_list=True))
    elif tag == "li":
        blocks = [b for b in as_blocks(items) if b.text]
        out.append(
            Block(
                item_text(blocks),
                item=True,
                value=to_int(el.get("value")),
                only_list=bool(blocks) and all(b.is_list for b in blocks),
            )
        )
    elif tag in ("dt", "dd"):
        text = blocks_to_text(as_blocks(items))
        if text:
            out.append(definition_part(text, tag))
    elif tag == "dl":
        text = definition_list(as_blocks(items))
        if text:
            out.append(Block(text))
    elif tag == "blockquote":
        text = blocks_to_text(as_blocks(items))
        if text:
            out.append(Block("\n".join(("> " + line).rstrip() for line in text.split("\n"))))
    elif tag in ("td", "th"):
        nested = sum(1 for i in items if isinstance(i, Block))
        parent.block_cells += nested > 1
        parent.nested_tables += frame.nested_tables
        out.append(
            Cell(
                [b.text for b in as_blocks(items)],
                tag == "th",
                cell_span(el.get("colspan")),
                cell_span(el.get("rowspan")),
            )
        )
    elif tag == "tr":
        cells = [i for i in items if isinstance(i, Cell)]
        parent.block_cells += frame.block_cells
        parent.nested_tables += frame.nested_tables
        if cells:
            out.append(Row(cells, all(c.header for c in cells)))
    elif tag in ("thead", "tbody", "tfoot"):
        parent.block_cells += frame.block_cells
        parent.nested_tables += frame.nested_tables
        for item in items:
            if isinstance(item, Row):
                out.append(Row(item.cells, item.header or tag == "thead"))
            elif isinstance(item, Block):
                out.append(item)
    elif tag == "table":
        caption = [i.text for i in items if isinstance(i, Block)]
        rows = [i for i in items if isinstance(i, Row)]
        rendered = table_blocks(el, caption, rows, frame.nested_tables, frame.block_cells)
        out.extend(Block(b) for b in rendered)
        parent.nested_tables += 1 + frame.nested_tables
    elif tag in ("caption",):
        text = blocks_to_text(as_blocks(items))
        if text:
            out.append(Block(text))
    elif tag in _BLOCKS or tag in ("tr", "ul", "ol"):
        out.extend(as_blocks(items))
    else:  # inline or unknown: transparent
        parent.nested_tables += frame.nested_tables
        parent.block_cells += frame.block_cells
        _add_inline(out, items)


# --------------------------------------------------------------------------- inline content


def _inline(items: Iterable[str | Block | Cell | Row]) -> str:
    """Flatten items to one line of inline markdown (blocks joined by spaces)."""
    parts: list[str] = []
    for item in items:
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, Block):
            parts.append(" " + one_line(item.text) + " ")
        elif isinstance(item, Cell):
            parts.append(" " + " ".join(item.blocks) + " ")
        else:
            parts.append(" " + " ".join(" ".join(c.blocks) for c in item.cells) + " ")
    return collapse_inline("".join(parts)).strip()


def _inline_keep_edges(items: list[str | Block | Cell | Row]) -> tuple[str, str, str]:
    """Inline text of ``items`` split into (leading space, text, trailing space); the trailing
    space of a text ending with a formula is :data:`MATH_END`, so that punctuation after
    the element (a link around a formula, then a full stop) follows without a space."""
    joined = "".join(i if isinstance(i, str) else " " + _inline([i]) + " " for i in items)
    raw = collapse_inline(joined)
    text = raw.strip()
    if not text:
        return (" " if raw else ""), "", ""
    ends_formula = joined.rstrip(" \t\n\r").endswith(MATH_END)  # str.rstrip drops \x1d
    trail = MATH_END if ends_formula else " " if raw[-1] == " " else ""
    return (" " if raw[0] == " " else ""), text, trail


def _emphasis(
    items: list[str | Block | Cell | Row], mark: str, el: Any = None, before: Sequence[Any] = ()
) -> str:
    """``el``'s markdown (``mark``: its delimiter; ``before``: the items before it) as
    :func:`.markdown_escape.element_emphasis` has it; glued: a letter or digit before it or
    after it (its tail, or the text of an element right after it)."""
    lead, text, trail = _inline_keep_edges(items)
    if not text:
        return lead
    inner = [i for i in items if not (isinstance(i, str) and i.isspace())]
    only = inner[0] if len(inner) == 1 and isinstance(inner[0], Emphasis) else None
    last = before[-1] if before and isinstance(before[-1], str) else ""
    after = el if el is None or el.tail else el.getnext()
    tail = ((el.tail or after.text) if after is not None else None) or " "
    glued = (not trail and tail[0].isalnum()) or (not lead and last[-1:].isalnum())
    return element_emphasis(lead, text, trail, mark, only, glued)


def _add_inline(out: list[str | Block | Cell | Row], items: list[str | Block | Cell | Row]) -> None:
    """Appends ``items`` to ``out``, the first as :func:`.markdown_escape.beside_emphasis`
    has it beside the last (joined with it: in its place)."""
    joined, first = beside_emphasis(out[-1], items[0]) if out and items else (None, None)
    if joined is not None:
        out[-1] = joined
    out.extend(items if first is None else [first, *items[1:]] if joined is None else items[1:])


def _code_span(items: list[str | Block | Cell | Row], parent: _Frame, tag: str) -> None:
    """Appends the code span of a ``tag`` element to the parent's items; a code element right
    after one of its kind (``<code>a</code><code>b</code>``) joins its span (`` `ab` ``):
    side by side, two spans would share one backtick string (CommonMark §6.1), and a space
    between them would be text the page does not have. Keys (``<kbd>``) stay apart, a
    space between them (``Ctrl`` `` ` ``: two keys)."""
    lead, text, trail = _inline_keep_edges(items)
    last = parent.items[-1] if text and not lead and parent.items else None
    joined = parent.code if tag != "kbd" and parent.code_tag == tag else None
    if last is not None and joined is not None and joined[0] is last:
        _, before, earlier = joined
        text = earlier + text
        item = before + code_span(text) + trail
        parent.items[-1] = item
        parent.code = (item, before, text) if not trail else None
        return
    if isinstance(last, str) and last.endswith("`"):  # the page's backticks are marked
        lead = " "
    item = lead + code_span(text) + trail if text else lead
    parent.items.append(item)
    parent.code = (item, lead, text) if text and not trail else None
    parent.code_tag = tag


def _link(
    el: etree._Element,
    items: list[str | Block | Cell | Row],
    base_url: str,
    in_heading: bool = False,
) -> str:
    """A link (:func:`~webresearch.extract.markdown_links.link_markdown`) with its spaces."""
    lead, text, trail = _inline_keep_edges(items)
    body = link_markdown(el.get("href"), text, base_url, in_heading) if text else ""
    return lead + body + trail if body else lead


def _first_heading(items: list[str | Block | Cell | Row]) -> int | None:
    """Index of the first heading block among a link's items (a link card), or ``None``."""
    for i, item in enumerate(items):
        if isinstance(item, Block) and _HEADING_LINE.match(item.text):
            return i
    return None


def _card(
    el: etree._Element, items: list[str | Block | Cell | Row], heading: int, base_url: str
) -> list[str | Block | Cell | Row]:
    """A link card (``<a><h3>Title</h3><p>…</p></a>``) as ``### [Title](url)`` and the card's
    other blocks (a link text cannot hold a heading line, CommonMark §6.3); a heading's link
    into the page itself (an FAQ's anchor) is left out, as :func:`_link` does, and so is a
    card's link around a heading holding a link of its own (links do not nest)."""
    block = items[heading]
    assert isinstance(block, Block)
    linked = card_heading(el.get("href"), block.text, base_url)
    return [*items[:heading], Block(linked), *items[heading + 1 :]]


def _script(el: etree._Element, items: list[str | Block | Cell | Row], tag: str) -> str:
    """A superscript or subscript, unambiguous (:mod:`.markdown_scripts`)."""
    lead, text, trail = _inline_keep_edges(items)
    if not text:
        return lead
    following = " " if trail else following_char(el)
    return lead + script_text(text, tag, following, beside_script(el)) + trail
