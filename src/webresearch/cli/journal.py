"""``webresearch journal``: calls (one row each), raw events, and ``journal stats`` (SPEC §3
"Journal"); what is shown is :mod:`.journal_view`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import click

from webresearch import ConfigurationError, WebResearchError
from webresearch.redact import redact_url

if TYPE_CHECKING:
    from webresearch import Settings

from .journal_view import (
    StatsTally,
    aligned,
    calls_of,
    cut,
    format_calls,
    format_stats,
    outcome_text,
    plain_number,
)
from .options import SettingsProblem, load_settings
from .render import exit_code_for, show_error
from .signals import run_stoppable

__all__ = ["format_table", "journal", "parse_since"]

#: Events listed when ``--limit`` is not given (the most recent ones).
DEFAULT_LIMIT = 50
#: The largest ``--limit``: more rows than a person reads, and far below what a journal's
#: query can take (SQLite's LIMIT is a signed 64-bit integer: 2**63 failed as "datatype
#: mismatch", session 10 review; the calls view reads up to 8 events per call).
MAX_LIMIT = 1_000_000
#: Characters of the run id the table shows; ``--run`` accepts such a prefix.
RUN_ID_SHOWN = 12
#: Most recent events searched to expand a ``--run`` prefix into the full run id.
RUN_PREFIX_SCAN = 10_000

_RELATIVE = re.compile(r"^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_COLUMNS = ("TIME (UTC)", "KIND", "TOOL", "OUTCOME", "DURATION", "CACHED", "COST", "RUN")


def parse_since(text: str, now: datetime) -> str:
    """``10m`` / ``2h`` / ``1d`` / ``30s`` / ``1w`` ago, or an ISO 8601 time → UTC ISO string.

    The result has the journal's own time format (UTC, milliseconds), so the sinks can
    compare it with event times. An ISO time without a zone is read as UTC (the zone the
    table shows).

    Args:
        text: what the person typed.
        now: the current time (aware).

    Raises:
        ValueError: neither a duration nor an ISO time (the message says what is accepted).
    """
    value = text.strip()
    match = _RELATIVE.match(value.lower())
    if match:
        try:
            moment = now - timedelta(seconds=float(match.group(1)) * _UNIT_S[match.group(2)])
        except OverflowError:
            moment = datetime.min.replace(tzinfo=UTC)  # further back than any event
    else:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(
                f"{text!r} is neither a duration (30s, 10m, 2h, 1d, 1w) nor an ISO time "
                "(2026-11-30 or 2026-11-30T14:05:00Z)"
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _outcome(event: dict[str, Any]) -> str:
    code, outcome = event.get("error_code"), event.get("outcome")
    if code:
        return outcome_text(str(outcome or "error"), str(code))
    return str(outcome or "")


def _row(event: dict[str, Any]) -> tuple[str, ...]:
    time_text = str(event.get("time") or "")
    try:
        shown_time = datetime.fromisoformat(time_text).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        shown_time = time_text
    duration = event.get("duration_ms")
    cost = event.get("cost") or 0
    return (
        shown_time,
        cut(str(event.get("kind") or "")),
        cut(str(event.get("tool") or "")),
        cut(_outcome(event)),
        f"{duration:.0f} ms" if isinstance(duration, int | float) else "",
        "yes" if event.get("cached") else "",
        plain_number(cost) if cost else "",
        str(event.get("run_id") or "")[:RUN_ID_SHOWN],
    )


def format_table(events: Sequence[dict[str, Any]]) -> list[str]:
    """Events (``JournalEvent.to_dict()``) as aligned lines for people, header first.

    Columns: time (UTC, seconds), kind, tool, outcome (``ok``, or outcome and error code),
    duration (ms), cached, cost, run id (its first 12 characters). Every cell is
    :func:`~.journal_view.terminal_safe` (no control or bidi characters reach the terminal)
    and at most :data:`~.journal_view.CELL_SHOWN` characters (``…`` marks a cut).
    """
    return aligned([_COLUMNS, *(_row(e) for e in events)])


def _where(settings: Settings) -> str:
    secret = settings.journal_url  # a SecretStr: a PostgreSQL URL holds a password
    url = secret.get_secret_value() if secret else ""
    if not url:
        return "the default SQLite journal"
    if url.lower().startswith(("postgres://", "postgresql://")):
        return "the PostgreSQL journal"  # never its host or password
    return redact_url(url)


#: Events read per call shown (started, approval, closing, tool events) for the calls view.
EVENTS_PER_CALL = 8
#: Most recent events searched for ``--failed`` calls (failures may be rare).
FAILED_SCAN = 20_000
#: Most recent events ``journal stats`` reads (it counts the closing ones among them).
STATS_SCAN = 2_000_000


def _not_blank(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A filter's value, refused when it is empty or blank (``--run ""`` filtered nothing
    and matched no run: a reviewer's finding; ``--since ""`` was already refused)."""
    if value is not None and not value.strip():
        raise click.BadParameter("must not be empty", ctx=ctx, param=param)
    return value


