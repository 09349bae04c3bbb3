"""Normalisation of every provider's results (SPEC §1.2). Pure functions, no I/O.

Each result is cleaned the same way whichever provider sent it:

* text (titles, snippets, answers): HTML tags stripped, then entities decoded once (escaped
  text is content and is kept: ``a &lt; b`` → ``a < b``, ``AT&amp;T`` → ``AT&T``; a decoded
  ``<`` that would open a tag stays ``&lt;``: ``Vec&lt;T&gt;`` → ``Vec&lt;T>``, so the text
  never holds a tag for a client that renders it), control characters and invisible
  characters (:func:`webresearch.invisible.strip_invisible`: Unicode tags, zero-width and
  bidi controls; counted in ``hidden_chars_removed``) removed, whitespace collapsed, then
  truncated to
  :data:`TITLE_MAX_CHARS` / :data:`SNIPPET_MAX_CHARS` on a grapheme-cluster boundary (an
  emoji with modifiers or a letter with combining accents is never split) with ``…`` marking
  the cut;
* URLs: only absolute ``http``/``https`` URLs with a host are kept (``javascript:``, ``data:``,
  ``file:``, relative and protocol-relative ones are dropped); secrets in them are redacted
  (:func:`webresearch.redact.redact_url`);
* duplicates: results whose URLs have the same :func:`dedupe_key` are kept once (the first,
  i.e. best-ranked, wins); fusion merges results of several providers by the same key;
* dates become ``YYYY-MM-DD`` and engine lists ``google, bing`` (:mod:`.dates`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit

import regex

from ..invisible import strip_invisible
from ..redact import redact_url
from ..runtime.scope import scope_key
from .base import EngineFailure, Infobox, SearchResponse, SearchResult
from .dates import normalize_date, normalize_engines

__all__ = [
    "ANSWER_MAX_CHARS",
    "ELLIPSIS",
    "SNIPPET_MAX_CHARS",
    "TITLE_MAX_CHARS",
    "TRACKING_PARAMETERS",
    "URL_MAX_CHARS",
    "clean_text",
    "clean_text_counted",
    "clean_url",
    "dedupe_key",
    "normalize_response",
    "truncate",
]

#: Longest title shown (characters). SPEC §1.2.
TITLE_MAX_CHARS = 200
#: Longest snippet shown (characters). SPEC §1.2.
SNIPPET_MAX_CHARS = 500
#: Longest instant answer or infobox text (characters); ours, to keep output lean.
ANSWER_MAX_CHARS = 1000
#: Longest URL kept (characters); longer ones are dropped (browsers cap near 2 K–64 K; ours).
URL_MAX_CHARS = 4096
#: Raw input looked at per text field (characters): bounds the work on hostile input.
_RAW_MAX_CHARS = 65536
#: Suggestions kept (count) and their length (characters).
_SUGGESTIONS_MAX = 5
_SUGGESTION_MAX_CHARS = 200
ELLIPSIS = "…"
#: Query parameters that only track a click (ad and mail campaign ids, analytics), dropped
#: from a URL's identity with every ``utm_*``: Google (gclid, dclid, gbraid, wbraid, _ga,
#: _gl), Meta (fbclid, igshid), Microsoft (msclkid), Yandex (yclid), X (twclid), TikTok
#: (ttclid), Mailchimp (mc_cid, mc_eid), HubSpot (_hsenc, _hsmi), Marketo (mkt_tok).
TRACKING_PARAMETERS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "twclid",
        "ttclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
    }
)

# A tag (opening, closing, self-closing), a comment, a doctype or a processing instruction.
_TAG = re.compile(r"<!--.*?(?:-->|$)|<[A-Za-z/!?][^<>]*>", re.DOTALL)
# C0/C1 controls (whitespace controls become spaces below); invisible characters go with
# them (strip_invisible: Unicode tags, zero-width characters, bidi controls).
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SPACE = re.compile(r"\s+")
# A "<" that would start a tag, comment or declaration (see _TAG).
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
# Tags that separate words when removed (block-level and line breaks); inline ones such as
# <strong> or <em> (Brave marks query words with them) join their text to the neighbours.
_BLOCK_TAG = re.compile(
    r"</?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|footer|h[1-6]|header|"
    r"hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)\b",
    re.IGNORECASE,
)
_CLUSTER = regex.compile(r"\X")


def _tag_replacement(match: re.Match[str]) -> str:
    return " " if _BLOCK_TAG.match(match.group(0)) or match.group(0).startswith("<!") else ""


def clean_text(value: object, limit: int) -> str:
    """Plain, single-line text from a provider's field.

    Args:
        value: the raw field (``None`` and non-strings give ``""``; numbers are formatted).
        limit: most characters returned, the ellipsis included.

    Returns:
        the text with tags stripped, entities decoded, controls and invisible characters
        removed, whitespace collapsed, truncated by :func:`truncate`.
    """
    return clean_text_counted(value, limit)[0]


def clean_text_counted(value: object, limit: int) -> tuple[str, int]:
    """:func:`clean_text` and the number of invisible characters it removed."""
    if value is None or isinstance(value, (dict, list, tuple, bool)):
        return "", 0
    hidden = 0

    def unseen(text: str) -> str:
        nonlocal hidden
        text, removed = strip_invisible(_CONTROLS.sub("", text))
        hidden += removed
        return text

    # Controls go first and after every round: removing one between "<" and "?>" must not
    # leave a tag behind for a later pass to find.
    text = unseen(str(value)[:_RAW_MAX_CHARS])
    # Strip real tags until nothing changes (nested or broken markup such as "<<b>i>").
    for _ in range(16):
        stripped = unseen(_TAG.sub(_tag_replacement, text))
        if stripped == text:
            break
        text = stripped
    # Entities are decoded ONCE: escaped text is content ("Vec&lt;T&gt;" is "Vec<T>", SPEC
    # §1.2 "strip HTML tags, decode entities") ...
    text = unseen(html.unescape(text))
    # ... but it never becomes markup: a "<" that would open a tag stays escaped, so no
    # client rendering the text as markdown/HTML meets a tag.
    text = _TAG_OPEN.sub("&lt;", text)
    text = _SPACE.sub(" ", text).strip()
    return truncate(text, limit), hidden


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters on a grapheme-cluster boundary.

    Args:
        text: the text.
        limit: most characters (code points) returned, ``…`` included; ≥ 1.

    Returns:
        ``text`` itself when it fits, else its longest prefix of whole grapheme clusters
        (Unicode UAX #29, via the ``regex`` module's ``\\X``) that leaves room for ``…``,
        trailing spaces dropped, followed by ``…``.
    """
    if len(text) <= limit:
        return text
    budget = max(0, limit - len(ELLIPSIS))
    end = 0
    for match in _CLUSTER.finditer(text, 0, min(len(text), budget + 64)):
        if match.end() > budget:
            break
        end = match.end()
    return text[:end].rstrip() + ELLIPSIS


