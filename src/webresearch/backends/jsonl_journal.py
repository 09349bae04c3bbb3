"""The JSON-lines journal sink: one event per line, appended before returning (SPEC §3).

Easy to ship to a log pipeline. Results kept for idempotent replay are lines of the form
``{"operation_result": {"operation_id": …, "result": …}}`` in the same file.

A journal survives a killed writer and several writers:

* **Writing.** Each record is ONE ``write()`` of one complete line on a descriptor opened
  with ``O_APPEND`` (then ``fsync``). POSIX makes an ``O_APPEND`` write's seek-and-write
  atomic, so lines of concurrent processes never interleave. When the file does not end
  with a newline (a writer died mid-line, a disk filled up), the line starts with one, so
  the next event is never glued onto the torn fragment.
* **Reading.** Only complete lines (ending in ``\\n``) are read; a line that is not UTF-8,
  not JSON or not a record, or a record that is not a usable event (a field of the wrong
  type: :func:`~webresearch.runtime.journal.record_problem`) is skipped and counted, by
  reason (:attr:`JSONLinesJournal.skipped_lines`, ``skipped_reasons``), never an error.
  A last line without its newline is a write in progress or a torn one: it is not read
  yet (and once a later write ends it, it is skipped like any bad line).
* **Off the event loop.** Writes (``write`` + ``fsync``: milliseconds, more on a busy disk)
  and scans run in the journal's own thread (:class:`~.serial.SerialThread`), one at a
  time and in call order; the caller awaits them, so an event is on disk when ``append``
  returns.
* **Newest first.** A query with a ``limit`` reads the file backwards from its end, in
  blocks of :data:`READ_CHUNK_BYTES` (:func:`lines_backwards`), and stops once it has
  ``limit`` matching events, so ``journal --limit 3`` reads a few KiB of a 700 MB file, not
  all of it (a reviewer's 737 MB journal took 164 s). With ``since`` it also stops after
  :data:`SINCE_STOP_RUN` events in a row older than ``since`` by more than
  :data:`SINCE_SLACK_S`: lines are appended in the order they are *written*, and an
  event's time is taken when it is made, so a line may be a little older than the one
  before it (it waited in a writer's queue, behind another process's write) — never by
  minutes, since a call waits for its event's write; one stray line (a writer with a wrong
  clock, a line another program wrote) does not end the read.
  Bad lines are counted in the part read (:attr:`JSONLinesJournal.read_all` says whether
  that was the whole file).
* **Operation-id lookups** use an index (operation id → offset and length of its latest
  result line) that is brought up to date by reading only the bytes appended since the
  last lookup; a file that shrank or was replaced is indexed again from the start.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import StorageError
from ..runtime.journal import JournalEvent, matches, record_problem
from .files import ensure_private_file
from .serial import SerialThread

__all__ = [
    "NOT_JSON",
    "READ_CHUNK_BYTES",
    "SINCE_SLACK_S",
    "SINCE_STOP_RUN",
    "JSONLinesJournal",
    "encode_line",
    "lines_backwards",
    "parse_line",
]

#: Why a line that is no JSON object was skipped.
NOT_JSON = "torn, not UTF-8 or not a JSON object"

#: Bytes read at a time when scanning the file (forwards, or backwards from its end).
READ_CHUNK_BYTES = 1 << 16
#: How much older (seconds) than the line after it a line may be: a newest-first query with
#: ``since`` stops at the first event older than ``since`` by more than this.
SINCE_SLACK_S = 600.0
#: Events in a row older than that which end a newest-first query with ``since``.
SINCE_STOP_RUN = 64


def encode_line(obj: dict[str, Any]) -> bytes:
    """One record as one line of UTF-8 JSON, newline included.

    Text that cannot be UTF-8 (a lone surrogate) is written as JSON ``\\uXXXX`` escapes,
    so the line is always valid UTF-8 and valid JSON.
    """
    text = json.dumps(obj, ensure_ascii=False, default=str)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(obj, ensure_ascii=True, default=str).encode("ascii")
    return data + b"\n"


def parse_line(line: bytes) -> dict[str, Any] | None:
    """A complete line (without its newline) as a record; ``None`` when it is not one.

    Not one: not UTF-8, not JSON, or not a JSON object.
    """
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def lines_backwards(
    fh: BinaryIO, size: int, chunk: int = READ_CHUNK_BYTES
) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` of each complete line in the first ``size`` bytes of ``fh``, the
    last line first, reading ``chunk`` bytes at a time from the end (newline not included).

    Bytes after the last newline (a write in progress, or a torn line no later write ended
    yet) are not a line. A line longer than ``chunk`` is gathered from several reads and
    joined once. Blank lines are yielded too (callers skip them). A file that shrank while
    being read ends the lines early.

    Raises:
        OSError: a read failed.
    """
    pos = size
    tail: list[bytes] = []  # the bytes after ``pos`` up to ``line_end``, the last read first
    line_end = -1  # offset of the newline ending the line being gathered; -1: none seen yet
    while pos > 0:
        start = max(0, pos - chunk)
        fh.seek(start)
        block = fh.read(pos - start)
        if len(block) != pos - start:
            return
        pos = start
        if line_end < 0:
            cut = block.rfind(b"\n")
            if cut < 0:
                continue  # still inside the unterminated last line
            data, line_end = block[:cut], start + cut
        elif b"\n" in block:
            data = block + b"".join(reversed(tail))
        else:
            tail.append(block)
            continue
        first, *lines = data.split(b"\n")
        offset = line_end
        for line in reversed(lines):
            offset -= len(line)
            yield offset, line
            offset -= 1  # the newline before it
        tail, line_end = [first], offset
    if line_end >= 0:
        yield 0, b"".join(reversed(tail))


