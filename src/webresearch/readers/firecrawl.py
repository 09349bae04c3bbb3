"""Firecrawl as a page reader and a screenshot service: ``POST {base}/v2/scrape``.

Request (Firecrawl v2 API reference, "Scrape"): ``{"url", "formats", "onlyMainContent":
true, "timeout": <ms>}`` with ``Authorization: Bearer <key>`` (optional for a self-hosted
instance) plus any operator headers (a proxy token). ``formats`` is ``["markdown"]`` for
reading and ``["markdown", {"type": "screenshot", "fullPage": …}]`` for a screenshot: the
page text comes with the screenshot in the same request, for the same credit.

Answer: ``{"success": true, "data": {"markdown", "screenshot", "metadata": {"title",
"sourceURL", "url", "statusCode", "contentType", "error", …}}}``. ``metadata.statusCode`` is
the *site's* status (a 404 page is a successful scrape of a 404); ``screenshot`` is a URL on
Firecrawl's storage (hosted API) or a ``data:image/…;base64,`` URI (self-hosted without
storage). Errors are ``{"success": false, "error": "…"}`` with the HTTP status (Firecrawl's
"Errors" reference: 400, 401, 402, 403, 408, 429, 5xx) — classified in :mod:`.service`.

Cost: 1 credit per page, screenshot included (Firecrawl's pricing; the seed notes of
issue 8). The price of a credit is the ``firecrawl_credit_price`` setting.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, ClassVar

import httpx2

from ..config import DEFAULT_FIRECRAWL_BASE_URL, Settings
from ..errors import ConfigurationError, FetchError
from ..net.guard import SSRFGuard
from ..net.http_status import error_for_status
from ..redact import redact_text, redact_url
from ..search.base import key_env_var
from .base import Capture, OnSent, check_before_handing_over, make_document
from .service import ServiceEndpoint, decode_object, reported_url, service_base_url

__all__ = [
    "CREDITS_PER_PAGE",
    "FirecrawlReader",
    "FirecrawlScraper",
    "FirecrawlScreenshots",
    "firecrawl_scraper",
]

#: Credits of one scrape, with or without a screenshot (Firecrawl pricing).
CREDITS_PER_PAGE = 1
#: Seconds our deadline exceeds the one we ask of Firecrawl (at most a quarter of it), so
#: that its own timeout answer (HTTP 408, a clear message) arrives before ours cuts in.
_DEADLINE_MARGIN_S = 5.0
NAME = "Firecrawl"


def _first_text(value: Any) -> str:
    """A metadata field as text (v2 metadata values may be a string or a list of strings)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str)), "")
    return value if isinstance(value, str) else ""


