"""A redirect the SSRF guard refuses is listed: ``fetch --json`` gives the chain up to and
including the refused hop (its target withheld, as the error's message withholds it), and
``-vv`` names the hop on the operator's own terminal (URL redacted). Real server on
127.0.0.1 (exempted alone); the refused targets are 127.0.0.2 and the name localhost."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch.cli.main import cli

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}
REFUSED = "[refused by the SSRF guard]"


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as server:
        port = server.base.rsplit(":", 1)[1]
        server.routes["/a"] = Route(302, [("Location", "/b")])
        inner = f"http://127.0.0.2:{port}/secret?token=s3cr3t"
        server.routes["/b"] = Route(301, [("Location", inner)])
        server.routes["/c"] = Route(302, [("Location", f"http://localhost:{port}/secret")])
        refresh = f'<html><head><meta http-equiv="refresh" content="0; url={inner}"></head></html>'
        server.routes["/m"] = Route(200, [("Content-Type", "text/html")], refresh.encode())
        yield server


def _fetch(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        cli, [*args[:-1], "fetch", args[-1], "--allow-network", "127.0.0.1/32", "--json"], env=ENV
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("path", "chain"),
    [
        ("/a", [[302, "{base}/b"], [301, REFUSED]]),  # refused by its address
        ("/c", [[302, REFUSED]]),  # refused by its host name
        ("/m", [[200, REFUSED]]),  # a meta refresh, as a redirect
    ],
)
def test_json_lists_the_chain_up_to_the_refused_hop(
    site: LocalServer, path: str, chain: list[list[object]]
) -> None:
    code, out, _err = _fetch(f"{site.base}{path}")
    assert code == 3
    error = json.loads(out)["error"]
    assert error["code"] == "blocked_address"
    expected = [[s, str(u).format(base=site.base)] for s, u in chain]
    assert error["redirects"] == expected
    assert "127.0.0.2" not in out and "localhost" not in out and "s3cr3t" not in out


def test_vv_names_the_refused_hop(site: LocalServer) -> None:
    _code, _out, err = _fetch("-vv", f"{site.base}/a")
    assert "hop 1: GET " in err
    assert "hop 2: http://127.0.0.2:" in err and "→ refused by the SSRF guard (loopback)" in err
    assert "s3cr3t" not in err
