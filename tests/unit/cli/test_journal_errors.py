"""Session 10 review (faults 9, 11): ``webresearch journal`` errors in the format of every
command's error, and a ``--limit`` no journal can take refused as a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli


@pytest.fixture
def not_sqlite(tmp_path: Path) -> dict[str, str]:
    """A journal_url naming a JSON-lines file as SQLite (a mistyped scheme)."""
    path = tmp_path / "calls.jsonl"
    path.write_text('{"kind": "tool.started", "run_id": "r"}\n' * 40, encoding="utf-8")
    return {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{path}"}


@pytest.mark.parametrize(("args", "command"), [([], "journal"), (["stats"], "journal stats")])
def test_a_journal_that_cannot_be_opened_is_one_error_line_with_a_next_step(
    not_sqlite: dict[str, str], args: list[str], command: str
) -> None:
    result = CliRunner().invoke(cli, ["journal", *args], env=not_sqlite)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert "\n" not in line and not line.startswith("Error:"), line
    assert line.startswith(f"webresearch {command}: error[storage]: cannot open the journal")
    assert "(next step: check the path in the journal_url setting" in line
    assert result.stdout == ""


@pytest.mark.parametrize(("args", "command"), [([], "journal"), (["stats"], "journal stats")])
def test_with_json_logs_the_error_is_a_record_with_its_code_and_command(
    not_sqlite: dict[str, str], args: list[str], command: str
) -> None:
    result = CliRunner().invoke(cli, ["--log-format", "json", "journal", *args], env=not_sqlite)
    assert result.exit_code == 1, result.output
    record = json.loads(result.stderr)
    assert record["level"] == "error"
    assert record["code"] == "storage" and record["command"] == command
    assert record["message"].startswith("error[storage]: cannot open the journal database")


@pytest.mark.parametrize("extra", [[], ["--events"]])
@pytest.mark.parametrize("limit", ["9223372036854775808", "1000001"])
def test_a_limit_beyond_the_largest_is_a_usage_error(
    tmp_path: Path, extra: list[str], limit: str
) -> None:
    env = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'j.sqlite3'}"}
    result = CliRunner().invoke(cli, ["journal", *extra, "--limit", limit], env=env)
    assert result.exit_code == 2, result.output
    assert "1<=x<=1000000" in result.stderr
    assert "datatype mismatch" not in result.stderr


def test_the_largest_limit_is_accepted(tmp_path: Path) -> None:
    env = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'j.sqlite3'}"}
    result = CliRunner().invoke(cli, ["journal", "--events", "--limit", "1000000"], env=env)
    assert result.exit_code == 0, result.output
