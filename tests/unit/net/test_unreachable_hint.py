"""A page that cannot be reached gets a next step, as the robots.txt step's error already
did (fresh review, session 9).

Before: ``webresearch fetch http://127.0.0.1:9/ --allow-network 127.0.0.0/8`` (no
robots.txt step: the CLI's own command) said only ``error[network]: could not connect to
http://127.0.0.1:9/`` — no next step; with ``--respect-robots`` the same failure said
``check the address; if it is right, the site is down …``.
"""

from __future__ import annotations

import socket

import httpcore2
import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli
from webresearch.net.client import RETRY_HINT, UNREACHABLE_HINT, translate_transport_error

UNREACHABLE = (
    "check the address; if it is right, the site is down or unreachable from here: try "
    "again later or use another source"
)


@pytest.mark.parametrize(
    ("exc", "hint"),
    [
        (httpcore2.ConnectError("refused"), UNREACHABLE_HINT),
        (ConnectionRefusedError(111, "refused"), UNREACHABLE_HINT),
        (httpcore2.ConnectTimeout("slow"), UNREACHABLE_HINT),
        (httpcore2.ReadTimeout("slow"), RETRY_HINT),
        (httpcore2.RemoteProtocolError("bad"), RETRY_HINT),
        (OSError(5, "I/O error"), RETRY_HINT),
    ],
)
def test_every_failure_to_reach_a_site_has_a_next_step(exc: BaseException, hint: str) -> None:
    error = translate_transport_error(exc, "https://x.example/")
    assert error.hint == hint
    assert error.retryable


def test_the_words_are_those_of_the_robots_step() -> None:
    assert UNREACHABLE_HINT == UNREACHABLE


def test_the_cli_says_the_next_step_for_a_closed_port() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_RENDER": "never"}
    url = f"http://127.0.0.1:{port}/"
    result = CliRunner().invoke(cli, ["fetch", url, "--allow-network", "127.0.0.0/8"], env=env)
    assert result.exit_code == 1
    assert result.stderr == (
        f"webresearch fetch: error[network]: could not connect to {url} (next step: "
        f"{UNREACHABLE})\n"
    )