class JSONLinesJournal:
    """Journal events as JSON lines in ``path`` (created with its parent directories by the
    first write: opening and reading a missing file create nothing).

    Attributes:
        skipped_lines: bad lines (torn, not UTF-8, not JSON, not a record, a field of the
            wrong type) met by the last :meth:`query` in the part of the file it read.
        skipped_reasons: the same lines by reason (:data:`NOT_JSON` or what
            :func:`~webresearch.runtime.journal.record_problem` says) → count.
        read_all: whether the last :meth:`query` read every line (a query with a
            ``limit`` may stop early: see the module docstring).
        exists: whether the file existed at the last open, write or :meth:`query`.

    Raises:
        StorageError: the file cannot be opened.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.skipped_lines = 0
        self.skipped_reasons: dict[str, int] = {}
        self.read_all = True
        self.exists = self.path.exists()
        # Created by the first write, never by opening or reading (session 10 review: a
        # mistyped path given to ``webresearch journal`` left an empty file behind).
        self._fd: int | None = self._open() if self.exists else None
        # The operation-result index: operation id → (offset, length) of its latest line.
        self._index: dict[str, tuple[int, int]] = {}
        self._indexed_to = 0
        self._indexed_file: tuple[int, int] | None = None  # (st_dev, st_ino)
        self._io = SerialThread("webresearch-journal")

    def _open(self) -> int:
        """The append descriptor (the file and its directories created owner-only).

        Raises:
            StorageError: the file cannot be created or opened (not retryable: the path).
        """
        try:
            ensure_private_file(self.path)
            # Read-write so the last byte can be checked (pread) on the descriptor we append to.
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        except OSError as exc:
            raise StorageError(
                f"cannot open the journal file {self.path.name}: {exc.strerror}",
                hint="check the path in the journal_url setting (WEBRESEARCH_JOURNAL_URL, or "
                "journal_url in the settings file): it must name a file this user may write",
                retryable=False,
            ) from None
        self.exists = True
        return fd

    def _open_once(self) -> None:
        if self._fd is None:
            self._fd = self._open()

    def _write(self, obj: dict[str, Any]) -> None:
        line = encode_line(obj)
        if self._fd is None:
            self._fd = self._open()
        try:
            size = os.fstat(self._fd).st_size
            if size and os.pread(self._fd, 1, size - 1) != b"\n":
                line = b"\n" + line
            written = os.write(self._fd, line)
            if written < len(line):  # a full disk: the rest, so the line is not left torn
                os.write(self._fd, line[written:])
            os.fsync(self._fd)
        except OSError as exc:
            raise StorageError(f"journal write failed: {exc.strerror}") from None

    async def append(self, event: JournalEvent) -> None:
        await self._io.run(self._write, event.to_dict())

    def _records(self, start: int = 0) -> Iterator[tuple[int, int, dict[str, Any] | None]]:
        """``(offset, length, record or None)`` for each complete line from ``start``."""
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 (closed below; a generator)
        except FileNotFoundError:
            return
        with fh:
            fh.seek(start)
            offset, pending = start, b""
            while chunk := fh.read(READ_CHUNK_BYTES):
                pending += chunk
                *lines, pending = pending.split(b"\n")
                yield from _parsed(_offsets(offset, lines))
                offset += sum(len(line) + 1 for line in lines)

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        return await self._io.run(self._query, run_id, tool, kind, since, limit)

    async def scan(
        self,
        visit: Callable[[JournalEvent], None],
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> None:
        """Call ``visit`` with each event :meth:`query` would return (newest first with a
        ``limit``, else oldest first) without holding them: the file is read a block at a
        time, so memory stays constant whatever its size (``journal stats``). ``visit``
        runs in the journal's thread; ``skipped_lines``, ``skipped_reasons`` and
        ``read_all`` are set as by :meth:`query`.

        Raises:
            StorageError: the file cannot be read.
        """
        await self._io.run(self._scan, visit, run_id, tool, kind, since, limit)

    def _query(
        self,
        run_id: str | None,
        tool: str | None,
        kind: str | None,
        since: str | None,
        limit: int | None,
    ) -> list[JournalEvent]:
        out: list[JournalEvent] = []
        self._scan(out.append, run_id, tool, kind, since, limit)
        if limit:
            out.reverse()
        return out

    def _scan(
        self,
        visit: Callable[[JournalEvent], None],
        run_id: str | None,
        tool: str | None,
        kind: str | None,
        since: str | None,
        limit: int | None,
    ) -> None:
        reasons: Counter[str] = Counter()
        floor = _floor(since) if limit else None
        older = 0  # events in a row older than ``floor``
        found = 0
        self.read_all = True
        self.exists = self._fd is not None or self.path.exists()
        try:
            lines = self._newest_first() if limit else self._records()
            for _offset, _length, record in lines:
                if record is not None and "operation_result" in record:
                    continue
                problem = NOT_JSON if record is None else record_problem(record)
                event = _event(record) if problem is None else None
                if event is None:
                    reasons[problem or "not an event"] += 1
                    continue
                older = older + 1 if floor is not None and event.time < floor else 0
                if older >= SINCE_STOP_RUN:
                    self.read_all = False  # the lines before are older than ``since``
                    break
                if matches(event, run_id, tool, kind, since):
                    visit(event)
                    found += 1
                    if limit and found >= limit:
                        self.read_all = False  # may be wrong when the first line matched
                        break
        except OSError as exc:
            raise StorageError(f"journal read failed: {exc.strerror}") from None
        self.skipped_lines = sum(reasons.values())
        self.skipped_reasons = dict(reasons.most_common())

    def _newest_first(self) -> Iterator[tuple[int, int, dict[str, Any] | None]]:
        """``(offset, length, record or None)`` for each complete line, the last first."""
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 (closed below; a generator)
        except FileNotFoundError:
            return
        with fh:
            size = os.fstat(fh.fileno()).st_size
            yield from _parsed(lines_backwards(fh, size))

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        record = {"operation_result": {"operation_id": operation_id, "result": result}}
        await self._io.run(self._write, record)

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        return await self._io.run(self._recorded, operation_id)

    def _recorded(self, operation_id: str) -> dict[str, Any] | None:
        try:
            self._update_index()
            where = self._index.get(operation_id)
            if where is None:
                return None
            with open(self.path, "rb") as fh:
                fh.seek(where[0])
                line = fh.read(where[1])
        except OSError as exc:
            raise StorageError(f"journal read failed: {exc.strerror}") from None
        rec = _operation_result(parse_line(line))
        return rec[1] if rec and rec[0] == operation_id else None

    def _update_index(self) -> None:
        """Index the operation results appended since the last lookup.

        Raises:
            OSError: the file cannot be read.
        """
        try:
            st = self.path.stat()
        except FileNotFoundError:
            st = None
        identity = (st.st_dev, st.st_ino) if st else None
        if st is None or identity != self._indexed_file or st.st_size < self._indexed_to:
            self._index.clear()
            self._indexed_to = 0
            self._indexed_file = identity
        if st is None:
            return
        for offset, length, record in self._records(self._indexed_to):
            rec = _operation_result(record)
            if rec is not None:
                self._index[rec[0]] = (offset, length)
            self._indexed_to = offset + length + 1

    async def ping(self) -> None:
        """Ready to write: the file is opened (created when missing: a writer's readiness
        check; :meth:`query` never creates it).

        Raises:
            StorageError: the file cannot be opened.
        """
        if self._fd is None:
            await self._io.run(self._open_once)
            return
        try:
            os.fstat(self._fd)
        except OSError as exc:
            raise StorageError(f"journal file unavailable: {exc.strerror}") from None

    async def aclose(self) -> None:
        await self._io.aclose(self._close)  # after every write made so far

    def _close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)


def _offsets(start: int, lines: list[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` for consecutive lines (newline-separated) from ``start``."""
    for line in lines:
        yield start, line
        start += len(line) + 1


