"""Imported once by the CPU workers' forkserver (``Services`` names it as the pool's preload).

It imports the functions tools run in worker processes, converts one tiny page and ranks
its sections for a question, so the libraries extraction and web_fetch's ``query`` import
lazily on first use (trafilatura and its helpers, ~0.35 s of CPU; bm25s and numpy) are
loaded once, in the forkserver: every worker, and every replacement of a worker that was
stopped or recycled, is a fork that starts warm. Importing it anywhere else only
costs that one conversion.
"""

from __future__ import annotations

from ..extract.dispatch import convert
from ..images import prepare as _prepare  # noqa: F401  (image jobs run in workers too)
from .page_text import format_document

_WARM_UP_PAGE = (
    b"<html><head><title>warm-up</title></head><body><main><article><h1>Warm-up</h1>"
    b"<p>One paragraph, so that main-content extraction runs its whole path.</p>"
    b"<p>A second one, with <a href='/x'>a link</a>.</p></article></main></body></html>"
)

_warm = convert(_WARM_UP_PAGE, "text/html; charset=utf-8", "https://example.org/")
# web_fetch's ``query`` ranks sections with BM25 (bm25s and numpy load on first use).
format_document(
    {
        "url": "https://example.org/",
        "content_type": _warm.mime,
        "title": _warm.title,
        "text": _warm.text * 4,
        "markdown": _warm.markdown,
    },
    0,
    64,
    "warm-up paragraph",
)
