"""The journal: every tool call and refusal as events (SPEC §3 "Journal").

Event kinds:

* ``tool.started`` / ``tool.completed`` / ``tool.failed`` — every call; a failed call has
  ``outcome`` ``error`` or ``refused`` (a policy said no) and the stable ``error_code``;
* ``approval.auto_granted`` / ``approval.granted`` / ``approval.denied`` — approval decisions;
* tool-specific events, e.g. ``browser.action``, ``browser.dialog``.

Fields: event id, time (UTC ISO 8601, ms), run id, operation id, tool, arguments hash
(sha256 of canonical JSON), duration (ms), outcome, error code, cached flag, cost, the output
truncated to :data:`OUTPUT_LIMIT_BYTES` with secrets redacted (images as metadata only), and
``details`` (redacted arguments, provenance, refusal kind …).

Sinks implement :class:`Journal`; events are written before the call returns (no buffering
that a crash could lose). Completed results are also kept per operation id so an idempotent
replay returns the recorded result without new events.
"""

from __future__ import annotations

import hashlib
import json
import math
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

__all__ = [
    "OUTPUT_LIMIT_BYTES",
    "Journal",
    "JournalEvent",
    "MemoryJournal",
    "arguments_hash",
    "canonical_json",
    "record_problem",
    "storable",
    "truncate_utf8",
    "utc_now_iso",
]

#: Output kept per event (bytes of UTF-8). SPEC §3: "a few KiB".
OUTPUT_LIMIT_BYTES = 4096


def canonical_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no whitespace, UTF-8 characters kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def arguments_hash(arguments: Any) -> str:
    """sha256 hex of the canonical JSON of ``arguments``.

    Never raises on text: a lone surrogate (valid in JSON text, ``"\\ud800"``, but not
    Unicode) is hashed through its ``surrogatepass`` bytes, so such arguments still get a
    stable hash and a journal event, and the call an ordinary result.
    """
    return hashlib.sha256(canonical_json(arguments).encode("utf-8", "surrogatepass")).hexdigest()


def storable(value: Any) -> Any:
    """``value`` with every string made valid Unicode, for sinks that store UTF-8.

    A lone surrogate (JSON text may carry ``"\\ud800"``; Python decodes a non-UTF-8
    command-line byte to one) becomes U+FFFD; a surrogate pair written as two code points
    becomes the character it spells. Dicts, lists and tuples are walked (tuples become lists);
    other values are returned as they are.
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [storable(v) for v in value]
    return value


def truncate_utf8(text: str, limit: int = OUTPUT_LIMIT_BYTES) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes on a character boundary (``…`` marks a cut)."""
    text = storable(text)  # a lone surrogate is not UTF-8: U+FFFD
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    cut = data[: max(0, limit - 3)].decode("utf-8", "ignore")
    return cut + "…"


def utc_now_iso() -> str:
    """Now as UTC ISO 8601 with milliseconds, e.g. ``2026-11-30T01:02:03.456+00:00``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class JournalEvent:
    """One journal event (see the module docstring for kinds and fields).

    Attributes:
        kind: event kind, e.g. ``tool.completed``.
        run_id: the agent run.
        tool: tool name (``None`` for run-level events).
        operation_id: the call's operation id (the idempotency key).
        args_hash: sha256 of the canonical JSON arguments.
        duration_ms: call duration in milliseconds (completed/failed events).
        outcome: ``ok`` | ``error`` | ``refused`` (completed/failed events).
        error_code: the stable error code of a failed call.
        cached: the result came from a cache.
        cost: price units spent by this call.
        output: the model-facing text, redacted, at most 4 KiB.
        details: extra JSON-serialisable context (redacted).
        event_id: unique id (uuid4 hex).
        time: UTC ISO 8601 with milliseconds.
    """

    kind: str
    run_id: str
    tool: str | None = None
    operation_id: str | None = None
    args_hash: str | None = None
    duration_ms: float | None = None
    outcome: str | None = None
    error_code: str | None = None
    cached: bool = False
    cost: float = 0.0
    output: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    event_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    time: str = field(default_factory=utc_now_iso)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict of every field, every string valid Unicode (:func:`storable`)."""
        data: dict[str, Any] = storable(asdict(self))
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JournalEvent:
        """Inverse of :meth:`to_dict` (unknown keys are ignored)."""
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in names})


