"""convert(): the regression cases end to end at the pure-function level, and the MIME routing."""

from __future__ import annotations

import json
import re

import pytest

from webresearch.errors import UnsupportedContent
from webresearch.extract.dispatch import convert

from .cases import route
from .pdfs import make_pdf

BASE = "http://127.0.0.1:8765"


def output_of(case: str, path: str, final_path: str | None = None) -> tuple[str, str]:
    r = route(case, path)
    converted = convert(r.body, r.content_type, BASE + (final_path or path))
    return converted.title, converted.text


# --------------------------------------------------------------------------- case 01


def test_case_01_windows_1251_declared_only_in_meta() -> None:
    r = route("01-charset-meta-only-cp1251", "/")
    converted = convert(r.body, r.content_type, BASE + "/")
    assert converted.title == "Погода в Новосибирске: прогноз на неделю"
    assert (converted.encoding, converted.encoding_source) == ("windows-1251", "meta")
    for expected in (
        "температура опустится до минус двадцати трёх градусов",
        "на трассе № 7 возможны заносы",
        "«умеренный мороз и солнце»",
        "Ёлочный базар",
    ):
        assert expected in converted.text
    everything = converted.title + converted.text
    assert "\ufffd" not in everything
    assert "Ïîãîäà" not in everything
    assert not re.search("[\u00c0-\u00ff]{3,}", everything)


# --------------------------------------------------------------------------- case 03


def test_case_03_bom_overrides_the_header() -> None:
    title, text = output_of("03-bom-overrides-header", "/")
    assert title == "Grüße aus Köln — Übersicht"
    assert "Die Führung über den Domplatz kostet 12 € pro Person" in text
    assert "Café „Zur Brücke“" in text
    for bad in ("ï»¿", "\ufeff", "Ã¼", "ÃŸ", "â‚¬", "â€"):
        assert bad not in title + text


# --------------------------------------------------------------------------- case 06


def test_case_06_article_hidden_for_hydration_is_extracted() -> None:
    _, text = output_of("06-hidden-ssr-content", "/")
    assert "Transport-level routing lets one gateway forward each request" in text
    assert "ROUTE_UNKNOWN, POOL_DRAINING and ENVELOPE_TOO_LARGE" in text
    assert text.strip() not in ("", "Loading…")
    assert "__HYDRATE__" not in text
    assert "failed to be simplified" not in text


# --------------------------------------------------------------------------- case 10


def fenced_blocks(markdown: str) -> list[tuple[str, str]]:
    """(info string, content) of every fenced code block, in order."""
    return re.findall(r"^```([^\n`]*)\n(.*?)\n```$", markdown, re.M | re.S)


def test_case_10_short_pre_blocks_are_kept_as_fenced_code() -> None:
    _, text = output_of("10-short-pre-blocks-kept", "/manual/start.html")
    blocks = fenced_blocks(text)
    assert [content for _, content in blocks] == [
        "granary --version",
        "granary init --force",
        'granary add notes.txt && granary commit -m "first"',
        "granary ls",
    ]
    assert blocks[2][0] == "bash"
    assert "&amp;" not in text
    for paragraph in (
        "First check that the command-line tool is on your path.",
        "Create a new store in the current folder.",
        "Add a file and record it in the store with a short message:",
        "Finally, list what the store holds.",
        "That is all you need for a first session;",
    ):
        assert paragraph in text
    assert all("Copy" not in content for _, content in blocks)


# --------------------------------------------------------------------------- case 13


def test_case_13_table_with_colspan_and_rowspan() -> None:
    _, text = output_of("13-table-kept-with-colspan", "/")
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert lines, "the numbers must be in a table"
    cells = [re.split(r"(?<!\\)\|", line)[1:-1] for line in lines]
    assert {len(row) for row in cells} == {5}
    rows = {row[0].strip(): [c.strip() for c in row[1:]] for row in cells}
    assert rows["Islands"] == ["133", "129", "33.1", "35.8"]
    assert rows["Central"] == ["2,015", "2,240", "9.6", "9.2"]
    for region in ("North", "South", "East", "West", "Central", "Islands"):
        assert region in rows
    before_table = text[: text.index(lines[0])].rstrip().splitlines()[-1]
    assert before_table == "Deliveries and average delivery time"


# --------------------------------------------------------------------------- case 14


def link_targets(markdown: str) -> list[str]:
    return re.findall(r"\]\(([^)]*)\)", markdown)


