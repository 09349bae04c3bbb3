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
issue 8). The price of a credit is the ``credit_price`` option
(``WEBRESEARCH_FIRECRAWL_CREDIT_PRICE``); the options are Firecrawl's one account's
(:mod:`webresearch.hosted.firecrawl`), shared with its search provider.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any, ClassVar, Self

import httpx2

from ..config import ProviderOptions, Settings, option_env_var
from ..errors import FetchError
from ..hosted.firecrawl import FIRECRAWL_ID, FirecrawlAccess, FirecrawlOptions
from ..net.guard import SSRFGuard
from ..net.http_status import WallClock, error_for_status, utc_now
from ..redact import redact_text, redact_url
from ..runtime.cpu_pool import CPUPool
from ..types import Document
from .base import Capture, OnSent, ReaderContext, check_before_handing_over, make_document
from .service import ServiceEndpoint, decode_object, reported_url

__all__ = [
    "CREDITS_PER_PAGE",
    "FirecrawlReader",
    "FirecrawlScraper",
    "FirecrawlScreenshots",
    "FirecrawlService",
    "firecrawl_scraper",
    "page_price",
    "scrape_answer",
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
        timeout_s: how long Firecrawl may take for one page (seconds; its ``timeout``), and
            the budget of reading a large answer.
        now: wall clock (provenance timestamps).
        cpu: where a large answer is parsed (default: in-process).
    """

    def __init__(
        self,
        endpoint: ServiceEndpoint,
        guard: SSRFGuard,
        *,
        timeout_s: float,
        now: WallClock = utc_now,
        cpu: CPUPool | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.guard = guard
        self.timeout_s = timeout_s
        self.now = now
        self.cpu = cpu if cpu is not None else CPUPool(workers=0)

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
    ) -> tuple[Document, str | None]:
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
        # Parsing, cleaning and hashing an answer of up to 4 MiB: off the event loop.
        return await self.cpu.run_large(
            len(answer.body),
            scrape_answer,
            answer.body,
            answer.content_type,
            url,
            fetched_at,
            timeout_s=self.timeout_s,
            what=f"reading {NAME}'s answer",
        )


def scrape_answer(
    body: bytes, content_type: str, url: str, fetched_at: str
) -> tuple[Document, str | None]:
    """A scrape answer → (document, screenshot string or ``None``); pure.

    Raises:
        FetchError: not the documented answer; HTTPStatusError: the site's error status.
    """
    data = decode_object(body, content_type, service=NAME)
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
    final = reported_url(_first_text(meta.get("url")) or _first_text(meta.get("sourceURL")), url)
    shown = redact_url(final)
    status = meta.get("statusCode")
    status = status if isinstance(status, int) and not isinstance(status, bool) else 200
    if status >= 400:
        raise error_for_status(status, shown, reader=FIRECRAWL_ID)
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
        reader=FIRECRAWL_ID,
        url=shown,
        requested_url=requested,
        status=status,
        content_type=mime,
        declared_content_type=declared,
        title=redact_text(_first_text(meta.get("title"))),
        text=redact_text(text),
        fetched_at=fetched_at,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        bytes_downloaded=len(body),
    )
    shot = page.get("screenshot")
    return document, shot if isinstance(shot, str) and shot else None


def page_price(options: FirecrawlOptions) -> float:
    """Price of one Firecrawl page or screenshot (1 credit) in the settings' units."""
    return CREDITS_PER_PAGE * options.credit_price


class FirecrawlService:
    """One Firecrawl account behind a tool-facing interface (the page reader, the screenshot
    service): built from the Firecrawl options, 1 credit per page.

    Args:
        scraper: the account's scraper.
        price: price of one page or screenshot in the settings' price units.
    """

    id: ClassVar[str] = FIRECRAWL_ID
    name: ClassVar[str] = NAME
    options_model: ClassVar[type[ProviderOptions]] = FirecrawlOptions

    def __init__(self, scraper: FirecrawlScraper, *, price: float = 0.0) -> None:
        self.scraper = scraper
        self.price = price

    @classmethod
    def from_context(cls, context: ReaderContext) -> Self:
        """Built from the Firecrawl options.

        Raises:
            ConfigurationError: the hosted API without a key, or a bad base URL.
        """
        scraper = firecrawl_scraper(
            context.settings, context.guard, now=context.now, cpu=context.cpu
        )
        options = context.settings.options(FIRECRAWL_ID, FirecrawlOptions)
        return cls(scraper, price=page_price(options))

    async def aclose(self) -> None:
        await self.scraper.aclose()


class FirecrawlReader(FirecrawlService):
    """web_fetch's page reader over Firecrawl (1 credit per page)."""

    async def read(self, url: str, on_sent: OnSent | None = None) -> Document:
        document, _ = await self.scraper.scrape(url, on_sent=on_sent)
        return document


class FirecrawlScreenshots(FirecrawlService):
    """page_screenshot's service over Firecrawl: screenshot and markdown in one request."""

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
    now: WallClock = utc_now,
    transport: httpx2.AsyncBaseTransport | None = None,
    cpu: CPUPool | None = None,
) -> FirecrawlScraper:
    """A :class:`FirecrawlScraper` from the Firecrawl options and ``reader_timeout_s``.

    Raises:
        ConfigurationError: the hosted API without a key, or a base URL that is not http(s)
            (the message names the setting, never its value).
    """
    options = settings.options(FIRECRAWL_ID, FirecrawlOptions)
    access = FirecrawlAccess.of(options, name=NAME, hint="tell the operator")
    endpoint = ServiceEndpoint(
        access.base_url,
        service=NAME,
        service_id=FIRECRAWL_ID,
        key_setting=option_env_var(FIRECRAWL_ID, "api_key"),
        base_setting=option_env_var(FIRECRAWL_ID, "base_url"),
        timeout_s=settings.reader_timeout_s
        + min(_DEADLINE_MARGIN_S, settings.reader_timeout_s / 4),
        headers=access.headers,
        secrets=access.secrets,
        user_agent=settings.user_agent,
        transport=transport,
        now=now,
    )
    return FirecrawlScraper(endpoint, guard, timeout_s=settings.reader_timeout_s, now=now, cpu=cpu)
