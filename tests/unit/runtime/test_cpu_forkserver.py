"""The CPU forkserver's last import: a worker started for a pool that is already gone (its
locks' semaphores unlinked while it unpickled them) exits 1 without a traceback; every
other error of a starting worker is still printed.

The race this reproduces deterministically: pebble stops a pool by unlinking its channel's
semaphores, then terminating its workers; a worker forked just before, still unpickling,
printed ``FileNotFoundError`` from ``SemLock._rebuild`` above the server's one line when
the process group got SIGTERM (tests/e2e/test_mcp_group_signals.py). Here the child is
held inside its unpickling by a FIFO (opening it for reading waits for a writer) until the
parent has dropped, and so unlinked, the lock it will reopen next.
"""

from __future__ import annotations

import gc
import io
import multiprocessing
import os
import subprocess
import sys
import textwrap
from multiprocessing import context, reduction, spawn
from pathlib import Path

import pytest

from webresearch.runtime.cpu_forkserver import pool_semaphore_gone

#: Run as ``python -c CHILD FIFO CASE``: starts a forkserver with our module preloaded, a
#: process whose arguments are (a FIFO gate, then a lock or a missing file), unlinks the
#: lock, opens the gate, and prints the process's exit code.
CHILD = textwrap.dedent(
    """
    import gc, multiprocessing, os, sys

    FIFO, CASE = sys.argv[1], sys.argv[2]

    class Gate:
        def __reduce__(self):
            return (open, (FIFO, "rb"))  # the child waits here for the parent's open

    class Missing:
        def __reduce__(self):
            return (os.stat, (FIFO + ".missing",))  # FileNotFoundError, but not a lock's

    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["webresearch.runtime.cpu_forkserver"])
    args = (Gate(), ctx.Lock() if CASE == "lock" else Missing())
    child = ctx.Process(target=print, args=args)
    child.start()  # forked, and holding in its unpickling at the gate
    child._args = args = ()
    gc.collect()  # the lock's last reference is gone: its semaphore is unlinked
    with open(FIFO, "wb"):
        pass
    child.join(60)
    print(child.exitcode)
    """
)


def _start_held_worker(tmp_path: Path, case: str) -> subprocess.CompletedProcess[str]:
    fifo = tmp_path / "gate"
    os.mkfifo(fifo)
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(fifo), case],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_worker_whose_pool_lock_was_unlinked_exits_quietly(tmp_path: Path) -> None:
    run = _start_held_worker(tmp_path, "lock")
    assert run.stderr == ""
    assert run.stdout.split() == ["1"]  # failed (nonzero), without a word


def test_any_other_error_of_a_starting_worker_is_still_printed(tmp_path: Path) -> None:
    run = _start_held_worker(tmp_path, "missing")
    assert "Traceback" in run.stderr and "FileNotFoundError" in run.stderr, run.stderr
    assert "gate.missing" in run.stderr  # the real cause, not a lock
    assert run.stdout.split() == ["1"]


def _pickled_for_a_new_process(*objects: object) -> bytes:
    """What a parent sends a new worker: its preparation data (nothing to prepare here),
    then ``objects`` (standing for the process object)."""
    buf = io.BytesIO()
    # a lock pickles only while a process starts (any object stands for its Popen here)
    context.set_spawning_popen(object())  # type: ignore[arg-type]
    try:
        reduction.dump({}, buf)
        reduction.dump(objects, buf)
    finally:
        context.set_spawning_popen(None)
    return buf.getvalue()


def _error_unpickling_as_a_new_process(sent: bytes) -> BaseException:
    """The error ``multiprocessing.spawn._main`` raises (here, in this process) while it
    unpickles ``sent`` the way a new worker does."""
    read, write = os.pipe()
    os.write(write, sent)
    os.close(write)
    sentinel = os.dup(read)
    try:
        with pytest.raises(Exception) as caught:
            spawn._main(read, sentinel)  # closes ``read``
    finally:
        os.close(sentinel)
    return caught.value


class _MissingFile:
    """Unpickles as ``os.stat`` of a missing file: a FileNotFoundError that is no lock's."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.stat, ("/nonexistent/webresearch-test",))


def test_a_lock_unlinked_before_a_new_process_reopens_it_is_recognised() -> None:
    lock = multiprocessing.get_context("forkserver").Lock()
    sent = _pickled_for_a_new_process(lock)
    del lock
    gc.collect()  # its semaphore is unlinked, as when pebble closes its channels
    error = _error_unpickling_as_a_new_process(sent)
    assert isinstance(error, FileNotFoundError)
    assert pool_semaphore_gone(error)


def test_other_file_errors_are_not_taken_for_a_gone_pool() -> None:
    error = _error_unpickling_as_a_new_process(_pickled_for_a_new_process(_MissingFile()))
    assert isinstance(error, FileNotFoundError)  # the same type, from os.stat
    assert not pool_semaphore_gone(error)
    with pytest.raises(FileNotFoundError) as raised:
        os.stat("/nonexistent/webresearch-test")
    assert not pool_semaphore_gone(raised.value)  # not while a process starts
    assert not pool_semaphore_gone(ValueError("not a file error"))