def _filters(func: Any) -> Any:
    """``--run``, ``--tool``, ``--since`` (shared by the listing and ``stats``)."""
    func = click.option(
        "--since",
        metavar="WHEN",
        default=None,
        help="Only since a duration ago (30s, 10m, 2h, 1d, 1w) or an ISO time (UTC if no zone).",
    )(func)
    func = click.option(
        "--tool",
        metavar="NAME",
        default=None,
        callback=_not_blank,
        help="Only calls of this tool.",
    )(func)
    func = click.option(
        "--run",
        "run_id",
        metavar="ID",
        default=None,
        callback=_not_blank,
        help="Only this run: its id, or the prefix the table shows.",
    )(func)
    return func


class _Reader:
    """Reads the configured journal with the command's filters (``--run`` prefixes
    expanded), and counts what it had to skip: the listing, ``--events`` and ``stats`` all
    read through :meth:`read`, one query each, so on the same journal they count the same
    bad records (before, ``stats`` ran one query per closing kind and kept the larger count
    per reason, so a SQLite journal's table and stats disagreed)."""

    def __init__(
        self,
        settings: Settings,
        command: str,
        run_id: str | None,
        tool: str | None,
        since: str | None,
    ):
        self.settings = settings
        self.command = command  # ``journal`` or ``journal stats``: its error lines name it
        self.run_id, self.tool = run_id, tool
        try:
            self.since = parse_since(since, datetime.now(UTC)) if since is not None else None
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--since") from None
        self.skipped = 0
        self.reasons: dict[str, int] = {}
        self.partial = False  # the query stopped before the oldest record
        self.missing = False  # the journal's file does not exist (nothing journaled there)

    def read(
        self, kind: str | None, limit: int, *, keep: Sequence[str] = ()
    ) -> list[dict[str, Any]]:
        """The newest ``limit`` events of ``kind`` (any: ``None``), oldest first; with
        ``keep``, only those of these kinds are returned (all are read and counted).

        Raises:
            SettingsProblem: a provider's option is wrong.
            click.UsageError: an ambiguous ``--run`` prefix.
            click.exceptions.Exit: the journal failed (a ``StorageError``: unreachable,
                credentials, not a journal file): its one line was shown first, in the
                format of every command's error (``webresearch journal: error[storage]: …
                (next step: …)``, a record with ``code`` when the logs are JSON).
        """
        found: list[dict[str, Any]] = []
        self._run_stoppable(self._read(kind, limit, keep, found.append, stream=False))
        return found

    def visit(
        self, limit: int, each: Callable[[dict[str, Any]], None], *, keep: Sequence[str] = ()
    ) -> None:
        """Give ``each`` the newest ``limit`` events (of ``keep``'s kinds only, when given;
        all are read and counted), in no promised order, without holding them when the
        journal streams them (the JSON-lines and SQLite sinks' ``scan``): ``journal stats``
        reads millions of events in constant memory. Raises as :meth:`read` does."""
        self._run_stoppable(self._read(None, limit, keep, each, stream=True))

    def _run_stoppable(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            run_stoppable(work)
        except ConfigurationError as exc:
            raise SettingsProblem(exc, self.command) from None
        except WebResearchError as exc:
            show_error(self.command, exc)
            raise click.exceptions.Exit(exit_code_for(exc)) from None

    async def _read(
        self,
        kind: str | None,
        limit: int,
        keep: Sequence[str],
        each: Callable[[dict[str, Any]], None],
        *,
        stream: bool,
    ) -> None:
        from webresearch import Toolkit

        async with Toolkit(self.settings, builders=[]) as toolkit:
            journal = toolkit.journal
            run = self.run_id
            if run:
                # The prefix the table shows, or a full id: looked up among the recent
                # events first (a newest-first read; probing the full id first read a whole
                # JSON-lines journal whenever it was a prefix).
                recent = await journal.query(since=self.since, limit=RUN_PREFIX_SCAN)
                runs = {e.run_id for e in recent}
                matches = sorted(r for r in runs if r.startswith(run))
                if run not in runs and len(matches) > 1:
                    raise click.BadParameter(
                        f"{run!r} matches several runs: {', '.join(matches[:5])}",
                        param_hint="--run",
                    )
                if run not in runs and matches:
                    run = matches[0]
            filters: dict[str, Any] = {
                "run_id": run, "tool": self.tool, "kind": kind, "since": self.since, "limit": limit
            }  # fmt: skip
            found = 0

            def take(event: Any) -> None:  # a JournalEvent (the runtime's type)
                nonlocal found
                found += 1
                if not keep or event.kind in keep:
                    each(event.to_dict())

            scan = getattr(journal, "scan", None)
            if stream and callable(scan):
                await scan(take, **filters)  # ``take`` runs in the journal's thread
            else:
                for event in await journal.query(**filters):
                    take(event)
            # The JSON-lines and SQLite sinks skip (and count, by reason) what is no event.
            reasons = getattr(journal, "skipped_reasons", None)
            self.reasons = dict(reasons) if isinstance(reasons, dict) else {}
            self.skipped = sum(self.reasons.values())
            # The file sinks create nothing when reading: a missing file is said so.
            self.missing = getattr(journal, "exists", True) is False
            read_all = getattr(journal, "read_all", None)
            self.partial = read_all is False if isinstance(read_all, bool) else found >= limit

    def report_skipped(self) -> None:
        if self.skipped:
            n = self.skipped
            why = "; ".join(f"{count}: {reason}" for reason, count in self.reasons.items())
            part = " (among the newest records read)" if self.partial else ""
            click.echo(
                f"webresearch journal: skipped {n} unreadable line{'' if n == 1 else 's'} "
                f"({why or 'torn or not JSON'}) in {_where(self.settings)}{part}",
                err=True,
            )

    def say_empty(self, filtered: bool) -> None:
        """The note on stderr when nothing is listed (exit code 0): no match, no events, or
        no journal file at the configured path (reading never creates one: a mistyped
        ``journal_url`` path left an empty file behind, session 10 review)."""
        if self.missing:
            click.echo(
                f"webresearch journal: no journal file exists yet ({_where(self.settings)}): "
                "nothing was journaled there; if the path is mistyped, check the journal_url "
                "setting (webresearch config show)",
                err=True,
            )
            return
        what = "no events match these filters" if filtered else "the journal has no events yet"
        click.echo(f"webresearch journal: {what} ({_where(self.settings)})", err=True)


@click.group("journal", invoke_without_command=True)
@_filters
@click.option(
    "--failed", is_flag=True, help="Only calls that did not end ok (errors and refusals)."
)
@click.option(
    "--events",
    "raw_events",
    is_flag=True,
    help="Show the raw events (tool.started, approval.*, tool.completed …), one row each.",
)
@click.option(
    "--kind",
    metavar="KIND",
    default=None,
    callback=_not_blank,
    help="Only events of this kind, e.g. tool.failed (implies --events).",
)
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_LIMIT),
    default=DEFAULT_LIMIT,
    show_default=True,
    help="Show at most the N most recent matching calls (events with --events).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line (every field).")
