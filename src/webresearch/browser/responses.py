"""What a document response is (pure, over the library's response object): a page the
browser shows, a file it would download, or the guarded proxy's own refusal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.async_api import Response

__all__ = ["file_type", "is_page_type", "proxy_failed", "refused_by_proxy"]


def is_page_type(content_type: str) -> bool:
    """True for a media type a browser shows as a page (HTML, XML, JSON, text, images);
    False for files it would download or hand to a plugin (PDF, archives, media, binaries)."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if not mime:
        return True  # sniffed by the browser; an unlabelled page is still a page
    major, _, minor = mime.partition("/")
    return (
        major in ("text", "image")
        or minor in ("html", "xhtml+xml", "xml", "json")
        or minor.endswith(("+xml", "+json"))
    )


def file_type(response: Response | None) -> str | None:
    """The media type of a document response that is a file (an attachment, or a type no
    browser shows as a page), else ``None``."""
    if response is None:
        return None
    headers = response.headers
    disposition = headers.get("content-disposition", "").lower()
    content_type = headers.get("content-type", "")
    mime = content_type.split(";", 1)[0].strip().lower()
    if disposition.startswith("attachment"):
        return mime or "an attachment"
    return None if is_page_type(content_type) else mime


def refused_by_proxy(response: Response) -> bool:
    """True when a document response is the guarded proxy's own refusal (its header)."""
    return response.headers.get("x-webresearch-proxy") == "refused"


def proxy_failed(response: Response) -> bool:
    """True when a document response is the guarded proxy's own error answer (its header:
    the target's name did not resolve, or it could not be connected to): a 502 of ours, no
    answer of the site."""
    return response.headers.get("x-webresearch-proxy") == "error"
