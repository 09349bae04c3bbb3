"""Fetch scope (SPEC §1.5): who may choose the URL for web_fetch, fetch_image, browser open.

* ``open`` — any public URL (the SSRF guard still applies);
* ``search_results`` — only URLs returned by this run's latest web_search (the fragment is
  ignored; each new search replaces the set; kept :data:`SEARCH_RESULTS_TTL_S`);
* ``user_links`` — only URLs in the person's own messages (never the agent's or tool
  output); a bare name (``acme-shop``) expands on the configured app domains
  (``https://acme-shop.<domain>/``); an e-mail address is not a link; at most
  :data:`USER_LINK_VIEWS` views per conversation — refusals are free, failed opens count.

Pure rules here (URL normalisation, link extraction); per-run state lives behind
:class:`ScopeStore` (in-process here, shared backends in ``webresearch.backends``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "SEARCH_RESULTS_TTL_S",
    "USER_LINK_VIEWS",
    "VIEWS_TTL_S",
    "MemoryScopeStore",
    "ScopeStore",
    "scope_key",
    "user_links",
]

#: How long a run's latest search results stay a valid scope (seconds). Issue: "kept 6 hours".
SEARCH_RESULTS_TTL_S = 6 * 3600.0
#: Views per conversation in the ``user_links`` scope (seed notes: PERSON_LINKS_PER_CHAT = 3).
USER_LINK_VIEWS = 3
#: A conversation's view count is forgotten this long after its last counted view (seconds),
#: so shared stores hold nothing forever (issue 7). A week outlives any working session.
VIEWS_TTL_S = 7 * 24 * 3600.0

_DEFAULT_PORTS = {"http": 80, "https": 443}


def scope_key(url: str) -> str | None:
    """A URL normalised for scope comparison, or ``None`` when it is not an http(s) URL.

    Lower-cases scheme and host, drops a default port, an empty path becomes ``/``, the
    fragment is dropped; path and query are kept exactly.
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower().rstrip(".")
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


_URL_IN_TEXT = re.compile(r"""https?://[^\s<>"'`]+""", re.IGNORECASE)
_TRAILING_PUNCT = ".,;:!?)]}»”’'\""
_BARE_NAME = re.compile(
    r"(?<![\w@./-])([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?![\w@-]|\.\w)", re.IGNORECASE
)
_HOST_IN_TEXT = re.compile(
    r"(?<![\w@/.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})(/[^\s<>\"'`]*)?",
    re.IGNORECASE,
)


def _strip_trailing(url: str) -> str:
    while url and url[-1] in _TRAILING_PUNCT:
        if url[-1] == ")" and url.count("(") >= url.count(")"):
            break
        url = url[:-1]
    return url


def user_links(messages: Iterable[str], app_domains: Iterable[str] = ()) -> set[str]:
    """Scope keys of every link in the person's own messages.

    Args:
        messages: the person's messages only (never the agent's or tool output).
        app_domains: domains on which a bare name or host is accepted, e.g. ``["example.app"]``:
            ``acme`` → ``https://acme.example.app/``; ``acme.example.app/path`` → that URL.

    Returns:
        normalised URLs (:func:`scope_key`). E-mail addresses are not links.
    """
    domains = [d.lower().strip(".") for d in app_domains if d.strip(".")]
    out: set[str] = set()
    for text in messages:
        for m in _URL_IN_TEXT.finditer(text):
            key = scope_key(_strip_trailing(m.group(0)))
            if key:
                out.add(key)
        if not domains:
            continue
        without_urls = _URL_IN_TEXT.sub(" ", text)
        for m in _HOST_IN_TEXT.finditer(without_urls):
            host = m.group(1).lower()
            if any(host == d or host.endswith("." + d) for d in domains):
                key = scope_key(f"https://{host}{_strip_trailing(m.group(2) or '/')}")
                if key:
                    out.add(key)
        for m in _BARE_NAME.finditer(without_urls):
            name = m.group(1).lower()
            if "-" in name or any(c.isdigit() for c in name) or len(name) >= 3:
                for d in domains:
                    key = scope_key(f"https://{name}.{d}/")
                    if key:
                        out.add(key)
    return out


class ScopeStore(Protocol):
    """Per-run scope state (every backend has the same semantics)."""

    async def set_search_results(self, run_id: str, urls: list[str]) -> None:
        """Replace the run's latest search results (kept :data:`SEARCH_RESULTS_TTL_S`)."""
        ...

    async def search_results(self, run_id: str) -> set[str] | None:
        """Scope keys of the run's latest search, or ``None`` when there was none (or expired)."""
        ...

    async def add_view(self, conversation: str, limit: int) -> bool:
        """Count one view if fewer than ``limit`` were counted; False when the limit is reached.

        The count is forgotten :data:`VIEWS_TTL_S` after the last counted view.
        """
        ...


class MemoryScopeStore:
    """In-process scope state.

    Args:
        clock: monotonic seconds (tests inject a fake).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._results: dict[str, tuple[float, set[str]]] = {}
        self._views: dict[str, tuple[float, int]] = {}

    async def set_search_results(self, run_id: str, urls: list[str]) -> None:
        keys = {k for k in (scope_key(u) for u in urls) if k}
        self._results[run_id] = (self._clock() + SEARCH_RESULTS_TTL_S, keys)

    async def search_results(self, run_id: str) -> set[str] | None:
        item = self._results.get(run_id)
        if item is None:
            return None
        expires, keys = item
        if self._clock() >= expires:
            del self._results[run_id]
            return None
        return keys

    async def add_view(self, conversation: str, limit: int) -> bool:
        now = self._clock()
        expires, used = self._views.get(conversation, (now, 0))
        if now >= expires:
            used = 0
        if used >= limit:
            return False
        self._views[conversation] = (now + VIEWS_TTL_S, used + 1)
        return True
