"""The JSON-lines journal sink: one event per line, appended and flushed before returning.

Easy to ship to a log pipeline. Results kept for idempotent replay are lines of the form
``{"operation_result": {"operation_id": …, "result": …}}`` in the same file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..errors import StorageError
from ..runtime.journal import JournalEvent, matches
from .files import ensure_private_file

__all__ = ["JSONLinesJournal"]


class JSONLinesJournal:
    """Journal events as JSON lines in ``path`` (created with its parent directories)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            ensure_private_file(self.path)
            self._fh = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise StorageError(
                f"cannot open the journal file {self.path.name}: {exc.strerror}"
            ) from None

    def _write(self, obj: dict[str, Any]) -> None:
        try:
            self._fh.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            raise StorageError(f"journal write failed: {exc.strerror}") from None

    async def append(self, event: JournalEvent) -> None:
        self._write(event.to_dict())

    def _lines(self) -> list[dict[str, Any]]:
        try:
            with self.path.open(encoding="utf-8") as fh:
                return [json.loads(line) for line in fh if line.strip()]
        except FileNotFoundError:
            return []
        except (OSError, json.JSONDecodeError) as exc:
            raise StorageError(f"journal read failed: {exc}") from None

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        events = [JournalEvent.from_dict(d) for d in self._lines() if "operation_result" not in d]
        out = [e for e in events if matches(e, run_id, tool, kind, since)]
        return out[-limit:] if limit else out

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        self._write({"operation_result": {"operation_id": operation_id, "result": result}})

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        found = None
        for line in self._lines():
            rec = line.get("operation_result")
            if rec and rec.get("operation_id") == operation_id:
                found = rec["result"]
        return found

    async def aclose(self) -> None:
        self._fh.close()
