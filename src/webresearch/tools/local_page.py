"""A page given as bytes (stdin, a saved file) read exactly as web_fetch reads a served one.

``read_page(data, url)`` is web_fetch without the network: the bytes pass through the local
reader's document (:meth:`webresearch.readers.local.LocalReader.convert`: challenge check, sniffing,
charset, extraction, invisible characters, redaction) and web_fetch's window
(:func:`webresearch.tools.page_text.format_document`: offset, budget, outline, ``query``),
so a person sees what a model would see for the same page. ``url`` is the page's address:
relative links resolve against it and the text names it; nothing is requested from it.
"""

from __future__ import annotations

import asyncio

import httpx2

from ..addresses import AddressPolicy
from ..config import DEFAULT_DOWNLOAD_CAP_BYTES, DEFAULT_MAX_BYTES, MAX_MAX_BYTES, Settings
from ..daemon_thread import in_daemon_thread
from ..errors import InvalidArguments, TooLarge, UnsupportedContent, WebResearchError
from ..extract.dispatch import reads_from_a_prefix
from ..extract.sniff import sniff_mime
from ..extract.unresolved_links import unresolved_links
from ..net.client import FetchResponse, GuardedClient
from ..net.download import cap_text
from ..net.guard import SSRFGuard
from ..readers.local import LocalReader
from ..types import Document, ToolResult
from .page_text import EMPTY_HTML_NO_BROWSER_NOTE, Window, format_document

__all__ = ["OFFLINE_EMPTY_HTML_NOTE", "RAISE_CAP", "local_content_hint", "read_page"]

#: Body of an HTML page without readable text read offline: the reader is a person or a
#: script, not a model with a browser tool, so the advice names the CLI's browser.
OFFLINE_EMPTY_HTML_NOTE = (
    "[no readable text in this page's HTML; it is probably built by JavaScript: render it "
    "in a browser to read it, e.g. webresearch browse URL --do content]"
)


#: How an operator reads more of a local page than the cap (``download_cap_bytes``, in bytes).
RAISE_CAP = (
    "raise the limit: WEBRESEARCH_DOWNLOAD_CAP_BYTES=<bytes>, or download_cap_bytes in the "
    "settings file"
)


def local_content_hint(mime: str) -> str:
    """The next step for local data (a saved file, stdin) that is not text: it is already
    here, so unlike web_fetch's advice there is nothing to download and no URL to name.

    Args:
        mime: the sniffed MIME type (``image/png``; empty when unknown).
    """
    if mime.startswith("image/"):
        return "it is an image: look at it with webresearch image PATH (view_image)"
    if mime == "application/pdf":
        return "the PDF is already local (nothing to download): use a PDF or OCR tool on the file"
    return (
        "the data is already local (nothing to download): open it with a program for its "
        "format; fetch reads HTML, text, JSON, XML, CSV and PDF"
    )


