"""Focused reading: tokens for any script, BM25 through bm25s, the query and prefix layouts,
and web_fetch's format around them (issue 18 §1). Pure: no sockets."""

from __future__ import annotations

import math
import re

import bm25s
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webresearch.extract.focus import (
    OUTLINE_HEADER,
    prefix_window,
    query_terms,
    query_window,
    rank,
    tokenize,
)
from webresearch.extract.sections import scan
from webresearch.tools.page_text import format_document
from webresearch.types import PageText

SUMMARY = re.compile(
    r"^\[query: the (\d+) best-matching of (\d+) sections, in page order; (\d+) left out\]$"
)
SECTION = re.compile(r"^\[section at offset=(\d+): (.*)\]$", re.M)
MARKER = re.compile(r"\n\[truncated at (\d+) of (\d+) bytes\]$")

FILLER = (
    "Chapter {n} is about gardening: soil, seeds, watering schedules and the weather. "
    "Gardeners talk about compost, mulch, pruning and harvest time in chapter {n}. "
)


def manual() -> str:
    """A long manual with known sections: the answers sit deep in the page."""
    parts = ["# Manual", "", "Welcome to the manual of the tool.", ""]
    for n in range(1, 13):
        parts += [f"## Chapter {n}", "", (FILLER.format(n=n) * 4).strip(), ""]
    parts += [
        "## Configuration",
        "",
        "General configuration lives in a TOML file.",
        "",
        "### Proxy settings",
        "",
        "Set the HTTPS_PROXY variable to route every request through your proxy server.",
        "Credentials go in the proxy URL; the tool never logs them.",
        "",
        "## Troubleshooting",
        "",
        "### Timeouts",
        "",
        "A request that takes longer than thirty seconds is abandoned with a timeout error.",
        "",
    ]
    for n in range(13, 20):
        parts += [f"## Chapter {n}", "", (FILLER.format(n=n) * 4).strip(), ""]
    return "\n".join(parts)


def doc(text: str, *, markdown: bool = True, content_type: str = "text/html") -> PageText:
    return {"url": "https://example.org/m", "content_type": content_type, "title": "M",
            "text": text, "markdown": markdown}  # fmt: skip


def at(text: str, offset: int) -> str:
    return text.encode("utf-8")[offset:].decode("utf-8")


# ----------------------------------------------------------------------------- tokens


def test_tokens_fold_case_and_add_prefixes() -> None:
    assert tokenize("Installing the PROXY") == ["installing", "the", "proxy", "insta"]
    assert set(tokenize("installation")) & set(tokenize("Installing")) == {"insta"}


def test_tokens_of_cyrillic_words() -> None:
    tokens = tokenize("Настройка прокси-сервера")
    assert {"настройка", "прокси", "сервера", "настр", "серве"} <= set(tokens)
    assert set(tokenize("настройки")) & set(tokens)  # another form shares the prefix


def test_tokens_of_scripts_without_spaces_are_bigrams() -> None:
    assert tokenize("东京都的天气") == ["东京", "京都", "都的", "的天", "天气"]
    assert tokenize("設定") == ["設定"] and tokenize("字") == ["字"]
    mixed = tokenize("Proxy設定とは")
    assert "proxy" in mixed and "設定" in mixed and "proxy設定" not in " ".join(mixed).split()


def test_tokens_keep_combining_marks_inside_words() -> None:
    assert tokenize("हिन्दी भाषा")[:2] == ["हिन्दी", "भाषा"]  # vowel signs are no word breaks


def test_query_terms_drop_stop_words_unless_nothing_remains() -> None:
    assert query_terms("How do I configure the proxy?") == ["configure", "proxy", "confi"]
    assert query_terms("Как настроить прокси?") == ["настроить", "прокси", "настр", "прокс"]
    assert query_terms("The The") == ["the", "the"]


# ----------------------------------------------------------------------------- BM25


def test_bm25_scores_by_hand() -> None:
    # Lucene BM25 (k1 = 1.2, b = 0.75): idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
    # tf part = tf / (tf + k1 * (1 - b + b * dl / avgdl)).
    docs = [["fox", "jumps"], ["fox", "fox", "den", "den"], ["cat"]]
    avgdl = 7 / 3
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    expected = [
        idf * 1 / (1 + 1.2 * (0.25 + 0.75 * 2 / avgdl)),
        idf * 2 / (2 + 1.2 * (0.25 + 0.75 * 4 / avgdl)),
        0.0,
    ]
    assert rank(docs, ["fox"]) == pytest.approx(expected, rel=1e-5)


def test_bm25_without_a_matching_term_is_all_zero() -> None:
    assert rank([["a"], ["b"]], ["zzz"]) == [0.0, 0.0]
    assert rank([[], []], ["a"]) == [0.0, 0.0]
    assert rank([], ["a"]) == []
    assert rank([["a"]], []) == [0.0]


words = st.sampled_from(["fox", "den", "cat", "owl", "elk", "emu"])