#: The JSON types each field of a stored event may have (``None`` where the field may be
#: null); :func:`record_problem` checks a record read back against them.
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "run_id": (str,),
    "tool": (str, type(None)),
    "operation_id": (str, type(None)),
    "args_hash": (str, type(None)),
    "duration_ms": (int, float, type(None)),
    "outcome": (str, type(None)),
    "error_code": (str, type(None)),
    "cached": (bool,),
    "cost": (int, float),
    "output": (str, type(None)),
    "details": (dict,),
    "event_id": (str,),
    "time": (str,),
}


def record_problem(record: dict[str, Any]) -> str | None:
    """Why a JSON object read back from a journal is not a usable event, or ``None``.

    A reader skips (and counts) such a record instead of failing on it: ``kind`` and
    ``run_id`` must be strings, and every other field of :class:`JournalEvent` present must
    have its type (a number for ``cost`` and ``duration_ms``, never a bool; an object for
    ``details``).

    A number must also be finite and ``time`` an ISO 8601 time (a reviewer's ``cost: inf``
    made ``journal --json`` print ``Infinity``, which is no JSON, and an unreadable time
    passed every ``--since``).

    Returns:
        e.g. ``"no kind or run_id"``, ``"a field of the wrong type (cost)"``.
    """
    if not (isinstance(record.get("kind"), str) and isinstance(record.get("run_id"), str)):
        return "not an event (no kind or run_id)"
    wrong = sorted(
        name
        for name, types in _FIELD_TYPES.items()
        if name in record
        and (
            not isinstance(record[name], types)
            or (isinstance(record[name], bool) and bool not in types)
        )
    )
    if wrong:
        return f"a field of the wrong type ({', '.join(wrong)})"
    # json.loads and SQLite take Infinity / NaN: a sum of costs or --json output would carry them
    endless = sorted(
        name
        for name in ("cost", "duration_ms")
        if isinstance(record.get(name), float) and not math.isfinite(record[name])
    )
    if endless:
        return f"a number that is not finite ({', '.join(endless)})"
    if "time" in record:
        try:
            datetime.fromisoformat(record["time"])
        except ValueError:
            return "a time that is not ISO 8601 (time)"  # it would pass every --since
    return None


class Journal(Protocol):
    """Where events go. Every method may raise ``StorageError``.

    A sink may also offer ``scan(visit, *, run_id, tool, kind, since, limit)``: the events
    :meth:`query` would return, given to ``visit`` one at a time without holding them (the
    JSON-lines and SQLite sinks; ``journal stats`` uses it when present)."""

    async def append(self, event: JournalEvent) -> None:
        """Persist one event before returning."""
        ...

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        """Events matching every given filter, oldest first (``since``: ISO time, inclusive)."""
        ...

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        """Keep a completed call's result (JSON, images as metadata) for idempotent replay."""
        ...

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        """The result recorded for ``operation_id``, or ``None``."""
        ...

    async def ping(self) -> None:
        """Check that the sink answers (a readiness probe; ``StorageError`` when it does not)."""
        ...

    async def aclose(self) -> None:
        """Release the sink."""
        ...


def matches(
    event: JournalEvent,
    run_id: str | None,
    tool: str | None,
    kind: str | None,
    since: str | None,
) -> bool:
    """Whether ``event`` passes the query filters (shared by sinks that filter in Python)."""
    return (
        (run_id is None or event.run_id == run_id)
        and (tool is None or event.tool == tool)
        and (kind is None or event.kind == kind)
        and (since is None or event.time >= since)
    )


class MemoryJournal:
    """In-memory sink for tests and short-lived processes."""

    def __init__(self) -> None:
        self.events: list[JournalEvent] = []
        self.results: dict[str, dict[str, Any]] = {}

    async def append(self, event: JournalEvent) -> None:
        self.events.append(event)

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        out = [e for e in self.events if matches(e, run_id, tool, kind, since)]
        return out[-limit:] if limit else out

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        self.results[operation_id] = result

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        return self.results.get(operation_id)

    async def ping(self) -> None:
        """Always answers (nothing to reach)."""

    async def aclose(self) -> None:
        pass

    def kinds(self) -> Sequence[str]:
        """Event kinds in order (handy in tests)."""
        return [e.kind for e in self.events]
