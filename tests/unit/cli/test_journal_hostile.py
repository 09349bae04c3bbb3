"""``webresearch journal`` on a journal holding hostile targets and damaged records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from webresearch.backends.jsonl_journal import encode_line
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.cli.journal_view import terminal_safe
from webresearch.cli.main import cli
from webresearch.runtime.journal import JournalEvent, record_problem

HOSTILE = "q \x1b]0;PWNED\x07 \u202eevil\u202c \x9b2J"


def _events() -> list[dict[str, Any]]:
    t = "2026-12-01T00:00:0{}.000+00:00"
    return [
        JournalEvent(
            kind="tool.started",
            run_id="run-h",
            tool="web_search",
            operation_id="op1",
            details={"arguments": {"query": HOSTILE}},
            time=t.format(1),
        ).to_dict(),
        JournalEvent(
            kind="tool.failed",
            run_id="run-h",
            tool="web_search",
            operation_id="op1",
            outcome="cancelled",
            error_code="cancelled",
            duration_ms=5.0,
            time=t.format(2),
        ).to_dict(),
        JournalEvent(  # the model chose the tool's name too
            kind="tool.started",
            run_id="run-h",
            tool="web\x1b[2Jsearch\u202e",
            operation_id="op3",
            time=t.format(3),
        ).to_dict(),
    ]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "j.jsonl"
    with path.open("wb") as fh:
        for event in _events():
            fh.write(encode_line(event))
    return {"WEBRESEARCH_JOURNAL_URL": f"jsonl:///{path}"}


def _damage(env: dict[str, str]) -> None:
    path = Path(env["WEBRESEARCH_JOURNAL_URL"].removeprefix("jsonl:///"))
    bad = {**_events()[1], "operation_id": "op2", "cost": "lots", "event_id": "x"}
    with path.open("ab") as fh:
        fh.write(encode_line(bad) + b"{}\n")


def run(env: dict[str, str], *args: str) -> Any:
    return CliRunner().invoke(cli, ["journal", *args], env=env, catch_exceptions=False)


@pytest.mark.parametrize("args", [(), ("--events",)])
def test_the_table_prints_no_control_or_bidi_characters(
    env: dict[str, str], args: tuple[str, ...]
) -> None:
    out = run(env, *args).stdout
    for char in ("\x1b", "\x07", "\u202e", "\u202c", "\x9b"):
        assert char not in out  # before: written to the terminal as they were
    assert "web\\x1b[2Jsearch\\u202e" in out
    if not args:
        assert "\\x1b]0;PWNED\\x07" in out and "\\u202eevil" in out  # visible, not hidden


def test_json_keeps_the_target_whole(env: dict[str, str]) -> None:
    (line,) = run(env, "--json", "--tool", "web_search").stdout.splitlines()
    assert json.loads(line)["target"] == HOSTILE


def test_an_outcome_equal_to_its_code_is_shown_once(env: dict[str, str]) -> None:
    calls = run(env).stdout
    events = run(env, "--events").stdout
    assert "cancelled cancelled" not in calls + events  # before: in both tables
    assert "cancelled" in calls and "cancelled" in events


@pytest.mark.parametrize("args", [(), ("--events",), ("stats",)])
def test_a_record_with_a_wrong_typed_field_is_skipped_and_counted(
    env: dict[str, str], args: tuple[str, ...]
) -> None:
    _damage(env)
    result = CliRunner().invoke(cli, ["journal", *args], env=env)
    assert result.exit_code == 0, result.output  # before: ValueError traceback, exit 1
    assert "skipped 2 unreadable lines" in result.stderr
    assert "a field of the wrong type (cost)" in result.stderr
    assert "not an event (no kind or run_id)" in result.stderr
    assert "torn or not UTF-8" not in result.stderr  # not why these two were skipped


def test_a_record_with_an_endless_number_or_an_unreadable_time_is_skipped(
    env: dict[str, str],
) -> None:
    # second fresh review: cost inf made --json print Infinity (no JSON) and stats "spent
    # inf"; an unreadable time passed every --since
    path = Path(env["WEBRESEARCH_JOURNAL_URL"].removeprefix("jsonl:///"))
    good = _events()[1]
    with path.open("ab") as fh:
        fh.write(b'{"kind": "tool.completed", "run_id": "r", "cost": Infinity}\n')
        fh.write(b'{"kind": "tool.completed", "run_id": "r", "duration_ms": NaN}\n')
        fh.write(encode_line({**good, "operation_id": "op9", "time": "not-a-time"}))
    result = CliRunner().invoke(cli, ["journal", "--json"], env=env)
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines():
        json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in --json"))
    assert "a number that is not finite (cost)" in result.stderr
    assert "a number that is not finite (duration_ms)" in result.stderr
    assert "a time that is not ISO 8601 (time)" in result.stderr
    assert "op9" not in result.stdout


def test_an_empty_since_is_a_usage_error(env: dict[str, str]) -> None:
    for args in (("--since", ""), ("stats", "--since", " ")):
        result = CliRunner().invoke(cli, ["journal", *args], env=env)
        assert result.exit_code == 2 and "--since" in result.output  # before: no filter


def test_pure_parts() -> None:
    assert terminal_safe("plain text") == "plain text"
    assert terminal_safe("👩\u200d💻 مرحبا") == "👩\u200d💻 مرحبا"  # a joiner an emoji needs
    assert terminal_safe("a\x7fb\u200bc") == "a\\x7fb\\u200bc"
    assert record_problem({"kind": "k", "run_id": "r", "cost": 1, "cached": False}) is None
    assert record_problem({"kind": "k", "run_id": "r", "cost": True}) == (
        "a field of the wrong type (cost)"
    )
    assert record_problem({"kind": "k", "run_id": "r", "details": [], "duration_ms": "1"}) == (
        "a field of the wrong type (details, duration_ms)"
    )


async def _create(sink: SQLiteJournal) -> None:
    """The file and its schema, as the first write makes them."""
    await sink.append(JournalEvent(kind="run.note", run_id="setup"))
    await sink.aclose()


def test_the_sqlite_journal_skips_a_row_of_the_wrong_type(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "j.sqlite3"
    env = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{path}"}
    assert run(env).exit_code == 0  # reading creates no journal (session 10 review)
    assert not path.exists()
    asyncio.run(_create(SQLiteJournal(path)))
    db = sqlite3.connect(path)
    with db:
        db.execute(
            "INSERT INTO events (event_id, time, kind, run_id, tool, operation_id, cached, cost,"
            " details) VALUES ('e', '2026-12-01T00:00:00.000+00:00', 'tool.completed', 'r',"
            " 'web_search', 'op', 0, 'lots', '{}')"
        )
    db.close()
    assert path.exists(), sorted(p.name for p in tmp_path.iterdir())
    for args in ((), ("--events",), ("stats",)):
        result = CliRunner().invoke(cli, ["journal", *args], env=env)
        assert result.exit_code == 0, result.output  # before: ValueError traceback
        assert "skipped 1 unreadable line (1: a field of the wrong type (cost))" in result.stderr


def test_a_long_error_code_widens_no_other_row(env: dict[str, str]) -> None:
    # fresh review, session 9: a 300-character error_code widened every row of the table
    path = Path(env["WEBRESEARCH_JOURNAL_URL"].removeprefix("jsonl:///"))
    long_code = "e" * 300
    failed = {**_events()[1], "operation_id": "op1", "error_code": long_code, "event_id": "y"}
    with path.open("ab") as fh:
        fh.write(encode_line({**failed, "time": "2026-12-01T00:00:04.000+00:00"}))
    for args in ((), ("--events",)):
        lines = run(env, *args).stdout.splitlines()
        assert max(len(line) for line in lines) < 160, lines  # before: over 300
        assert any("eeee…" in line for line in lines)
        # the columns after the outcome start where the header's do
        header = lines[0]
        column = "RUN"
        assert {line.rfind("run-h") for line in lines[1:]} == {header.index(column)}
    assert long_code in run(env, "--json").stdout  # JSON keeps it whole


@pytest.mark.parametrize(
    "args",
    [
        ("--run", ""),
        ("--run", " "),
        ("--tool", ""),
        ("--kind", ""),
        ("stats", "--run", ""),
        ("stats", "--tool", "\t"),
    ],
)
def test_an_empty_filter_is_a_usage_error(env: dict[str, str], args: tuple[str, ...]) -> None:
    # fresh review, session 9: ``--run ""`` was taken (and filtered nothing)
    result = CliRunner().invoke(cli, ["journal", *args], env=env)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{next(a for a in args if a.startswith('--'))}'" in result.output
    assert "must not be empty" in result.output


def test_the_table_and_stats_count_the_same_skipped_rows(tmp_path: Path) -> None:
    # fresh review, session 9: on a SQLite journal the listing counted the bad rows of every
    # kind, stats only those of the closing kinds and the larger count per reason.
    import sqlite3

    path = tmp_path / "j.sqlite3"
    env = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{path}"}
    assert run(env).exit_code == 0  # reading creates no journal (session 10 review)
    assert not path.exists()
    asyncio.run(_create(SQLiteJournal(path)))
    db = sqlite3.connect(path)
    with db:
        for i, kind in enumerate(("tool.started", "tool.completed", "tool.failed")):
            db.execute(
                "INSERT INTO events (event_id, time, kind, run_id, tool, operation_id, cached,"
                " cost, details) VALUES (?, ?, ?, 'r', 'web_search', 'op', 0, 'lots', '{}')",
                (f"e{i}", f"2026-12-01T00:00:0{i}.000+00:00", kind),
            )
    db.close()
    said = set()
    for args in ((), ("--events",), ("stats",), ("stats", "--json")):
        result = CliRunner().invoke(cli, ["journal", *args], env=env)
        assert result.exit_code == 0, result.output
        said.add(result.stderr.splitlines()[0])
    assert said == {
        "webresearch journal: skipped 3 unreadable lines (3: a field of the wrong type (cost))"
        f" in sqlite:///{path}"
    }, said
