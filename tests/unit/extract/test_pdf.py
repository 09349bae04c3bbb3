"""PDF → text page by page; unreadable PDFs are refused, never printed as PDF source."""

from __future__ import annotations

import pytest

from webresearch.errors import UnsupportedContent
from webresearch.extract.pdf import MAX_PDF_PAGES, pdf_to_text

from .cases import route
from .pdfs import make_pdf

PDF_SOURCE = ("endobj", "xref", "%PDF", "stream", "\x00", "\ufffd")


def test_text_page_by_page_with_separators_and_metadata_title() -> None:
    body = make_pdf(
        [["Quarterly memo", "Sales grew (a lot)."], [], ["Third page text"]], title="Memo Q3"
    )
    title, text = pdf_to_text(body)
    assert title == "Memo Q3"
    assert (
        text
        == "--- page 1 ---\nQuarterly memo\nSales grew (a lot).\n\n--- page 3 ---\nThird page text"
    )


def test_title_falls_back_to_the_first_line() -> None:
    assert pdf_to_text(make_pdf([["  First line  ", "second"]], compress=False))[0] == "First line"


def test_placeholder_metadata_titles_are_ignored() -> None:
    assert pdf_to_text(make_pdf([["Body"]], title="Microsoft Word - draft.docx"))[0] == "Body"


@pytest.mark.parametrize(
    "body",
    [
        b"%PDF-1.4\n%garbage that is not a pdf at all",
        b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
        b"",
        make_pdf([["cut short"]])[:60],
    ],
)
def test_unreadable_pdfs_are_refused_with_a_clear_message(body: bytes) -> None:
    with pytest.raises(UnsupportedContent) as info:
        pdf_to_text(body)
    message = info.value.to_text()
    assert "PDF" in message
    assert info.value.hint and "download" in info.value.hint
    for fragment in PDF_SOURCE:
        assert fragment not in message


def test_a_pdf_without_text_layer_is_refused_suggesting_ocr() -> None:
    with pytest.raises(UnsupportedContent) as info:
        pdf_to_text(make_pdf([[], []]))
    assert "no text layer" in info.value.message
    assert info.value.hint and "OCR" in info.value.hint


def test_case_19_memo_pdf_has_no_usable_text_and_is_refused() -> None:
    r = route("19-content-type-lies", "/memo.txt")
    with pytest.raises(UnsupportedContent) as info:
        pdf_to_text(r.body)
    for fragment in PDF_SOURCE:
        assert fragment not in info.value.to_text()


def test_very_long_documents_are_cut_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("webresearch.extract.pdf.MAX_PDF_PAGES", 2)
    _, text = pdf_to_text(make_pdf([["one"], ["two"], ["three"]]))
    assert "three" not in text
    assert text.endswith("[only the first 2 of 3 pages were read]")
    assert MAX_PDF_PAGES >= 100
