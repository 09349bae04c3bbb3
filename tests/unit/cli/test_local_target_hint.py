"""``fetch localhost:PORT/x`` (no scheme) names what went wrong — neither a file nor a URL
with its scheme — and a next step that works: the URL meant, and the one option that lets
the SSRF guard reach that local address (followed here against a real server)."""

from __future__ import annotations

import ipaddress
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch.cli.local_hints import Exemptions, url_step
from webresearch.cli.main import cli
from webresearch.url_text import INTERNAL_TYPED_HINT

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}
PAGE = b"<html><head><title>Local</title></head><body><p>Served on loopback.</p></body></html>"


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_a_local_url_without_scheme_gets_a_next_step_that_works(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with LocalServer({"/x": Route(200, [("Content-Type", "text/html")], PAGE)}) as server:
        port = server.base.rsplit(":", 1)[1]
        result = CliRunner().invoke(cli, ["fetch", f"{host}:{port}/x"], env=ENV)
        assert result.exit_code == 2, result.stderr
        said = result.stderr
        assert "No such file" not in said
        assert f"cannot read {host}:{port}/x: it is neither a file here nor a URL" in said
        assert "SSRF guard refuses local and loopback addresses unless exempted" in said
        assert "--allow-network 127.0.0.1/32" in said
        # the step names a command that fetches the page
        step = said.split("give ", 1)[1] if host == "localhost" else f"http://127.0.0.1:{port}/x"
        args = shlex.split(step.rstrip(")\n")) if host == "localhost" else [step]
        if host != "localhost":
            args += ["--allow-network", "127.0.0.1/32"]
        fetched = CliRunner().invoke(cli, ["fetch", *args], env=ENV)
    assert fetched.exit_code == 0, fetched.stderr
    assert "Served on loopback." in fetched.stdout


@pytest.mark.parametrize(
    ("target", "option"),
    [("[::1]:8765/x", "--allow-network ::1/128"), ("10.0.0.5:8080/x", "10.0.0.5/32")],
)
def test_the_exemption_named_is_the_address_alone(
    target: str, option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["image", target], env=ENV)
    assert result.exit_code == 2
    assert option in result.stderr


def test_a_public_url_without_scheme_gets_no_ssrf_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["fetch", "example.org/page"], env=ENV)
    assert result.exit_code == 2
    assert "a URL needs its scheme: https://example.org/page)" in result.stderr
    assert "SSRF" not in result.stderr


@pytest.mark.parametrize(
    ("typed", "step"),
    [
        ("localhost:8765", "http://127.0.0.1:8765 --allow-network 127.0.0.1/32"),
        ("127.0.0.1:8765/x", "--allow-network 127.0.0.1/32"),
    ],
)
def test_browse_a_local_url_without_scheme_names_the_exemption(typed: str, step: str) -> None:
    result = CliRunner().invoke(cli, ["browse", typed], env=ENV)
    assert result.exit_code == 2, result.output
    assert "SSRF guard refuses local and loopback addresses unless exempted" in result.stderr
    assert step in result.stderr


def test_browse_a_public_url_without_scheme_gets_no_ssrf_note() -> None:
    result = CliRunner().invoke(cli, ["browse", "docs.example.org/guide"], env=ENV)
    assert result.exit_code == 2, result.output
    assert "https://docs.example.org/guide" in result.stderr
    assert "SSRF" not in result.stderr


@pytest.mark.parametrize(
    "typed", ["169.254.169.254/latest/meta-data", "0.0.0.0:8000/", "[fe80::1]:80/x", "224.0.0.1/x"]
)
def test_no_exemption_is_suggested_for_an_always_blocked_address(typed: str) -> None:
    """review r-12: the hint said `--allow-network 169.254.169.254/32`, which opens the
    cloud metadata service."""
    result = CliRunner().invoke(cli, ["fetch", typed], env=ENV)
    assert result.exit_code == 2, result.output
    assert "--allow-network" not in result.stderr
    assert f"(next step: {INTERNAL_TYPED_HINT})" in result.stderr  # no URL to retry
    assert "://" not in result.stderr.split("next step:", 1)[1]


@pytest.mark.parametrize(
    "typed",
    [
        "metadata.google.internal/computeMetadata/v1/",  # review n-13b: got https://…
        "http:/metadata.google.internal/x",
        "printer.lan/status",
        "nas.home.arpa:5000/x",
        "app.localhost:3000/",
    ],
)
@pytest.mark.parametrize("command", ["fetch", "browse", "image"])
def test_a_typed_internal_name_gets_the_refusal_and_no_url(command: str, typed: str) -> None:
    """A name of an internal network is refused whatever the settings: the step says so in
    web_fetch's words and names no URL and no option (nothing is resolved or fetched)."""
    for settings in ([], ["--allow-private"], ["--allow-network", "127.0.0.1/32"]):
        result = CliRunner().invoke(cli, [command, typed, *settings], env=ENV)
        assert result.exit_code == 2, result.output
        said = result.stderr.split("next step:", 1)[1]
        assert INTERNAL_TYPED_HINT in said, (settings, result.stderr)
        assert "://" not in said and "--allow" not in said, (settings, result.stderr)


def test_an_exempted_link_local_address_typed_without_scheme_gets_its_url() -> None:
    """Only the settings' own exemption (never suggested) opens it: then the URL is the
    step (unit level: nothing is fetched)."""
    exempt = Exemptions((ipaddress.ip_network("169.254.0.0/16"),))
    assert (
        url_step("169.254.169.254/x", exempt) == "a URL needs its scheme: https://169.254.169.254/x"
    )
    assert url_step("169.254.169.254/x") == INTERNAL_TYPED_HINT
    assert url_step("metadata.google.internal/x", exempt) == INTERNAL_TYPED_HINT


def test_localhost_with_a_trailing_dot_gets_the_loopback_step() -> None:
    """review n-12: `localhost.:PORT/x` was suggested as https://localhost.:PORT/x, which the
    guard refuses whatever the settings."""
    result = CliRunner().invoke(cli, ["fetch", "localhost.:8765/x"], env=ENV)
    assert result.exit_code == 2, result.output
    assert "give http://127.0.0.1:8765/x --allow-network 127.0.0.1/32" in result.stderr
