"""``webresearch search`` as a person runs it: a real subprocess against local servers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.api_server import ApiServer, json_response
from tests.support.cli_runs import sigint_default
from tests.support.http_server import LocalServer, Route, load_case
from tests.support.search_stubs import BRAVE, SEARXNG, fixture_json

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parents[2]
CASE22 = ROOT / "tests" / "fixtures" / "cases" / "22-searxng-json-forbidden"

#: Runs the CLI with the ``ddgs`` package made unimportable (a machine without it).
BLOCK_DDGS = """
import sys
from importlib.abc import MetaPathFinder

class _NoDdgs(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "ddgs" or name.startswith("ddgs."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NoDdgs())
from webresearch.cli.main import main
sys.argv[0] = "webresearch"
main()
"""


def _run(
    args: list[str], env: dict[str, str], *, block_ddgs: bool = False
) -> subprocess.CompletedProcess[str]:
    base_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT / "src"),
        "HOME": env.get("HOME", "/nonexistent"),
        "WEBRESEARCH_JOURNAL_URL": "memory://",
        "PYTHONWARNINGS": "error",
    }
    cmd = (
        [sys.executable, "-c", BLOCK_DDGS] if block_ddgs else [sys.executable, "-m", "webresearch"]
    )
    return subprocess.run(
        [*cmd, *args],
        env={**base_env, **env},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        preexec_fn=sigint_default,
    )


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


def test_search_prints_results_from_a_searxng_instance(api: ApiServer) -> None:
    SEARXNG.route(api, fixture_json("searxng"))
    done = _run(["search", "python asyncio", "-n", "2"], {"WEBRESEARCH_SEARXNG_URL": api.base})
    assert done.returncode == 0, done.stderr
    assert "1. [asyncio — Asynchronous I/O — Python 3.12 documentation]" in done.stdout
    assert "(https://docs.python.org/3/library/asyncio.html)" in done.stdout
    assert "\n3. " not in done.stdout  # -n 2
    assert api.requests()[0].param("format") == "json"
    assert api.base not in done.stdout + done.stderr


def test_search_json_output(api: ApiServer) -> None:
    SEARXNG.route(api, fixture_json("searxng"))
    done = _run(
        ["search", "python asyncio", "--json", "--provider", "searxng"],
        {
            "WEBRESEARCH_SEARXNG_URL": api.base,
            # --provider asks that provider alone, whatever list and fusion are configured
            "WEBRESEARCH_SEARCH_PROVIDERS": "brave,tavily",
            "WEBRESEARCH_SEARCH_FUSION": "rrf",
        },
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ok"] is True
    assert data["meta"]["provider"] == "searxng"
    assert data["meta"]["results"] == 3


def test_search_against_a_403_searxng_prints_the_configuration_fix() -> None:
    with LocalServer(load_case(CASE22)) as stub:
        done = _run(["search", "test query"], {"WEBRESEARCH_SEARXNG_URL": stub.base})
        health = _run(["search", "--test"], {"WEBRESEARCH_SEARXNG_URL": stub.base})
    assert done.returncode == 1
    assert done.stdout == ""
    assert "error[auth]" in done.stderr and "misconfigured" in done.stderr
    assert "search.formats" in done.stderr and "settings.yml" in done.stderr
    assert done.stderr.count("search.formats") == 1  # said once (not also as a log line)
    assert "no results" not in done.stderr and "Traceback" not in done.stderr
    assert stub.base not in done.stderr
    assert health.returncode == 1
    assert re.fullmatch(r"auth searxng: after \d+(\.\d+)? ms", health.stdout.strip())
    assert "search.formats" in health.stderr  # the operator sees the fix


def test_search_test_ok(api: ApiServer) -> None:
    SEARXNG.route(api, fixture_json("searxng"))
    done = _run(
        ["search", "--test", "--provider", "searxng"], {"WEBRESEARCH_SEARXNG_URL": api.base}
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"ok searxng: 3 results in \d+(\.\d+)? ms", done.stdout.strip())
    assert api.requests()[0].param("q") == "test"


def test_search_test_reports_each_provider_with_the_query_given(api: ApiServer) -> None:
    """``--test QUERY`` (a usage error before issue 18) runs that query on every configured
    provider, in order, and reports each one's outcome, result count and latency."""
    SEARXNG.route(api, fixture_json("searxng"))
    with ApiServer() as brave:
        BRAVE.route(brave, json_response({"error": "no"}, 401))
        env = {
            "WEBRESEARCH_SEARCH_PROVIDERS": "searxng,brave",
            "WEBRESEARCH_SEARXNG_URL": api.base,
            "WEBRESEARCH_BRAVE_BASE_URL": brave.base,
            "WEBRESEARCH_BRAVE_API_KEY": "wrong-key-7",
        }
        text = _run(["search", "--test", "rust 1.80 release"], env)
        as_json = _run(["search", "--test", "rust 1.80 release", "--json"], env)
        brave_queries = [r.param("q") for r in brave.requests()]
    assert text.returncode == 1
    lines = text.stdout.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r"ok searxng: 3 results in \d+(\.\d+)? ms", lines[0])
    assert re.fullmatch(r"auth brave: after \d+(\.\d+)? ms", lines[1])
    assert "WEBRESEARCH_BRAVE_API_KEY" in text.stderr  # the operator sees the fix
    assert "wrong-key-7" not in text.stdout + text.stderr
    assert [r.param("q") for r in api.requests()] == ["rust 1.80 release"] * 2
    assert brave_queries == ["rust 1.80 release"] * 2
    data = json.loads(as_json.stdout)
    assert data["ok"] is False and data["code"] == "auth"
    assert [(p["provider"], p["ok"], p["code"], p["results"]) for p in data["providers"]] == [
        ("searxng", True, None, 3),
        ("brave", False, "auth", 0),
    ]
    assert all(p["latency_ms"] > 0 for p in data["providers"])


