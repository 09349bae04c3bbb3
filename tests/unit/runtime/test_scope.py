"""Fetch-scope rules: URL normalisation and which links count as the person's."""

from __future__ import annotations

import pytest

from tests.unit.runtime.test_limits import FakeClock
from webresearch.runtime.scope import SEARCH_RESULTS_TTL_S, MemoryScopeStore, scope_key, user_links


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://Example.ORG/a?b=1#frag", "https://example.org/a?b=1"),
        ("http://example.org:80/", "http://example.org/"),
        ("https://example.org:443", "https://example.org/"),
        ("https://example.org./x", "https://example.org/x"),
    ],
)
def test_scope_key_normalises(a: str, b: str) -> None:
    assert scope_key(a) == scope_key(b)


def test_scope_key_keeps_path_and_query_exact() -> None:
    assert scope_key("https://e.org/A?x=1") != scope_key("https://e.org/a?x=1")
    assert scope_key("https://e.org/a?x=1") != scope_key("https://e.org/a?x=2")
    assert scope_key("ftp://e.org/") is None and scope_key("not a url") is None


def test_user_links_finds_urls_in_the_persons_words() -> None:
    links = user_links(
        ["Look at https://shop.example.com/item?id=7, and (https://news.example.org/a)."]
    )
    assert links == {"https://shop.example.com/item?id=7", "https://news.example.org/a"}


def test_bare_names_expand_only_on_app_domains_and_emails_are_not_links() -> None:
    msgs = ["my page is sveta-nails, mail me at anna@ykapp.ru", "also docs.ykapp.ru/help"]
    links = user_links(msgs, ["ykapp.ru"])
    assert "https://sveta-nails.ykapp.ru/" in links
    assert "https://docs.ykapp.ru/help" in links
    assert not any("anna" in u for u in links)
    assert user_links(msgs) == set()  # without app domains a bare name is no link


async def test_search_results_are_replaced_and_expire() -> None:
    clock = FakeClock()
    store = MemoryScopeStore(clock)
    assert await store.search_results("run") is None
    await store.set_search_results("run", ["https://a.example/x#f", "https://b.example/"])
    assert await store.search_results("run") == {"https://a.example/x", "https://b.example/"}
    await store.set_search_results("run", ["https://c.example/"])
    assert await store.search_results("run") == {"https://c.example/"}
    clock.now += SEARCH_RESULTS_TTL_S
    assert await store.search_results("run") is None


async def test_views_are_counted_per_conversation() -> None:
    store = MemoryScopeStore()
    assert [await store.add_view("c1", 3) for _ in range(4)] == [True, True, True, False]
    assert await store.add_view("c2", 3)
