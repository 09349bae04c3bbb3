"""A provider's cool-down is shared: one process's failure makes another skip it (issue 18 §2).

Two separate ``webresearch search`` processes share one state backend (a SQLite file, or
Redis). The first meets a SearXNG answering 429 with ``Retry-After: 300`` and fails over to
Brave; the second, started afterwards, does not send SearXNG anything and says why.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.api_server import ApiServer, json_response
from tests.support.cli_runs import ROOT, cli_env, sigint_default
from tests.support.search_stubs import BRAVE, PLANTED_KEYS, SEARXNG, fixture_json

pytestmark = pytest.mark.network


def _search(query: str, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "webresearch", "search", query, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        preexec_fn=sigint_default,
    )
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_a_cooldown_started_by_one_process_is_honoured_by_another(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "redis":
        server = request.getfixturevalue("redis_server")
        state = {
            "WEBRESEARCH_STATE_URL": server.url,
            "WEBRESEARCH_REDIS_PREFIX": f"cd-{uuid.uuid4().hex[:8]}:",
        }
    else:
        state = {"WEBRESEARCH_STATE_URL": f"sqlite:///{tmp_path}/state.sqlite3"}
    with ApiServer() as searxng, ApiServer() as brave:
        SEARXNG.route(searxng, json_response({"error": "busy"}, 429, [("Retry-After", "300")]))
        BRAVE.route(brave, fixture_json("brave"))
        env = {
            **cli_env(tmp_path),
            **state,
            "WEBRESEARCH_SEARCH_PROVIDERS": "searxng,brave",
            "WEBRESEARCH_SEARXNG_URL": searxng.base,
            "WEBRESEARCH_BRAVE_BASE_URL": brave.base,
            "WEBRESEARCH_BRAVE_API_KEY": PLANTED_KEYS["brave"],
        }
        first = _search("first process", env)
        second = _search("second process", env)
        counts = (searxng.count("/search"), brave.count())
    meta_first, meta_second = first["meta"], second["meta"]
    assert isinstance(meta_first, dict) and isinstance(meta_second, dict)
    assert meta_first["provider"] == meta_second["provider"] == "brave"
    assert meta_first["failover"][0]["outcome"] == "failed"
    assert meta_second["failover"][0]["outcome"] == "cooling"
    assert 250 < meta_second["failover"][0]["retry_after"] <= 300
    assert counts == (1, 2)  # SearXNG was asked once for both processes
    assert "cooling down for" in str(second["text"])
