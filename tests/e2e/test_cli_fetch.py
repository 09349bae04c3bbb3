"""`webresearch fetch` as a person uses it: output, --json, one-line errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.cli_runs import sigint_default
from tests.support.http_server import LocalServer, Route
from webresearch.cli.main import cli

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"}
HTML = (
    b"<html><head><title>Hello page</title></head><body><main><h1>Hello</h1><p>"
    + b"Some words. " * 30
    + b"</p></main></body></html>"
)


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/"] = Route(headers=[("Content-Type", "text/html; charset=utf-8")], body=HTML)
        srv.routes["/long.txt"] = Route(
            headers=[("Content-Type", "text/plain; charset=utf-8")], body=b"line\n" * 20000
        )
        yield srv


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_fetch_prints_the_page_in_the_spec_format(site: LocalServer) -> None:
    code, out, err = run("fetch", f"{site.base}/", "--allow-network", "127.0.0.0/8")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == f"url: {site.base}/"
    assert lines[2] == "content-type: text/html"
    assert lines[3].startswith("title: ")
    assert lines[4] == ""
    assert "Some words." in out


def test_truncation_and_offset_continue_exactly(site: LocalServer) -> None:
    code, out, _ = run("fetch", f"{site.base}/long.txt", "--allow-private", "--max-bytes", "1000")
    assert code == 0
    assert out.rstrip("\n").endswith("[truncated at 1000 of 100000 bytes]")
    code, out2, _ = run(
        "fetch",
        f"{site.base}/long.txt",
        "--allow-private",
        "--max-bytes",
        "1000",
        "--offset",
        "1000",
    )
    assert code == 0 and "[truncated at 2000 of 100000 bytes]" in out2


def test_json_output_carries_provenance(site: LocalServer) -> None:
    code, out, _ = run("fetch", f"{site.base}/", "--allow-private", "--json")
    assert code == 0
    data = json.loads(out)
    meta = data["meta"]
    assert data["ok"] is True and meta["trust"] == "untrusted"
    for key in (
        "requested_url",
        "final_url",
        "redirects",
        "status",
        "fetched_at",
        "sha256",
        "extractor",
        "cached",
        "bytes_downloaded",
        "download_truncated",
    ):
        assert key in meta, key


def test_refusal_exits_3_with_one_line_on_stderr(site: LocalServer) -> None:
    code, out, err = run("fetch", f"{site.base}/")
    assert code == 3 and out == ""
    assert len(err.strip().splitlines()) == 1 and "error[blocked_address]" in err
    # the exemptions are named as the options a person types, not the settings: the
    # address typed exempted alone (cli/local_hints.py), not a placeholder CIDR
    assert "--allow-network 127.0.0.1/32 or --allow-private" in err
    assert "allowed_networks" not in err and "allow_private" not in err
    assert "never" not in err  # one statement: refused unless an operator exempts it
    assert "(" not in err.split("(next step: ", 1)[1].rstrip().removesuffix(")")  # no nesting
    # --json says the next step in the same command-line words as stderr
    code, out, _ = run("fetch", f"{site.base}/", "--json")
    data = json.loads(out)
    # … in every place the object says it: the error, its copy in meta and the text
    for hint in (data["error"]["hint"], data["meta"]["error"]["hint"], data["text"]):
        assert code == 3 and "--allow-network 127.0.0.1/32 or --allow-private" in hint
        assert "allowed_networks" not in hint and "allow_private" not in hint


def test_a_page_naming_a_setting_is_printed_as_it_is(site: LocalServer) -> None:
    """Settings become options in an error's next step only, never in the page's text."""
    page = b"Set allowed_networks and allow_private in the config file.\n"
    site.routes["/settings.txt"] = Route(headers=[("Content-Type", "text/plain")], body=page)
    code, out, err = run("fetch", f"{site.base}/settings.txt", "--allow-network", "127.0.0.0/8")
    assert code == 0, err
    assert "Set allowed_networks and allow_private in the config file." in out


def test_tool_error_exits_1(site: LocalServer) -> None:
    code, _, err = run("fetch", f"{site.base}/missing", "--allow-private")
    assert code == 1 and "error[http_status]" in err and "404" in err


def test_usage_error_exits_2() -> None:
    assert run("fetch")[0] == 2
    assert run("fetch", "http://x.example/", "--max-bytes", "0")[0] == 2
    assert run("fetch", "http://x.example/", "--allow-network", "not-a-cidr")[0] == 2
    code, _, err = run("fetch", "not a url")
    assert code == 2 and "invalid_arguments" in err


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/file",
        # file:///PATH is the local file PATH in the CLI (tests/unit/cli/test_file_urls.py)
        "gopher://127.0.0.1/",
        "javascript:alert(1)",
        "data:text/html,<h1>x</h1>",
    ],
)
def test_a_non_http_url_is_a_usage_error_saying_so(url: str) -> None:
    """Exit 2 (bad input, README "Exit codes"), not 3: no address was refused."""
    code, out, err = run("fetch", url)
    assert code == 2 and out == ""
    line = err.strip()
    assert len(line.splitlines()) == 1
    assert "error[invalid_arguments]: only http and https URLs are fetched" in line
    assert "blocked_address" not in line and "cannot read" not in line


def test_spaces_around_a_url_are_dropped_as_a_browser_does(site: LocalServer) -> None:
    """' URL', 'URL ' and a tab before it all fetch URL (WHATWG URL parsing): not a
    misleading 'must be absolute', a request for '/%20' or a blocked_address."""
    for target in (f" {site.base}/", f"{site.base}/ ", f"\t{site.base}/", f"{site.base}/\n"):
        code, out, err = run("fetch", target, "--allow-network", "127.0.0.0/8")
        assert code == 0, (target, err)
        assert f"url: {site.base}/\n" in out and "Some words." in out


def test_q_is_query_and_a_person_who_meant_quiet_is_told(site: LocalServer) -> None:
    """-q stays --query (README's focused-reading example uses it); --help and the two
    usage errors of someone who meant quiet say so."""
    code, out, _ = run("fetch", "--help")
    assert code == 0 and "-q, --query QUESTION" in out
    assert "-q is short for --query, not quiet" in " ".join(out.split())
    for args in (("-q", f"{site.base}/"), (f"{site.base}/", "-q")):  # quiet meant, both ways
        code, out, err = run("fetch", "--allow-network", "127.0.0.0/8", *args)
        assert code == 2 and out == "", args
        assert "-q is --query QUESTION here, not quiet (--quiet has no short form)" in err, err
    code, out, err = run("fetch", f"{site.base}/", "-q", "hello", "--allow-network", "127.0.0.0/8")
    assert code == 0 and "Hello" in out, err


def test_an_option_of_fetch_is_no_question(site: LocalServer, tmp_path: Path) -> None:
    """'fetch FILE -q --json' would ask the page '--json': a usage error naming it instead."""
    page = tmp_path / "page.html"
    page.write_bytes(HTML)
    for option in ("--json", "--quiet", "-i", "--allow-private", "--max-bytes=5", "--offset=0"):
        code, out, err = run("fetch", str(page), "-q", option)
        assert code == 2 and out == "", option
        assert f"-q is --query QUESTION; got the option {option} as the question" in err
    code, out, err = run("fetch", str(page), "-q", "json")  # a word is a question
    assert code == 0 and "Hello" in out, err


def test_q_before_a_path_gets_the_q_hint_too(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(HTML)
    code, out, err = run("fetch", "-q", str(page))
    assert code == 2 and out == ""
    assert "-q is --query QUESTION here, not quiet (--quiet has no short form)" in err
    assert f"{page} was read as the question; give the URL or PATH too" in err


@pytest.mark.parametrize("target", ["", " ", "\t"])
def test_an_empty_target_is_a_usage_error(target: str) -> None:
    """'fetch ""' (an unset shell variable) was read as the current directory."""
    code, out, err = run("fetch", target)
    assert code == 2 and out == ""
    assert "an empty URL or PATH was given" in err and "directory" not in err


def test_help_teaches() -> None:
    code, out, _ = run("fetch", "--help")
    assert code == 0 and "Examples:" in out and "--allow-network" in out and "Exit codes" in out


def test_the_console_script_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "webresearch", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,
    )
    assert proc.returncode == 0 and "webresearch" in proc.stdout


SHELL = b"<html><head><title>App</title></head><body><div id='root'></div><script>x()</script></body></html>"


def test_a_person_is_pointed_to_the_browse_command_not_the_browser_tool() -> None:
    with LocalServer() as srv:
        srv.routes["/app"] = Route(headers=[("Content-Type", "text/html")], body=SHELL)
        srv.routes["/closed"] = Route(
            status=403, headers=[("Content-Type", "text/html")], body=b"no"
        )
        env = {**ENV, "WEBRESEARCH_RENDER": "never", "WEBRESEARCH_BROWSER_BACKEND": "chromium"}
        args = ["--allow-network", "127.0.0.0/8"]
        shell = CliRunner().invoke(cli, ["fetch", f"{srv.base}/app", *args], env=env)
        closed = CliRunner().invoke(cli, ["fetch", f"{srv.base}/closed", *args], env=env)
    assert shell.exit_code == 0, shell.stderr
    assert "webresearch browse URL --do content" in shell.stdout
    assert closed.exit_code == 1
    assert "webresearch browse URL" in closed.stderr
    assert "browser tool" not in shell.stdout + closed.stderr
