"""Imported last by the CPU workers' forkserver (:class:`~.cpu_pool.CPUPool` appends it to
the preload): the forkserver takes SIGTERM again once its imports are done, and a worker
started for a pool that is already gone exits without a traceback.

SIGTERM. The pool starts the forkserver with SIGINT and SIGTERM blocked (``cpu_pool``'s
``_stop_signals_blocked``), so a signal sent to the whole process group while it imports
prints no traceback and does not kill it half-way. Its SIGINT is ignored from here on by
the stdlib (``multiprocessing.forkserver.main``); its SIGTERM is unblocked here, with a
SIGTERM that came during the imports dropped (the process that owns the pool stops it),
so the workers it forks are ended by pebble's SIGTERM at once, even while they start.

A worker whose pool is gone. A new worker is forked by the forkserver, then unpickles
what its parent sent (``multiprocessing.spawn._main``), among it the pool channel's locks:
named POSIX semaphores, reopened by name (``synchronize.SemLock.__setstate__`` →
``SemLock._rebuild`` → ``sem_open``). pebble's ``ProcessPool`` stops by closing its
channels first, which drops and so unlinks those semaphores, and only then terminates its
workers (pebble 5.2 ``PoolManager.stop``); the stdlib's exit handler also unlinks them
(finalizers, priority 0) before it joins the children (``multiprocessing.util.
_exit_function``). A worker still unpickling in that window gets ``FileNotFoundError``,
and the forkserver's child code prints it with ``sys.excepthook`` before ``os._exit(1)``
(``forkserver.main``): a group SIGTERM or Ctrl-C while the workers started printed that
traceback above the server's one line (tests/e2e/test_mcp_group_signals.py: 4 of 18 runs
of the file under three pytest-xdist workers; traced: the pool, closed while starting, was
stopped 0.13 s after a worker's fork, while that worker was still unpickling, 0.17 s in).
The order is pebble's, inside ``ProcessPool.join``, and its public API does not tell when
a worker has finished unpickling, so no ordering on our side closes the window; instead
the forkserver's ``sys.excepthook`` (inherited by every worker it forks) says nothing for
exactly that error — :func:`pool_semaphore_gone` — and the worker exits 1 quietly, as it
would have had pebble's SIGTERM come first. Every other error is printed by the hook that
was installed before.

Importing this module elsewhere only unblocks SIGTERM in the importing thread and wraps
that process's ``sys.excepthook`` the same way (the one case it silences cannot happen
outside a process being started).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from multiprocessing import spawn, synchronize
from types import TracebackType

__all__ = ["pool_semaphore_gone"]

_ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]


def pool_semaphore_gone(error: BaseException) -> bool:
    """True when ``error`` is a new process failing to reopen a named semaphore that its
    parent already unlinked: a ``FileNotFoundError`` raised by
    ``multiprocessing.synchronize.SemLock.__setstate__`` while
    ``multiprocessing.spawn._main`` unpickles the process (its traceback goes through both;
    no other error, and not the same error raised anywhere else)."""
    if not isinstance(error, FileNotFoundError):
        return False
    codes = []
    tb = error.__traceback__
    while tb is not None:
        codes.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    # Looked up here, not at import: a stdlib without them makes this False, never an
    # error in the forkserver's import (which would stop it).
    rebuild = getattr(vars(synchronize.SemLock).get("__setstate__"), "__code__", None)
    start = getattr(getattr(spawn, "_main", None), "__code__", None)
    return bool(codes) and rebuild is not None and codes[-1] is rebuild and start in codes


def _quiet_when_the_pool_is_gone(previous: _ExceptHook) -> _ExceptHook:
    """``previous``, except that it prints nothing for :func:`pool_semaphore_gone`."""

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> object:
        if pool_semaphore_gone(error):
            return None  # the forkserver's child exits 1 right after (forkserver.main)
        return previous(kind, error, tb)

    return hook


def _take_sigterm_again() -> None:
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: nothing was blocked
        return
    handler = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # drops a pending SIGTERM
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    signal.signal(signal.SIGTERM, handler)


_take_sigterm_again()
sys.excepthook = _quiet_when_the_pool_is_gone(sys.excepthook)
