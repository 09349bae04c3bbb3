"""MIME dispatch (placeholder; replaced by the extract branch)."""

from __future__ import annotations

from dataclasses import dataclass

from .html import html_to_markdown


@dataclass(frozen=True, slots=True)
class Converted:
    """Converted text and how it was made."""

    title: str
    text: str
    mime: str
    extractor: str
    fallback: str | None
    encoding: str | None
    encoding_source: str | None
    markdown: bool


def convert(body: bytes, content_type: str | None, url: str) -> Converted:
    """Convert a body to text for a model."""
    mime = (content_type or "text/html").split(";")[0].strip().lower()
    text = body.decode("utf-8", "replace")
    if "html" in mime:
        title, md = html_to_markdown(text, url)
        return Converted(title, md, mime, "main-content", None, "utf-8", "default", True)
    return Converted("", text, mime, "passthrough", None, "utf-8", "default", False)
