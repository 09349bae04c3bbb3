"""Frameset pages: their ``<noframes>`` content, or a list of their frames. Pure functions.

A frameset page (HTML 4.01 §16.2) has no body text of its own: what a reader sees is in
the documents its ``<frame>`` elements load. Many carry a ``<noframes>`` alternative for
browsers without frames — usually the same content, or at least links to it. HTML parsing
keeps that alternative as raw text (HTML Standard §13.2.6.4.19 "in frameset": the
``noframes`` start tag switches to the RAWTEXT state), so the tree holds its markup as one
escaped string: it is parsed here and becomes the page's body, as a browser without frame
support shows it. A frameset page without a readable ``<noframes>`` gets a short note
naming its frames and their addresses: nothing about it suggests scripts, and the frames
are what to read next. A page with ``<noframes>`` content gets the same note after it
(:func:`with_frame_list`) unless what it became already links every frame: the alternative
is often only "Your browser does not support frames.", and then the frames' addresses are
the one useful thing the page says. (What it *became* is checked, not its markup: links
the extractor left out as navigation would not reach the reader.)
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from lxml import etree

from webresearch.extract.markdown_inline import escape_inline_text, link_destination
from webresearch.extract.parse import parse_html
from webresearch.extract.urls import absolute_url, link_target

__all__ = ["frames_markdown", "frameset_of", "open_noframes", "with_frame_list"]

_NOTE = "This page is a frameset: its content is in the pages its frames show."
#: A markdown link's target (the extractor writes targets without spaces or brackets).
_TARGET = re.compile(r"\]\(([^)\s]+)\)")
#: An address with a scheme of its own, or a network-path reference (RFC 3986 §4.2).
_NOT_RELATIVE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|//")


def frameset_of(body: etree._Element) -> etree._Element | None:
    """The ``<frameset>`` of a frameset page, or ``None`` for any other page.

    Args:
        body: the page's ``<body>`` (the parser puts a top-level frameset there).

    Returns:
        the first ``<frameset>`` when the body holds one and no text outside framesets and
        ``<noframes>`` (a page with text of its own is not a frameset page).
    """
    frameset = next(body.iter("frameset"), None)
    if frameset is None:
        return None
    walker = etree.iterwalk(body, events=("start",))
    for _, el in walker:
        if el is not body and el.tail and el.tail.strip():
            return None
        if el.tag in ("frameset", "noframes"):
            walker.skip_subtree()
        elif el.text and el.text.strip():
            return None
    return frameset


def open_noframes(doc: etree._Element, body: etree._Element) -> bool:
    """Replace the content of ``body`` with the parsed ``<noframes>`` content of ``doc``.

    Args:
        doc: the parsed document (a frameset page: :func:`frameset_of`).
        body: its ``<body>``, changed in place only when a ``<noframes>`` holds text.

    Returns:
        ``True`` when readable ``<noframes>`` content became the body, else ``False``
        (nothing changed).
    """
    parsed: list[etree._Element] = []
    for noframes in doc.iter("noframes"):
        markup = noframes.text or ""
        if len(noframes):  # a parser that built elements: take them as they are
            markup += "".join(etree.tostring(c, encoding="unicode") for c in noframes)
        alternative = parse_html(markup).find("body")
        if alternative is not None and "".join(alternative.itertext()).strip():
            parsed.append(alternative)
    if not parsed:
        return False
    for child in list(body):
        body.remove(child)
    body.text = parsed[0].text
    for alternative in parsed:
        body.extend(list(alternative))
    return True


def _frame_links(frameset: etree._Element, base_url: str) -> list[tuple[str, str]]:
    """``(label, target)`` of each frame with a usable address, in page order.

    The target is the absolute ``http(s)`` address, or — when the base cannot make one (a
    local file read without ``--base-url``: its frames resolve to ``file://`` addresses,
    which the extractor does not link) — the relative address as written, percent-encoded
    as an absolute one is (:func:`~webresearch.extract.urls.link_target`: ``sub/ü.html``
    reads the same with and without a base), which stays valid next to the file. A written
    address with a scheme of its own that gives no web link (``javascript:``, ``file:``) is
    left out; nothing is ever fetched here.
    """
    links = []
    for frame in frameset.iter("frame"):
        written = (frame.get("src") or "").strip()
        href = absolute_url(written, base_url)
        if href is None:
            if not written or _NOT_RELATIVE.match(written):
                continue
            href = link_target(written)  # encoded as absolute_url encodes
        label = " ".join((frame.get("title") or frame.get("name") or written).split())
        links.append((escape_inline_text(label), link_destination(href)))
    return links


def frames_markdown(frameset: etree._Element, base_url: str) -> str:
    """A note that the page is a frameset, and a list of its frames' links.

    Args:
        frameset: the page's ``<frameset>`` (nested framesets included).
        base_url: what relative frame addresses resolve against.

    Returns:
        markdown: the note, then one ``- [name](url)`` line per frame with an address (its
        ``title``, else its ``name``, else the address as written, is the link text).
    """
    lines = [f"- [{label}]({href})" for label, href in _frame_links(frameset, base_url)]
    return "\n\n".join([_NOTE, "\n".join(lines)]) if lines else _NOTE


def with_frame_list(markdown: str, frameset: etree._Element, base_url: str) -> str:
    """``markdown`` (a frameset page's ``<noframes>`` content), then its frames' list.

    Args:
        markdown: what the page's ``<noframes>`` content became.
        frameset: the page's ``<frameset>``.
        base_url: what relative frame addresses resolve against.

    Returns:
        ``markdown`` unchanged when it links every frame's address already (fragments
        aside) or no frame has a usable address; else ``markdown``, a blank line and
        :func:`frames_markdown` (module docstring: boilerplate-only ``<noframes>``).
    """
    wanted = {urldefrag(href).url for _, href in _frame_links(frameset, base_url)}
    linked = {urldefrag(target).url for target in _TARGET.findall(markdown)}
    if wanted <= linked:
        return markdown
    return "\n\n".join(part for part in (markdown, frames_markdown(frameset, base_url)) if part)
