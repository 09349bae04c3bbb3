"""``<meta http-equiv="refresh">``: a client-side redirect in a page's markup. Pure functions.

Static-site hosts, documentation mirrors and old CMSs still move pages with
``<meta http-equiv="refresh" content="0;url=/new/">`` (no ``Location``, no script). web_fetch
follows such a refresh like a redirect when it is meant as one — a delay of at most
:data:`MAX_FOLLOWED_DELAY_S` seconds on a page without readable text of its own — and
otherwise names its target (SPEC §1.1, case 37). A news page that reloads itself every 300 s
is not a redirect.

The ``content`` value is parsed by the HTML standard's "shared declarative refresh steps"
(WHATWG HTML §4.2.5.3): a delay of ASCII digits (a fraction is ignored), then ``;`` or
``,`` and spaces, then optionally ``URL`` (any case) and ``=``, then the URL, optionally in
quotes. The URL is resolved against the page's URL; only http(s) targets are returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

__all__ = [
    "MAX_FOLLOWED_DELAY_S",
    "MAX_OWN_TEXT_CHARS",
    "MetaRefresh",
    "find_meta_refresh",
    "is_followed",
    "reloads_itself",
]

#: Longest delay (seconds) of a refresh that is followed as a redirect.
MAX_FOLLOWED_DELAY_S = 5
#: A page with at most this many letters and digits of text (links' targets not counted)
#: has no readable content of its own ("Redirecting… click here if nothing happens").
MAX_OWN_TEXT_CHARS = 300
#: Characters of the page looked at for the ``<meta>`` (it belongs in ``<head>``).
HEAD_CHARS = 65536

_META = re.compile(r"<meta\b([^>]*)>", re.I)
_ATTRIBUTE = re.compile(
    r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""", re.S
)
_DELAY = re.compile(r"\s*([0-9]*)(\.[0-9.]*)?")
_URL_LABEL = re.compile(r"url\s*=\s*", re.I)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_ENTITIES = {"&amp;": "&", "&quot;": '"', "&#39;": "'", "&apos;": "'", "&lt;": "<", "&gt;": ">"}


@dataclass(frozen=True, slots=True)
class MetaRefresh:
    """A page's declarative refresh.

    Attributes:
        delay_s: seconds the page asks to wait.
        url: the absolute http(s) target (a refresh of the page itself has its own URL).
    """

    delay_s: int
    url: str


def _attributes(tag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(tag):
        name = match.group(1).lower()
        value = next((g for g in match.groups()[1:] if g is not None), "")
        out.setdefault(name, value)
    return out


def _unescape(value: str) -> str:
    for entity, char in _ENTITIES.items():
        value = value.replace(entity, char)
    return value


def parse_refresh(content: str, page_url: str) -> MetaRefresh | None:
    """The refresh a ``content`` value declares, or ``None`` (no delay, or not http(s)).

    Args:
        content: the ``content`` attribute (entities already decoded).
        page_url: the page's final URL (relative targets resolve against it).
    """
    match = _DELAY.match(content)
    if match is None or not match.group(1):
        return None
    delay = int(match.group(1)[:6])
    rest = content[match.end() :].lstrip(" \t\n\f\r")
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip(" \t\n\f\r")
    label = _URL_LABEL.match(rest)
    if label is not None:
        rest = rest[label.end() :]
    if rest[:1] in ('"', "'"):
        quote, rest = rest[0], rest[1:]
        rest = rest.split(quote, 1)[0]
    target = rest.strip()
    try:
        url = urljoin(page_url, target) if target else page_url
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    if scheme not in ("http", "https"):
        return None  # javascript:, data:, file: … are never a place to go
    return MetaRefresh(delay, url)


def find_meta_refresh(html: str, page_url: str) -> MetaRefresh | None:
    """The first ``<meta http-equiv="refresh">`` of a page (in its first
    :data:`HEAD_CHARS` characters) that declares an http(s) target, or ``None``.

    Args:
        html: the decoded page.
        page_url: the page's final URL.
    """
    for match in _META.finditer(html, 0, HEAD_CHARS):
        attributes = _attributes(match.group(1))
        if attributes.get("http-equiv", "").strip().lower() != "refresh":
            continue
        refresh = parse_refresh(_unescape(attributes.get("content", "")), page_url)
        if refresh is not None:
            return refresh
    return None


def reloads_itself(refresh: MetaRefresh, page_url: str) -> bool:
    """True when the refresh only reloads the page (the same URL, fragments aside)."""
    return refresh.url.split("#", 1)[0] == page_url.split("#", 1)[0]


def is_followed(refresh: MetaRefresh, page_text: str) -> bool:
    """True when a refresh to another page is a redirect: a short delay on a page without
    readable content of its own (``page_text``: what extraction made of it)."""
    own = sum(ch.isalnum() for ch in _LINK_TARGET.sub("]", page_text))
    return refresh.delay_s <= MAX_FOLLOWED_DELAY_S and own <= MAX_OWN_TEXT_CHARS
