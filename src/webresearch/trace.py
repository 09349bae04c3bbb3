"""A call's request chain, told to an operator who asked for it (``webresearch fetch -vv``).

The network and the fetch path note each step with one call::

    trace.note("resolve", host="example.org", addresses=["93.184.215.14"], ms=3.1)

:func:`note` is synchronous, cheap and does nothing unless a :func:`tracing` block is open in
the current context — which only the CLI opens, for the operator's own command under
``-vv``. Notes are **not logs**: they never reach the journal, the MCP server's logs or a
model. That is why a note may name a resolved (even internal) address: it is shown only on
the terminal of the person who ran the command and named the URL (the decision is recorded in
``docs/architecture.md``, issue 19). Secrets never appear: URLs are passed through
:func:`webresearch.redact.redact_url` by the callers, and no header values are noted.

Same mechanism as :mod:`webresearch.progress` (:mod:`webresearch.call_sink`: a context
variable, copied into tasks the call starts, never shared between calls): no process-wide
state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from .call_sink import CallSink

__all__ = ["TraceCallback", "active", "note", "tracing"]

#: ``callback(step, facts)``: the step's name (``hop``, ``resolve``, ``connect``, ``cache``,
#: ``extract``) and its facts (JSON-friendly values). Must not block.
TraceCallback = Callable[[str, dict[str, object]], None]

_SINK: CallSink[[str, dict[str, object]]] = CallSink("webresearch_trace", "trace")


def active() -> bool:
    """Whether a :func:`tracing` block is open (callers skip building costly facts)."""
    return _SINK.active()


def note(step: str, **facts: object) -> None:
    """Record one step of the current call's chain (nothing outside a :func:`tracing`
    block). A failing callback is logged, never raised."""
    _SINK.emit(step, facts)


def tracing(callback: TraceCallback | None) -> AbstractContextManager[None]:
    """Send every :func:`note` inside the block (and in tasks started inside it) to
    ``callback``; ``None`` keeps whatever was in force."""
    return _SINK.receiving(callback)
