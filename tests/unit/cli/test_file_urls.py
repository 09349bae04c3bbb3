"""``fetch file:///…`` — the ``url:`` line printed for a local file — reads that file
(fresh review, session 9); the tools never take ``file:``.

Before: ``webresearch fetch file:///tmp/p.html`` was refused with ``only http and https
URLs are fetched; file:/tmp/p.html uses scheme 'file'`` (its ``//`` lost), though the same
command printed ``url: file:///tmp/p.html`` for ``fetch /tmp/p.html``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch import Settings, Toolkit
from webresearch.cli.main import cli

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}


@pytest.mark.parametrize("form", ["file://{path}", "file://localhost{path}", "FILE:{path}"])
def test_the_url_line_of_a_local_file_reads_that_file(form: str, tmp_path: Path) -> None:
    page = tmp_path / "a page.html"
    page.write_bytes(b"<title>Notes</title><p>Words of my own saved page.</p>")
    first = CliRunner().invoke(cli, ["fetch", str(page)], env=ENV)
    url = next(line[5:] for line in first.stdout.splitlines() if line.startswith("url: "))
    assert url == f"file://{tmp_path.as_posix()}/a%20page.html"
    again = form.format(path=url[len("file://") :])
    result = CliRunner().invoke(cli, ["fetch", again], env=ENV)
    assert result.exit_code == 0, result.output
    assert result.stdout == first.stdout


def test_a_file_url_of_another_machine_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["fetch", "file://server/share/p.html"], env=ENV)
    assert result.exit_code == 2
    assert (
        "file://server/share/p.html is not a file on this machine; give the file's path "
        "(e.g. /home/me/page.html) or file:///home/me/page.html"
    ) in result.stderr


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("file:///tmp/%00a.html", "a path cannot hold a NUL character (%00)"),
        ("file:///tmp/a.html?x=1", "has a query or fragment, which a local file does not take"),
        ("file:///tmp/a.html#top", "has a query or fragment, which a local file does not take"),
    ],
)
def test_a_file_url_no_file_can_have_is_a_usage_error(url: str, says: str) -> None:
    # second fresh review: %00 ended in a ValueError traceback; a query was silently dropped
    result = CliRunner().invoke(cli, ["fetch", url], env=ENV)
    assert result.exit_code == 2, result.output
    assert says in result.stderr and "Traceback" not in result.output


def test_image_takes_a_file_url_too(tmp_path: Path) -> None:
    from PIL import Image

    picture = tmp_path / "dot.png"
    Image.new("RGB", (20, 10), "red").save(picture)
    result = CliRunner().invoke(cli, ["image", picture.as_uri(), "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    assert '"ok": true' in result.stdout


async def test_the_fetch_tool_still_refuses_file_urls_naming_them_as_given() -> None:
    async with Toolkit(Settings.load(environ=ENV)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "file:///etc/hostname"})
    assert result.error is not None and result.error.code == "invalid_arguments"
    assert result.error.message == (
        "only http and https URLs are fetched; file:///etc/hostname uses scheme 'file'"
    )
