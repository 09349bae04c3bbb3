"""Is a static HTML page an app shell that only a browser can fill? Pure functions.

SPEC §1.1 "JavaScript pages": with ``render: auto``, web_fetch renders a page in the browser
when the static result "looks like an app shell (almost no text, a script-driven page)".
"""

from __future__ import annotations

import re
from collections.abc import Collection

from lxml import etree

from webresearch.extract.align import normalise, text_size_exceeds

__all__ = [
    "MAX_SHELL_TEXT_CHARS",
    "MIN_PROSE_CHARS",
    "NEAR_EMPTY_TEXT_CHARS",
    "SHELL_VISIBLE_CHARS",
    "hides_its_content",
    "looks_like_app_shell",
    "only_shell_notices",
    "runs_scripts",
]

#: A shell shows at most this many letters and digits once converted.
MAX_SHELL_TEXT_CHARS = 300
#: With at most this many letters and digits, any script makes the page a shell.
NEAR_EMPTY_TEXT_CHARS = 20
#: With fewer visible letters and digits than this, and more hidden than visible, the
#: page is an app shell whose hidden blocks are its content …
SHELL_VISIBLE_CHARS = 500
#: … unless a visible paragraph (or a run of text in any element) holds this many letters
#: and digits: a page that shows prose is no empty shell (a "Loading…" notice, a skip link,
#: a menu's labels are shorter; the longest visible block of the WCXB + Zyte dev shells has
#: 41).
MIN_PROSE_CHARS = 80
#: Elements whose whole visible text is one paragraph (inline children included).
_PARAGRAPH_TAGS = frozenset({"p", "li", "dd", "td", "th", "blockquote", "pre", "figcaption"})

_MOUNT_POINT = re.compile(
    r"<(?:div|main|section)[^>]*\bid=[\"']?(?:root|app|__next|__nuxt|svelte|___gatsby|main-app|"
    r"react-root|application|app-root|q-app|ember-app)[\"'\s>]|<app-root\b|\bng-app\b|\bng-version=|"
    r"data-reactroot|data-server-rendered|id=[\"']?__NEXT_DATA__|window\.__(?:INITIAL_STATE|NUXT|APOLLO_STATE)__",
    re.I,
)
_NEEDS_JS = re.compile(
    r"(?:enable|turn on|activate)\s+javascript|javascript\s+(?:is\s+)?(?:required|disabled|must be enabled)|"
    r"requires?\s+javascript|doesn't work properly without javascript",
    re.I,
)
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script\s*>", re.I | re.S)
# a <script> that runs (not a JSON-LD or JSON data island), or a <template> a script stamps
_RUNNING_SCRIPT = re.compile(
    r"<script\b(?![^>]*\btype=[\"']?application/(?:ld\+)?json)|<template\b", re.I
)
_SHELL_NOISE = re.compile(
    r"loading|please\s*wait|(?:you need to )?enable javascript(?: to run this app)?|[\W_]", re.I
)


_FRAMESET = re.compile(r"<frameset\b", re.I)


def _readable(markdown: str) -> str:
    """The letters and digits of ``markdown`` without link targets and shell notices."""
    return _SHELL_NOISE.sub("", re.sub(r"\]\([^)]*\)", "]", markdown))


def only_shell_notices(markdown: str) -> bool:
    """True when ``markdown`` says nothing but "Loading…" or "You need to enable JavaScript
    to run this app" (create-react-app's ``<noscript>`` sentence): no readable text."""
    return not _readable(markdown)


