"""DNS rebinding of ``webresearch mcp --http``: real servers on 127.0.0.x (issue 20).

Every bind checks Host (421) and Origin (403) before anything else; binds other than
127.0.0.1 and ::1 need a token; ``--allowed-host`` adds the names clients use.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli

from .conftest import INITIALIZE, ServerProcess, start_http_server, stop

pytestmark = pytest.mark.network

TOKEN = "tok-rebinding-7c1e9d2b4a6f"
INIT = json.dumps(INITIALIZE)


def post(server: ServerProcess, headers: dict[str, str]) -> int:
    """POST an MCP initialize to the server's socket with exactly these extra headers."""
    parts = urlsplit(server.url)
    assert parts.hostname is not None and parts.port is not None
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("POST", parts.path, skip_host="Host" in headers)
        for name, value in {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Content-Length": str(len(INIT)),
            **headers,
        }.items():
            conn.putheader(name, value)
        conn.endheaders(INIT.encode())
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture(params=["127.0.0.1", "127.0.0.3"])
def server(request: pytest.FixtureRequest, child_env: dict[str, str]) -> Iterator[ServerProcess]:
    """127.0.0.1 without a token; 127.0.0.3 with one and an extra name."""
    bind = request.param
    env = dict(child_env)
    args: list[str] = []
    if bind != "127.0.0.1":
        env["WEBRESEARCH_MCP_TOKEN"] = TOKEN
        args = ["--allowed-host", "mcp.test", "--allowed-host", "front.test:443"]
    srv = start_http_server(env, *args, bind=f"{bind}:0")
    try:
        yield srv
    finally:
        stop(srv.process, srv.drain)


def _ours(server: ServerProcess) -> str:
    return urlsplit(server.url).netloc


def test_foreign_host_and_origin_are_refused_on_every_bind(server: ServerProcess) -> None:
    port = urlsplit(server.url).port
    auth = (
        {} if server.url.startswith("http://127.0.0.1:") else {"Authorization": f"Bearer {TOKEN}"}
    )
    for host in (
        f"evil.example:{port}",
        "evil.example",
        f"127.0.0.9:{port}",
        f"mcp.test.evil:{port}",
    ):
        assert post(server, {"Host": host, **auth}) == 421, host
        assert post(server, {"Host": host}) == 421, host  # Host first, token after
    ours = {"Host": _ours(server), **auth}
    for origin in (
        "http://evil.example",
        f"http://evil.example:{port}",
        "null",
        f"http://{_ours(server)}.evil",
    ):
        assert post(server, {**ours, "Origin": origin}) == 403, origin
    assert post(server, ours) == 200
    assert post(server, {**ours, "Origin": f"http://{_ours(server)}"}) == 200
    assert TOKEN not in server.stderr_text()


def test_the_token_and_allowed_hosts_on_another_loopback_address(
    child_env: dict[str, str],
) -> None:
    srv = start_http_server(
        {**child_env, "WEBRESEARCH_MCP_TOKEN": TOKEN},
        "--allowed-host",
        "mcp.test",
        "--allowed-host",
        "front.test:443",
        bind="127.0.0.3:0",
    )
    try:
        port = urlsplit(srv.url).port
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert post(srv, {"Host": _ours(srv)}) == 401  # the right Host, no token
        assert post(srv, {"Host": f"mcp.test:{port}", **auth}) == 200
        assert post(srv, {"Host": "front.test:443", "Origin": "https://front.test", **auth}) == 200
        assert post(srv, {"Host": "front.test", **auth}) == 421  # port 80 was not allowed
        assert post(srv, {"Host": f"localhost:{port}", **auth}) == 421  # not our address
    finally:
        stop(srv.process, srv.drain)


@pytest.mark.parametrize("bind", ["127.0.0.2:0", "localhost:0", "[::ffff:127.0.0.1]:0"])
def test_other_loopback_binds_without_a_token_do_not_start(bind: str) -> None:
    env = {"WEBRESEARCH_MCP_TOKEN": None, "WEBRESEARCH_JOURNAL_URL": "memory://"}
    result = CliRunner().invoke(cli, ["mcp", "--http", bind], env=env)
    assert result.exit_code == 2, result.output
    assert "without a token" in result.stderr


def test_a_wildcard_bind_needs_allowed_host() -> None:
    env = {"WEBRESEARCH_MCP_TOKEN": TOKEN, "WEBRESEARCH_JOURNAL_URL": "memory://"}
    result = CliRunner().invoke(cli, ["mcp", "--http", "0.0.0.0:0"], env=env)
    assert result.exit_code == 2, result.output
    assert "--allowed-host" in result.stderr
    bad = CliRunner().invoke(
        cli, ["mcp", "--http", "127.0.0.1:0", "--allowed-host", "a b"], env=env
    )
    assert bad.exit_code == 2 and "--allowed-host" in bad.stderr
