"""A per-call callback carried in a context variable: the one mechanism behind
:mod:`webresearch.progress` (lines for whoever waits on a call) and :mod:`webresearch.trace`
(the request chain for ``fetch -vv``).

    sink: CallSink[[str]] = CallSink("webresearch_progress", "progress")
    with sink.receiving(print):
        sink.emit("loading the page")     # → print("loading the page")
    sink.emit("ignored")                  # outside the block: nothing

The value is per call: ``contextvars`` are copied into the tasks a call starts and never
shared between calls, so a sink is no process-wide state. Emitting is synchronous, cheap and
safe everywhere: outside a block it does nothing, and a failing callback is logged, never
raised — a sink must never fail the work it describes.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Callable, Iterator
from typing import Generic, ParamSpec

__all__ = ["CallSink"]

log = logging.getLogger("webresearch")

P = ParamSpec("P")


class CallSink(Generic[P]):
    """A callback ``Callable[P, None]`` in force for the current call, if any.

    Args:
        name: the context variable's name (for debuggers).
        what: names the sink in the log line of a failing callback ("progress", "trace").
    """

    def __init__(self, name: str, what: str) -> None:
        self._current: contextvars.ContextVar[Callable[P, None] | None] = (
            contextvars.ContextVar(name, default=None)
        )
        self._what = what

    def active(self) -> bool:
        """Whether a :meth:`receiving` block is open here (callers skip costly arguments)."""
        return self._current.get() is not None

    def emit(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Call the callback in force with these arguments (nothing outside a block)."""
        callback = self._current.get()
        if callback is None:
            return
        try:
            callback(*args, **kwargs)
        except Exception:  # a sink must never fail the work it describes
            log.exception("%s callback failed", self._what)

    @contextlib.contextmanager
    def receiving(self, callback: Callable[P, None] | None) -> Iterator[None]:
        """Send every :meth:`emit` inside the block (and in tasks started inside it) to
        ``callback``; ``None`` keeps whatever was in force."""
        if callback is None:
            yield
            return
        token = self._current.set(callback)
        try:
            yield
        finally:
            self._current.reset(token)
