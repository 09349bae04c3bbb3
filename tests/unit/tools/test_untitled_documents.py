"""web_fetch's ``title:`` line of a document without a title (SPEC §1.1: ``title: <title or
empty>``): a JSON, text or CSV document has none — its file name was shown as one
(``title: data.json``) —; an untitled HTML page is still named as a browser's tab names it."""

from __future__ import annotations

import asyncio

import pytest

from webresearch import read_page


@pytest.mark.parametrize(
    ("data", "content_type", "name"),
    [
        (b'{"tide": "high", "at": "06:12"}', "application/json", "data.json"),
        (b"High water at 06:12.\n", "text/plain", "notes.txt"),
        (b"tide,at\nhigh,06:12\n", "text/csv", "tides.csv"),
    ],
)
def test_a_document_that_is_not_html_has_an_empty_title(
    data: bytes, content_type: str, name: str
) -> None:
    url = f"https://harbour.example/files/{name}"
    result = asyncio.run(read_page(data, url, content_type=content_type))
    assert result.ok, result.text
    assert "\ntitle: \n" in result.text
    assert f"title: {name}" not in result.text
    assert result.meta["title"] == ""


def test_an_untitled_html_page_is_still_named_by_its_address() -> None:
    html = b"<html><body><main><p>" + b"High water at 06:12. " * 10 + b"</p></main></body></html>"
    result = asyncio.run(read_page(html, "https://harbour.example/tides/today"))
    assert "\ntitle: today\n" in result.text


def test_an_html_title_is_unchanged() -> None:
    html = b"<html><head><title>Tide tables</title></head><body><p>High water.</p></body></html>"
    result = asyncio.run(read_page(html, "https://harbour.example/tides.html"))
    assert "\ntitle: Tide tables\n" in result.text
