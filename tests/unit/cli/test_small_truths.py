"""Small truths of the CLI (issue 19): gate wording, install hints that fit the installation,
search without a reachable provider naming the likely cause, shell completion."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.cli_runs import cli_env, sigint_default
from webresearch.cli.install_hint import (
    Installation,
    environment_pip,
    fit_install_hints,
    source_checkout,
)
from webresearch.cli.main import cli

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"}


def test_tools_says_which_option_hides_a_tool() -> None:
    result = CliRunner().invoke(cli, ["tools", "--no-vision", "--offline"], env=ENV)
    assert result.exit_code == 0
    assert "the model cannot see images (because of --no-vision)" in result.stdout
    assert "no network access (because of --offline)" in result.stdout
    assert "without --no-vision" not in result.stdout


def test_install_hints_fit_the_installation() -> None:
    line = "Playwright is not installed (pip install -e '.[browser]' in the webresearch checkout)"
    linked = Installation("/src/wr", editable=True, pip="pip")
    assert fit_install_hints(line, linked) == (
        "Playwright is not installed (pip install -e '/src/wr[browser]')"
    )
    # a checkout we cannot locate: its form alone, never the bare name (not on PyPI)
    unknown = fit_install_hints(line, Installation("", pip="pip"))
    assert "pip install -e '.[browser]' in the checkout" in unknown
    assert "webresearch[" not in unknown
    bare = fit_install_hints("install webresearch[search] for ddgs", linked)
    assert bare == "pip install -e '/src/wr[search]' for ddgs"
    # review r-13a: a wheel, a git URL or an index install (no checkout) never gets the
    # bare name either, which installs whatever an index holds under it
    for hint in (line, "pip install 'webresearch[browser]'"):
        fitted = fit_install_hints(hint, Installation(None))
        assert "webresearch[" not in fitted and "'.[" not in fitted, fitted
        assert "install the extra browser from where you installed webresearch" in fitted
    # this test environment is an editable install of this checkout (./scripts/test: pip -e)
    checkout = source_checkout()
    assert checkout is None or checkout == "" or (Path(checkout) / "pyproject.toml").is_file()


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        ({"url": "file:///src/wr", "dir_info": {}}, "/src/wr"),  # pip install . (review)
        ({"url": "file:///src/wr", "dir_info": {"editable": True}}, "/src/wr"),
        ({"url": "https://files.example/wr.whl", "archive_info": {}}, None),
        (None, None),  # a wheel from an index
    ],
)
def test_an_install_from_a_checkout_names_the_checkout(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    direct_url: dict[str, object] | None,
    expected: str | None,
) -> None:
    """review, session 13: ``pip install .`` (the README's route) kept the bare-name hint,
    which installs whatever a package index holds under that name."""
    info = tmp_path / "fakewr-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakewr\nVersion: 1.0\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert source_checkout("fakewr") == expected


@pytest.mark.parametrize(
    ("direct_url", "hint"),
    [
        # review, session 13: a copy installed with `pip install .` was told `pip install -e`
        ({"url": "file:///src/wr", "dir_info": {}}, "{pip} install '/src/wr[browser]'"),
        (
            {"url": "file:///src/wr", "dir_info": {"editable": False}},
            "{pip} install '/src/wr[browser]'",
        ),
        (
            {"url": "file:///src/wr", "dir_info": {"editable": True}},
            "{pip} install -e '/src/wr[browser]'",
        ),
        (
            {"url": "https://files.example/wr.whl", "archive_info": {}},
            "install the extra browser from where you installed webresearch",
        ),
    ],
)
def test_the_hint_installs_as_webresearch_was_installed_with_this_environments_pip(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    direct_url: dict[str, object],
    hint: str,
) -> None:
    info = tmp_path / "fakewr-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakewr\nVersion: 1.0\n")
    (info / "direct_url.json").write_text(json.dumps(direct_url))
    monkeypatch.syspath_prepend(str(tmp_path))
    line = "Pillow is not installed (pip install -e '.[browser]' in the webresearch checkout)"
    fitted = fit_install_hints(line, Installation.of("fakewr"))
    assert fitted == f"Pillow is not installed ({hint.format(pip=environment_pip())})"


def test_the_pip_named_is_this_environments() -> None:
    """review, session 13: the bare ``pip`` on the PATH may install into another Python."""
    pip = environment_pip()
    if sys.prefix != sys.base_prefix and (Path(sys.prefix) / "bin" / "pip").is_file():
        assert pip == str(Path(sys.prefix) / "bin" / "pip")
    else:
        assert pip.endswith(" -m pip") and sys.executable in pip
    assert pip != "pip"


def test_without_the_mcp_extra_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """review, session 13: the error named a missing part (starlette), not what to add."""
    monkeypatch.setitem(sys.modules, "webresearch.mcp_server", None)  # as if not installed
    result = CliRunner().invoke(cli, ["mcp"], env=ENV)
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert "the MCP server needs the mcp extra: " in said, said
    assert "[mcp]" in said or "install the extra mcp" in said
    assert "missing" not in said and "mcp_server" not in said


def test_search_without_a_reachable_provider_names_the_likely_cause() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**ENV, "WEBRESEARCH_SEARCH_PROVIDER": "searxng"}
    env["WEBRESEARCH_SEARXNG_URL"] = f"http://127.0.0.1:{port}"
    result = CliRunner().invoke(cli, ["search", "anything"], env=env)
    assert result.exit_code == 1
    assert "error[network]" in result.stderr
    assert "check whether this machine can reach the provider" in result.stderr
    assert str(port) not in result.stderr  # the operator's endpoint is never shown


def _complete(tmp_path: Path, **variables: str) -> str:
    """stdout of the console script's entry point with click's completion variables set."""
    done = subprocess.run(
        [sys.executable, "-c", "from webresearch.cli.main import main; main()"],
        env=cli_env(tmp_path) | variables,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,
    )
    return done.stdout


def test_shell_completion_is_clicks_own(tmp_path: Path) -> None:
    script = _complete(tmp_path, _WEBRESEARCH_COMPLETE="bash_source")
    assert "_webresearch_completion" in script
    words = _complete(
        tmp_path,
        _WEBRESEARCH_COMPLETE="bash_complete",
        COMP_WORDS="webresearch jou",
        COMP_CWORD="1",
    )
    assert "plain,journal" in words


def test_a_bad_url_to_browse_is_named_even_without_playwright(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the core install only, 'browse ftp://x/' says what is wrong with the URL (a usage
    error, exit 2), not that Playwright is missing: the URL is checked before the backend."""
    monkeypatch.setitem(sys.modules, "playwright", None)  # "not installed"
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)
    for url in ("ftp://x.example/", " file:///etc/passwd"):
        result = CliRunner().invoke(cli, ["browse", url], env=ENV)
        assert result.exit_code == 2, result.stderr
        assert "error[invalid_arguments]: the browser only opens http and https pages" in (
            result.stderr
        )
        assert "Playwright" not in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["example.org"], "next step: a URL needs its scheme: https://example.org)"),
        (
            ["localhost:8765"],
            "next step: a URL needs its scheme: http://localhost:8765; but the SSRF guard",
        ),
        (["   "], "an empty URL was given"),
        (["", "--do", "content"], "an empty URL was given"),
    ],
)
def test_browse_words_a_url_without_scheme_as_fetch_does(
    monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    """urlsplit reads 'localhost:8765' as the scheme 'localhost' and 'example.org' as a
    relative URL; 'browse ""' skipped the open and asked for Playwright."""
    monkeypatch.setitem(sys.modules, "playwright", None)  # "not installed"
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)
    result = CliRunner().invoke(cli, ["browse", *args], env=ENV)
    assert result.exit_code == 2, result.stderr
    assert words in result.stderr
    assert "relative" not in result.stderr and "not localhost" not in result.stderr
    assert "Playwright" not in result.stderr


def test_the_librarys_messages_never_name_the_bare_package() -> None:
    """review r-13a: gates, the llm plugin and web_search's no-provider reason still said
    ``pip install 'webresearch[x]'`` (webresearch is not on PyPI)."""
    import webresearch

    root = Path(webresearch.__file__).parent
    bare = re.compile(r"(?<![/\w.-])webresearch\[")
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(text) and "install_hint.py" not in path.name
    ]
    assert found == []


def test_browse_json_prints_a_refused_url_as_a_json_line() -> None:
    """review r-18a: 'browse ftp://… --json' printed nothing on stdout (fetch --json prints
    the error object); now one JSON line, the error also on stderr, exit 2."""
    result = CliRunner().invoke(cli, ["browse", "ftp://127.0.0.1/", "--json"], env=ENV)
    assert result.exit_code == 2, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["ok"] is False
    assert record["error"]["code"] == "invalid_arguments"
    assert "error[invalid_arguments]" in result.stderr


def test_browse_json_prompt_keeps_help_off_stdout() -> None:
    """review r-18a: 'help' typed at 'browse --json -i' broke the JSON Lines on stdout."""
    result = CliRunner().invoke(cli, ["browse", "--json", "-i"], input="help\n", env=ENV)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "open" in result.stderr
