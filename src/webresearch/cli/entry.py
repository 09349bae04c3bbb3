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

import sys

__all__ = ["main"]


def main() -> None:
    """``webresearch`` and ``python -m webresearch``: see :func:`.main.main`."""
    from .signals import EXIT_INTERRUPTED, StopSignals, say_stopped

    guard = StopSignals.install()
    try:
        from .main import main as run_cli
    except KeyboardInterrupt:  # a stop signal while the commands load (Terminated is one)
        code = guard.exit_code or EXIT_INTERRUPTED
        say_stopped(code)
        sys.exit(code)
    run_cli()
