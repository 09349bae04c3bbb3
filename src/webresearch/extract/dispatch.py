"""A downloaded body → text for a model, by what the body really is (SPEC §1.1). Pure.

1. :func:`~webresearch.extract.sniff.sniff_mime` decides the type (bytes win over a lying
   header for binaries; HTML served as ``application/octet-stream`` is still HTML);
2. HTML and XHTML go through :func:`~webresearch.extract.html.extract_html` (markdown);
3. text formats are passed through decoded as they are: JSON, plain text, markdown, CSV,
   XML (``application/xml``, ``text/xml``, ``*+xml``), other ``text/*`` and script types;
4. PDF goes through :func:`~webresearch.extract.pdf.pdf_to_text`;
5. anything else raises :class:`~webresearch.errors.UnsupportedContent` naming what was
   detected and suggesting a download (or ``fetch_image`` for images).

Whatever made the text, the title and text leave :func:`convert` without invisible
characters (:func:`webresearch.invisible.strip_invisible`), counted in
``hidden_chars_removed``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from webresearch.errors import UnsupportedContent
from webresearch.extract.charset import decode_document
from webresearch.extract.sniff import describe_mime, is_html_mime, sniff_mime
from webresearch.extract.title import url_title
from webresearch.invisible import strip_invisible

if TYPE_CHECKING:  # imported on first use (_convert's comment)
    from webresearch.extract.html import HtmlExtraction

__all__ = [
    "EXTRACTION_MODULE",
    "Converted",
    "ExtractorName",
    "convert",
    "extract_rendered",
    "is_passthrough_mime",
    "load_extraction",
    "reads_from_a_prefix",
]

#: The page extraction's module, imported on the first conversion (see :func:`_convert`).
EXTRACTION_MODULE = "webresearch.extract.html"

ExtractorName = Literal["main-content", "whole-page", "plain-text", "passthrough", "pdf"]

_PASSTHROUGH_APPLICATION = frozenset(
    {
        "application/json", "application/xml", "application/javascript", "application/ecmascript",
        "application/x-javascript", "application/x-ndjson", "application/jsonl", "application/x-yaml",
        "application/yaml", "application/toml", "application/x-toml", "application/sql",
        "application/x-sh", "application/x-httpd-php", "application/graphql", "application/csv",
        "application/x-www-form-urlencoded", "application/x-tex", "application/x-latex",
        "application/rtf", "application/x-subrip", "application/n-triples", "application/n-quads",
        "application/trig", "application/x-sql",
    }
)  # fmt: skip

_DOWNLOAD_HINT = (
    "download it into the workspace with a shell command instead, e.g. "
    "curl -L -o /workspace/<file name> '<url>'"
)
_IMAGE_HINT = "use the fetch_image tool to look at it, or " + _DOWNLOAD_HINT


@dataclass(frozen=True, slots=True)
class Converted:
    """A body converted to text for a model.

    Attributes:
        title: the document title. An HTML page without one is named as a browser's tab
            names it: its address's last path segment or host
            (:func:`~webresearch.extract.title.url_title`). Any other document without a
            title of its own (JSON, plain text, CSV, XML, a PDF without one) has an empty
            title (SPEC §1.1: ``title: <title or empty>``): its file name is no title, and
            the ``url:`` line already shows it.
        text: the converted text (markdown for HTML, the page texts for PDF, the decoded
            data for pass-through types).
        mime: the effective MIME type (after sniffing), lower-case, without parameters.
        extractor: ``main-content``, ``whole-page`` or ``plain-text`` (HTML),
            ``passthrough`` (text formats) or ``pdf``.
        fallback: why an HTML fallback step was taken, else ``None``.
        encoding: WHATWG name of the text encoding used; ``None`` for PDF.
        encoding_source: where the encoding came from (``bom``, ``header``, ``meta``,
            ``detected``, ``default``); ``None`` for PDF.
        markdown: ``True`` when ``text`` is converted markdown (cut at paragraph boundaries,
            code fences closed); ``False`` for pass-through data and PDF text (cut as is).
        hidden_chars_removed: invisible characters removed from the title and text.
        hidden_chars_kept: letters and digits of text the HTML page hides that are in
            ``text`` — a closed tab, accordion or disclosure panel, or an app shell's hidden
            content (:mod:`webresearch.extract.kept_hidden`); 0 when none and for other
            types. Hidden text nothing opens is left out.
        invisible_chars_kept: how many of ``hidden_chars_kept`` the page draws invisibly
            (its background's colour, transparent, zero-sized, off the screen) rather than
            in a closed panel (``HtmlExtraction.invisible_chars_kept``).
    """

    title: str
    text: str
    mime: str
    extractor: ExtractorName
    fallback: str | None
    encoding: str | None
    encoding_source: str | None
    markdown: bool
    hidden_chars_removed: int = 0
    hidden_chars_kept: int = 0
    invisible_chars_kept: int = 0


def is_passthrough_mime(mime: str) -> bool:
    """True for the text formats returned decoded as they are."""
    return (
        mime.startswith("text/")
        or mime in _PASSTHROUGH_APPLICATION
        or mime.endswith(("+xml", "+json"))
    ) and not is_html_mime(mime)


def reads_from_a_prefix(mime: str) -> bool:
    """True for types whose first bytes make sense alone (HTML and the text formats): a
    body of such a type cut at the download cap is converted as far as it goes; a PDF, an
    image or an archive needs the whole file (SPEC §1.1, case 39)."""
    return is_html_mime(mime) or is_passthrough_mime(mime)


def convert(body: bytes, content_type: str | None, url: str, scripted: bool = False) -> Converted:
    """Convert a downloaded body to text for a model, invisible characters removed.

    Args and errors as :func:`_convert`; ``scripted``: the body is a browser's DOM after the
    page's scripts ran (its ``<noscript>`` text is left out, see
    :func:`~webresearch.extract.html.extract_html`). The title and text of the result are
    cleaned by :func:`~webresearch.invisible.strip_invisible` (the count in
    ``hidden_chars_removed``).
    """
    converted = _convert(body, content_type, url, scripted)
    title, in_title = strip_invisible(converted.title)
    if not title and is_html_mime(converted.mime):  # an untitled page: as a browser's tab
        title = url_title(url)
    text, in_text = strip_invisible(converted.text)
    return replace(converted, title=title, text=text, hidden_chars_removed=in_title + in_text)


def extract_rendered(html: str, url: str) -> HtmlExtraction:
    """A browser's rendered DOM through :func:`~webresearch.extract.html.extract_html`
    (``scripted``: its ``<noscript>`` text is not shown). Imports the extraction on first
    use, as :func:`convert` does: a caller hands this function to a worker process without
    loading the extraction itself (it is pickled by reference)."""
    from webresearch.extract.html import extract_html

    return extract_html(html, url, True)


def load_extraction() -> None:
    """Import the page extraction (:data:`EXTRACTION_MODULE`, ~100 modules: 0.3–0.7 s of
    CPU once): for a caller that runs the first conversion on an event loop, to do this
    part in a thread first (``tools/browser_reading``: review, the MCP loop was held)."""
    importlib.import_module(EXTRACTION_MODULE)


def _convert(body: bytes, content_type: str | None, url: str, scripted: bool) -> Converted:
    """Convert a downloaded body to text for a model.

    Args:
        body: the decompressed body bytes (possibly cut at the download cap).
        content_type: the HTTP ``Content-Type`` header value, or ``None`` when absent.
        url: the final URL (after redirects); relative links in HTML resolve against it.
        scripted: the body is a browser's DOM after the page's scripts ran.

    Returns:
        the converted text and how it was made.

    Raises:
        UnsupportedContent: the body is binary (an image, an archive, a program…), or a PDF
            without readable text. The message says what was detected, e.g. "looks like a PNG
            image (image/png)"; the hint suggests ``fetch_image`` for images and a download
            with a shell tool otherwise.
    """
    # imported on first use: the tool modules import this one for its MIME rules, and a
    # server answers ``initialize`` before any page is read (extract.html and its ~100
    # modules, trafilatura's helpers among them)
    from webresearch.extract.html import extract_html
    from webresearch.extract.pdf import pdf_to_text

    mime = sniff_mime(body, content_type)
    if is_html_mime(mime):
        decoded = decode_document(body, content_type, html=True)
        page = extract_html(decoded.text, url, scripted)
        return Converted(
            page.title, page.markdown, mime, page.extractor, page.fallback,
            decoded.encoding, decoded.source, True, hidden_chars_kept=page.hidden_chars_kept,
            invisible_chars_kept=page.invisible_chars_kept,
        )  # fmt: skip
    if is_passthrough_mime(mime):
        decoded = decode_document(body, content_type, html=False)
        # a stray NUL (text with a few is still text, see sniff.py) is shown as a browser
        # shows it in a text/plain document: U+FFFD (HTML Standard, PLAINTEXT state)
        text = decoded.text.replace("\x00", "\ufffd")
        return Converted(
            "", text, mime, "passthrough", None, decoded.encoding, decoded.source, False
        )
    if mime == "application/pdf":
        title, text = pdf_to_text(body)
        return Converted(title, text, mime, "pdf", None, None, None, False)
    raise UnsupportedContent(
        f"this is not text: it looks like {describe_mime(mime)}",
        hint=_IMAGE_HINT if mime.startswith("image/") else _DOWNLOAD_HINT,
        mime=mime,
    )
