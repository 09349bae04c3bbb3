"""HTML → markdown (placeholder; the real extraction lands from the extract branch)."""

from __future__ import annotations


def html_to_markdown(html: str, url: str) -> tuple[str, str]:
    """Return ``(title, markdown)`` for an HTML document fetched from ``url``."""
    import trafilatura

    return "", trafilatura.extract(html, output_format="markdown", url=url) or ""
