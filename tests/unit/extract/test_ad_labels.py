"""An ad slot's label alone on its line is not content (extract/markdown_tidy.py,
UI_LABEL); a sentence holding such words, and an article about advertising, stay. Small
pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

URL = "https://www.allotment-notes.example.org/2026/11/winter-digging"


def para(i: int) -> str:
    return (
        f"<p>Bed {i}: turn the soil to a spade's depth before the first frost, leave the clods "
        f"rough so the frost can break them, and spread a barrow of compost over each bed.</p>"
    )


def md(slot: str) -> str:
    body = "".join(para(i) + (slot if i in (1, 3) else "") for i in range(5))
    html = (
        "<!DOCTYPE html><html><head><title>Winter digging</title></head><body>"
        f"<main><article><h1>Winter digging</h1>{body}</article></main></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    "label",
    [
        "Continue reading below",
        "Story continues below advertisement",
        "Article continues after this ad",
        "ADVERTISEMENT - CONTINUE READING BELOW",
        "Anzeige",
        "Publicité",
    ],
)
def test_an_ad_slot_label_is_not_content(label: str) -> None:
    out = md(f"<div class='slot'><p><span>{label}</span></p><div class='ad-frame'></div></div>")
    assert label.lower() not in out.lower()
    assert "Bed 4: turn the soil" in out


@pytest.mark.parametrize(
    "sentence",
    [
        "Continue reading below to see which beds need lime.",
        "The story continues below the old pear tree, where the second plot starts.",
        "Werbung für Kompost ist überall, aber selbst gemacht ist er besser.",
    ],
)
def test_a_sentence_holding_the_words_stays(sentence: str) -> None:
    assert sentence in md(f"<p>{sentence}</p>")


def test_an_article_about_advertising_keeps_its_text() -> None:
    html = (
        "<!DOCTYPE html><html><head><title>Seed catalogues</title></head><body><main><article>"
        "<h1>Seed catalogues</h1>" + para(0) + "<h2>Advertisement</h2>"
        "<p>The catalogue's advertisement for blight-resistant potatoes promised a crop by "
        "July; the plot's own trial showed it two weeks later than the old variety.</p>"
        + para(1)
        + "</article></main></body></html>"
    )
    out = extract_html(html, URL).markdown
    assert "advertisement for blight-resistant potatoes" in out
    assert "Bed 1: turn the soil" in out
