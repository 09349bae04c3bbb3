"""A redirect's ``Location`` read as a browser reads it (WHATWG URL Standard). Pure function.

RFC 3986 parsers (httpx, ``urllib``) treat ``\\`` as an ordinary path character, so
``Location: http:/\\127.0.0.2:18711/r7`` on ``http://127.0.0.1:18711/`` became the path
``/\\127.0.0.2:18711/r7`` on the same host, while every browser goes to 127.0.0.2: a
different page than the user would see. The WHATWG URL Standard ("basic URL parser") for
the special schemes (``http``, ``https``, ``ws``, ``wss``, ``ftp``):

* removes leading and trailing C0 control or space characters, and every tab and newline;
* reads ``\\`` as ``/`` before the query (the path, authority and slash states);
* ``scheme:`` with the base's own scheme is relative ("special relative or authority
  state"): followed by two or more slashes it starts an authority, by one an absolute
  path, by none a relative path;
* ``scheme:`` with another special scheme starts an authority whatever the slashes
  ("special authority ignore slashes state");
* without a scheme, two or more leading slashes start an authority.

:func:`browser_location` rewrites a Location by these rules into the RFC 3986 spelling
with the same meaning (``http://127.0.0.2:18711/r7``), which the caller then joins and
checks with the SSRF guard like any other target. Other schemes are left as they are (the
guard refuses them).
"""

from __future__ import annotations

import re

__all__ = ["SPECIAL_SCHEMES", "browser_location"]

#: Schemes the WHATWG URL Standard calls special (``file`` aside: never a redirect target).
SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")


def browser_location(location: str, base_scheme: str) -> str:
    """``location`` as a WHATWG URL parser reads it against a base of ``base_scheme``,
    spelled for an RFC 3986 parser (module docstring).

    Args:
        location: the ``Location`` header value as sent.
        base_scheme: the scheme of the URL that answered (``http`` or ``https``).

    Returns:
        the same reference with backslashes before the query as slashes and the
        authority marked by exactly ``//``; ``location`` itself (controls aside) when its
        scheme is not special. Never raises.

    Examples:
        ``http:/\\127.0.0.2:8/r`` (base ``http``) → ``http://127.0.0.2:8/r``;
        ``\\\\host\\a`` → ``//host/a``; ``https:host/a`` (base ``http``) → ``https://host/a``.
    """
    text = _TAB_OR_NEWLINE.sub("", location.strip(_C0_OR_SPACE))
    base = base_scheme.lower()
    scheme_match = _SCHEME.match(text)
    scheme = scheme_match.group(1).lower() if scheme_match else None
    if scheme is not None and scheme not in SPECIAL_SCHEMES:
        return text
    if base not in SPECIAL_SCHEMES and scheme is None:
        return text
    rest = text[scheme_match.end() :] if scheme_match else text
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    rest = rest[:cut].replace("\\", "/") + rest[cut:]
    slashes = len(rest) - len(rest.lstrip("/"))
    prefix = f"{scheme}:" if scheme is not None else ""
    if scheme is not None and scheme != base:
        return f"{prefix}//{rest[slashes:]}"  # another special scheme: always an authority
    if slashes >= 2:
        return f"{prefix}//{rest[slashes:]}"
    return rest  # a path (absolute or relative) on the base's host; the scheme says nothing
