"""A ``<pre>`` that is a listing of links → lines of markdown with their links. Pure
functions, used by :mod:`webresearch.extract.markdown`.

A web server's directory listing (Apache's and nginx's "Index of /pub/": a ``<pre>`` whose
every line starts with a link to a file, then its date and size) was written as a fenced
code block, and markdown inside a code block is text: the model saw the file names and
could not follow one (review n-18). :func:`link_listing` writes such a ``<pre>`` as lines
(CommonMark hard line breaks) whose links stay links, the other text as text, its runs of
spaces as one. A ``<pre>`` is such a listing when at least :data:`MIN_LINK_LINES` of its
lines, and at least :data:`MIN_LINK_LINE_SHARE` of those with text, *start* with a link:
code whose names are linked (rustdoc's and Javadoc's signatures, a source view) starts its
lines with keywords, indentation or punctuation, and stays code.

A line number is not a file: a link whose text is only a number, or whose ``href`` is a
fragment of the page itself (``#l-12``), starts no line of a listing — a source view's
anchored line numbers (OpenGrok, LXR; Pygments' ``anchorlinenos`` in MkDocs Material) start
every line with one, and such code lost its fence and indentation (review r-18a). A
``<pre>`` marked as code by a syntax highlighter's class, its own or an ancestor's
(:data:`CODE_CLASSES`: Pygments' ``highlight`` block and ``highlighttable`` gutter,
highlight.js, Prism's ``language-…``), is code whatever its links.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urljoin

from lxml import etree

from webresearch.extract.markdown_inline import (
    collapse_inline,
    escape_inline_text,
    escape_line_starts,
)
from webresearch.extract.markdown_links import link_markdown

__all__ = [
    "CODE_CLASSES",
    "CODE_CLASS_PREFIXES",
    "MIN_LINK_LINES",
    "MIN_LINK_LINE_SHARE",
    "link_listing",
]

#: The fewest lines starting with a link.
MIN_LINK_LINES = 3
#: The least share of the lines with text that start with a link.
MIN_LINK_LINE_SHARE = 2 / 3

#: Class tokens (lower case) of a syntax highlighter's block, table or gutter: Pygments
#: (``highlight``, ``highlighttable``, ``linenos``, ``linenodiv``, ``codehilite``), Hugo's
#: Chroma, highlight.js, Pandoc (``sourceCode``), Google's prettify, SyntaxHighlighter.
CODE_CLASSES = frozenset({
    "highlight", "highlighttable", "linenos", "linenodiv", "codehilite", "chroma", "hljs",
    "sourcecode", "prettyprint", "syntaxhighlighter", "code", "source-code",
})  # fmt: skip
#: Prefixes of such class tokens: Prism's and CommonMark's ``language-…``, ``lang-…``,
#: Sphinx's ``highlight-…``.
CODE_CLASS_PREFIXES = ("language-", "lang-", "highlight-")
#: How many ancestors of a ``<pre>`` are looked at for such a class (Pygments' table: the
#: ``<pre>`` in a ``<div>`` in a ``<td>`` in a ``<tr>`` (a ``<tbody>``) in the table).
_CODE_ANCESTORS = 5

#: Inline syntax in a link's text but brackets (``markdown_inline.escape_inline_text``).
_LINK_TEXT_ACTIVE = re.compile(r"[\\`*_<>~$]|&(?=#?\w+;)")

#: A piece of a line: its text and, for a link's, its ``href`` (``None``: plain text).
_Piece = tuple[str, str | None]


def link_listing(el: etree._Element, base_url: str) -> str:
    """``el`` (a ``<pre>``) as lines of markdown with their links when it is a listing of
    links (module docstring), else ``""``. ``base_url``: what relative links resolve
    against."""
    if sum(1 for _ in zip(range(MIN_LINK_LINES), el.iter("a"), strict=False)) < MIN_LINK_LINES:
        return ""  # most code blocks: no walk in Python
    if _marked_as_code(el):
        return ""
    lines = [line for line in _lines(el) if "".join(text for text, _ in line).strip()]
    page = urldefrag(base_url).url
    starting = sum(1 for line in lines if _starts_with_link(line, page))
    if starting < MIN_LINK_LINES or starting < MIN_LINK_LINE_SHARE * len(lines):
        return ""
    return "\\\n".join(_line_markdown(line, base_url) for line in lines)


def _lines(el: etree._Element) -> list[list[_Piece]]:
    """The pieces of ``el``'s text, line by line: a link's text whole (its line breaks as
    spaces), ``<br>`` and ``<hr>`` as line ends, other elements' text in place."""
    pieces: list[_Piece] = [(el.text or "", None)]
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if node is el:
            continue
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        if event == "end":
            pieces.append((node.tail or "", None))  # also after a skipped subtree
        elif tag == "a" and node.get("href"):
            pieces.append((" ".join("".join(node.itertext()).split()), node.get("href")))
            walker.skip_subtree()
        elif tag in ("br", "hr"):
            pieces.append(("\n", None))
        elif tag in ("script", "style", "button") or not tag:
            walker.skip_subtree()
        else:
            pieces.append((node.text or "", None))
    lines: list[list[_Piece]] = [[]]
    for text, href in pieces:
        if href is not None:
            lines[-1].append((text, href))
            continue
        first, *rest = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        lines[-1].append((first, None))
        lines.extend([(part, None)] for part in rest)
    return lines


def _marked_as_code(el: etree._Element) -> bool:
    """Whether ``el`` or one of its :data:`_CODE_ANCESTORS` nearest ancestors has a class
    of :data:`CODE_CLASSES` or :data:`CODE_CLASS_PREFIXES`."""
    node: etree._Element | None = el
    for _ in range(_CODE_ANCESTORS + 1):
        if node is None:
            return False
        for token in (node.get("class") or "").lower().split():
            if token in CODE_CLASSES or token.startswith(CODE_CLASS_PREFIXES):
                return True
        node = node.getparent()
    return False


def _starts_with_link(line: list[_Piece], page: str) -> bool:
    """Whether the line's first text is a link's, not a line number's (a number, or a link
    to a fragment of ``page``, the page's address without its fragment)."""
    for text, href in line:
        if href is not None:
            if not text or text.isdigit():
                return False
            target, fragment = urldefrag(urljoin(page, href.strip()))
            return not (fragment and target == page)
        if text.strip():
            return False
    return False


def _line_markdown(line: list[_Piece], base_url: str) -> str:
    parts = []
    for text, href in line:
        if href is None:
            parts.append(escape_inline_text(text))
        elif text:  # brackets are the link's to escape (markdown_links.link_markdown)
            parts.append(
                link_markdown(href, _LINK_TEXT_ACTIVE.sub(r"\\\g<0>", text), base_url, False)
            )
    return escape_line_starts(collapse_inline("".join(parts)).strip())
