"""Imported once by the CPU workers' forkserver (``Services`` names it as the pool's preload).

It imports the functions tools run in worker processes and converts one tiny page, so the
libraries extraction imports lazily on its first page (trafilatura and its helpers, ~0.35 s
of CPU) are loaded once, in the forkserver: every worker, and every replacement of a worker
that was stopped or recycled, is a fork that starts warm. Importing it anywhere else only
costs that one conversion.
"""

from __future__ import annotations

from ..extract.dispatch import convert
from ..images import prepare as _prepare  # noqa: F401  (image jobs run in workers too)

_WARM_UP_PAGE = (
    b"<html><head><title>warm-up</title></head><body><main><article><h1>Warm-up</h1>"
    b"<p>One paragraph, so that main-content extraction runs its whole path.</p>"
    b"<p>A second one, with <a href='/x'>a link</a>.</p></article></main></body></html>"
)

convert(_WARM_UP_PAGE, "text/html; charset=utf-8", "https://example.org/")
