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
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.markdown_inline import (
    collapse_inline,
    escape_inline_text,
    escape_line_starts,
)
from webresearch.extract.markdown_links import link_markdown

__all__ = ["MIN_LINK_LINES", "MIN_LINK_LINE_SHARE", "link_listing"]

#: The fewest lines starting with a link.
MIN_LINK_LINES = 3
#: The least share of the lines with text that start with a link.
MIN_LINK_LINE_SHARE = 2 / 3

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
    lines = [line for line in _lines(el) if "".join(text for text, _ in line).strip()]
    starting = sum(1 for line in lines if _starts_with_link(line))
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


def _starts_with_link(line: list[_Piece]) -> bool:
    for text, href in line:
        if href is not None:
            return bool(text)
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