async def read_page(
    data: bytes,
    url: str,
    *,
    content_type: str | None = None,
    offset: int = 0,
    max_bytes: int = DEFAULT_MAX_BYTES,
    query: str | None = None,
    settings: Settings | None = None,
    source: str | None = None,
) -> ToolResult:
    """web_fetch's result for ``data`` as if ``url`` had answered it, offline.

    Args:
        data: the page's bytes (HTML, text, JSON, PDF … — sniffed as web_fetch does).
        url: the page's address (``http``/``https``, or ``file:///`` for a saved file): the
            base of its relative links.
        content_type: the ``Content-Type`` it would have been served with (``None``: sniffed).
        offset: bytes of the text to skip.
        max_bytes: budget of the text shown, in bytes (1 – 131072; header lines and marker
            not counted, as in web_fetch).
        query: a question: the best sections by BM25 instead of the text from ``offset``.
        settings: for the download cap (``download_cap_bytes``; default 2 MiB: HTML and
            text past it are read as far as the cap, with a note; a binary is
            ``too_large``); with
            ``browser_backend = none`` an empty app shell's note suggests no browser.
        source: what ``data`` was read from, for the words about the cap (a file's path,
            ``stdin``; default: ``url``). Nothing was downloaded, so the note and the error
            speak of a limit on what is read and how to raise it, never of a download.
            ``data`` may stop one byte past the cap (a caller that reads no more).

    Returns:
        The same :class:`~webresearch.types.ToolResult` web_fetch gives (``meta`` with
        ``reader`` ``local``, ``status`` ``None``: nothing was fetched, ``cached`` false); a failure is a result with ``error``
        (``invalid_arguments``, ``too_large``, ``unsupported_content`` …), never raised.
    """
    try:
        if not url.lower().startswith(("http://", "https://", "file:///")):
            raise InvalidArguments(
                f"the page's URL must be http://, https:// or file:///, not {url[:80]!r}",
                hint="give the address the page was served from, e.g. --base-url https://example.org/page",
            )
        if not 1 <= max_bytes <= MAX_MAX_BYTES:
            raise InvalidArguments(f"max_bytes must be 1 to {MAX_MAX_BYTES}")
        cap = settings.download_cap_bytes if settings is not None else DEFAULT_DOWNLOAD_CAP_BYTES
        # as web_fetch: HTML and text over the cap are read as far as the cap, with a note;
        # a PDF, an image or another binary over it is too_large
        capped = len(data) > cap
        body = data[:cap] if capped else data
        if capped:
            _check_prefix_readable(body, content_type, source or url, cap)
        headers = httpx2.Headers({"content-type": content_type} if content_type else {})
        response = FetchResponse(
            requested_url=url,
            url=url,
            status=200,
            headers=headers,
            body=body,
            raw_bytes=len(data),
            capped=False,  # the cap's words are ours (local data): added below
        )
        # The local reader's own conversion; its client is never used (nothing is fetched).
        reader = LocalReader(GuardedClient(SSRFGuard(AddressPolicy())))
        browser_off = settings is not None and settings.browser_backend == "none"
        empty_note = EMPTY_HTML_NO_BROWSER_NOTE if browser_off else OFFLINE_EMPTY_HTML_NOTE

        def convert_and_cut() -> tuple[Document, str, Window]:  # CPU work: not on the loop
            # the reader's pool is in-process (its default): the conversion runs right here
            doc = asyncio.run(reader.convert(response))
            if capped:
                doc = _cut_at_the_cap(doc, source or url, cap)
            if url.lower().startswith("file:"):
                doc = _note_unresolved(doc, unresolved_links(body, content_type, url))
            shown, window = format_document(
                doc, offset, max_bytes, query, empty_html_note=empty_note
            )
            return doc, shown, window

        # a daemon thread: a stop signal does not wait for a minute-long conversion
        doc, shown, window = await in_daemon_thread(convert_and_cut, name="webresearch-convert")
    except UnsupportedContent as exc:  # web_fetch's advice is to download what is here
        exc.hint = local_content_hint(str(exc.details.get("mime") or ""))
        return ToolResult.failure(exc)
    except WebResearchError as exc:
        return ToolResult.failure(exc)
    meta: dict[str, object] = {k: v for k, v in doc.items() if k not in ("text", "markdown")}
    meta.update(window)
    meta["status"] = None  # nothing answered over HTTP: no status to report
    meta["cached"] = False
    meta["trust"] = "untrusted"
    return ToolResult(text=shown, meta=meta)


def _check_prefix_readable(body: bytes, content_type: str | None, source: str, cap: int) -> None:
    """Nothing when data over the cap can be read from its first ``cap`` bytes (HTML, text);
    else the error: a PDF needs the limit raised, other binaries are not read anyway.

    Raises:
        TooLarge: a PDF, an image or another binary over the cap (named as ``source``).
    """
    mime = sniff_mime(body, content_type)
    if reads_from_a_prefix(mime):
        return
    hint = RAISE_CAP if mime == "application/pdf" else local_content_hint(mime)
    raise TooLarge(
        f"{source} is larger than the {cap_text(cap)} limit on what is read of a page",
        hint=hint,
        cap_bytes=cap,
    )


def _cut_at_the_cap(doc: Document, source: str, cap: int) -> Document:
    """``doc`` read from the first ``cap`` bytes of larger data: marked so, with a note
    first saying how to read more."""
    shown = cap_text(cap)
    note = (
        f"{source} is larger than the {shown} limit on what is read of a page; only its "
        f"first {shown} were read and converted; to read more, {RAISE_CAP}"
    )
    return {**doc, "download_truncated": True, "notes": [note, *doc.get("notes", [])]}


def _note_unresolved(doc: Document, count: int) -> Document:
    """``doc`` of a saved file with a note on its ``count`` relative links and images that
    its ``file:///`` address cannot resolve (their targets are left out: the page's own
    address was not given; new-user test 16, M4); ``doc`` itself when there are none."""
    if count == 0:
        return doc
    what = "link or image" if count == 1 else "links and images"
    note = (
        f"{count} relative {what} could not be resolved: this file was read without the "
        "address it was served from, so their targets are left out; to keep them, give "
        "that address: --base-url https://…"
    )
    return {**doc, "notes": [*doc.get("notes", []), note]}