def test_search_without_query_is_a_usage_error() -> None:
    done = _run(["search"], {})
    assert done.returncode == 2
    assert "QUERY is required" in done.stderr


def test_a_blank_query_with_test_is_a_usage_error() -> None:
    done = _run(["search", "  ", "--test"], {})
    assert done.returncode == 2
    assert "QUERY must not be blank" in done.stderr


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--provider", "nope"], {}, "unknown search provider 'nope'"),
        ([], {"WEBRESEARCH_SEARCH_PROVIDER": "tavily"}, "set WEBRESEARCH_TAVILY_API_KEY"),
    ],
)
def test_a_misconfigured_provider_is_one_usage_error_line(
    args: list[str], env: dict[str, str], words: str
) -> None:
    done = _run(["search", "hi", *args], env)
    assert done.returncode == 2
    assert words in done.stderr
    assert done.stderr.count("not available") == 1  # said once, not by the log line too
    assert "next step: use one of" not in done.stderr  # no model-facing advice for a person


def test_without_ddgs_or_configuration_search_is_absent_and_fetch_works(tmp_path: Path) -> None:
    page = Route(200, [("Content-Type", "text/plain")], b"still fetching")
    with LocalServer({"/p": page}) as site:
        search = _run(["search", "anything"], {}, block_ddgs=True)
        health = _run(["search", "--test"], {}, block_ddgs=True)
        fetch = _run(
            ["fetch", f"{site.base}/p", "--allow-network", "127.0.0.0/8"], {}, block_ddgs=True
        )
    # a setting or an optional package is missing: a usage error, said once, with the fix
    assert search.returncode == 2
    assert "web_search is not available" in search.stderr
    assert "no search provider" in search.stderr
    assert search.stderr.count("not available") == 1
    assert "Traceback" not in search.stderr
    assert health.stdout.strip() == "configuration" and health.returncode == 2  # usage
    assert fetch.returncode == 0, fetch.stderr
    assert "still fetching" in fetch.stdout


def test_tools_says_which_tools_are_missing_and_the_fix() -> None:
    done = _run(["tools"], {}, block_ddgs=True)
    assert done.returncode == 0, done.stderr
    offered, _, missing = done.stdout.partition("Not available:")
    assert "web_fetch" in offered and "web_search" not in offered
    line = next(ln for ln in missing.splitlines() if ln.strip().startswith("web_search"))
    assert "install the search extra" in line and "webresearch[" not in line


def test_tools_says_a_misconfigured_provider_once() -> None:
    done = _run(["tools"], {"WEBRESEARCH_SEARCH_PROVIDER": "tavily"})
    assert done.returncode == 0, done.stderr
    assert "WEBRESEARCH_TAVILY_API_KEY" in done.stdout.partition("Not available:")[2]
    assert "WEBRESEARCH_TAVILY_API_KEY" not in done.stderr  # not also as a log line
