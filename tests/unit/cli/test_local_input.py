"""Local inputs of ``fetch`` (fresh review, session 8): a file or stdin is read only one
byte past the cap, the cap's words speak of a local page (no download, no ``--base-url``,
no shell download) and say how to raise the limit, empty stdin is an error, and the
command line's small cases are worded for what was typed.

Before the fixes a 200 MB file was read whole before the 2 MiB cap applied (269 MB peak
RSS), its error named the file's URL and told to ``download it with a shell tool``, empty
stdin printed an empty page with exit 0, ``fetch - -`` named ``-i``, ``fetch C:a.html``
said ``scheme 'c'``, ``fetch a.html -q -`` asked the page ``-`` and ``fetch --query=a.html
b.html`` was refused.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli
from webresearch.cli.targets import read_file, read_stdin

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}
#: The smallest cap the setting takes: 1 KiB.
SMALL_CAP = {**ENV, "WEBRESEARCH_DOWNLOAD_CAP_BYTES": "1024"}
PAGE = b"<html><head><title>Notes</title></head><body>" + b"<p>A line of notes.</p>" * 200


def test_a_file_is_read_only_as_far_as_asked(tmp_path: Path) -> None:
    big = tmp_path / "big.html"
    big.write_bytes(b"x" * 100_000)
    assert len(read_file(str(big), limit=1025)) == 1025
    assert len(read_file(str(big))) == 100_000  # no limit: all of it


def test_stdin_is_read_only_as_far_as_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"y" * 50_000)  # fits the pipe's buffer
    os.close(write_end)
    with os.fdopen(read_end, "r") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert len(read_stdin(1025)) == 1025
        assert len(read_stdin()) == 50_000 - 1025  # the rest was left unread


def test_html_over_the_cap_is_read_as_far_as_the_cap_in_words_for_a_local_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("notes.html").write_bytes(PAGE)
    result = CliRunner().invoke(cli, ["fetch", "notes.html"], env=SMALL_CAP)
    assert result.exit_code == 0, result.output
    assert (
        "note: notes.html is larger than the 1 KiB limit on what is read of a page; only its "
        "first 1 KiB were read and converted; to read more, raise the limit: "
        "WEBRESEARCH_DOWNLOAD_CAP_BYTES=<bytes>, or download_cap_bytes in the settings file"
    ) in result.stdout
    assert "download cap" not in result.stdout and "downloaded" not in result.stdout
    as_json = CliRunner().invoke(cli, ["fetch", "notes.html", "--json"], env=SMALL_CAP)
    assert '"download_truncated": true' in as_json.stdout


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_pdf_over_the_cap_says_how_to_raise_the_limit(
    source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pdf = b"%PDF-1.4\n" + b"\0" * 4096
    Path("report.pdf").write_bytes(pdf)
    if source == "file":
        result = CliRunner().invoke(cli, ["fetch", "report.pdf"], env=SMALL_CAP)
        named = "report.pdf"
    else:
        args = ["fetch", "-", "--base-url", "https://docs.example/report.pdf"]
        result = CliRunner().invoke(cli, args, input=pdf, env=SMALL_CAP)
        named = "stdin"
    assert result.exit_code == 1, result.output
    assert (
        f"error[too_large]: {named} is larger than the 1 KiB limit on what is read of a page "
        "(next step: raise the limit: WEBRESEARCH_DOWNLOAD_CAP_BYTES=<bytes>, or "
        "download_cap_bytes in the settings file)"
    ) in result.stderr
    for wrong in ("download", "shell", "curl", "docs.example", "file://", "URL"):
        assert wrong not in result.stderr.replace("download_cap_bytes", "").replace(
            "DOWNLOAD_CAP", ""
        )


def test_an_image_over_the_cap_is_pointed_to_the_image_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("shot.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 4096)
    result = CliRunner().invoke(cli, ["fetch", "shot.png"], env=SMALL_CAP)
    assert result.exit_code == 1, result.output
    assert "shot.png is larger than the 1 KiB limit" in result.stderr
    assert "webresearch image PATH" in result.stderr  # raising the limit would not help


def test_empty_stdin_is_an_error_not_an_empty_page() -> None:
    args = ["fetch", "-", "--base-url", "https://docs.example/"]
    result = CliRunner().invoke(cli, args, input=b"", env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "stdin was empty: no page was piped in (next step: check the command before" in (
        result.stderr
    )


def test_stdin_given_twice_is_named_as_typed() -> None:
    result = CliRunner().invoke(cli, ["fetch", "-", "-", "--base-url", "https://x.example/"])
    assert result.exit_code == 2
    assert "stdin can be read once: give '-' once" in result.stderr
    assert "-i" not in result.stderr


@pytest.mark.parametrize("command", ["fetch", "image"])
def test_a_drive_relative_windows_path_is_a_path_not_a_scheme(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [command, "C:a.html"], env=ENV)
    assert result.exit_code == 2, result.output
    assert (
        "cannot read C:a.html: No such file or directory (next step: that is a Windows "
        "path: give the file's path on this system (under WSL, drive C: is /mnt/c))"
    ) in result.stderr
    assert "scheme" not in result.stderr


@pytest.mark.parametrize("args", [["-q", "-"], ["--query", "-"], ["--query=-"]])
def test_a_dash_is_no_question(args: list[str], tmp_path: Path) -> None:
    """``-`` is stdin's target here: never read as "the question from stdin" (see
    ``fetch._not_a_question``)."""
    page = tmp_path / "a.html"
    page.write_bytes(PAGE)
    result = CliRunner().invoke(cli, ["fetch", str(page), *args], env=ENV)
    assert result.exit_code == 2, result.output
    words = (  # --query: the question from stdin was meant (session 9 wording)
        "QUESTION; got - (stdin, a target) as the question"
        if args[0] == "-q"
        else "--query - does not read the question from stdin"
    )
    assert words in result.stderr


@pytest.mark.parametrize("option", ["--query=a.html", "-qa.html"])
def test_a_question_joined_to_its_option_is_the_question_even_if_it_names_a_file(
    option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.html").write_bytes(PAGE)
    Path("b.html").write_bytes(PAGE)
    result = CliRunner().invoke(cli, ["fetch", option, "b.html"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "url: file://" in result.stdout and "b.html" in result.stdout
    # a separate word is still refused: ``-q a.html b.html`` is -q meant as quiet
    result = CliRunner().invoke(cli, ["fetch", "-q", "a.html", "b.html"], env=ENV)
    assert result.exit_code == 2


def test_an_untitled_page_whose_name_is_invisible_still_gets_a_title(tmp_path: Path) -> None:
    """An untitled page is named by its address's last segment (extract.title.url_title);
    a segment of invisible characters only was removed after that fallback, leaving an
    empty ``title:`` line (extract.dispatch promises never an empty one)."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "\u200b").write_bytes(b"<p>A paragraph without any title.</p>")
    result = CliRunner().invoke(cli, ["fetch", str(folder / "\u200b")], env=ENV)
    assert result.exit_code == 0, result.output
    assert "\ntitle: notes\n" in result.stdout
    args = ["fetch", "-", "--base-url", "https://docs.example/%E2%80%8B"]
    result = CliRunner().invoke(cli, args, input=b"<p>No title.</p>", env=ENV)
    assert "\ntitle: docs.example\n" in result.stdout
