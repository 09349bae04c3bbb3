"""What ``webresearch journal`` shows: calls (one row per call), the calls table, and stats.

Pure functions over journal events as dicts (``JournalEvent.to_dict()``), tested without a
journal. A call is the events sharing one ``operation_id``: ``tool.started`` (its time and
redacted arguments, where the target comes from), approval events, and the closing
``tool.completed`` / ``tool.failed`` (outcome, error code, duration, cache, cost and payees).
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from webresearch.invisible import strip_invisible

__all__ = [
    "Call",
    "JournalStats",
    "StatsTally",
    "aligned",
    "calls_of",
    "cut",
    "display_width",
    "format_calls",
    "format_stats",
    "journal_stats",
    "outcome_text",
    "plain_number",
    "shown_time",
    "target_of",
    "terminal_safe",
]

#: Characters of a target the table shows (JSON lines keep it whole).
TARGET_SHOWN = 60
#: Characters any other cell of a table shows: an error code, a tool's or a kind's name is
#: ours or a plugin's, but a journal may hold anything (a reviewer's 300-character
#: error_code pushed the columns after it off every row, not only its own).
CELL_SHOWN = 40
#: Outcome of a call whose closing event is not (yet) in the journal.
UNFINISHED = "unfinished"
_CLOSING = ("tool.completed", "tool.failed")
#: How the people's views show an empty name (a tool journaled as ``""``); JSON keeps ``""``.
NO_NAME = "(no name)"
_CALL_COLUMNS = ("TIME (UTC)", "TOOL", "TARGET", "OUTCOME", "MS", "COST", "RUN")


@dataclass(slots=True)
class Call:
    """One tool call, assembled from its events.

    Attributes:
        time: when it started (the journal's UTC ISO time).
        run_id: its run.
        operation_id: its operation id (the idempotency key).
        tool: the tool's name.
        target: the URL, query, path or browser action it was about (redacted, as journaled).
        outcome: ``ok``, ``error``, ``refused``, ``cancelled`` or ``unfinished``.
        error_code: the stable error code of a failed call.
        duration_ms: how long it ran.
        cached: served from a cache.
        cost: what it spent (price units).
        costs: who was paid how much (``{"brave": 0.005}``).
    """

    time: str
    run_id: str
    operation_id: str
    tool: str
    target: str = ""
    outcome: str = UNFINISHED
    error_code: str | None = None
    duration_ms: float | None = None
    cached: bool = False
    cost: float = 0.0
    costs: dict[str, float] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Finished with anything but ``ok``."""
        return self.outcome not in ("ok", UNFINISHED)

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines record of ``journal --json``."""
        return asdict(self)


def target_of(arguments: object) -> str:
    """What a call was about, from its journaled arguments: ``url``, ``query`` or ``path``;
    a browser action as ``<action> <url|ref|selector|text>``."""
    if not isinstance(arguments, dict):
        return ""
    for key in ("url", "query", "path"):
        value = arguments.get(key)
        if isinstance(value, str) and value:
            action = arguments.get("action")
            return f"{action} {value}" if isinstance(action, str) and action else value
    action = arguments.get("action")
    if isinstance(action, str):
        extra = next(
            (
                str(arguments[k])
                for k in ("ref", "selector", "text", "key")
                if isinstance(arguments.get(k), str | int) and arguments.get(k) != ""
            ),
            "",
        )
        return f"{action} {extra}".strip()
    return ""


def calls_of(events: Iterable[dict[str, Any]], *, complete_only: bool = False) -> list[Call]:
    """The calls in ``events`` (oldest first, by start).

    Args:
        events: journal events, oldest first; run-level events (no tool or operation id)
            are ignored.
        complete_only: drop calls whose ``tool.started`` is missing (the event window began
            in the middle of them).
    """
    calls: dict[str, Call] = {}
    started: set[str] = set()
    for event in events:
        op, tool = event.get("operation_id"), event.get("tool")
        if not op or tool is None:  # a call's tool may be named "": counted, as stats does
            continue
        call = calls.get(op)
        if call is None:
            call = calls[op] = Call(
                time=str(event.get("time") or ""),
                run_id=str(event.get("run_id") or ""),
                operation_id=str(op),
                tool=str(tool),
            )
        kind = event.get("kind")
        details = event.get("details") or {}
        if kind == "tool.started":
            started.add(op)
            call.time = str(event.get("time") or call.time)
            call.target = target_of(details.get("arguments") if isinstance(details, dict) else {})
        elif kind in _CLOSING:
            call.outcome = str(
                event.get("outcome") or ("ok" if kind == "tool.completed" else "error")
            )
            call.error_code = event.get("error_code")
            duration = event.get("duration_ms")
            call.duration_ms = float(duration) if isinstance(duration, int | float) else None
            call.cached = bool(event.get("cached"))
            call.cost = float(event.get("cost") or 0.0)
            costs = details.get("costs") if isinstance(details, dict) else None
            if isinstance(costs, dict):
                call.costs = {
                    str(k): float(v) for k, v in costs.items() if isinstance(v, int | float)
                }
    out = [c for op, c in calls.items() if op in started or not complete_only]
    return sorted(out, key=lambda c: c.time)


def shown_time(text: str) -> str:
    """A journal time as ``YYYY-MM-DD HH:MM:SS`` (UTC); unparsable text as it is."""
    try:
        return datetime.fromisoformat(text).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return text


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` as a terminal may print it: C0/C1 control characters (ESC, BEL, CR, DEL …:
    escape sequences could retitle or rewrite the terminal) and the invisible characters of
    :func:`webresearch.invisible.strip_invisible` (bidi overrides such as U+202E, which
    reorder what is displayed; zero-width and Tag characters) become visible ``\\xNN`` /
    ``\\uNNNN`` escapes; whitespace runs become one space. The journal keeps targets
    chosen by a model: a people's view must not let them act on the terminal."""
    text = " ".join(text.split())
    hidden = strip_invisible(text)[1] > 0
    if text.isprintable() and not hidden:
        return text
    return "".join(
        _escaped(c) if unicodedata.category(c) == "Cc" or (hidden and strip_invisible(c)[1]) else c
        for c in text
    )


def _char_width(char: str) -> int:
    """Terminal columns of one character: 0 for a combining mark or a format character
    (ZERO WIDTH JOINER: terminal_safe has escaped the hidden ones), 2 for an East Asian wide
    or full-width one (CJK, most emoji), else 1 (Unicode UAX #11 and the general category;
    what ``wcwidth`` computes for these classes)."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0  # a combining mark, or a format character such as the emoji joiner U+200D
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes (:func:`_char_width` summed): ``日本`` is 4, ``é``
    written as ``e`` + U+0301 is 1. Tables align by this, not by ``len`` (session 10
    review: CJK and combining-mark targets pushed the columns after them out of line)."""
    return sum(_char_width(c) for c in text)


def cut(text: str, limit: int = CELL_SHOWN) -> str:
    """:func:`terminal_safe` ``text`` cut to at most ``limit`` terminal columns
    (:func:`display_width`; ``…`` marks a cut and takes one column)."""
    text = terminal_safe(text)
    if display_width(text) <= limit:
        return text
    kept, width = [], 0
    for char in text:
        width += _char_width(char)
        if width > limit - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def plain_number(value: float) -> str:
    """A count or cost as a plain decimal: ``123456789.123``, ``0.000000001``, ``12`` (no
    exponent: ``:g`` printed 1.23457e+08, session 10 review). The shortest digits that
    read back as the same float (``repr``)."""
    number = float(value)
    if not math.isfinite(number):
        return str(number)
    text = format(Decimal(repr(number)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def outcome_text(outcome: str, error_code: str | None) -> str:
    """``ok``, ``error network``, ``cancelled`` (an error code equal to the outcome is not
    repeated: ``cancelled cancelled`` said nothing more)."""
    return outcome + (f" {error_code}" if error_code and error_code != outcome else "")


def _call_row(call: Call, run_chars: int) -> tuple[str, ...]:
    cached = " (cached)" if call.cached else ""
    outcome = cut(outcome_text(call.outcome, call.error_code), CELL_SHOWN - len(cached)) + cached
    return (
        shown_time(call.time),
        cut(call.tool) or NO_NAME,
        cut(call.target, TARGET_SHOWN),
        outcome,
        f"{call.duration_ms:.0f}" if call.duration_ms is not None else "",
        plain_number(call.cost) if call.cost else "",
        call.run_id[:run_chars],
    )


def aligned(rows: Sequence[Sequence[str]], *, widest: int = TARGET_SHOWN) -> list[str]:
    """``rows`` (header first) as lines of left-aligned columns two spaces apart, every
    cell made :func:`terminal_safe` and cut to ``widest`` terminal columns first (the calls
    table cuts its cells narrower before: :data:`CELL_SHOWN`, :data:`TARGET_SHOWN`)."""
    rows = [tuple(cut(c, widest) for c in row) for row in rows]
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(_pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def format_calls(calls: Sequence[Call], *, run_chars: int = 12) -> list[str]:
    """One aligned line per call, header first: time (UTC), tool, target, outcome (with the
    error code, ``(cached)``), duration in ms, cost, run id (its first ``run_chars``)."""
    return aligned([_CALL_COLUMNS, *(_call_row(c, run_chars) for c in calls)])


@dataclass(frozen=True, slots=True)
class JournalStats:
    """Totals over the closing events of calls.

    Attributes:
        calls: finished calls.
        failed: calls that did not end ``ok``.
        errors: error code → calls.
        by_tool: tool → calls.
        cached: calls served from a cache.
        cost: everything spent.
        spend: payee (a provider, a service, or the tool) → spent.
    """

    calls: int
    failed: int
    errors: dict[str, int]
    by_tool: dict[str, int]
    cached: int
    cost: float
    spend: dict[str, float]

    @property
    def cache_hit_rate(self) -> float | None:
        """Cached calls / calls (``None`` without calls)."""
        return self.cached / self.calls if self.calls else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``journal stats --json``."""
        data = asdict(self)
        data["cache_hit_rate"] = self.cache_hit_rate
        return data


class StatsTally:
    """:class:`JournalStats` summed one event at a time: :meth:`add` keeps counters only
    (not the events), so ``journal stats`` reads a journal of any size in constant memory
    (before, it held up to 2,000,000 events at once)."""

    def __init__(self) -> None:
        self.calls = self.failed = self.cached = 0
        self.errors: Counter[str] = Counter()
        self.by_tool: Counter[str] = Counter()
        self.spend: dict[str, float] = {}
        self.cost = 0.0

    def add(self, event: dict[str, Any]) -> None:
        """Count ``event`` when it closes a call (``tool.completed`` / ``tool.failed``)."""
        if event.get("kind") not in _CLOSING:
            return
        self.calls += 1
        self.by_tool[str(event.get("tool") or "")] += 1
        if event.get("kind") == "tool.failed" or event.get("outcome") not in (None, "ok"):
            self.failed += 1
            self.errors[str(event.get("error_code") or event.get("outcome") or "error")] += 1
        self.cached += bool(event.get("cached"))
        spent = float(event.get("cost") or 0.0)
        self.cost += spent
        details = event.get("details") or {}
        payees = details.get("costs") if isinstance(details, dict) else None
        if isinstance(payees, dict) and payees:
            for payee, value in payees.items():
                if isinstance(value, int | float):
                    self.spend[str(payee)] = self.spend.get(str(payee), 0.0) + float(value)
        elif spent:
            tool = str(event.get("tool") or "?")
            self.spend[tool] = self.spend.get(tool, 0.0) + spent

    def stats(self) -> JournalStats:
        """The totals so far."""
        return JournalStats(
            calls=self.calls,
            failed=self.failed,
            errors=dict(self.errors.most_common()),
            by_tool=dict(self.by_tool.most_common()),
            cached=self.cached,
            cost=round(self.cost, 9),
            spend={k: round(v, 9) for k, v in sorted(self.spend.items(), key=lambda kv: -kv[1])},
        )


def journal_stats(events: Iterable[dict[str, Any]]) -> JournalStats:
    """Stats of the calls closed in ``events`` (``tool.completed`` / ``tool.failed``)."""
    tally = StatsTally()
    for event in events:
        tally.add(event)
    return tally.stats()


def format_stats(stats: JournalStats) -> list[str]:
    """Stats for people: calls and failures, errors by code, calls per tool, cache hit
    rate, spend per provider."""
    rate = stats.cache_hit_rate
    lines = [
        f"calls       {stats.calls} ({stats.failed} failed)",
        f"cache hits  {stats.cached} ({rate:.0%})" if rate is not None else "cache hits  -",
        f"spent       {plain_number(stats.cost)}",
    ]
    for title, table in (
        ("errors by code", stats.errors),
        ("calls by tool", stats.by_tool),
        ("spend by provider", stats.spend),
    ):
        if table:
            lines.append(f"{title}:")
            shown = {terminal_safe(k) or NO_NAME: v for k, v in table.items()}
            width = max(display_width(k) for k in shown)
            lines.extend(f"  {_pad(k, width)}  {plain_number(v)}" for k, v in shown.items())
    return lines
