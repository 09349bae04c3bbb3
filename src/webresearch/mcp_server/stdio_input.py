"""The stdio server's input: the client's lines, read so that a stop never waits for one.

The SDK's ``stdio_server`` reads stdin in a worker thread that a cancel cannot leave: a
``webresearch mcp`` stopped by Ctrl-C or SIGTERM while its client kept the pipe open (as
clients do) waited for the client's next line or EOF, its Toolkit (browser, CPU workers)
still open, and never printed its line. Here the same lines are read by a thread the
cancel abandons (:class:`AbandonableLines`); the process ends right after its cleanup
(``serve_until_signal(..., exit_at_once=True)``), the blocked read with it.

As the SDK does for the stdin it reads itself, fd 0 points at the null device while the
server runs (:func:`claimed_stdin`): a child process (the browser, its driver) never reads
the client's messages.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import sys
from collections.abc import Iterator

import anyio

__all__ = ["AbandonableLines", "claimed_stdin"]


class AbandonableLines(anyio.AsyncFile[str]):
    """A text file whose :meth:`readline` a cancel leaves at once (the thread blocked in it
    is abandoned and ends with the process, or at the next line or EOF)."""

    async def readline(self) -> str:
        """The next line ("" at EOF)."""
        line: str = await anyio.to_thread.run_sync(self.wrapped.readline, abandon_on_cancel=True)
        return line


@contextlib.contextmanager
def claimed_stdin() -> Iterator[AbandonableLines]:
    """The client's input as UTF-8 lines (undecodable bytes replaced), read from a private
    duplicate of fd 0 while fd 0 itself points at the null device; fd 0 is restored
    after. When stdin is not fd 0 (an embedding application replaced ``sys.stdin``), its
    buffer is read as it is."""
    try:
        backed = sys.stdin.buffer.fileno() == 0
    except (AttributeError, OSError, ValueError):
        backed = False
    if not backed:
        yield AbandonableLines(_text(sys.stdin.buffer))
        return
    private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield AbandonableLines(_text(open(private, "rb", buffering=0, closefd=False)))  # noqa: SIM115
    finally:
        os.dup2(private, 0)
        os.close(private)


def _text(raw: io.RawIOBase | io.BufferedIOBase | object) -> io.TextIOWrapper:
    return io.TextIOWrapper(raw, encoding="utf-8", errors="replace")  # type: ignore[arg-type]
