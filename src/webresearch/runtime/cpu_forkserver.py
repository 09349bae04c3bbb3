"""Imported last by the CPU workers' forkserver (:class:`~.cpu_pool.CPUPool` appends it to
the preload): the forkserver takes SIGTERM again once its imports are done.

The pool starts the forkserver with SIGINT and SIGTERM blocked (``cpu_pool``'s
``_stop_signals_blocked``), so a signal sent to the whole process group while it imports
prints no traceback and does not kill it half-way. Its SIGINT is ignored from here on by
the stdlib (``multiprocessing.forkserver.main``); its SIGTERM is unblocked here, with a
SIGTERM that came during the imports dropped (the process that owns the pool stops it),
so the workers it forks are ended by pebble's SIGTERM at once, even while they start.
Importing it elsewhere only unblocks SIGTERM in the importing thread.
"""

from __future__ import annotations

import signal

__all__: list[str] = []


def _take_sigterm_again() -> None:
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: nothing was blocked
        return
    handler = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # drops a pending SIGTERM
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    signal.signal(signal.SIGTERM, handler)


_take_sigterm_again()
