"""Session 10 review (fault 17): reading a journal never creates its file; the first write
does, and ``webresearch journal`` on a missing path says no journal file exists there."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.backends.jsonl_journal import JSONLinesJournal
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.cli.main import cli
from webresearch.runtime.journal import JournalEvent

SINKS: dict[str, type[JSONLinesJournal] | type[SQLiteJournal]] = {
    "jsonl": JSONLinesJournal,
    "sqlite": SQLiteJournal,
}


@pytest.mark.parametrize("scheme", sorted(SINKS))
def test_opening_and_reading_create_nothing_the_first_write_does(
    tmp_path: Path, scheme: str
) -> None:
    path = tmp_path / "typo" / f"j.{scheme}"

    async def scenario() -> None:
        sink = SINKS[scheme](path)
        try:
            assert await sink.query(limit=10) == []
            assert await sink.query() == []
            assert await sink.recorded_result("op") is None
            assert sink.exists is False
            assert not path.exists() and not path.parent.exists()
            await sink.append(JournalEvent(kind="tool.started", run_id="r", tool="t"))
            assert path.exists() and sink.exists is True
            assert [e.kind for e in await sink.query()] == ["tool.started"]
        finally:
            await sink.aclose()

    asyncio.run(scenario())
    assert (path.stat().st_mode & 0o777) == 0o600


@pytest.mark.parametrize("scheme", sorted(SINKS))
def test_a_writers_readiness_check_creates_the_file(tmp_path: Path, scheme: str) -> None:
    path = tmp_path / f"j.{scheme}"

    async def scenario() -> None:
        sink = SINKS[scheme](path)
        try:
            await sink.ping()  # a writer (an MCP server's /readyz) checks it can write
            assert path.exists() and sink.exists is True
        finally:
            await sink.aclose()

    asyncio.run(scenario())


@pytest.mark.parametrize("scheme", sorted(SINKS))
@pytest.mark.parametrize("args", [[], ["--events"], ["stats"], ["stats", "--json"]])
def test_the_journal_command_on_a_missing_path_says_so_and_creates_nothing(
    tmp_path: Path, scheme: str, args: list[str]
) -> None:
    path = tmp_path / "x" / f"none.{scheme}"
    env = {"WEBRESEARCH_JOURNAL_URL": f"{scheme}:///{path}"}
    result = CliRunner().invoke(cli, ["journal", *args], env=env)
    assert result.exit_code == 0, result.output
    assert "no journal file exists yet" in result.stderr
    assert f"{path}" in result.stderr and "check the journal_url setting" in result.stderr
    assert not path.exists() and not path.parent.exists()