@settings(max_examples=50)
@given(
    st.lists(st.lists(words, max_size=12), min_size=1, max_size=12).filter(lambda docs: any(docs)),
    st.lists(words, min_size=1, max_size=4),
)
def test_bm25_equals_a_full_bm25s_index(docs: list[list[str]], terms: list[str]) -> None:
    # The filler-term index (only the query's terms are distinct) gives the same scores as
    # bm25s indexing every term.
    full = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    full.index(docs, show_progress=False)
    assert rank(docs, terms) == pytest.approx([float(x) for x in full.get_scores(terms)], abs=1e-5)


# ----------------------------------------------------------------------------- query layout


def test_query_returns_the_matching_section_with_its_path_and_offset() -> None:
    text = manual()
    s = scan(text)
    q = query_window(text, s, "How do I set up a proxy?", 0, 4096)
    assert q is not None
    lines = q.text.split("\n")
    shown, total, left = map(int, SUMMARY.match(lines[0]).groups())  # type: ignore[union-attr]
    assert shown + left == total == q.total and q.left_out == left > 0
    headers = SECTION.findall(q.text)
    assert "Manual > Configuration > Proxy settings" in [path for _, path in headers]
    offsets = [int(off) for off, _ in headers]
    assert offsets == sorted(offsets) and tuple(offsets) == q.offsets  # page order
    proxy = next(int(off) for off, path in headers if path.endswith("Proxy settings"))
    assert at(text, proxy).startswith("### Proxy settings")
    assert "Set the HTTPS_PROXY variable" in q.text
    assert "Chapter 3 is about gardening" not in q.text
    assert len(q.text.encode()) <= 4096
    assert q.outline and q.text.split("\n\n")[-1].startswith(OUTLINE_HEADER)


def test_query_in_other_scripts() -> None:
    filler = "Глава о саде: почва, семена и полив. " * 20
    ru = (
        "# Руководство\n\n"
        + "".join(f"## Глава {n}\n\n{filler}\n\n" for n in range(8))
        + "## Настройка прокси\n\nУкажите переменную HTTPS_PROXY для всех запросов.\n\n"
        + "".join(f"## Раздел {n}\n\n{filler}\n\n" for n in range(8))
    )
    q = query_window(ru, scan(ru), "Как настроить прокси-сервер?", 0, 2048)
    assert q is not None and "HTTPS_PROXY" in q.text
    zh_filler = "本章介绍园艺：土壤、种子和浇水。" * 30
    zh = (
        "# 手册\n\n"
        + "".join(f"## 第{n}章\n\n{zh_filler}\n\n" for n in range(8))
        + ("## 代理设置\n\n设置 HTTPS_PROXY 变量即可通过代理服务器发送请求。\n\n")
        + "".join(f"## 附录{n}\n\n{zh_filler}\n\n" for n in range(8))
    )
    q = query_window(zh, scan(zh), "如何设置代理？", 0, 2048)
    assert q is not None and "HTTPS_PROXY" in q.text
    assert "[section at offset=" in q.text and "手册 > 代理设置]" in q.text


def test_query_without_a_matching_word_gives_none() -> None:
    text = manual()
    assert query_window(text, scan(text), "quantum chromodynamics", 0, 4096) is None


def test_query_after_an_offset_skips_what_was_read() -> None:
    text = manual()
    s = scan(text)
    troubleshooting = next(h.start for h in s.headings if h.title == "Troubleshooting")
    assert query_window(text, s, "proxy settings", 0, 4096) is not None
    assert query_window(text, s, "proxy settings", troubleshooting, 4096) is None
    q = query_window(text, s, "timeout", troubleshooting, 4096)
    assert q is not None and "thirty seconds" in q.text
    assert all(o >= troubleshooting for o in q.offsets)


def test_a_piece_of_a_long_listing_is_shown_inside_its_fence() -> None:
    code = "\n".join(f"x_{i} = step({i})" for i in range(300))
    text = (
        "# Code\n\n"
        + (FILLER.format(n=1) * 30)
        + "\n\n## Listing\n\n```python\n"
        + code
        + "\nmagic_wand = cast_spell()\n"
        + code
        + "\n```\n\nAfter the listing.\n"
    )
    q = query_window(text, scan(text), "magic wand spell", 0, 3000)
    assert q is not None and "magic_wand = cast_spell()" in q.text
    body = q.text.split(OUTLINE_HEADER)[0]
    assert len(re.findall(r"^```", body, flags=re.M)) % 2 == 0  # every fence closed


def test_the_best_section_over_the_budget_is_cut_and_says_where_it_goes_on() -> None:
    long_para = "The unicorn section explains unicorn care in detail. " * 30  # one paragraph
    text = "# Zoo\n\n" + FILLER.format(n=1) * 10 + "\n\n## Unicorns\n\n" + long_para + "\n"
    q = query_window(text, scan(text), "unicorn care", 0, 700)
    assert q is not None and len(q.text.encode()) <= 700
    m = re.search(r"\[section goes on at offset=(\d+)\]", q.text)
    assert m is not None
    shown = q.text.split("## Unicorns\n\n")[1].split("\n[section goes on")[0]
    assert at(text, int(m.group(1))).startswith(long_para[len(shown) :][:20])


