"""``webresearch mcp --http`` in a child process: bearer token, 401, sessions, binding rules."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import anyio
import httpx2
import mcp_types as types
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.support.cli_runs import sigint_default
from tests.support.http_server import LocalServer
from webresearch.cli.install_hint import source_checkout
from webresearch.cli.main import cli

from .conftest import (
    EXCHANGE_TIMEOUT_S,
    INITIALIZE,
    PAGE_SENTENCE,
    ServerProcess,
    start_http_server,
    stop,
)

pytestmark = pytest.mark.network

TOKEN = "tok-e2e-5b0c1d6a9f3e47c2"


@pytest.fixture
def http_server(child_env: dict[str, str]) -> Iterator[ServerProcess]:
    server = start_http_server({**child_env, "WEBRESEARCH_MCP_TOKEN": TOKEN})
    try:
        yield server
    finally:
        stop(server.process, server.drain)


async def fetch_page(url: str, mode: str, page_url: str) -> str:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        assert "web_fetch" in [t.name for t in (await client.list_tools()).tools]
        result = await client.call_tool("web_fetch", {"url": page_url})
    assert result.is_error is False
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


async def test_clients_with_the_token_list_tools_and_read_a_local_page(
    http_server: ServerProcess, page_server: LocalServer, child_env: dict[str, str]
) -> None:
    assert http_server.url.startswith("http://127.0.0.1:") and http_server.url.endswith("/mcp")
    page_url = f"{page_server.base}/page"
    with anyio.fail_after(EXCHANGE_TIMEOUT_S):
        for mode in ("legacy", "legacy", "auto"):
            assert PAGE_SENTENCE in await fetch_page(http_server.url, mode, page_url)

    # One run per MCP session: the two handshake sessions are two runs in the journal.
    listed = subprocess.run(
        [sys.executable, "-m", "webresearch", "journal", "--kind", "tool.completed", "--json"],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=EXCHANGE_TIMEOUT_S,
        check=True,
        preexec_fn=sigint_default,
    )
    runs = [json.loads(line)["run_id"] for line in listed.stdout.splitlines()]
    assert len(runs) == 3 and all(r.startswith("mcp-") for r in runs)
    assert runs[0] != runs[1]
    assert TOKEN not in listed.stdout
    assert TOKEN not in http_server.stderr_text()


#: Every way to get the token wrong: none, longer, shorter, other scheme, no scheme, empty.
WRONG = [None, f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", f"Basic {TOKEN}", TOKEN, "Bearer"]


async def test_requests_without_the_right_token_get_401(http_server: ServerProcess) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for authorization in WRONG:
            headers = {"Accept": "application/json, text/event-stream"}
            if authorization is not None:
                headers["Authorization"] = authorization
            refused = await http.post(http_server.url, json=INITIALIZE, headers=headers)
            assert refused.status_code == 401, authorization
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert TOKEN not in refused.text
        # The same request with the token gets through.
        headers = {"Accept": "application/json, text/event-stream"}
        headers["Authorization"] = f"Bearer {TOKEN}"
        accepted = await http.post(http_server.url, json=INITIALIZE, headers=headers)
        assert accepted.status_code == 200
    assert TOKEN not in http_server.stderr_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--http", "0.0.0.0:8765"], "without a token"),
        (["--http", "192.0.2.10:8765"], "without a token"),
        (["--http", "example.org:8765"], "without a token"),
        (["--http", "127.0.0.1"], "[HOST:]PORT"),
        (["--http", "127.0.0.1:99999"], "[HOST:]PORT"),
        (["--token", "abc"], "--http only"),
    ],
)
def test_unsafe_or_malformed_binds_are_usage_errors(args: list[str], message: str) -> None:
    # Refused before anything listens; no token in the environment.
    env = {"WEBRESEARCH_MCP_TOKEN": None, "WEBRESEARCH_JOURNAL_URL": "memory://"}
    result = CliRunner().invoke(cli, ["mcp", *args], env=env)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_without_the_mcp_extra_the_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes the import fail as if the package were not installed.
    monkeypatch.setitem(sys.modules, "webresearch.mcp_server", None)
    result = CliRunner().invoke(cli, ["mcp"], env={"WEBRESEARCH_JOURNAL_URL": "memory://"})
    assert result.exit_code == 2
    # this checkout's form, or where it came from (cli/install_hint.py, issue 19)
    checkout = source_checkout()
    hint = (
        f"pip install -e '{checkout}[mcp]'"
        if checkout
        else "install the extra mcp from where you installed webresearch"
    )
    if checkout == "":  # no metadata: run from a source tree
        hint = "pip install -e '.[mcp]' in the checkout"
    assert hint in result.stderr
