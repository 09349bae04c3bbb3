"""The console script's first step: own the stop signals before the commands load.

Loading the commands (click, every command module) takes about a second on a loaded
machine; a Ctrl-C or SIGTERM in that time printed a ``KeyboardInterrupt`` traceback from
the middle of an import (measured: every signal sent 0.05–0.6 s after start). Here the
guard (:class:`~.signals.StopSignals`) is installed first, so such a signal ends the
process with 130 / 143 and the one line. Only a signal before this module runs (the
interpreter's own start) still ends the process by the signal itself, which a shell
reports as 130 / 143 too.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

__all__ = ["main"]


class _EarlyStop(KeyboardInterrupt):
    """A stop signal before the guard's own module is loaded (it imports asyncio: 0.3-0.6 s
    on a loaded machine, during which Ctrl-C printed a traceback; session 9 review)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _early_stop(signum: int, _frame: FrameType | None) -> None:
    raise _EarlyStop(signum)


def main() -> None:
    """``python -m webresearch`` (and the console script, after ``webresearch_entry``):
    see :func:`.main.main`.

    A stop signal at any point from here on ends the process with the one line and 130
    (SIGINT) / 143 (SIGTERM): first a handler that needs only ``signal`` (already loaded),
    then :class:`~.signals.StopSignals` once its module is loaded.
    """
    for stop in (signal.SIGINT, signal.SIGTERM):
        if stop != signal.SIGINT or signal.getsignal(stop) != signal.SIG_IGN:  # kept ignored
            signal.signal(stop, _early_stop)
    try:
        from .signals import EXIT_INTERRUPTED, StopSignals, say_stopped

        guard = StopSignals.install()
    except _EarlyStop as early:
        code = 128 + early.signum
        word = "terminated" if early.signum == signal.SIGTERM else "interrupted"
        sys.stderr.write(f"webresearch: {word}\n")
        sys.exit(code)
    try:
        from .main import main as run_cli
    except KeyboardInterrupt as exc:  # a stop signal while the commands load (Terminated is one)
        code = guard.exit_code or (
            128 + exc.signum if isinstance(exc, _EarlyStop) else EXIT_INTERRUPTED
        )
        say_stopped(code)
        sys.exit(code)
    run_cli()