def test_prefix_window_keeps_the_outline_inside_the_budget() -> None:
    text = manual()
    window, outline = prefix_window(text, scan(text), 0, 2000, markdown=True)
    assert outline.startswith(OUTLINE_HEADER)
    assert len(window.text.encode()) + 2 + len(outline.encode()) <= 2000
    assert window.truncated and text.encode()[: window.end].decode().startswith(window.text)


# ----------------------------------------------------------------------------- web_fetch format


def test_a_cut_page_ends_with_its_outline_then_the_marker() -> None:
    text = manual()
    out, meta = format_document(doc(text), 0, 2000)
    m = MARKER.search(out)
    assert m is not None and out.count("[truncated at") == 1
    n = int(m.group(1))
    body = out.split("\n\n", 1)[1][: m.start() - len(out.split("\n\n", 1)[0]) - 2]
    assert len(body.encode()) <= 2000
    page, _, outline = body.partition("\n\n" + OUTLINE_HEADER + "\n")
    assert text.startswith(page) and len(page.encode()) <= n
    entries = re.findall(r"^\s*- (.+) \(offset=(\d+)\)$", outline, flags=re.M)
    assert len(entries) >= 2
    for title, offset in entries:
        assert at(text, int(offset)).lstrip("#").strip().startswith(title)
    assert meta["outline"] is True and meta["next_offset"] == n and meta["truncated"]
    # The next call goes on exactly where the marker says.
    out2, meta2 = format_document(doc(text), n, 2000)
    assert meta2["offset"] == n
    assert out2.split("\n\n", 1)[1].startswith(text.encode()[n : n + 40].decode())


def test_jumping_to_an_outline_offset_reads_that_section() -> None:
    text = manual()
    s = scan(text)
    proxy = next(h.start for h in s.headings if h.title == "Proxy settings")
    out, _ = format_document(doc(text), proxy, 300)
    assert out.split("\n\n", 1)[1].startswith("### Proxy settings")


def test_no_outline_for_plain_text_or_a_page_that_fits() -> None:
    plain = "# not a heading\n" + "line of data\n" * 500 + "# neither\n" + "more\n" * 500
    out, meta = format_document(doc(plain, markdown=False, content_type="text/plain"), 0, 1000)
    assert OUTLINE_HEADER not in out and "outline" not in meta and MARKER.search(out)
    out, meta = format_document(doc(manual()), 0, 128 * 1024)
    assert OUTLINE_HEADER not in out and "[truncated" not in out


def test_markdown_sent_as_markdown_gets_an_outline() -> None:
    text = manual()
    out, meta = format_document(doc(text, markdown=False, content_type="text/markdown"), 0, 2000)
    assert OUTLINE_HEADER in out and meta.get("outline") is True


def test_format_with_a_query() -> None:
    text = manual()
    out, meta = format_document(doc(text), 0, 4096, "What are the proxy settings?")
    body = out.split("\n\n", 1)[1]
    assert SUMMARY.match(body.split("\n")[0])
    assert "Set the HTTPS_PROXY variable" in body and "[truncated at" not in out
    assert len(body.encode()) <= 4096
    assert meta["query_offsets"] and meta["sections_left_out"] > 0 and meta["next_offset"] is None
    assert all(at(text, o).startswith("#") for o in meta["query_offsets"])


def test_format_with_a_query_on_a_page_that_fits_shows_it_all() -> None:
    text = "# Small\n\nA short page about proxies.\n"
    out, meta = format_document(doc(text), 0, 4096, "proxy")
    assert "[query: the whole text fits in max_bytes; shown in full]\n# Small" in out
    assert "query_offsets" not in meta


def test_format_with_a_query_that_matches_nothing_reads_from_offset() -> None:
    text = manual()
    out, meta = format_document(doc(text), 0, 2000, "quantum chromodynamics")
    body = out.split("\n\n", 1)[1]
    assert body.startswith("[query: no section contains a word of the question; the text follows]")
    assert "# Manual" in body and MARKER.search(out) and meta["outline"] is True
    m = MARKER.search(out)
    assert m is not None and len(out[len(out.split("\n\n", 1)[0]) + 2 : m.start()].encode()) <= 2000


@settings(max_examples=40)
@given(
    st.text(max_size=200),
    st.integers(min_value=0, max_value=20000),
    st.integers(min_value=1, max_value=5000),
)
def test_any_question_gives_a_page_within_the_budget(query: str, offset: int, budget: int) -> None:
    text = manual()
    out, meta = format_document(doc(text), min(offset, len(text.encode()) - 1), budget, query)
    out.encode("utf-8")
    body = out.partition("\n\n")[2]
    body = MARKER.sub("", body)
    assert len(body.encode()) <= budget or budget < 100  # tiny budgets: a note alone
    assert meta["total_bytes"] == len(text.encode())


def test_a_budget_too_small_for_any_matching_section_says_so() -> None:
    text = manual()
    out, meta = format_document(doc(text), 0, 150, "proxy settings")
    body = out.split("\n\n", 1)[1]
    assert body.startswith("[query: max_bytes is too small for a matching section;")
    assert MARKER.search(out) and "query_offsets" not in meta
