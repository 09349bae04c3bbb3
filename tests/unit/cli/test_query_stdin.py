"""``fetch --query=-`` says the question is not read from stdin and what to write
(fresh review, session 9).

Before: ``--query is --query QUESTION; got - (stdin, a target) as the question`` — the
option named as itself, and nothing to write instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_RENDER": "never"}


@pytest.mark.parametrize("args", [["--query=-"], ["--query", "-"]])
def test_the_question_from_stdin_is_named_with_what_to_write(
    args: list[str], tmp_path: Path
) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>A paragraph.</p>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fetch", str(page), *args], env=ENV)
    assert result.exit_code == 2
    assert (
        "--query - does not read the question from stdin ('-' is a page's HTML from stdin "
        'here); write the question itself, e.g. --query "how do I cancel a task?"'
    ) in result.stderr
    assert "--query is --query" not in result.stderr


def test_the_short_option_still_names_quiet(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>A paragraph.</p>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fetch", str(page), "-q", "-"], env=ENV)
    assert result.exit_code == 2
    assert (
        "-q is --query QUESTION; got - (stdin, a target) as the question (--quiet has no short form)"
        in (result.stderr)
    )
