"""Link and image addresses made absolute for markdown. Pure functions.

Every link target the model sees is absolute (``https://…``, ``mailto:…``, ``tel:…``), resolved
against the page's final URL or its ``<base href>``; script and data addresses are dropped
(the link keeps its text); characters that would break markdown link syntax (spaces,
parentheses, angle brackets) are percent-encoded, so no ``<…>`` wrapping is ever needed —
and so is any other whitespace character (U+202F, the narrow no-break space of macOS
screenshot names "… 9.57 AM.png", U+00A0, U+3000), as a browser's address bar encodes
it: a reader splitting at whitespace (a model's tokenizer, a markdown tool matching runs
of non-space) no longer reads the address's tail as prose.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urljoin, urlsplit

from lxml import etree

__all__ = ["absolute_url", "document_base_url", "image_source", "link_target"]

_KEPT_SCHEMES = frozenset({"http", "https", "ftp", "mailto", "tel"})
_STRIP = re.compile(r"[\t\n\r]")
#: Whitespace beyond ASCII (the ASCII kinds are stripped or in :data:`_ESCAPES`).
_WIDE_SPACE = re.compile(r"[^\S\t\n\r\f\v ]")
_ESCAPES = str.maketrans(
    {
        " ": "%20",
        "\f": "%0C",
        "\v": "%0B",
        "(": "%28",
        ")": "%29",
        "<": "%3C",
        ">": "%3E",
        '"': "%22",
    }
)
_PLACEHOLDER = re.compile(
    r"^data:|(?:^|/)(?:blank|spacer|pixel|transparent|placeholder|lazy)[^/]*\.(?:gif|png|svg)$",
    re.I,
)


def absolute_url(href: str | None, base_url: str) -> str | None:
    """``href`` resolved against ``base_url``, or ``None`` when it is no useful target.

    Args:
        href: the raw attribute value (may be relative, protocol-relative, query-only,
            fragment-only, or carry surrounding whitespace).
        base_url: an absolute URL (the page URL or the resolved ``<base href>``).

    Returns:
        an absolute ``http``/``https``/``ftp`` URL, or a ``mailto:``/``tel:`` address kept as
        written; ``None`` for empty values, ``javascript:``, ``data:``, other schemes and
        addresses that cannot be parsed.
    """
    if href is None:
        return None
    href = _STRIP.sub("", href).strip()
    if not href:
        return None
    scheme = href.split(":", 1)[0].lower() if ":" in href.split("/", 1)[0] else ""
    if scheme in ("mailto", "tel"):
        return href.translate(_ESCAPES)
    if scheme and scheme not in _KEPT_SCHEMES:
        return None
    try:
        joined = urljoin(base_url, href) if base_url else href
        parts = urlsplit(joined)
    except ValueError:
        return None
    if parts.scheme.lower() not in _KEPT_SCHEMES or not parts.netloc:
        return None
    return link_target(joined)


def link_target(address: str) -> str:
    """``address`` with the characters that would break a markdown link target (spaces and
    every other whitespace character, parentheses, angle brackets, double quotes)
    percent-encoded (UTF-8); the rest as written (a non-ASCII letter stays a letter, as a
    browser's address bar shows it)."""
    address = address.translate(_ESCAPES)
    if address.isascii() or not _WIDE_SPACE.search(address):
        return address
    return _WIDE_SPACE.sub(lambda m: quote(m.group(0), safe=""), address)


def document_base_url(root: etree._Element, page_url: str) -> str:
    """The URL relative links resolve against: the first ``<base href>`` or the page URL.

    Args:
        root: the parsed document (any element of it; the search covers the whole tree).
        page_url: the final URL of the page (after redirects).

    Returns:
        an absolute URL; ``page_url`` when there is no usable ``<base href>``.
    """
    tree_root = root.getroottree().getroot()
    for base in tree_root.iter("base"):
        href = base.get("href")
        if href is None:
            continue
        resolved = absolute_url(href, page_url)
        if resolved is not None and urlsplit(resolved).scheme in ("http", "https"):
            return resolved
        break
    return page_url


def image_source(img: etree._Element, base_url: str) -> str | None:
    """The absolute address of an ``<img>``, preferring a real one over a lazy-load placeholder.

    Looks at ``src``, then ``data-src`` / ``data-lazy-src`` / ``data-original``, then the first
    candidate of ``srcset`` / ``data-srcset``. ``data:`` images and spacer GIFs are skipped.

    Returns:
        an absolute URL, or ``None`` when the image has no usable address.
    """
    candidates = [
        img.get("src"),
        img.get("data-src"),
        img.get("data-lazy-src"),
        img.get("data-original"),
        _first_srcset(img.get("srcset")),
        _first_srcset(img.get("data-srcset")),
    ]
    for candidate in candidates:
        if not candidate or _PLACEHOLDER.search(candidate.strip()):
            continue
        resolved = absolute_url(candidate, base_url)
        if resolved is not None and not resolved.startswith(("mailto:", "tel:")):
            return resolved
    return None


def _first_srcset(value: str | None) -> str | None:
    if not value:
        return None
    first = value.strip().split(",", 1)[0].strip()
    return first.split()[0] if first else None