def _parsed(lines: Iterable[tuple[int, bytes]]) -> Iterator[tuple[int, int, dict[str, Any] | None]]:
    """``(offset, length, record or None)`` for each line that is not blank."""
    for offset, line in lines:
        if line.strip():
            yield offset, len(line), parse_line(line)


def _floor(since: str | None) -> str | None:
    """The time (journal format) before which a newest-first scan for ``since`` may stop,
    ``None`` without ``since`` or when it is no ISO time (then nothing stops early)."""
    if since is None:
        return None
    try:
        moment = datetime.fromisoformat(since)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        moment -= timedelta(seconds=SINCE_SLACK_S)
        return moment.astimezone(UTC).isoformat(timespec="milliseconds")
    except (ValueError, OverflowError):  # no ISO time, or further back than any event
        return None


def _event(record: dict[str, Any] | None) -> JournalEvent | None:
    """The journal event a record holds, or ``None`` (an operation result or a bad line)."""
    if record is None or "operation_result" in record:
        return None
    if not (isinstance(record.get("kind"), str) and isinstance(record.get("run_id"), str)):
        return None
    try:
        return JournalEvent.from_dict(record)
    except TypeError:  # a JSON object that is not an event (missing fields)
        return None


def _operation_result(record: dict[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    rec = record.get("operation_result") if record else None
    if not isinstance(rec, dict):
        return None
    op, result = rec.get("operation_id"), rec.get("result")
    return (op, result) if isinstance(op, str) and isinstance(result, dict) else None
