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
that libxml2 builds what a browser builds (on every WCXB dev page it repairs, the blocks'
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

__all__ = ["CHROME_BLOCKS", "close_chrome_blocks", "swallowed_content"]

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


def swallowed_content(root: etree._Element) -> bool:
    """True when ``root`` (a parsed page) holds a ``<main>``, ``<article>`` or ``<h1>`` inside
    a block of :data:`CHROME_BLOCKS`: the page's content parsed into its menu (module docstring)."""
    for block in root.iter(*CHROME_BLOCKS):
        if next(block.iter("main", "h1", "article"), None) is not None:
            return True
    return False


def close_chrome_blocks(html: str) -> str:
    """``html`` with ``</div>`` end tags written before each end tag of a block of
    :data:`CHROME_BLOCKS` that has ``<div>`` elements opened inside it and still open.

    Args:
        html: the markup handed to the parser.

    Returns:
        the markup with those end tags inserted (the same string when none is needed).
        Each block is followed on its own: ``levels`` holds, per open block, the ``<div>``
        elements opened in it and still open; its end tag closes them, and those of the
        blocks still open inside it; a ``</div>`` with none open in the innermost block
        closes a ``<div>`` around it, and so the block too (libxml2 and a browser agree
        there); a block holding a table part is not repaired.
    """
    levels: list[tuple[str, int, bool]] = []  # (tag, open divs, holds a table part)
    inserts: list[tuple[int, int]] = []  # (position of the end tag, </div> count)
    for match in _TOKEN.finditer(html):
        name = match.group(3)
        if name is None or (not levels and name.lower() not in CHROME_BLOCKS):
            continue  # a comment or raw text; or nothing to follow yet
        name = name.lower()
        closing = match.group(2) == "/"
        if not closing:
            if name in CHROME_BLOCKS:
                levels.append((name, 0, False))
            elif name == "div":
                tag, divs, table = levels[-1]
                levels[-1] = (tag, divs + 1, table)
            elif name in _TABLE:
                levels[:] = [(tag, divs, True) for tag, divs, _ in levels]
            continue
        if name == "div":
            while levels:
                tag, divs, table = levels[-1]
                if divs:
                    levels[-1] = (tag, divs - 1, table)
                    break
                levels.pop()  # the </div> closes a <div> around this block, and the block
            continue
        if name not in CHROME_BLOCKS or all(tag != name for tag, _, _ in levels):
            continue  # an end tag with no such block open: ignored by both
        count, tables = 0, False  # the blocks inside it still open close with it
        while levels:
            tag, divs, table = levels.pop()
            count, tables = count + divs, tables or table
            if tag == name:
                break
        if count and not tables:
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
