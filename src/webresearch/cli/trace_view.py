"""``fetch -vv``: the request chain of each call on stderr, one line per step.

:func:`format_step` (pure) words a :mod:`webresearch.trace` note; :func:`tracing_to_stderr`
opens the trace block around one call and prints its steps, prefixed with the input they
belong to when a batch runs several at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

from webresearch import trace

from .logs import say

__all__ = ["format_step", "tracing_to_stderr"]


def _ms(value: object) -> str:
    return f"{value:.0f} ms" if isinstance(value, int | float) else ""


def format_step(step: str, facts: dict[str, object]) -> str:
    """One line for a trace step, e.g. ``resolve example.org → 93.184.215.14 (allowed) 3 ms``.

    Unknown steps print their facts as ``key=value`` pairs.
    """
    f = facts
    if step == "hop":
        status = f.get("status")
        head = f"hop {f.get('hop')}: GET {f.get('url')}"
        if f.get("refused"):  # a redirect target the SSRF guard refused: never requested
            return f"hop {f.get('hop')}: {f.get('url')} → {f.get('refused')}"
        return (
            f"{head} → {status if status is not None else 'no answer'} {_ms(f.get('ms'))}".rstrip()
        )
    if step == "resolve":
        addresses = f.get("addresses") or []
        shown = ", ".join(str(a) for a in addresses) if isinstance(addresses, list) else ""
        verdict = f.get("verdict", "allowed")
        return f"resolve {f.get('host')} → {shown or '?'} ({verdict}) {_ms(f.get('ms'))}".rstrip()
    if step == "connect":
        return f"connect {f.get('address')}:{f.get('port')} {_ms(f.get('ms'))}".rstrip()
    if step == "cache":
        return f"cache {'hit' if f.get('hit') else 'miss'} ({f.get('reader', 'local')} reader)"
    if step == "extract":
        fallback = f.get("fallback")
        chosen = f"extractor {f.get('extractor')} for {f.get('mime')}"
        if fallback:
            chosen += f" (fallback: {fallback})"
        encoding = f.get("encoding")
        if encoding:
            chosen += f", charset {encoding} from {f.get('encoding_source')}"
        return chosen
    pairs = " ".join(f"{k}={v}" for k, v in facts.items())
    return f"{step} {pairs}".rstrip()


@contextmanager
def tracing_to_stderr(target: str, *, enabled: bool) -> Iterator[None]:
    """Print the chain of the call made inside the block on stderr (when ``enabled``):
    ``webresearch: [<target>] <step>`` lines and a closing line with the total time."""
    if not enabled:
        yield
        return
    started = time.monotonic()

    def show(step: str, facts: dict[str, object]) -> None:
        say(f"[{target}] {format_step(step, facts)}", level=logging.DEBUG)

    with trace.tracing(show):
        try:
            yield
        finally:
            total = (time.monotonic() - started) * 1000
            say(f"[{target}] done in {total:.0f} ms", level=logging.DEBUG)
