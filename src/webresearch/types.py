"""Plain data shared by every layer: tool results and image blocks."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from .errors import WebResearchError

__all__ = ["ImageBlock", "ToolResult"]


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
    def failure(cls, error: WebResearchError, **meta: Any) -> ToolResult:
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
