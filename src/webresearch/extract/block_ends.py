"""A menu's end tag that libxml2 ignored, honoured as a browser does. Pure functions.

libxml2's HTML parser lets an end tag close the elements left open inside its element only
when none of them has a higher "end priority" than its own: ``<div>`` has 150, ``<nav>`` and
``<button>`` the default 100 (libxml2 ``HTMLparser.c``, ``htmlEndPriority``). So ``<nav><div>
Menu</nav><main>…`` — a ``<div>`` the template forgot to close — has its ``</nav>`` ignored,
and the rest of the page, the article included, is parsed *inside* the navigation. A browser
does not: the HTML Standard's "in body" rules for the end tag of ``button``, ``nav`` (and
``address``, ``article``, ``aside``…, §13.2.6.4.7) generate implied end tags and pop the
stack of open elements down to that element, closing the ``<div>``. WCXB dev: a publisher's
template (three article pages of half A) whose menu ``<button>`` holds an unclosed ``<div>``
put the whole article in the button — no text of the page was read as content and
trafilatura's flat text came out, the byline, the author's biography and "Was this page
helpful?" with it; a navigation took the article the same way on other sites.

:func:`swallowed_content` tells such a tree (a ``<main>``, an ``<article>`` — a WordPress
theme has no ``<main>`` and titles its post with an ``<h2>``, review n-18 — or an ``<h1>``
inside a ``<button>`` or a ``<nav>``: a browser never builds that from markup whose menu is closed);
:func:`close_chrome_blocks` then writes, before each ``</button>`` and ``</nav>``, the
``</div>`` end tags of the ``<div>`` elements opened inside that block and still open, so
that libxml2 builds what a browser builds — only where the parsed tree proves it needed: that
block (or one its end tag closes) holds a ``<main>``, ``<article>`` or ``<h1>`` whose start
tag comes after that end tag, so a logo heading in a closed navigation is left alone (on every WCXB dev page it repairs, the blocks'
text is what html5lib's tree holds). A block holding a table part is left alone (table cells
are scope boundaries in the HTML Standard: an end tag does not close through them, and
libxml2's table rules differ again). Comments, attribute values and the raw text of
``<script>``, ``<style>``, ``<textarea>`` and ``<title>`` are skipped.

WCXB dev, webresearch F1: article half A 0.9576 → 0.9591 (4 pages up to +0.14, one down
0.002: an article read as one bulleted list, now with its headings), half B 0.9586 → 0.9597
(one up, none down); collection A +0.001, service A −0.0001 (one page), the other types and
Zyte unchanged. The same repair of ``<header>``, ``<footer>`` and ``<aside>`` (a ``<main>``
inside them) was measured and left out: browser-true trees too, but trafilatura then chose
worse on a collection page of half B (−0.75) and an article of half B.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "CHROME_BLOCKS",
    "MAX_OPEN_BLOCKS",
    "close_chrome_blocks",
    "content_reach",
    "swallowed_content",
]

#: Blocks whose end tag closes the ``<div>`` elements left open inside them (HTML Standard
#: §13.2.6.4.7: "An end tag whose tag name is one of …"), where libxml2 ignores that end
#: tag; the others of that list are not repaired (module docstring).
CHROME_BLOCKS = frozenset({"button", "nav"})

# A comment, a raw-text element with its content, or a start or end tag (quoted attribute
# values may hold ">").
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|title)\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>.*?(?:</\1\s*>|\Z)"
    r"|<(/?)([A-Za-z][A-Za-z0-9:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>",
    re.S | re.I,
)
_TABLE = frozenset({"table", "td", "th", "tr", "thead", "tbody", "tfoot", "caption"})
_CONTENT = frozenset({"main", "article", "h1"})
_BLOCKS = tuple(sorted(CHROME_BLOCKS))
_INDEX = {tag: index for index, tag in enumerate(_BLOCKS)}
_WATCHED = (*_BLOCKS, *sorted(_CONTENT))

#: Open blocks of :data:`CHROME_BLOCKS` past which :func:`close_chrome_blocks` gives up (a
#: page that opens so many menus without closing them is no template's slip).
MAX_OPEN_BLOCKS = 512


def swallowed_content(root: etree._Element) -> bool:
    """True when ``root`` (a parsed page) holds a ``<main>``, ``<article>`` or ``<h1>`` inside
    a block of :data:`CHROME_BLOCKS`: the page's content parsed into its menu (module docstring)."""
    blocks = root.iter(*CHROME_BLOCKS)
    return any(next(block.iter(*_CONTENT), None) is not None for block in blocks)


