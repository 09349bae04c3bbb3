"""Relative link and image addresses a saved page cannot resolve: it was read without the
address it was served from. Pure functions.

A page read from a file (``webresearch fetch saved.html``) has only its ``file:///`` path
as its address: a relative ``href``/``src`` (``/contact``, ``img/a.jpg``) resolves to a
``file:`` address, which :func:`~webresearch.extract.urls.absolute_url` drops (the link keeps
its text, the image its alt text). Counted with the same rules the extraction uses
(:func:`~webresearch.extract.urls.absolute_url`, :func:`~webresearch.extract.urls.image_source`),
so a count is exactly the targets an ``http``/``https`` base would have kept (new-user test
16, M4). A ``<base href="https://…">`` in the page resolves them already: none then.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.charset import decode_document
from webresearch.extract.parse import parse_html
from webresearch.extract.sniff import is_html_mime, sniff_mime
from webresearch.extract.urls import absolute_url, document_base_url, image_source

__all__ = ["unresolved_links"]

#: Any web address: what an address would resolve against had the page's URL been given.
_WEB_BASE = "https://example.invalid/page"


def unresolved_links(body: bytes, content_type: str | None, page_url: str) -> int:
    """How many ``<a href>`` and ``<img>`` addresses of the HTML ``body`` get no target
    because ``page_url`` (a ``file:`` address) is not a web address.

    Args:
        body: the page's bytes (anything that is not HTML counts 0).
        content_type: its declared Content-Type, or ``None`` (sniffed as extraction does).
        page_url: the address it was read from.

    Returns:
        the number of links and images that a web address as base would resolve (a
        fragment-only ``#top`` is not counted: it names the page itself); 0 when the page's
        base (``page_url`` or its ``<base href>``) is a web address.
    """
    if not is_html_mime(sniff_mime(body, content_type)):
        return 0
    root = parse_html(decode_document(body, content_type, html=True).text)
    base = document_base_url(root, page_url)
    if base.lower().startswith(("http://", "https://")):
        return 0
    links = sum(_lost(a.get("href"), base) for a in root.iter("a"))
    images = sum(_image_lost(img, base) for img in root.iter("img"))
    return links + images


def _lost(href: str | None, base: str) -> bool:
    if href is None or href.strip().startswith("#"):
        return False
    return absolute_url(href, base) is None and absolute_url(href, _WEB_BASE) is not None


def _image_lost(img: etree._Element, base: str) -> bool:
    return image_source(img, base) is None and image_source(img, _WEB_BASE) is not None
