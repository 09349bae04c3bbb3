"""The ``webresearch`` console script's module: SIGINT and SIGTERM are owned before the
``webresearch`` package loads.

It lives outside the package on purpose: importing any module of the package first runs the
package's ``__init__``, which loads ``logging`` (about 60 ms, over 0.1 s on a loaded
machine). A Ctrl-C in that time printed a ``KeyboardInterrupt`` traceback and a SIGTERM
ended the process by the signal itself, with nothing on stderr (session 10 review: every
signal in the first ~0.15 s). Here :func:`main`'s first statements install the handlers,
and this module imports only what the interpreter's own start has loaded: ``sys`` and
``_signal`` (the C module under :mod:`signal`; ``signal`` itself loads ``enum``,
``functools`` and ``collections``: 20-40 ms, in which a Ctrl-C printed a traceback from
``enum``). From then on a stop signal ends the process with the one line
``webresearch: interrupted`` / ``terminated`` and 130 / 143; only a signal during the
interpreter's own start (before this module runs) still ends it by the signal.

``python -m webresearch`` loads the package first (``runpy`` does): there,
:mod:`webresearch.cli.entry` installs the same handlers as early as it can.
"""

import sys

try:
    import _signal as _signals  # CPython: loaded at start-up
except ImportError:  # another interpreter
    import signal as _signals

__all__ = ["main"]

_SIGINT: int = _signals.SIGINT
_SIGTERM: int = _signals.SIGTERM


class _StopBeforeTheCommands(KeyboardInterrupt):
    """A stop signal before :mod:`webresearch.cli.entry` took the signals over."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, _frame: object) -> None:
    raise _StopBeforeTheCommands(signum)


def main() -> None:
    """``webresearch``: :func:`webresearch.cli.entry.main`, with the stop signals owned
    from this function's first statement on."""
    for signum in (_SIGINT, _SIGTERM):
        # An ignored SIGINT stays ignored (a job a script started with `cmd &`), as Python
        # itself leaves it (session 10 review, 16); the later handlers see SIG_IGN too.
        if signum != _SIGINT or _signals.getsignal(signum) != _signals.SIG_IGN:
            _signals.signal(signum, _stop)
    try:
        from webresearch.cli.entry import main as run_cli

        run_cli()  # its first statements install its own handlers
    except _StopBeforeTheCommands as stop:
        word = "terminated" if stop.signum == _SIGTERM else "interrupted"
        sys.stderr.write(f"webresearch: {word}\n")
        sys.exit(128 + stop.signum)
