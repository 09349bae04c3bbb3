"""Does a statically fetched page look like a JavaScript app shell? Pure (SPEC §1.1).

web_fetch renders a page in the browser (``render: auto``) only when the static result is
an app shell: the HTML runs scripts and its converted text is almost empty (a "Loading…"
placeholder, an empty mount point such as ``<div id="root">``). A page whose text is already
there — including server-rendered text hidden until hydration (case 06) — is not re-rendered.

This stands in for ``webresearch.extract.html.looks_like_app_shell`` until the extraction
pipeline provides it.
"""

from __future__ import annotations

import re

__all__ = ["SHELL_MAX_TEXT_CHARS", "looks_like_app_shell"]

#: Converted text shorter than this (characters of words) counts as "almost no text".
SHELL_MAX_TEXT_CHARS = 200

_SCRIPT = re.compile(r"<script\b", re.IGNORECASE)
_MARKUP = re.compile(r"[#*_`>\[\]()!|-]+")


def looks_like_app_shell(html: str, markdown: str) -> bool:
    """True when ``html`` runs scripts and ``markdown`` (its conversion) holds almost no text."""
    if not _SCRIPT.search(html):
        return False
    words = " ".join(_MARKUP.sub(" ", markdown).split())
    return len(words) < SHELL_MAX_TEXT_CHARS