def looks_like_app_shell(html: str, markdown: str) -> bool:
    """True when the static page has almost no text and is driven by scripts.

    Args:
        html: the decoded page.
        markdown: what static extraction made of it (see
            :func:`webresearch.extract.html.extract_html`).

    Returns:
        ``True`` when the converted text has at most :data:`MAX_SHELL_TEXT_CHARS` letters and
        digits (not counting "Loading…" or "enable JavaScript" notices) and the page has a
        client-side mount point (``<div id="root">``, ``<app-root>``, ``__NEXT_DATA__``…),
        asks for JavaScript, or is mostly scripts; never for a frameset page.
    """
    text = _readable(markdown)
    if len(text) > MAX_SHELL_TEXT_CHARS or _FRAMESET.search(html):
        return False  # a frameset's text is in its frames (extract.frames), not its scripts
    if _MOUNT_POINT.search(html) or _NEEDS_JS.search(html):
        return True
    scripts = _SCRIPT.findall(html)
    script_bytes = sum(len(s) for s in scripts)
    external = len(re.findall(r"<script\b[^>]*\bsrc=", html, re.I))
    if scripts and len(text) <= NEAR_EMPTY_TEXT_CHARS:
        return True  # nothing to read but a "Loading…" and a script that will fill the page
    return external >= 2 or (bool(scripts) and script_bytes >= len(html) // 2)


def runs_scripts(html: str) -> bool:
    """True when the page can fill itself in: it carries a ``<script>`` that runs (not a
    JSON data island) or a ``<template>`` (its content counts: SPEC), a client-side mount point (``<div id="root">``, ``__NEXT_DATA__``…)
    or asks for JavaScript. A page without any of these is no app shell, whatever it hides.
    """
    return bool(_RUNNING_SCRIPT.search(html) or _MOUNT_POINT.search(html) or _NEEDS_JS.search(html))


def hides_its_content(
    doc: etree._Element,
    hidden_chars: int,
    page_chars: int | None,
    hidden: Collection[etree._Element] = (),
    html: str | None = None,
) -> bool:
    """True when the page shows fewer than :data:`SHELL_VISIBLE_CHARS` letters and digits,
    fewer than its hidden blocks hold (``hidden_chars``), and no paragraph of prose
    (:data:`MIN_PROSE_CHARS`): an app shell whose hidden, server-rendered block is the
    content (:func:`~webresearch.extract.page_noise.hidden_verdicts`). README promises this
    for "an app shell whose visible page is empty": a short visible article beside a longer
    hidden block is no shell (review: ``<h1>`` and 160 visible letters kept a hidden
    "Ignore previous instructions" of 320).

    Args:
        doc: the parsed page (``<html>``).
        hidden_chars: letters and digits of its hidden blocks.
        page_chars: letters and digits of all the text of its ``<body>``; ``None``: counted
            here, only as far as the answer needs (the walk stops once the page has more).
        hidden: the outermost hidden blocks (their text is not visible).
        html: the decoded page, read by :func:`runs_scripts` only once the page is small
            enough to be a shell (a search over the whole page: a twentieth of an
            extraction when run on every page); ``None`` or a page that runs no script:
            never a shell.
    """
    if html is None:
        return False
    shell_below = hidden_chars + min(SHELL_VISIBLE_CHARS, hidden_chars)
    body = doc.find("body")
    if page_chars is None:
        small = not text_size_exceeds(doc if body is None else body, shell_below - 1)
    else:
        small = page_chars < shell_below
    return (
        small and runs_scripts(html) and (body is None or not _shows_prose(body, frozenset(hidden)))
    )


def _shows_prose(body: etree._Element, hidden: frozenset[etree._Element]) -> bool:
    """A visible paragraph, or a visible run of text directly in one element, of at least
    :data:`MIN_PROSE_CHARS` letters and digits (``hidden`` subtrees left out)."""
    stack = [body]
    while stack:
        el = stack.pop()
        if el in hidden:
            continue
        children = [c for c in el if isinstance(c.tag, str)]
        if el.tag in _PARAGRAPH_TAGS:
            text = _visible_text(el, hidden)
        else:
            text = (el.text or "") + "".join(c.tail or "" for c in el)
        if len(normalise(text)) >= MIN_PROSE_CHARS:
            return True
        stack.extend(children)
    return False


def _visible_text(el: etree._Element, hidden: frozenset[etree._Element]) -> str:
    """The text of ``el`` without its ``hidden`` descendants (their tails stay)."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and child not in hidden:
            parts.append(_visible_text(child, hidden))
        parts.append(child.tail or "")
    return "".join(parts)
