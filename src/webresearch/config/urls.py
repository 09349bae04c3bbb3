"""Operator URLs in the forms operators paste (issue 21 item 2). Pure functions.

An operator copies a service's address from its documentation, a browser or a compose file:
with or without the endpoint path the service documents (``…/search``, ``…/v2``,
``…/json/version``), with or without a trailing slash, under a reverse proxy's sub-path.
Each function here returns the one form the code dials, or raises :class:`ValueError` with
the expected form named — at start, never as a ``protocol`` error at the first call. The
messages never repeat the value (it may hold a password or an internal address).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import SplitResult, urlsplit, urlunsplit

from .defaults import STATE_URL_SCHEMES

__all__ = [
    "cdp_url",
    "has_userinfo",
    "journal_url",
    "service_base_url",
    "state_url",
    "without_userinfo",
]

_VERSION_SEGMENT = re.compile(r"v[0-9]+(?:\.[0-9]+)*", re.I)
#: The DevTools HTTP endpoints a CDP URL may be copied with (Chrome's /json/version …).
_DEVTOOLS_PATHS = ("/json/version", "/json/list", "/json")


def _split(raw: str, what: str) -> SplitResult:
    try:
        parts = urlsplit(raw.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is not 0-65535)
    except ValueError:
        raise ValueError(f"is not a URL with a valid port ({what})") from None
    return parts


def _strip_api_path(path: str, api_paths: Sequence[str]) -> str:
    """``path`` without a trailing documented endpoint path or a leading part of one
    (``/v2/scrape``, ``/v2``), longest first, once."""
    candidates = sorted(
        {
            "/" + "/".join(segments[:n])
            for api in api_paths
            if (segments := [s for s in api.split("/") if s])
            for n in range(1, len(segments) + 1)
        },
        key=len,
        reverse=True,
    )
    lowered = path.lower()
    for tail in candidates:
        if lowered.endswith(tail.lower()):
            return path[: len(path) - len(tail)].rstrip("/")
    return path


def service_base_url(raw: str, *, api_paths: Sequence[str] = (), example: str) -> str:
    """The base URL of an operator's HTTP service (a search API, a page service).

    Accepted: ``http(s)://host[:port]``, a sub-path (a reverse proxy), a trailing slash, and
    any of those followed by the endpoint path the service documents (``api_paths``, or a
    leading part of one): it is removed, because the code appends it.

    Args:
        raw: the setting as given.
        api_paths: the paths the code calls under the base (``/search``, ``/v2/scrape``).
        example: the expected form, named in messages (``http://searxng:8080``).

    Returns:
        ``scheme://netloc[/sub-path]`` without a trailing slash.

    Raises:
        ValueError: not http(s), no host, a bad port, a query or fragment, or a path with
            an API version segment the code does not call (``/v1`` where it calls
            ``/v2/scrape``): requests would go to a wrong path.
    """
    shape = f"the service's base URL, e.g. {example}"
    parts = _split(raw, shape)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"must be an absolute http(s) URL: {shape}")
    if parts.query or parts.fragment or raw.strip().endswith(("?", "#")):
        raise ValueError(f"must be {shape}, without ?query or #fragment")
    path = _strip_api_path(parts.path.rstrip("/"), api_paths)
    wrong = [s for s in path.split("/") if _VERSION_SEGMENT.fullmatch(s)]
    if wrong:
        calls = ", ".join(api_paths) or "its own paths"
        raise ValueError(
            f"ends in an API path (/{wrong[-1]}/…) that is not the one webresearch calls "
            f"({calls} under the base URL); give {shape}"
        )
    return urlunsplit((parts.scheme.lower(), parts.netloc, path, "", ""))


def cdp_url(raw: str) -> str:
    """A CDP endpoint as the browser backend dials it.

    Accepted: ``http(s)://host:port`` (DevTools discovery), with a sub-path, a trailing
    slash or the DevTools endpoint it was copied with (``/json/version``, ``/json``);
    ``cdp://host:port`` (meaning http); ``ws(s)://host:port[/devtools/browser/<id>]``; an
    http(s) URL with a ``/devtools/…`` path is that websocket. A query (a token) is kept.

    Raises:
        ValueError: another scheme, no host, or a bad port.
    """
    text = raw.strip()
    if text.lower().startswith("cdp://"):
        text = "http://" + text[len("cdp://") :]
    shape = "http(s)://host:port, ws(s)://host:port/devtools/browser/… or cdp://host:port"
    parts = _split(text, shape)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise ValueError(f"must be {shape}")
    path = parts.path.rstrip("/")
    if scheme in ("http", "https"):
        if "/devtools/" in path + "/":
            scheme = {"http": "ws", "https": "wss"}[scheme]  # the websocket, pasted as http
        else:
            path = _strip_api_path(path, _DEVTOOLS_PATHS)
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def _file_url(raw: str, scheme: str, example: str) -> str:
    rest = raw.split("://", 1)[1]
    if not rest or rest in ("/", "//") or rest.endswith("/"):
        raise ValueError(f"needs a file path, e.g. {example} (not a directory)")
    return f"{scheme}://{rest}"


def state_url(raw: str) -> str:
    """``state_url``: ``memory://``, ``sqlite:///path`` or ``redis[s]://[[user]:password@]
    host[:port][/db]`` (a trailing slash is fine; a query with redis-py's options is kept).

    Raises:
        ValueError: another scheme, a sqlite URL without a file, a redis URL with a bad
            port or a path that is not a database number.
    """
    text = raw.strip()
    scheme, sep, _ = text.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in STATE_URL_SCHEMES:
        raise ValueError("must start with " + ", ".join(f"{s}://" for s in STATE_URL_SCHEMES))
    if scheme == "memory":
        return "memory://"
    if scheme == "sqlite":
        return _file_url(text, scheme, "sqlite:///var/lib/webresearch/state.sqlite3")
    parts = _split(text, "redis://host:6379/0")
    path = parts.path.strip("/")
    if path and not path.isdigit():
        raise ValueError(
            "has a path that is not a database number: use redis://[:password@]host[:port][/db], "
            "e.g. redis://redis:6379/0"
        )
    return _join(scheme, parts.netloc, f"/{int(path)}" if path else "", parts.query)


def journal_url(raw: str) -> str:
    """``journal_url``: ``memory://``, ``sqlite:///path``, ``jsonl:///path`` or
    ``postgres[ql]://[user[:password]@][host][:port][/database][?options]`` (a trailing
    slash after the database is fine; a socket directory in ``?host=`` too).

    Raises:
        ValueError: another scheme, a file URL without a file, a PostgreSQL URL with a bad
            port or a path that is more than a database name.
    """
    text = raw.strip()
    scheme, sep, _ = text.partition("://")
    scheme = scheme.lower()
    forms = "sqlite:///path, jsonl:///path, memory:// or postgresql://user:password@host/db"
    if not sep or scheme not in ("memory", "sqlite", "jsonl", "postgres", "postgresql"):
        raise ValueError(f"must be {forms}")
    if scheme == "memory":
        return "memory://"
    if scheme in ("sqlite", "jsonl"):
        return _file_url(text, scheme, f"{scheme}:///var/lib/webresearch/journal.{scheme}")
    parts = _split(text, "postgresql://user:password@host:5432/db")
    database = parts.path.strip("/")
    if "/" in database:
        raise ValueError(
            "has a path that is more than a database name: use "
            "postgresql://user:password@host:5432/database"
        )
    return _join(parts.scheme, parts.netloc, f"/{database}" if database else "", parts.query)


def _join(scheme: str, netloc: str, path: str, query: str) -> str:
    """``scheme://netloc/path?query``, keeping ``//`` with an empty netloc (a socket
    directory in the query: ``postgresql:///db?host=/run/postgresql``)."""
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "")


def has_userinfo(text: str) -> bool:
    """Whether ``text`` is a URL holding credentials (``http://user:pw@host``, RFC 3986
    §3.2.1 userinfo), or one that cannot be read (it may)."""
    if "://" not in text or "@" not in text:
        return False
    try:
        return "@" in urlsplit(text.strip()).netloc
    except ValueError:
        return True


def without_userinfo(text: str) -> str:
    """``text`` with a URL's credentials shown as ``***`` (``http://***@127.0.0.1:8080/x``);
    any other text as it is; a URL that cannot be read, all ``***``."""
    if not has_userinfo(text):
        return text
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return "***"
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"***@{host}"))