@click.pass_context
def journal(
    ctx: click.Context,
    run_id: str | None,
    tool: str | None,
    since: str | None,
    failed: bool,
    raw_events: bool,
    kind: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """List recent tool calls from the journal, one row per call, oldest first.

    Each row: start time (UTC), tool, target (URL, query, path or browser action),
    outcome (ok, or error/refused with its code; "(cached)" when a cache answered),
    duration in ms, cost, run id. Reads the configured journal (WEBRESEARCH_JOURNAL_URL;
    default: the SQLite file). `journal stats` sums the same calls up.

    \b
    Examples:
      webresearch journal
      webresearch journal --since 2h --tool web_fetch --failed
      webresearch journal --run 3f2a9c1b7d4e --json | jq .target
      webresearch journal --events --kind tool.failed
      webresearch journal stats --since 1d
    """
    if ctx.invoked_subcommand is not None:
        return
    reader = _Reader(load_settings(ctx), "journal", run_id, tool, since)
    filtered = any(v is not None for v in (run_id, tool, since, kind)) or failed
    if raw_events or kind is not None:
        events = reader.read(kind, limit)
        reader.report_skipped()
        if failed:
            events = [e for e in events if e.get("outcome") not in (None, "ok")]
        if not events:
            reader.say_empty(filtered)
            return
        for line in (
            (json.dumps(e, ensure_ascii=False, default=str) for e in events)
            if as_json
            else format_table(events)
        ):
            click.echo(line)
        return
    scan = max(limit * EVENTS_PER_CALL, FAILED_SCAN if failed else 0)
    events = reader.read(None, scan)
    reader.report_skipped()
    calls = calls_of(events, complete_only=len(events) >= scan)
    if failed:
        calls = [c for c in calls if c.failed]
    matched, calls = len(calls), calls[-limit:]
    if not calls:
        reader.say_empty(filtered)
        return
    if matched > limit:  # rows were left out: said, as the table cannot (new-user test 16)
        _say_left_out(limit, matched, exact=len(events) < scan)
    for line in (
        (json.dumps(c.to_dict(), ensure_ascii=False, default=str) for c in calls)
        if as_json
        else format_calls(calls, run_chars=RUN_ID_SHOWN)
    ):
        click.echo(line)


def _say_left_out(limit: int, matched: int, *, exact: bool) -> None:
    """The note on stderr that the newest ``limit`` of ``matched`` calls are shown
    (``exact``: every event was read, else ``matched`` is a lower bound)."""
    of = f"{matched}" if exact else f"at least {matched}"
    more = "--limit N for more" if limit < MAX_LIMIT else "--since, --tool or --run to narrow"
    click.echo(f"webresearch journal: showing the newest {limit} of {of} calls ({more})", err=True)


@journal.command("stats")
@_filters
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.pass_context
def stats(
    ctx: click.Context, run_id: str | None, tool: str | None, since: str | None, as_json: bool
) -> None:
    """Sum up the journal's calls: calls and failures, errors by code, calls per tool,
    cache hit rate, spend per provider.

    \b
    Examples:
      webresearch journal stats
      webresearch journal stats --since 1d --tool web_search
      webresearch journal stats --run 3f2a9c1b7d4e --json
    """
    reader = _Reader(load_settings(ctx), "journal stats", run_id, tool, since)
    tally = StatsTally()
    reader.visit(STATS_SCAN, tally.add, keep=("tool.completed", "tool.failed"))
    reader.report_skipped()
    summary = tally.stats()
    if as_json:
        click.echo(json.dumps(summary.to_dict(), ensure_ascii=False))
        if reader.missing:
            reader.say_empty(False)
        return
    if not summary.calls:
        reader.say_empty(any(v is not None for v in (run_id, tool, since)))
        return
    for line in format_stats(summary):
        click.echo(line)
