"""A bad target is decided and worded alike by ``fetch``, ``image`` and ``browse``: a missing
PATH says ``cannot read X`` with the path's next step, a URL typed without its scheme (or its
``//``) gets the URL meant, whichever command was typed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("example.org/a.png", "next step: a URL needs its scheme: https://example.org/a.png"),
        ("http:127.0.0.1:8765/a.png", "a URL needs its scheme: http://127.0.0.1:8765/a.png"),
        ("localhost:8765/a.png", "a URL needs its scheme: http://localhost:8765/a.png"),
        ("https:/x.org/a.png", "a URL needs its scheme: https://x.org/a.png"),
        ("https:x.org/a.png", "a URL needs its scheme: https://x.org/a.png"),
        ("http:localhost:8765/a.png", "a URL needs its scheme: http://localhost:8765/a.png"),
        ("nodir/x.png", "cannot read nodir/x.png: No such file or directory"),
        # a URL with only its // (RFC 3986 §4.2), a Windows path: the step that fits
        ("//example.org/a.png", "next step: a URL needs its scheme: https://example.org/a.png"),
        (
            "C:\\shots\\a.png",
            "cannot read C:\\shots\\a.png: No such file or directory (next step: that is a "
            "Windows path: give the file's path on this system (under WSL: /mnt/c/shots/a.png))",
        ),
        ("D:/shots/a.png", "(under WSL: /mnt/d/shots/a.png)"),
        ("\\\\server\\share\\a.png", "next step: that is a Windows path: give the file's path"),
    ],
)
@pytest.mark.parametrize("command", ["fetch", "image"])
def test_fetch_and_image_word_a_bad_target_alike(
    command: str, target: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [command, target], env=ENV)
    assert result.exit_code == 2, result.stderr
    assert words in result.stderr
    assert "workspace" not in result.stderr  # the model's words, not the person's


def test_image_of_a_directory_asks_for_an_image_inside_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["image", str(tmp_path)], env=ENV)
    assert result.exit_code == 2
    assert "Is a directory (next step: give an image file inside it" in result.stderr


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https:/x.org", "a URL needs its scheme: https://x.org"),
        ("page.html", "page.html has no scheme"),
    ],
)
def test_browse_words_them_in_sentences(
    monkeypatch: pytest.MonkeyPatch, url: str, words: str
) -> None:
    monkeypatch.setitem(sys.modules, "playwright", None)  # "not installed": the check comes first
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)
    result = CliRunner().invoke(cli, ["browse", url, "--do", "content"], env=ENV)
    assert result.exit_code == 2, result.stderr
    assert words in result.stderr and "a relative" not in result.stderr


@pytest.mark.parametrize(
    ("base", "code", "words"),
    [
        (" https://docs.example/ ", 0, "[a](https://docs.example/a)"),  # cleaned as URLs are
        ("\thttps://docs.example/\n", 0, "url: https://docs.example/"),
        ("", 2, "an empty --base-url was given"),
        ("   ", 2, "an empty --base-url was given"),
        ("example.org/docs/", 2, "a URL needs its scheme: https://example.org/docs/"),
    ],
)
def test_base_url_is_read_as_every_url_on_the_command_line(
    base: str, code: int, words: str, tmp_path: Path
) -> None:
    page = tmp_path / "p.html"
    page.write_text('<p>A paragraph with a link: <a href="a">a</a>.</p>', encoding="utf-8")
    result = CliRunner().invoke(cli, ["fetch", str(page), "--base-url", base], env=ENV)
    assert result.exit_code == code, result.output
    assert words in (result.stdout if code == 0 else result.stderr)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--query", "--json"], "--query takes the QUESTION itself; got the option --json as the"),
        (["--query=--json"], "--query takes the QUESTION itself; got the option --json as the"),
        (["-q", "--json"], "(--quiet has no short form)"),
        (["-q", ""], "an empty question was given to -q"),
        (["--query", "   "], "an empty question was given to --query"),
        (["--query=\t"], "an empty question was given to --query"),
        (["-q", "--"], "-q is --query QUESTION; got -- (the end of the options) as the question"),
    ],
)
def test_a_bad_question_names_the_option_as_typed(
    args: list[str], words: str, tmp_path: Path
) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>A paragraph.</p>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fetch", str(page), *args], env=ENV)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    if args[0].startswith("--query"):
        assert "-q is" not in result.stderr and "short form" not in result.stderr


@pytest.mark.parametrize("second", ["FILE", "http://127.0.0.1:9/b"])
def test_q_before_targets_takes_no_file_or_url_as_the_question(
    second: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fetch -q a.html b.html`` (quiet meant) read b.html, asking it "a.html". (A loopback
    URL only: without --allow-network the guard refuses it before any connection.)"""
    monkeypatch.chdir(tmp_path)
    for name in ("a.html", "b.html"):
        (tmp_path / name).write_text("<p>A paragraph.</p>", encoding="utf-8")
    for first, taken in (("a.html", "the file a.html"), ("http://127.0.0.1:9/a", "the URL")):
        target = "b.html" if second == "FILE" else second
        result = CliRunner().invoke(cli, ["fetch", "-q", first, target], env=ENV)
        assert result.exit_code == 2, result.output
        assert f"-q is --query QUESTION; got {taken}" in result.stderr
        assert "(--quiet has no short form)" in result.stderr


def test_image_of_a_page_names_the_command_that_reads_it(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>A paragraph.</p>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["image", str(page)], env=ENV)
    assert result.exit_code == 1
    assert "not an image (the content is an HTML page) — read it with webresearch fetch" in (
        result.stderr
    )
    assert "web_fetch" not in result.stderr
    as_json = CliRunner().invoke(cli, ["image", str(page), "--json"], env=ENV)
    assert "web_fetch" not in as_json.stdout and "webresearch fetch" in as_json.stdout


@pytest.mark.parametrize(
    "args",
    # -vv: the line seen, a tool the run's shape closes, is logged at debug (n16 L8)
    [["fetch", "PAGE", "-vv"], ["fetch", "PAGE", "-vv", "--log-format", "json"], ["tools", "-vv"]],
)
def test_global_options_may_follow_the_command(args: list[str], tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>A paragraph.</p>", encoding="utf-8")
    args = [str(page) if a == "PAGE" else a for a in args]
    result = CliRunner().invoke(cli, args, env=ENV)
    assert result.exit_code == 0, result.output
    assert "webresearch: tool" in result.stderr or '"level": "debug"' in result.stderr
    if "json" in args:
        assert all(line.startswith("{") for line in result.stderr.splitlines())
