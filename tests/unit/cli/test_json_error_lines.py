"""Session 10 review: with ``--log-format json`` the CLI's own error lines stayed plain text
(``webresearch fetch: error[network]: …``, click's usage block), so a log collector reading
JSON lines met lines it could not parse. Now every line on stderr is one JSON object: an
error is a record of level ``error`` with ``command`` and ``code``; text logs are as before.
Loopback only: the closed port 9 of 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.cli_runs import cli_env, sigint_default
from webresearch.cli.main import cli

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_LOG_FORMAT": None}
CLOSED = "http://127.0.0.1:9/"


def records(stderr: str) -> list[dict[str, Any]]:
    """Every line of ``stderr`` as JSON (fails on a line that is not)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert lines, "nothing on stderr"
    return [json.loads(line) for line in lines]


def test_a_tool_error_is_a_json_record() -> None:
    args = ["--log-format", "json", "fetch", CLOSED, "--allow-network", "127.0.0.1/32"]
    result = CliRunner().invoke(cli, args, env=ENV)
    assert result.exit_code == 1
    (error,) = [r for r in records(result.stderr) if r["level"] == "error"]
    assert error["command"] == "fetch" and error["code"] == "network"
    assert error["message"].startswith("error[network]: could not connect to " + CLOSED)
    assert "(next step: " in error["message"]


def test_each_input_of_a_batch_is_its_own_record() -> None:
    args = ["fetch", CLOSED, CLOSED + "x", "--allow-network", "127.0.0.1/32"]
    result = CliRunner().invoke(cli, [*args, "--log-format", "json"], env=ENV)
    errors = [r for r in records(result.stderr) if r["level"] == "error"]
    assert sorted(e["message"].rsplit(" ", 1)[-1] for e in errors) == [
        f"[{CLOSED}]",
        f"[{CLOSED}x]",
    ]


def test_a_wrong_setting_is_a_json_record() -> None:
    env = {**ENV, "WEBRESEARCH_FETCH_MAX_BYTES": "x"}
    result = CliRunner().invoke(cli, ["--log-format", "json", "fetch", CLOSED], env=env)
    assert result.exit_code == 2
    (error,) = records(result.stderr)
    assert (error["level"], error["command"], error["code"]) == ("error", "fetch", "configuration")
    assert "invalid setting WEBRESEARCH_FETCH_MAX_BYTES" in error["message"]


def test_text_logs_keep_the_plain_line() -> None:
    args = ["fetch", CLOSED, "--allow-network", "127.0.0.1/32"]
    result = CliRunner().invoke(cli, args, env=ENV)
    assert result.stderr.startswith("webresearch fetch: error[network]: could not connect")


@pytest.mark.parametrize(
    ("args", "command", "words"),
    [
        (["--log-format", "json", "search", "x", "--country", "uk"], "search", "'uk'"),
        (["--log-format", "json", "nosuch"], None, "No such command 'nosuch'"),
        # --log-format after the command: click stopped at --bogus before reading it
        (["fetch", "--log-format", "json", CLOSED, "--bogus"], "fetch", "--bogus"),
        (["--log-format=json", "fetch"], "fetch", "give at least one URL"),
    ],
)
def test_a_usage_error_is_a_json_record_without_the_usage_block(
    args: list[str], command: str | None, words: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "webresearch", *args],
        env={**cli_env(tmp_path), "HOME": str(tmp_path), "WEBRESEARCH_SEARCH_PROVIDER": "none"},
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,
    )
    assert done.returncode == 2
    (error,) = records(done.stderr)
    assert error["level"] == "error" and error["code"] == "usage"
    assert error.get("command") == command
    assert error["message"].startswith("error[usage]: ") and words in error["message"]
    assert "Usage:" not in done.stderr


def test_a_usage_error_in_text_logs_keeps_clicks_usage_block(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "webresearch", "nosuch"],
        env={**cli_env(tmp_path), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("Usage: webresearch [OPTIONS] COMMAND [ARGS]...")
