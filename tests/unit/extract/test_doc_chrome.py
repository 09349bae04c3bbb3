"""Chrome of documentation generators (extract/doc_chrome.py)."""

from __future__ import annotations

import pytest

from webresearch.extract.doc_chrome import drop_generator_chrome, generator
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

URL = "https://docs.example.org/kettle/struct.Kettle.html"


def rustdoc_page(generator_meta: str) -> str:
    methods = "".join(
        f"<details class='toggle method-toggle' open><summary><section id='method.{name}' "
        f"class='method'><span class='rightside'><span class='since' title='Stable since "
        f"version 1.{i}.0'>1.{i}.0</span> · <a class='src' href='../src/kettle.rs.html#{i}'>"
        f"Source</a></span><h4 class='code-header'>pub fn {name}(&amp;self) -&gt; bool</h4>"
        f"</section></summary><div class='docblock'><p>Tells whether the kettle {what}, "
        f"reading the sensor on its base once and never blocking the caller.</p></div>"
        f"</details>"
        for i, (name, what) in enumerate(
            [("is_full", "is full"), ("is_hot", "is hot"), ("is_on", "is switched on"),
             ("is_empty", "is empty"), ("is_open", "has its lid open")]
        )
    )  # fmt: skip
    return (
        f"<!DOCTYPE html><html><head>{generator_meta}<title>Kettle in kettle</title></head>"
        "<body><nav class='sidebar'><a href='../index.html'>kettle</a></nav><main>"
        "<section id='main-content'><h1>Struct Kettle</h1><details class='toggle top-doc' open>"
        "<summary class='hideme'><span>Expand description</span></summary><div class='docblock'>"
        "<p>A kettle that boils water on a stove or on its own base, with a whistle that "
        "sounds when the water boils and a lid that locks while it is hot.</p></div></details>"
        f"<h2>Implementations</h2>{methods}</section></main></body></html>"
    )


def test_rustdoc_version_source_links_and_toggle_labels_are_left_out() -> None:
    markdown = extract_html(rustdoc_page("<meta name='generator' content='rustdoc'>"), URL).markdown
    assert "pub fn is_hot(&self) -> bool" in markdown
    assert "Tells whether the kettle has its lid open" in markdown
    assert "Source" not in markdown and "1.2.0" not in markdown
    assert "Expand description" not in markdown


def test_the_same_classes_on_another_generators_page_are_kept() -> None:
    doc = parse_html(rustdoc_page("<meta name='generator' content='Hugo 0.143.1'>"))
    assert generator(doc) == "hugo 0.143.1"
    assert drop_generator_chrome(doc) == 0


@pytest.mark.parametrize("meta", ["", "<meta name='GENERATOR' content=''>"])
def test_a_page_without_a_generator_has_none(meta: str) -> None:
    doc = parse_html(f"<html><head>{meta}</head><body><p>x</p></body></html>")
    assert generator(doc) == ""
