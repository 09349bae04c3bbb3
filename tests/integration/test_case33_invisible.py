"""Case 33: Unicode Tag characters ("ASCII smuggling"), zero-width characters and bidi
controls never reach the model — web_fetch (body and title) and web_search (titles,
snippets) — and the metadata counts what was removed (BitterSecurity/Decepticon #480,
NVIDIA/SkillSpector #169)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import regex

from tests.conftest import CASES
from tests.support.http_server import LocalServer, load_case
from webresearch import Settings, Toolkit

pytestmark = pytest.mark.network

CASE = CASES / "33-invisible-unicode-tags"
TAGS = regex.compile(r"[\U000E0000-\U000E007F]")
BIDI = regex.compile(r"[\u202A-\u202E\u2066-\u2069]")


@pytest.fixture
def stub() -> Iterator[LocalServer]:
    with LocalServer(load_case(CASE)) as server:
        yield server


def _settings(base: str) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="searxng",
        searxng_url=base,
    )


def _clean(text: str) -> None:
    assert not TAGS.search(text)
    assert "\u200b" not in text
    assert not BIDI.search(text)


async def test_case33_web_fetch_keeps_the_words_and_drops_what_is_invisible(
    stub: LocalServer,
) -> None:
    raw = (CASE / "page.html").read_text("utf-8")
    hidden = len(TAGS.findall(raw))
    assert hidden == 32  # the case as written
    async with Toolkit(_settings(stub.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": f"{stub.base}/"})
        again = await toolkit.call("web_fetch", {"url": f"{stub.base}/"})  # from the cache
    assert result.ok, result.text
    _clean(result.text)
    for words in (
        "Version 2.1 fixes the login bug.",
        "It also speeds up search by a third",
        "txt.exe",
        "Final paragraph with enough words",
        "Password reset now works",
    ):
        assert words in result.text
    assert "\u200d" not in result.text
    # 32 tags + ZWSP + ZWJ + the override pair, counted once and said once.
    assert result.meta["hidden_chars_removed"] == 36
    assert result.text.count("note: 36 invisible characters were removed") == 1
    assert again.meta["cached"] and again.meta["hidden_chars_removed"] == 36


async def test_case33_web_search_titles_and_snippets(stub: LocalServer) -> None:
    async with Toolkit(_settings(stub.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "tag test"})
    assert result.ok, result.text
    _clean(result.text)
    for words in ("Normal title", "https://example.net/t", "Snippet with invisible tag chars"):
        assert words in result.text
    assert result.meta["hidden_chars_removed"] == 18
