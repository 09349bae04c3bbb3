"""Every reader's document has the same keys (web_fetch formats and caches them alike), and
Jina's plain markdown mode is read field by field."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx2

from webresearch.net.client import FetchResponse, GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.readers.base import DOCUMENT_KEYS, make_document
from webresearch.readers.jina import parse_text_answer
from webresearch.readers.local import LocalReader


async def test_hosted_and_local_documents_have_the_same_keys() -> None:
    hosted = make_document(
        reader="firecrawl",
        url="https://example.org/",
        requested_url="https://example.org/",
        status=200,
        content_type="text/html",
        title="t",
        text="body",
        fetched_at="2026-01-01T00:00:00+00:00",
        sha256="0" * 64,
        bytes_downloaded=10,
    )
    # Both pipelines also count the invisible characters they removed (an optional key).
    assert set(hosted) == DOCUMENT_KEYS | {"hidden_chars_removed"}
    reader = LocalReader(GuardedClient(SSRFGuard()), now=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    response = FetchResponse(
        requested_url="https://example.org/",
        url="https://example.org/",
        status=200,
        headers=httpx2.Headers({"content-type": "text/html; charset=utf-8"}),
        body=b"<html><head><title>t</title></head><body><p>body</p></body></html>",
        raw_bytes=60,
        capped=False,
    )
    local = await reader.convert(response)
    # The local pipeline also counts the hidden text it kept (a hosted reader cannot know).
    assert set(local) == set(hosted) | {"hidden_chars_kept"}
    assert local["hidden_chars_kept"] == 0
    assert local["reader"] == "local" and hosted["reader"] == "firecrawl"
    assert hosted["body_bytes"] == 4 and hosted["markdown"] is True


def test_plain_mode_fields() -> None:
    text = (
        "Title: A page\n\nURL Source: https://example.org/a\n\nWarning: Target URL returned "
        "error 404: Not Found\n\nPublished Time: 2024-01-01\n\nMarkdown Content:\n# A\n\nBody: with a colon\n"
    )
    fields = parse_text_answer(text)
    assert fields == {
        "title": "A page",
        "url": "https://example.org/a",
        "warning": "Target URL returned error 404: Not Found",
        "content": "# A\n\nBody: with a colon",
    }


def test_plain_mode_without_the_marker_is_all_content() -> None:
    assert parse_text_answer("just text\nTitle: not a header\n") == {
        "content": "just text\nTitle: not a header"
    }
