"""The next step toward a local address names the concrete exemption, never a placeholder,
never one the command already has, and none for an address no page is read from (review
session 13: ``fetch http:/127.0.0.1:PORT/x`` got the URL without the option; with
``--allow-network 127.0.0.1/32`` given the step said to add it; a typed loopback URL's
refusal said ``--allow-network CIDR``)."""

from __future__ import annotations

import ipaddress
import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch.cli.local_hints import Exemptions
from webresearch.cli.main import cli
from webresearch.url_text import INTERNAL_TYPED_HINT as INTERNAL

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}
PAGE = b"<html><head><title>Local</title></head><body><p>Served on loopback.</p></body></html>"
LOOPBACK = ["--allow-network", "127.0.0.1/32"]


def step(stderr: str) -> str:
    """The ``(next step: …)`` of a one-line error."""
    return stderr.split("(next step: ", 1)[1].rsplit(")", 1)[0]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_url_with_one_slash_gets_the_url_and_the_option_that_work(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with LocalServer({"/x": Route(200, [("Content-Type", "text/html")], PAGE)}) as server:
        port = server.base.rsplit(":", 1)[1]
        code, _, err = run("fetch", f"http:/{host}:{port}/x")
        assert code == 2, err
        said = step(err)
        assert "--allow-network 127.0.0.1/32" in said, said
        # the step names a command that fetches the page
        if host == "localhost":
            args = shlex.split(said.split("give ", 1)[1])
        else:
            assert f"http://127.0.0.1:{port}/x" in said
            args = [f"http://127.0.0.1:{port}/x", *LOOPBACK]
        code, out, err = run("fetch", *args)
    assert code == 0, err
    assert "Served on loopback." in out


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        ("localhost:8765/x", "give http://127.0.0.1:8765/x"),
        ("127.0.0.1:8765/x", "a URL needs its scheme: http://127.0.0.1:8765/x"),
        ("http:/127.0.0.1:8765/x", "a URL needs its scheme: http://127.0.0.1:8765/x"),
        ("http://localhost:8765/x", "give http://127.0.0.1:8765/x"),
    ],
)
def test_an_exemption_already_given_is_not_asked_for_again(
    typed: str, wanted: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("fetch", typed, *LOOPBACK)
    assert code in (2, 3), err
    said = step(err)
    assert wanted in said and "--allow-network" not in said, said
    code, _, err = run("fetch", typed, "--allow-private")  # loopback is private: exempted
    assert "--allow-network" not in step(err), err


@pytest.mark.parametrize(
    ("url", "option"),
    [
        ("http://127.0.0.1:8765/x", "--allow-network 127.0.0.1/32"),
        ("http://[::1]:8765/x", "--allow-network ::1/128"),
        ("http://10.1.2.3/x", "--allow-network 10.1.2.3/32"),
    ],
)
def test_a_typed_internal_urls_refusal_names_its_own_exemption(url: str, option: str) -> None:
    code, _, err = run("fetch", url)
    assert code == 3, err
    said = step(err)
    assert option in said and "CIDR" not in said, said
    code, out, _ = run("fetch", url, "--json")
    data = json.loads(out)
    for hint in (data["error"]["hint"], data["meta"]["error"]["hint"], data["text"]):
        assert option in hint and "CIDR" not in hint
    # another network given: the one this address needs is still named
    code, _, err = run("fetch", url, "--allow-network", "192.0.2.0/24")
    assert option in step(err), err


@pytest.mark.parametrize(
    "target",
    [
        "http://169.254.169.254/latest/meta-data",
        "http:/169.254.169.254/latest/meta-data",
        "http://0.0.0.0:8765/",
        "http://[fe80::1]/x",
        "http://224.0.0.1/x",
        # review r-13a: the guard's table, not Python's flags (these were offered /32)
        "http://[fd00:ec2::254]/latest/meta-data/",  # AWS metadata over IPv6
        "http://168.63.129.16/x",  # Azure WireServer
        "http://100.100.100.200/x",  # Alibaba Cloud metadata
        "http://0.1.2.3/x",  # 'this network'
        "http://192.0.0.8/x",  # IETF protocol assignments
        "http://192.88.99.1/x",  # 6to4 relay anycast
        "http://[::ffff:169.254.169.254]/x",  # metadata inside an IPv4-mapped address
        "[fd00:ec2::254]/x",
        "http:/[fd00:ec2::254]/x",
        "0.1.2.3:80/x",
        "100.100.100.200/latest/meta-data",
        "http:/168.63.129.16/x",
    ],
)
def test_no_exemption_is_suggested_for_an_always_refused_address(target: str) -> None:
    for settings in ([], ["--allow-private"], ["--allow-network", "192.0.2.0/24"]):
        code, _, err = run("fetch", target, *settings)
        assert code in (2, 3), err
        assert "--allow-network" not in step(err) and "CIDR" not in err, err
        said = step(err)
        if code == 3:  # refused by the guard: the kind refused, nothing false ("never read")
            assert "refuses this kind of address (link-local" in said, (settings, err)
        else:  # typed without its scheme: no URL to retry (review: metadata names too)
            assert said == INTERNAL, (settings, err)
        assert "never" not in said and "://" not in said, (settings, err)
    code, out, _ = run("fetch", target, "--json")
    if code == 3:  # refused by the guard (one typed without its scheme is a usage error)
        data = json.loads(out)
        for hint in (data["error"]["hint"], data["meta"]["error"]["hint"], data["text"]):
            assert "--allow-network" not in hint and "refuses this kind of address" in hint, hint


@pytest.mark.parametrize(
    "address",
    [
        "fd00:ec2::254",
        "168.63.129.16",
        "100.100.100.200",
        "0.1.2.3",
        "192.0.0.8",
        "192.88.99.1",
        "169.254.169.254",
        "::ffff:169.254.169.254",
        "::",
        "224.0.0.1",
    ],
)
def test_allow_private_does_not_cover_an_always_refused_address(address: str) -> None:
    exempt = Exemptions(private=True)
    assert not exempt.covers(ipaddress.ip_address(address))
    assert exempt.covers(ipaddress.ip_address("10.1.2.3"))
    assert exempt.covers(ipaddress.ip_address("fd12::1"))  # unique local: private


def test_image_and_browse_name_the_same_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("image", "http:/127.0.0.1:8765/a.png")
    assert code == 2 and "--allow-network 127.0.0.1/32" in step(err), err
    code, _, err = run("image", "http://127.0.0.1:8765/a.png")
    assert code == 3 and "--allow-network 127.0.0.1/32" in step(err), err
    code, _, err = run("browse", "localhost:8765", *LOOPBACK)
    assert code == 2, err
    said = step(err)
    assert "http://127.0.0.1:8765" in said and "--allow-network" not in said, said
