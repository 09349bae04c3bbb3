"""``--log-format json``: every line on stderr is one JSON object — log records of ours, of
the HTTP server and of the MCP SDK, and the lines for people (listening, terminated)."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.cli_runs import cli_env, sigint_default
from webresearch.cli.logs import JSONFormatter


def test_a_record_is_one_json_object_with_its_traceback() -> None:
    try:
        raise ValueError("bad value")
    except ValueError:
        record = logging.LogRecord(
            "webresearch.mcp", logging.ERROR, __file__, 1, "failed: %s", ("x",), sys.exc_info()
        )
    line = JSONFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "error" and entry["logger"] == "webresearch.mcp"
    assert entry["message"] == "failed: x"
    assert entry["time"].endswith("Z") and "T" in entry["time"]
    assert "ValueError: bad value" in entry["exception"]


def test_the_mcp_server_logs_json_lines_from_start_to_stop(tmp_path: Path) -> None:
    env = {
        **cli_env(tmp_path),
        "WEBRESEARCH_LOG_FORMAT": "json",
        "WEBRESEARCH_MCP_TOKN": "typo",  # an unknown setting: a warning when the server starts
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "webresearch", "mcp", "--http", "127.0.0.1:0"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=sigint_default,
    )
    try:
        assert proc.stderr is not None
        lines: list[str] = []
        while not any("listening on" in line for line in lines):
            line = proc.stderr.readline().decode()
            assert line, lines
            lines.append(line)
        os.kill(proc.pid, signal.SIGTERM)
        _, rest = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    lines += rest.decode().splitlines()
    entries = [json.loads(line) for line in lines if line.strip()]
    messages = [e["message"] for e in entries]
    assert any(
        "WEBRESEARCH_MCP_TOKN" in m and e["level"] == "warning"
        for m, e in zip(messages, entries, strict=True)
    )
    assert any(m.startswith("MCP server listening on http://127.0.0.1:") for m in messages)
    assert messages[-1] == "terminated" and proc.returncode == 143
    assert all(e["logger"].startswith("webresearch") for e in entries)