def clean_url(value: object) -> str | None:
    """The URL to show, or ``None`` when it must be dropped.

    Args:
        value: the raw URL field.

    Returns:
        the trimmed absolute http(s) URL with secret parameters redacted, a space in its
        path, query or fragment percent-encoded (``/two words`` → ``/two%20words``: what a
        browser sends, WHATWG URL §4.4's percent-encode sets), or ``None`` for anything else
        (other schemes, relative or protocol-relative URLs, no host, a space in the scheme
        or host, another whitespace or control character anywhere, longer than
        :data:`URL_MAX_CHARS`).
    """
    if not isinstance(value, str):
        return None
    url = value.strip()
    if not url or len(url) > URL_MAX_CHARS:
        return None
    if any((c.isspace() and c != " ") or ord(c) < 32 for c in url):
        return None
    try:
        parts = urlsplit(url)
        _ = parts.port  # a malformed port raises ValueError
    except ValueError:
        return None
    if " " in parts.scheme or " " in parts.netloc:
        return None
    url = url.replace(" ", "%20")
    if len(url) > URL_MAX_CHARS:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return redact_url(url)


def dedupe_key(url: str) -> str:
    """The identity of a result's URL, for de-duplication and fusion (issue 18 §2).

    Two URLs are one page when they differ only in: the scheme (``http`` and ``https``) and
    the host's case, a default port, a trailing slash, the fragment, the order of query
    parameters, or tracking parameters (:data:`TRACKING_PARAMETERS`, any ``utm_*``). The URL
    shown is never changed.
    """
    base = scope_key(url)
    if base is None:
        return url
    parts = urlsplit(base)
    pairs = [
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if not _is_tracking(name)
    ]
    query = urlencode(sorted(pairs))
    return parts.netloc + parts.path.rstrip("/") + (f"?{query}" if query else "")


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("utm_") or lowered in TRACKING_PARAMETERS


def normalize_response(response: SearchResponse, max_results: int | None = None) -> SearchResponse:
    """Clean every part of a provider's response (idempotent).

    Args:
        response: the provider's raw response.
        max_results: keep at most this many results after cleaning (``None``: all).

    Returns:
        a response with clean results (bad URLs and duplicates dropped), clean answers,
        infoboxes and suggestions; ``raw_count`` is kept so the caller can tell "the provider
        sent nothing" from "everything it sent was unusable".
    """
    hidden = 0

    def clean(value: object, limit: int) -> str:  # clean_text, counting what it removed
        nonlocal hidden
        text, removed = clean_text_counted(value, limit)
        hidden += removed
        return text

    results: list[SearchResult] = []
    seen: set[str] = set()
    for item in response.results:
        url = clean_url(item.url)
        if url is None:
            continue
        key = dedupe_key(url)
        if key in seen:
            continue
        seen.add(key)
        results.append(
            SearchResult(
                title=clean(item.title, TITLE_MAX_CHARS),
                url=url,
                snippet=clean(item.snippet, SNIPPET_MAX_CHARS),
                published=normalize_date(clean(item.published, 64)),
                engine=normalize_engines(clean(item.engine, 100)),
                providers=item.providers,
            )
        )
        if max_results is not None and len(results) >= max_results:
            break
    infoboxes = []
    for box in response.infoboxes:
        title = clean(box.title, TITLE_MAX_CHARS)
        text = clean(box.text, ANSWER_MAX_CHARS)
        if title or text:
            infoboxes.append(Infobox(title=title, text=text, url=clean_url(box.url) or ""))
    failures = tuple(
        EngineFailure(clean(f.engine, 100), clean(f.reason, 200))
        for f in response.unresponsive_engines
        if clean(f.engine, 100)
    )
    return SearchResponse(
        results=tuple(results),
        answers=_unique(clean(a, ANSWER_MAX_CHARS) for a in response.answers),
        infoboxes=tuple(infoboxes),
        suggestions=_unique(clean(s, _SUGGESTION_MAX_CHARS) for s in response.suggestions)[
            :_SUGGESTIONS_MAX
        ],
        unresponsive_engines=failures,
        raw_count=max(response.raw_count, len(response.results)),
        ignored=response.ignored,
        hidden_chars_removed=response.hidden_chars_removed + hidden,
    )


def _unique(texts: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for text in texts:
        if text and text not in out:
            out.append(text)
    return tuple(out)