def content_reach(root: etree._Element) -> dict[tuple[str, int], int]:
    """Per block of :data:`CHROME_BLOCKS` in ``root`` that holds a ``<main>``, an
    ``<article>`` or an ``<h1>``: ``(tag, n)`` (the block is the n-th element of that tag,
    from 0, in document order) → how many ``<main>``, ``<article>`` and ``<h1>`` elements
    start before the block ends (document order).

    libxml2 makes one element per start tag, in the order of the markup, so these ordinals
    are those of the start tags in the markup (:func:`close_chrome_blocks` counts them).
    One walk of the tree: linear in its size.
    """
    reach: dict[tuple[str, int], int] = {}
    seen = {tag: 0 for tag in CHROME_BLOCKS}
    opened: list[tuple[tuple[str, int], int]] = []  # (block, contents started before it)
    contents = 0
    for event, element in etree.iterwalk(root, events=("start", "end"), tag=_WATCHED):
        tag = str(element.tag)
        if tag in CHROME_BLOCKS:
            if event == "start":
                opened.append(((tag, seen[tag]), contents))
                seen[tag] += 1
            else:
                block, before = opened.pop()
                if contents > before:
                    reach[block] = contents
        elif event == "start":
            contents += 1
    return reach


def close_chrome_blocks(html: str, root: etree._Element | None = None) -> str:
    """``html`` with ``</div>`` end tags written before each end tag of a block of
    :data:`CHROME_BLOCKS` that has ``<div>`` elements opened inside it and still open.

    Args:
        html: the markup handed to the parser.
        root: the tree libxml2 built from ``html``; given, only an end tag the tree proves
            ignored is repaired: its block (or one it closes) holds a ``<main>``, an
            ``<article>`` or an ``<h1>`` whose start tag comes after that end tag
            (:func:`content_reach`) — a logo heading in a closed navigation is no proof.
            ``None``: every such end tag.

    Returns:
        the markup with those end tags inserted (the same string when none is needed).
        Each block is followed on its own: ``levels`` holds, per open block, the ``<div>``
        elements opened in it and still open; its end tag closes them, and those of the
        blocks still open inside it; a ``</div>`` with none open in the innermost block
        closes a ``<div>`` around it, and so the block too (libxml2 and a browser agree
        there); a block holding a table part is not repaired. A self-closing ``<div/>``,
        ``<nav/>`` or ``<button/>`` is not open (libxml2 closes it at once). Linear in the
        markup: counts, not rescans; past :data:`MAX_OPEN_BLOCKS` open blocks the markup
        is returned as it is.
    """
    reach = content_reach(root) if root is not None else None
    levels: list[list[int]] = []  # [tag index, open divs, block ordinal]
    open_count = [0] * len(_BLOCKS)  # open blocks per tag
    ordinals = [0] * len(_BLOCKS)  # start tags seen per tag
    tabled = 0  # the levels[:tabled] hold a table part
    contents = 0  # <main>, <article> and <h1> start tags seen
    inserts: list[tuple[int, int]] = []  # (position of the end tag, </div> count)
    for match in _TOKEN.finditer(html):
        name = match.group(3)
        if name is None:
            continue  # a comment or raw text
        name = name.lower()
        closing = match.group(2) == "/"
        if not closing:
            if name in _CONTENT:
                contents += 1
            elif name in _INDEX:
                index = _INDEX[name]
                ordinal = ordinals[index]
                ordinals[index] += 1
                if not match.group(0).endswith("/>"):
                    if len(levels) >= MAX_OPEN_BLOCKS:
                        return html
                    levels.append([index, 0, ordinal])
                    open_count[index] += 1
            elif not levels or match.group(0).endswith("/>"):
                continue
            elif name == "div":
                levels[-1][1] += 1
            elif name in _TABLE:
                tabled = len(levels)
            continue
        if not levels:
            continue
        if name == "div":
            while levels:
                if levels[-1][1]:
                    levels[-1][1] -= 1
                    break
                open_count[levels.pop()[0]] -= 1  # the </div> closes a <div> around it
            tabled = min(tabled, len(levels))
            continue
        index = _INDEX.get(name, -1)
        if index < 0 or not open_count[index]:
            continue  # an end tag with no such block open: ignored by both
        count, tables, proven = 0, False, reach is None  # inner blocks close with it
        while levels:
            tag, divs, ordinal = levels.pop()
            open_count[tag] -= 1
            tables = tables or len(levels) < tabled
            count += divs
            if reach is not None and reach.get((_BLOCKS[tag], ordinal), 0) > contents:
                proven = True
            if tag == index:
                break
        tabled = min(tabled, len(levels))
        if count and not tables and proven:
            inserts.append((match.start(), count))
    if not inserts:
        return html
    out: list[str] = []
    last = 0
    for position, count in inserts:
        out.append(html[last:position])
        out.append("</div>" * count)
        last = position
    out.append(html[last:])
    return "".join(out)