class FirecrawlScraper:
    """One Firecrawl API (hosted or self-hosted): scrape a URL into markdown (+ screenshot).

    Args:
        endpoint: the service endpoint (key and proxy headers already set).
        guard: the SSRF guard every URL passes before it is handed over.
        timeout_s: how long Firecrawl may take for one page (seconds; its ``timeout``).
        now: wall clock (provenance timestamps).
    """

    def __init__(
        self,
        endpoint: ServiceEndpoint,
        guard: SSRFGuard,
        *,
        timeout_s: float,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.endpoint = endpoint
        self.guard = guard
        self.timeout_s = timeout_s
        self.now = now

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self.endpoint.aclose()

    def payload(self, url: str, screenshot: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON body of one scrape."""
        formats: list[Any] = ["markdown"]
        if screenshot is not None:
            formats.append({"type": "screenshot", **screenshot})
        return {
            "url": url,
            "formats": formats,
            "onlyMainContent": True,
            "timeout": int(self.timeout_s * 1000),
        }

    async def scrape(
        self, url: str, *, screenshot: dict[str, Any] | None = None, on_sent: OnSent | None = None
    ) -> tuple[dict[str, Any], str | None]:
        """Scrape ``url``: (document, screenshot string or ``None``).

        Raises:
            BlockedAddress, InvalidArguments, NetworkError: the URL fails the SSRF checks
                (nothing is sent).
            HTTPStatusError: the site's error status, or the service's.
            Timeout, NetworkError, FetchError: the service failed or answered unreadably.
        """
        await check_before_handing_over(self.guard, url)
        fetched_at = self.now().isoformat(timespec="seconds")
        answer = await self.endpoint.send(
            "POST", "/v2/scrape", json_body=self.payload(url, screenshot), on_sent=on_sent
        )
        data = decode_object(answer.body, answer.content_type, service=NAME)
        if data.get("success") is not True or not isinstance(data.get("data"), dict):
            raise FetchError(
                f"{NAME} reported a failed scrape without an error status",
                hint="try again later or use another tool",
                reason="shape",
                request_sent=True,
            )
        page: dict[str, Any] = data["data"]
        meta = page.get("metadata") if isinstance(page.get("metadata"), dict) else {}
        assert isinstance(meta, dict)
        requested = redact_url(url)
        final = reported_url(
            _first_text(meta.get("url")) or _first_text(meta.get("sourceURL")), url
        )
        shown = redact_url(final)
        status = meta.get("statusCode")
        status = status if isinstance(status, int) and not isinstance(status, bool) else 200
        if status >= 400:
            raise error_for_status(status, shown, reader="firecrawl")
        markdown = page.get("markdown")
        if not isinstance(markdown, str):  # an empty page is "", a missing field is not a page
            raise FetchError(
                f"{NAME} answered without the page text (no markdown)",
                hint="try again later or use another tool",
                reason="shape",
                request_sent=True,
            )
        text = markdown
        declared = _first_text(meta.get("contentType")) or None
        mime = (declared or "text/html").split(";", 1)[0].strip().lower() or "text/html"
        document = make_document(
            reader="firecrawl",
            url=shown,
            requested_url=requested,
            status=status,
            content_type=mime,
            declared_content_type=declared,
            title=redact_text(_first_text(meta.get("title"))),
            text=redact_text(text),
            fetched_at=fetched_at,
            sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
            bytes_downloaded=len(answer.body),
        )
        shot = page.get("screenshot")
        return document, shot if isinstance(shot, str) and shot else None


class FirecrawlReader:
    """web_fetch's page reader over Firecrawl (1 credit per page)."""

    id: ClassVar[str] = "firecrawl"
    name: ClassVar[str] = NAME

    def __init__(self, scraper: FirecrawlScraper, *, price: float = 0.0) -> None:
        self.scraper = scraper
        self.price = price

    async def read(self, url: str, on_sent: OnSent | None = None) -> dict[str, Any]:
        document, _ = await self.scraper.scrape(url, on_sent=on_sent)
        return document

    async def aclose(self) -> None:
        await self.scraper.aclose()


class FirecrawlScreenshots:
    """page_screenshot's service over Firecrawl: screenshot and markdown in one request."""

    id: ClassVar[str] = "firecrawl"
    name: ClassVar[str] = NAME

    def __init__(self, scraper: FirecrawlScraper, *, price: float = 0.0) -> None:
        self.scraper = scraper
        self.price = price

    async def capture(
        self, url: str, *, full_page: bool = False, on_sent: OnSent | None = None
    ) -> Capture:
        document, shot = await self.scraper.scrape(
            url, screenshot={"fullPage": full_page}, on_sent=on_sent
        )
        if shot is None:
            return Capture(document)
        if shot.startswith("data:"):
            return Capture(document, image=_data_uri_bytes(shot))
        return Capture(document, image_url=shot)

    async def aclose(self) -> None:
        await self.scraper.aclose()


def _data_uri_bytes(uri: str) -> bytes | None:
    """The bytes of a ``data:…;base64,`` URI, or ``None`` when it is not readable base64."""
    head, sep, payload = uri.partition(",")
    if not sep or ";base64" not in head.lower():
        return None
    try:
        return base64.b64decode("".join(payload.split()), validate=True) or None
    except (binascii.Error, ValueError):
        return None


def firecrawl_scraper(
    settings: Settings,
    guard: SSRFGuard,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    transport: httpx2.AsyncBaseTransport | None = None,
) -> FirecrawlScraper:
    """A :class:`FirecrawlScraper` from the settings.

    The hosted API needs ``firecrawl_api_key``; a self-hosted instance
    (``firecrawl_base_url``) may run without one.

    Raises:
        ConfigurationError: the hosted API without a key, or a base URL that is not http(s)
            (the message names the setting, never its value).
    """
    key = (
        settings.firecrawl_api_key.get_secret_value().strip() if settings.firecrawl_api_key else ""
    )
    configured = (
        settings.firecrawl_base_url.get_secret_value().strip()
        if settings.firecrawl_base_url
        else ""
    )
    if not configured and not key:
        raise ConfigurationError(
            f"{NAME} needs an API key: set {key_env_var('firecrawl_api_key')} "
            f"(or {key_env_var('firecrawl_base_url')} for a self-hosted instance)",
            hint="tell the operator",
            setting="firecrawl_api_key",
        )
    base = service_base_url(
        configured or DEFAULT_FIRECRAWL_BASE_URL, key_env_var("firecrawl_base_url")
    )
    headers = {name: value.get_secret_value() for name, value in settings.firecrawl_headers.items()}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    endpoint = ServiceEndpoint(
        base,
        service=NAME,
        service_id="firecrawl",
        key_setting=key_env_var("firecrawl_api_key"),
        base_setting=key_env_var("firecrawl_base_url"),
        timeout_s=settings.reader_timeout_s
        + min(_DEADLINE_MARGIN_S, settings.reader_timeout_s / 4),
        headers=headers,
        secrets=tuple(v for v in (key, *headers.values()) if v),
        user_agent=settings.user_agent,
        transport=transport,
    )
    return FirecrawlScraper(endpoint, guard, timeout_s=settings.reader_timeout_s, now=now)
