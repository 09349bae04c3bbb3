"""A URL string as a browser reads it, before any parsing (foundation: pure, no imports).

The SSRF guard, every tool taking a URL and the command line's URL-or-PATH decision use
the one rule, so what is decided on, checked, fetched and shown is the same string.
"""

from __future__ import annotations

__all__ = ["clean_url"]

#: ASCII tab and newline, which the WHATWG URL parser removes anywhere in the input.
_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")
#: C0 controls (U+0000–U+001F) and space, stripped from both ends by the WHATWG URL parser.
_C0_OR_SPACE = "".join(map(chr, range(0x21)))


def clean_url(url: str) -> str:
    """``url`` as a browser reads it: leading and trailing C0 controls and spaces stripped,
    ASCII tab and newline removed anywhere (WHATWG URL Standard, "basic URL parser", the
    first two steps). ``' http://x/'``, ``'http://x/ '`` and ``'\\thttp://x/'`` all mean
    ``http://x/`` (a space inside the URL is kept and percent-encoded as usual).
    """
    return url.strip(_C0_OR_SPACE).translate(_TAB_OR_NEWLINE)
