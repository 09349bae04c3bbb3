"""Settings of the hosted page services: which page reader and screenshot service, and the
limits that apply to every one of them. A service's own options (key, base URL, headers)
are its options model's (``[reader.<id>]`` in the file, ``WEBRESEARCH_<ID>_<OPTION>``)."""

from __future__ import annotations

from pydantic import Field

from .defaults import (
    DEFAULT_READER_TIMEOUT_S,
    DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S,
    DEFAULT_SCREENSHOT_MAX_REDIRECTS,
)
from .section import Section

__all__ = ["HostedSettings"]


class HostedSettings(Section):
    """Page readers and screenshot services (built-ins and plugins, by id)."""

    reader: str = Field(
        "local",
        min_length=1,
        description=(
            "Who turns a page into text for web_fetch: local (our own pipeline), firecrawl "
            "(its scrape API), jina (Jina Reader) or a plugin's id. The SSRF guard checks "
            "the URL first."
        ),
    )
    screenshot_service: str = Field(
        "none",
        min_length=1,
        description=(
            "Screenshot service behind page_screenshot (and the browser's screenshots when "
            "the browser draws no pixels): none, firecrawl or a plugin's id."
        ),
    )
    reader_timeout_s: float = Field(
        DEFAULT_READER_TIMEOUT_S,
        gt=0,
        description="Seconds a reader or screenshot service may take for one page.",
    )
    screenshot_max_redirects: int = Field(
        DEFAULT_SCREENSHOT_MAX_REDIRECTS,
        ge=0,
        le=10,
        description="Redirects followed when downloading a screenshot the service gave by URL.",
    )
    screenshot_download_timeout_s: float = Field(
        DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S,
        gt=0,
        description="Seconds for downloading a screenshot the service gave by URL.",
    )
