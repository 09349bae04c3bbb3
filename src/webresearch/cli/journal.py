"""``webresearch journal``: list and filter journal events (SPEC §3 "Journal")."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import click

from webresearch import ConfigurationError, StorageError
from webresearch.redact import redact_url

if TYPE_CHECKING:
    from webresearch import Settings

from .options import load_settings

__all__ = ["format_table", "journal", "parse_since"]

#: Events listed when ``--limit`` is not given (the most recent ones).
DEFAULT_LIMIT = 50
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
        return f"{outcome or 'error'} {code}"
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
        str(event.get("kind") or ""),
        str(event.get("tool") or ""),
        _outcome(event),
        f"{duration:.0f} ms" if isinstance(duration, int | float) else "",
        "yes" if event.get("cached") else "",
        f"{cost:g}" if cost else "",
        str(event.get("run_id") or "")[:RUN_ID_SHOWN],
    )


def format_table(events: Sequence[dict[str, Any]]) -> list[str]:
    """Events (``JournalEvent.to_dict()``) as aligned lines for people, header first.

    Columns: time (UTC, seconds), kind, tool, outcome (``ok``, or outcome and error code),
    duration (ms), cached, cost, run id (its first 12 characters).
    """
    rows = [_COLUMNS, *(_row(e) for e in events)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _where(settings: Settings) -> str:
    secret = settings.journal_url  # a SecretStr: a PostgreSQL URL holds a password
    url = secret.get_secret_value() if secret else ""
    if not url:
        return "the default SQLite journal"
    if url.lower().startswith(("postgres://", "postgresql://")):
        return "the PostgreSQL journal"  # never its host or password
    return redact_url(url)


@click.command("journal")
@click.option(
    "--run",
    "run_id",
    metavar="ID",
    default=None,
    help="Only events of this run: its id, or the prefix the table shows.",
)
@click.option("--tool", metavar="NAME", default=None, help="Only events of this tool.")
@click.option(
    "--since",
    metavar="WHEN",
    default=None,
    help="Only events since a duration ago (30s, 10m, 2h, 1d, 1w) or an ISO time (UTC if no zone).",
)
@click.option(
    "--kind", metavar="KIND", default=None, help="Only events of this kind, e.g. tool.failed."
)
@click.option(
    "--limit",
    type=click.IntRange(1),
    default=DEFAULT_LIMIT,
    show_default=True,
    help="Show at most the N most recent matching events.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line (every field).")
@click.pass_context
def journal(
    ctx: click.Context,
    run_id: str | None,
    tool: str | None,
    since: str | None,
    kind: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """List and filter journal events, oldest first.

    Reads the configured journal (WEBRESEARCH_JOURNAL_URL; default: the SQLite file).

    \b
    Examples:
      webresearch journal
      webresearch journal --since 2h --tool web_fetch
      webresearch journal --kind tool.failed --json
      webresearch journal --run 3f2a9c1b7d4e
    """
    from webresearch import Toolkit

    settings = load_settings(ctx)
    try:
        since_iso = parse_since(since, datetime.now(UTC)) if since else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--since") from None

    skipped = 0

    async def query() -> list[dict[str, Any]]:
        nonlocal skipped
        async with Toolkit(settings, builders=[]) as toolkit:
            journal = toolkit.journal
            run = run_id
            found = await journal.query(
                run_id=run, tool=tool, kind=kind, since=since_iso, limit=limit
            )
            if run and not found:
                # Not a full id: maybe the prefix the table shows.
                recent = await journal.query(since=since_iso, limit=RUN_PREFIX_SCAN)
                matches = sorted({e.run_id for e in recent if e.run_id.startswith(run)})
                if len(matches) > 1:
                    raise click.BadParameter(
                        f"{run!r} matches several runs: {', '.join(matches[:5])}",
                        param_hint="--run",
                    )
                if matches:
                    found = await journal.query(
                        run_id=matches[0], tool=tool, kind=kind, since=since_iso, limit=limit
                    )
            # The JSON-lines sink skips (and counts) torn or undecodable lines.
            count = getattr(journal, "skipped_lines", 0)
            skipped = count if isinstance(count, int) else 0
        return [event.to_dict() for event in found]

    try:
        events = asyncio.run(query())
    except ConfigurationError as exc:
        raise click.UsageError(exc.message) from None
    except StorageError as exc:
        raise click.ClickException(exc.message) from None
    if skipped:
        click.echo(
            f"webresearch journal: skipped {skipped} unreadable line"
            f"{'' if skipped == 1 else 's'} (torn or not UTF-8 JSON) in {_where(settings)}",
            err=True,
        )
    if not events:
        filtered = any(v is not None for v in (run_id, tool, since, kind))
        what = "no events match these filters" if filtered else "the journal has no events yet"
        click.echo(f"webresearch journal: {what} ({_where(settings)})", err=True)
        return
    if as_json:
        for event in events:
            click.echo(json.dumps(event, ensure_ascii=False, default=str))
        return
    for line in format_table(events):
        click.echo(line)