def test_case_14_links_resolve_against_the_final_url() -> None:
    # /go redirects to /docs/guide/v2/install.html: the caller passes the final URL.
    _, text = output_of("14-relative-links-and-base", "/docs/guide/v2/install.html")
    assert f"[setup notes]({BASE}/docs/guide/intro/setup.html)" in text
    assert f"![wiring diagram]({BASE}/docs/guide/images/wiring.png)" in text
    assert f"![vendor logo]({BASE}/static/logo.png)" in text
    assert "[data sheet](http://cdn.example.org/sheets/c2.pdf)" in text
    assert f"[next page]({BASE}/docs/guide/v2/install.html?page=2)" in text
    assert "mailto:support@example.org" in text
    for target in link_targets(text):
        assert not target.startswith(("javascript:", "../", "/", "?", "<")), target
        assert target.startswith(("http://", "https://", "mailto:")) or target == "#config", target


def test_case_14_links_resolve_against_base_href() -> None:
    _, text = output_of("14-relative-links-and-base", "/cms/index.php/article.html")
    assert f"[annual report]({BASE}/cms/files/report-2024.pdf)" in text
    assert f"![report cover]({BASE}/cms/media/cover.jpg)" in text
    assert f"[archive]({BASE}/cms/archive/)" in text
    assert "index.php/files" not in text


# --------------------------------------------------------------------------- case 16


def test_case_16_long_text_is_passed_through_exactly() -> None:
    r = route("16-truncation-utf8-boundary", "/long.txt")
    converted = convert(r.body, r.content_type, BASE + "/long.txt")
    assert converted.text == r.body.decode("utf-8")
    assert (converted.extractor, converted.markdown, converted.mime) == (
        "passthrough",
        False,
        "text/plain",
    )


def test_case_16_a_4000_line_listing_stays_one_fenced_block() -> None:
    r = route("16-truncation-utf8-boundary", "/listing.html")
    converted = convert(r.body, r.content_type, BASE + "/listing.html")
    assert converted.markdown
    blocks = fenced_blocks(converted.text)
    assert len(blocks) == 1
    info, content = blocks[0]
    assert info == "python"
    lines = content.split("\n")
    assert len(lines) == 4000
    assert lines[0] == "    value_0 = compute(0)  # étape 0"
    assert lines[-1] == "    value_3999 = compute(3999)  # étape 3999"
    assert converted.text.count("```") == 2


# --------------------------------------------------------------------------- case 19

BINARY_LEAKS = ("endobj", "xref", "IHDR", "IEND", "\ufffd", "\x00")


@pytest.mark.parametrize(("path", "named"), [("/memo.txt", "PDF"), ("/blob", "PNG")])
def test_case_19_binaries_labelled_as_text_are_refused_by_name(path: str, named: str) -> None:
    r = route("19-content-type-lies", path)
    with pytest.raises(UnsupportedContent) as info:
        convert(r.body, r.content_type, BASE + path)
    error = info.value
    assert error.retryable is False
    assert named in error.message
    assert error.hint and "curl" in error.hint and "/workspace" in error.hint
    for leak in BINARY_LEAKS:
        assert leak not in error.to_text()


def test_case_19_png_hint_mentions_fetch_image() -> None:
    r = route("19-content-type-lies", "/blob")
    with pytest.raises(UnsupportedContent) as info:
        convert(r.body, r.content_type, BASE + "/blob")
    assert "looks like a PNG image (image/png)" in info.value.message
    assert info.value.hint and "fetch_image" in info.value.hint


def test_case_19_html_served_as_octet_stream_is_extracted() -> None:
    r = route("19-content-type-lies", "/downloads/")
    converted = convert(r.body, r.content_type, BASE + "/downloads/")
    assert converted.mime == "text/html"
    assert "The newest installer is version 3.1.4" in converted.text
    assert "\ufffd" not in converted.text


def test_a_readable_pdf_labelled_text_plain_is_extracted_not_printed() -> None:
    converted = convert(
        make_pdf([["Quarterly memo", "Revenue rose."]]), "text/plain", BASE + "/memo.txt"
    )
    assert (converted.mime, converted.extractor, converted.title) == (
        "application/pdf",
        "pdf",
        "Quarterly memo",
    )
    assert converted.text == "--- page 1 ---\nQuarterly memo\nRevenue rose."
    for leak in BINARY_LEAKS:
        assert leak not in converted.text


# --------------------------------------------------------------------------- routing


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/json", json.dumps({"a": [1, 2], "é": "ü"}, ensure_ascii=False).encode()),
        ("application/ld+json", b'{"@type": "Thing"}'),
        ("text/plain; charset=utf-8", "Grüße\n  indented\n".encode()),
        ("text/markdown", b"# Title\n\n* item\n"),
        ("text/csv", b"a,b\n1,2\n"),
        ("application/xml", b'<?xml version="1.0"?><root><a>1</a></root>'),
        ("text/xml", b"<root/>"),
        ("application/rss+xml", b"<rss><channel><title>t</title></channel></rss>"),
        ("image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
        ("text/css", b"body { color: red }"),
        ("application/javascript", b"console.log(1)"),
    ],
)
def test_text_formats_pass_through_decoded_as_they_are(content_type: str, body: bytes) -> None:
    converted = convert(body, content_type, BASE + "/data")
    assert converted.text == body.decode("utf-8")
    # no title: the address's last segment is no title of a document (SPEC §1.1)
    assert (converted.extractor, converted.markdown, converted.title) == ("passthrough", False, "")


