"""Plain data shared by every layer: JSON values, page documents, tool results, image blocks.

(No postponed annotations here: :class:`Document`'s ``NotRequired`` key must be seen at run
time, so that ``Document.__required_keys__`` is exact.)
"""

import base64
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from .errors import WebResearchError

__all__ = [
    "Document",
    "ImageBlock",
    "JSONObject",
    "JSONValue",
    "PageText",
    "RenderMode",
    "ToolResult",
]

#: Any value a JSON document can hold (tool arguments, journal details, cached entries).
JSONValue: TypeAlias = "str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None"
#: A JSON object: tool arguments after validation against a tool's schema.
JSONObject: TypeAlias = "dict[str, JSONValue]"

#: How a page's text was made: ``none`` (static HTML), ``browser`` (rendered by our browser),
#: ``service`` (rendered by a hosted page service).
RenderMode = Literal["none", "browser", "service"]


class PageText(TypedDict):
    """The part of a page every formatter needs (SPEC §1.1 header lines and body).

    Attributes:
        url: the final URL (secrets redacted).
        content_type: the effective MIME type, without parameters.
        title: the page title (redacted; "" when it has none).
        text: the page text (markdown for HTML; redacted).
        markdown: whether ``text`` is markdown (a cut then closes code fences).
        hidden_chars_removed: invisible characters already removed from the title and text
            by whoever made them (SPEC §1: Tag block, bidi controls, default-ignorable
            format characters); absent means none counted yet.
        notes: lines the model should read before the text (a ``note:`` header line each):
            the download was cut at the cap, the page redirects elsewhere by a meta
            refresh, the server's label contradicts the bytes (issue 21).
        hidden_chars_kept: letters and digits of text the HTML page hides from its reader
            that are in ``text`` — closed tab or accordion panels a control opens, an app
            shell's hidden server-rendered content (0 when none); the formatted text then
            says so in a ``note:`` line. Set by the local pipeline (``local`` reader,
            browser rendering); absent from a hosted reader's document and from documents
            cached before it existed.
        hidden_chars_invisible: how many of ``hidden_chars_kept`` the page draws so that no
            visitor sees them (in its background's colour, transparent, zero-sized, off the
            screen for screen readers) rather than in a closed panel or a block its scripts
            show later; the ``note:`` line tells the two apart. Absent when 0.
    """

    url: str
    content_type: str
    title: str
    text: str
    markdown: bool
    hidden_chars_removed: NotRequired[int]
    notes: NotRequired[list[str]]
    hidden_chars_kept: NotRequired[int]
    hidden_chars_invisible: NotRequired[int]


class Document(PageText):
    """One page as a page reader made it: what web_fetch caches, formats and reports.

    Every reader (the local pipeline, a hosted service, a plugin) returns exactly these keys;
    JSON-serialisable, so a shared cache stores it as it is.

    Attributes:
        requested_url: the URL asked for (redacted).
        final_url: the URL after redirects (redacted; equals ``url``).
        redirects: ``[[status, url], ...]`` for each redirect hop (URLs redacted).
        status: the page's HTTP status.
        declared_content_type: the Content-Type as sent (or as a service reports it).
        extractor: what made the text (``main-content``, ``passthrough``, ``pdf``, a
            service id …).
        fallback: why an extraction fallback was taken, else ``None``.
        encoding: the text encoding used (WHATWG name), ``None`` for PDF.
        encoding_source: where the encoding came from (``bom``, ``header``, ``service`` …).
        fetched_at: ISO 8601 time of the request.
        sha256: hex sha256 of the body (the local reader) or of the service's text.
        bytes_downloaded: bytes received for the body (or the service's answer).
        body_bytes: bytes of the decoded body (or of the text).
        download_truncated: the download cap cut the body (HTML and text are then
            converted as far as they arrived; a note says so).
        content_encoding_ignored: a declared Content-Encoding was wrong; the body was kept.
        render: ``none``, ``browser`` or ``service`` (:data:`RenderMode`).
        reader: the reader id (``local``, ``firecrawl``, ``jina`` or a plugin's).
        render_error: the error code when rendering in the browser failed (only then).
    """

    requested_url: str
    final_url: str
    redirects: list[list[int | str]]
    status: int
    declared_content_type: str | None
    extractor: str | None
    fallback: str | None
    encoding: str | None
    encoding_source: str | None
    fetched_at: str
    sha256: str
    bytes_downloaded: int
    body_bytes: int
    download_truncated: bool
    content_encoding_ignored: bool
    render: RenderMode
    reader: str
    render_error: NotRequired[str]


@dataclass(frozen=True, slots=True)
class ImageBlock:
    """An image prepared for a vision model.

    Attributes:
        data: the encoded image bytes (PNG, JPEG or WebP; ``mime`` always matches them).
        mime: ``image/png``, ``image/jpeg`` or ``image/webp``.
        meta: width/height (px, as displayed), bytes, sha256 prefix, source format, etc.
    """

    data: bytes
    mime: str
    meta: dict[str, Any] = field(default_factory=dict)

    def base64(self) -> str:
        """The bytes as standard base64 text (for JSON message formats)."""
        return base64.b64encode(self.data).decode("ascii")

    def describe(self) -> dict[str, Any]:
        """Metadata only, never the bytes: what the journal and logs may hold."""
        return {"mime": self.mime, **self.meta}


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The outcome of one tool call.

    Attributes:
        text: what the model reads (already framed and redacted); for an error, the error's
            model-facing text.
        images: image blocks for the model (empty for text-only tools).
        meta: provenance and details for programs (JSON-serialisable; never image bytes).
        error: the error when the call failed, else ``None``.
    """

    text: str
    images: tuple[ImageBlock, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    error: WebResearchError | None = None

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return self.error is None

    @classmethod
    def failure(cls, error: WebResearchError, **meta: Any) -> "ToolResult":
        """A failed result carrying ``error`` and its model-facing text."""
        return cls(text=error.to_text(), meta={"error": error.to_dict(), **meta}, error=error)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable view (images as metadata only)."""
        return {
            "ok": self.ok,
            "text": self.text,
            "images": [img.describe() for img in self.images],
            "meta": self.meta,
            "error": self.error.to_dict() if self.error else None,
        }
