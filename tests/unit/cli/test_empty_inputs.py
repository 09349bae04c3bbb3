"""An empty local input is an error, worded for what was given (fresh review, session 9).

Before: ``fetch empty.html`` printed ``[the document is empty]`` with exit 0 (while empty
stdin was already an error, exit 2), stdin of only white space exited 0 the same way, and
``fetch -i -`` with nothing on stdin said ``give at least one URL, PATH or '-' (or -i
FILE)`` — as if no ``-i`` had been given.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}
SAVED = (
    "there is no page to read (next step: check that the page was saved completely (a "
    "failed download leaves an empty file), or give its URL)"
)


@pytest.mark.parametrize(
    ("content", "held"),
    [
        (b"", "is empty (0 bytes)"),
        (b"  \n\t\r\n", "holds only white space"),
        # a no-break space, a byte-order mark alone (second fresh review: exit 0 before)
        ("\u00a0\n".encode(), "holds only white space"),
        (b"\xef\xbb\xbf", "holds only white space"),
    ],
)
def test_an_empty_saved_file_is_an_error(
    content: bytes, held: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("empty.html").write_bytes(content)
    result = CliRunner().invoke(cli, ["fetch", "empty.html"], env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == (
        f"webresearch fetch: error[invalid_arguments]: empty.html {held}: {SAVED}\n"
    )


def test_an_empty_file_in_a_batch_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("empty.html").write_bytes(b"")
    Path("page.html").write_bytes(b"<p>Some words of a page.</p>")
    result = CliRunner().invoke(cli, ["fetch", "empty.html", "page.html"], env=ENV)
    assert result.exit_code == 2
    assert "Some words of a page." in result.stdout
    assert f"empty.html is empty (0 bytes): {SAVED} [empty.html]" in result.stderr


@pytest.mark.parametrize(
    ("data", "held"), [(b"", "was empty"), (b" \n \n", "held only white space")]
)
def test_stdin_of_only_white_space_is_the_empty_stdin_error(data: bytes, held: str) -> None:
    args = ["fetch", "-", "--base-url", "https://docs.example/"]
    result = CliRunner().invoke(cli, args, input=data, env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"webresearch fetch: error[invalid_arguments]: stdin {held}: no page was piped in "
        "(next step: check the command before the pipe"
    )


@pytest.mark.parametrize("data", ["", "\n# only a comment\n\n"])
def test_a_list_on_stdin_that_lists_nothing_says_so(data: str) -> None:
    result = CliRunner().invoke(cli, ["fetch", "-i", "-"], input=data, env=ENV)
    assert result.exit_code == 2
    assert (
        "-i -: stdin listed no URL or PATH (it was empty, or held only blank lines and # "
        "comments); check the command before the pipe, or give the URLs as arguments"
    ) in result.stderr
    assert "give at least one" not in result.stderr


def test_a_list_file_that_lists_nothing_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("urls.txt").write_text("# none yet\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fetch", "-i", "urls.txt"], env=ENV)
    assert result.exit_code == 2
    assert (
        "-i urls.txt: the file lists no URL or PATH (it is empty, or holds only blank lines "
        "and # comments); write one URL or PATH per line"
    ) in result.stderr