def test_xhtml_is_html() -> None:
    body = (
        b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><article><p>'
        + b"Some xhtml text here. " * 20
        + b"</p></article></body></html>"
    )
    converted = convert(body, "application/xhtml+xml", BASE + "/x")
    assert (converted.mime, converted.title, converted.markdown) == (
        "application/xhtml+xml",
        "X",
        True,
    )
    assert "Some xhtml text here." in converted.text


@pytest.mark.parametrize(
    ("body", "content_type", "named"),
    [
        (b"PK\x03\x04\x14\x00" + b"\x00" * 40, "application/zip", "ZIP archive"),
        (b"\x1f\x8b\x08\x00" + b"\x00" * 20, "application/octet-stream", "gzip archive"),
        (b"\x00\x01\x02\x03" * 50, None, "binary data"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 40, "text/html", "JPEG image"),
        (b"\x00\x00\x00\x18ftypisom" + b"\x00" * 20, "video/mp4", "video"),
    ],
)
def test_other_binaries_are_refused_naming_what_they_are(
    body: bytes, content_type: str | None, named: str
) -> None:
    with pytest.raises(UnsupportedContent) as info:
        convert(body, content_type, BASE + "/file")
    assert named in info.value.message
    assert info.value.hint and "curl" in info.value.hint


def test_empty_body_is_empty_text() -> None:
    converted = convert(b"", None, BASE + "/")
    assert converted.text == ""


# --------------------------------------------------------------------------- untitled documents


@pytest.mark.parametrize(
    ("body", "content_type", "url", "title"),
    [
        (b"<p>Only a paragraph of text here.</p>", "text/html", BASE + "/", "127.0.0.1"),
        (b"<html><head><title> </title></head><body><p>Hi.</p></body></html>", "text/html",
         "https://example.org/guide/intro", "intro"),
    ],
)  # fmt: skip
def test_a_page_without_a_title_is_named_by_its_address(
    body: bytes, content_type: str, url: str, title: str
) -> None:
    """An HTML page, as a browser tab names it: the path's last segment or the host."""
    assert convert(body, content_type, url).title == title


@pytest.mark.parametrize(
    ("body", "content_type", "url"),
    [
        (b"plain words", "text/plain", BASE + "/docs/release%20notes.txt?token=s3"),
        (b'{"a": 1}', "application/json", BASE + "/data.json"),
        (b'{"a": 1}', "application/json", BASE + "/api/v1/users/"),
        (b"a,b\n1,2\n", "text/csv", BASE + "/table.csv"),
        (b"<?xml version='1.0'?><rows><row/></rows>", "application/xml", BASE + "/rows.xml"),
    ],
)
def test_a_document_that_is_not_html_has_no_title_of_its_address(
    body: bytes, content_type: str, url: str
) -> None:
    """SPEC §1.1 ``title: <title or empty>``: JSON, text, CSV and XML have no title; their
    file name was given as one (``title: data.json``)."""
    assert convert(body, content_type, url).title == ""


def test_a_title_of_the_page_wins_over_the_address() -> None:
    html = b"<html><head><title>Harbour cranes</title></head><body><p>Words.</p></body></html>"
    assert convert(html, "text/html", BASE + "/cranes.html").title == "Harbour cranes"


#: A page as a browser leaves it after its scripts ran: the app drew its text, and the
#: ``<noscript>`` fallback (create-react-app's template) is still in the DOM.
RENDERED_APP = (
    b"<html><head><title>Tide tables</title></head><body>"
    b"<noscript>You need to enable JavaScript to run this app.</noscript>"
    b"<div id='root'><h1>Tide tables</h1><p>High water at the harbour mouth is at 06:12 and "
    b"18:40 today; low water at 00:05 and 12:31. Spring tides bring the range to 4.8 metres."
    b"</p></div></body></html>"
)


def test_a_rendered_dom_is_read_without_its_noscript_text() -> None:
    rendered = convert(RENDERED_APP, "text/html", BASE + "/tides", scripted=True)
    assert "High water at the harbour mouth" in rendered.text
    assert "enable JavaScript" not in rendered.text


def test_a_static_page_keeps_its_noscript_text() -> None:
    # without scripts a browser shows <noscript>; crawler copies of content live there too
    html = b"<html><body><noscript><p>Read the timetable: trains leave hourly.</p></noscript></body></html>"
    assert "trains leave hourly" in convert(html, "text/html", BASE + "/trains").text
    assert (
        "trains leave hourly"
        not in convert(html, "text/html", BASE + "/trains", scripted=True).text
    )
