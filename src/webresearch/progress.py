"""Progress of a long call, told to whoever is waiting for it (MCP progress notifications).

A call that can take many seconds — a browser start, a navigation and its readiness wait, a
render, a screenshot, a hosted reader's answer, a person's approval — says what it is doing
with one line a person can read::

    progress.report("starting Chromium")

:func:`report` is synchronous, cheap and safe everywhere: outside a call that asked for
progress it does nothing. The call pipeline opens a :func:`reporting` block around each call
whose caller passed a callback (``Toolkit.call(..., progress=…)``); every line reported
inside that block — in the tool, in the browser, in a page reader, in tasks they start —
reaches the callback. The MCP server turns the lines into ``notifications/progress`` and
repeats the latest one while the call runs, so a client that extends its timeout on progress
never gives up on a call that is still working.

Why a context variable rather than a parameter on every function between a tool and the
browser: the stages live three layers below the tools (the browser, the readers), in code
that other concerns change often; one line at each stage is the whole edit. The variable's
value is per call (``contextvars`` are copied into tasks a call starts and never shared
between calls), so it is no process-wide state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from .call_sink import CallSink

__all__ = ["ProgressCallback", "report", "reporting"]

#: ``callback(message)``: one human-readable line, e.g. ``"waiting for the page to settle"``.
#: Called synchronously from the call's own task: it must not block (record and return).
ProgressCallback = Callable[[str], None]

_SINK: CallSink[[str]] = CallSink("webresearch_progress", "progress")


def report(message: str) -> None:
    """Tell the current call's caller what the call is doing now (nothing outside a call
    that asked for progress). A failing callback is logged, never raised."""
    _SINK.emit(message)


def reporting(callback: ProgressCallback | None) -> AbstractContextManager[None]:
    """Send every :func:`report` inside the block (and in tasks started inside it) to
    ``callback``; ``None`` keeps whatever was in force."""
    return _SINK.receiving(callback)
