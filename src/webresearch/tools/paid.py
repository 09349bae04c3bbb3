"""One call to a paid page service, with the runtime's admission and charging around it.

Order (SPEC §3 "Spending"): ``ctx.reserve(price)`` (the run's budget; a refusal sends
nothing) → ``ctx.rate_limit(limit)`` → the call → ``ctx.spent(price)`` once the request may
have reached the service — also when it then fails, times out or the run is cancelled
("Stop"), but not when the connection never opened (``request_sent: false``) or the SSRF
guard refused the URL before anything was sent. A ``reader.request`` event records the
service, outcome and duration (not for cancelled calls: the run is being torn down).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

from .. import progress
from ..errors import WebResearchError
from ..readers.base import OnSent
from ..types import Document
from .base import CallContext, RateLimit

__all__ = ["paid_call", "redact_document"]

T = TypeVar("T")


def redact_document(doc: Document, redact: Callable[[str], str]) -> Document:
    """A hosted service's document with every known secret value removed from its texts.

    The service received our key (and proxy headers); whatever it echoes into the page text,
    title or URLs must not reach the model, the metadata or the cache. Done before caching,
    so byte offsets refer to the text the model sees.
    """
    shown = {k: redact(v) if isinstance(v, str) else v for k, v in doc.items()}
    return cast("Document", shown)  # the same keys; texts stay texts


async def paid_call(
    ctx: CallContext | None,
    *,
    service: str,
    price: float,
    call: Callable[[OnSent], Awaitable[T]],
    limit: RateLimit | None = None,
    journal: bool = True,
) -> T:
    """Run ``call(on_sent)`` as one paid request to ``service``.

    Args:
        ctx: the call's context (``None``: no admission, no charging — internal use).
        service: the service id (``firecrawl``, ``jina``; the ledger's "what").
        price: price of the request in the settings' price units.
        call: sends the request; calls ``on_sent()`` right before it leaves.
        limit: the rate limit taken before the request (default: the tool's own).
        journal: emit a ``reader.request`` event.

    Returns:
        what ``call`` returned.

    Raises:
        BudgetExceeded, RateLimited: admission refused (nothing sent, nothing charged).
        WebResearchError: the call's own error (charged when the request was sent).
    """
    if ctx is not None:
        await ctx.reserve(price, service)
        await ctx.rate_limit(limit)
    sent = False

    def on_sent() -> None:
        nonlocal sent
        sent = True

    started = time.perf_counter()
    outcome = "ok"
    progress.report(f"waiting for the {service} service" if journal else "downloading the page")
    try:
        return await call(on_sent)
    except WebResearchError as exc:
        outcome = exc.code
        if exc.details.get("request_sent") is False:
            sent = False  # the connection never opened: the service saw nothing
        raise
    except BaseException:
        outcome = "cancelled"
        raise
    finally:
        if ctx is not None:
            if sent:
                ctx.spent(price, service)
            if journal and outcome != "cancelled":
                with contextlib.suppress(WebResearchError):  # the call's own outcome wins
                    await ctx.event(
                        "reader.request",
                        service=service,
                        outcome=outcome,
                        charged=price if sent else 0.0,
                        duration_ms=round((time.perf_counter() - started) * 1000, 3),
                    )
