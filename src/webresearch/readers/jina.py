"""Jina Reader as a page reader: ``GET {base}/<url>`` (https://r.jina.ai/<url>).

Request (Jina Reader API): the page URL appended to the base, ``Accept: application/json``
(JSON response mode), ``X-Return-Format: markdown``, ``X-Timeout: <seconds>``, and
``Authorization: Bearer <key>`` when a key is configured (without one the service works
with a lower rate limit).

Answer in JSON mode: ``{"code": 200, "status": 20000, "data": {"title", "description",
"url", "content", "publishedTime", "warning", "usage": {"tokens"}}}``; ``warning`` carries
the site's error status ("Target URL returned error 404: Not Found"). A proxy or an older
instance may answer in the plain markdown mode instead: ``Title: …``, ``URL Source: …``,
optional ``Warning: …`` lines, then ``Markdown Content:`` and the text — both are read.
Errors: ``{"code", "name", "status", "message", "readableMessage"}`` with the HTTP status
(401, 402 InsufficientBalance, 422 target failures, 429, 451 blocked domain, 5xx).

Options (``[reader.jina]``, ``WEBRESEARCH_JINA_*``): ``api_key`` and ``base_url`` (a proxy or
an instance; unset: https://r.jina.ai). Cost: the ``prices["jina"]`` setting per page (Jina
bills tokens; set the average).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, ClassVar

import httpx2
from pydantic import SecretStr

from ..config import HeaderSecret, ProviderOptions, Settings, option_env_var
from ..errors import FetchError
from ..hosted.endpoint import bearer, check_base_url
from ..net.guard import SSRFGuard
from ..net.http_status import WallClock, error_for_status, looks_like_html, utc_now
from ..redact import redact_text, redact_url
from ..runtime.cpu_pool import CPUPool
from ..types import Document
from .base import OnSent, ReaderContext, check_before_handing_over, make_document
from .service import ServiceEndpoint, decode_object, reported_url

__all__ = [
    "DEFAULT_JINA_BASE_URL",
    "JinaOptions",
    "JinaReader",
    "jina_reader",
    "parse_text_answer",
    "read_answer",
]

NAME = "Jina Reader"
JINA_ID = "jina"
#: Public origin of Jina Reader (a proxy or an instance is set instead).
DEFAULT_JINA_BASE_URL = "https://r.jina.ai"
#: Seconds our deadline exceeds ``X-Timeout`` (at most a quarter of it): Jina answers first.
_DEADLINE_MARGIN_S = 5.0
_SITE_STATUS = re.compile(r"returned error (\d{3})")
_TEXT_FIELDS = {"title": "title", "url source": "url", "warning": "warning"}


def parse_text_answer(text: str) -> dict[str, str]:
    """The fields of a plain-mode answer: ``title``, ``url``, ``warning``, ``content``.

    The header lines (``Title:``, ``URL Source:``, ``Warning:``, ``Published Time:`` …) come
    before ``Markdown Content:``; everything after that line is the content. An answer
    without the marker is content only.
    """
    head, marker, content = text.partition("Markdown Content:")
    if not marker:
        return {"content": text.strip("\n")}
    out: dict[str, str] = {"content": content.lstrip("\n").rstrip("\n")}
    for line in head.splitlines():
        name, sep, value = line.partition(":")
        key = _TEXT_FIELDS.get(name.strip().lower())
        if sep and key and key not in out:
            out[key] = value.strip()
    return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


class JinaOptions(ProviderOptions):
    """Jina Reader's options.

    Attributes:
        api_key: the API key (optional: without one the rate limit is lower).
        base_url: a Jina Reader proxy or instance; unset: https://r.jina.ai (a secret: it
            may be an internal address).
    """

    api_key: HeaderSecret = None
    base_url: SecretStr | None = None


class JinaReader:
    """web_fetch's page reader over Jina Reader.

    Args:
        endpoint: the service endpoint (key header already set).
        guard: the SSRF guard every URL passes before it is handed over.
        price: price of one page (settings' price units).
        now: wall clock (provenance timestamps).
        timeout_s: the budget of reading a large answer (seconds).
        cpu: where a large answer is parsed (default: in-process).
    """

    id: ClassVar[str] = JINA_ID
    name: ClassVar[str] = NAME
    options_model: ClassVar[type[ProviderOptions]] = JinaOptions

    def __init__(
        self,
        endpoint: ServiceEndpoint,
        guard: SSRFGuard,
        *,
        price: float = 0.0,
        now: WallClock = utc_now,
        timeout_s: float = 30.0,
        cpu: CPUPool | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.guard = guard
        self.price = price
        self.now = now
        self.timeout_s = timeout_s
        self.cpu = cpu if cpu is not None else CPUPool(workers=0)

    @classmethod
    def from_context(cls, context: ReaderContext) -> JinaReader:
        """The reader from the Jina options (see :func:`jina_reader`)."""
        return jina_reader(context.settings, context.guard, now=context.now, cpu=context.cpu)

    async def aclose(self) -> None:
        await self.endpoint.aclose()

    async def read(self, url: str, on_sent: OnSent | None = None) -> Document:
        """The document of ``url`` (see :class:`~webresearch.readers.base.PageReader`)."""
        await check_before_handing_over(self.guard, url)
        fetched_at = self.now().isoformat(timespec="seconds")
        answer = await self.endpoint.send("GET", "/" + url, on_sent=on_sent)
        # Parsing, cleaning and hashing an answer of up to 4 MiB: off the event loop.
        return await self.cpu.run_large(
            len(answer.body),
            read_answer,
            answer.body,
            answer.content_type,
            url,
            fetched_at,
            timeout_s=self.timeout_s,
            what=f"reading {NAME}'s answer",
        )


def read_answer(body: bytes, content_type: str, url: str, fetched_at: str) -> Document:
    """A Jina Reader answer (JSON or plain mode) → the document; pure.

    Raises:
        FetchError: not the documented answer; HTTPStatusError: the site's error status.
    """
    ctype = content_type.split(";", 1)[0].strip().lower()
    if ctype == "application/json" or (not ctype and body.lstrip()[:1] == b"{"):
        data = decode_object(body, content_type, service=NAME)
        page = data.get("data")
        if not isinstance(page, dict):
            raise FetchError(
                f"{NAME} answered without a 'data' object (not the documented format)",
                hint="try again later or use another tool",
                reason="shape",
                request_sent=True,
            )
        fields = {k: _text(page.get(k)) for k in ("title", "url", "warning", "content")}
    elif looks_like_html(content_type, body):
        raise FetchError(
            f"{NAME} answered with an HTML page instead of the page text",
            hint="the operator must check the service's base URL; try another tool",
            reason="html",
            request_sent=True,
        )
    else:
        fields = parse_text_answer(body.decode("utf-8", "replace"))
    final = reported_url(fields.get("url", ""), url)
    shown = redact_url(final)
    site = _SITE_STATUS.search(fields.get("warning", ""))
    status = int(site.group(1)) if site else 200
    if status >= 400:
        raise error_for_status(status, shown, reader=JINA_ID)
    text = fields.get("content", "")
    return make_document(
        reader=JINA_ID,
        url=shown,
        requested_url=redact_url(url),
        status=status,
        content_type="text/html",
        title=redact_text(fields.get("title", "")),
        text=redact_text(text),
        fetched_at=fetched_at,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        bytes_downloaded=len(body),
    )


def jina_reader(
    settings: Settings,
    guard: SSRFGuard,
    *,
    now: WallClock = utc_now,
    transport: httpx2.AsyncBaseTransport | None = None,
    cpu: CPUPool | None = None,
) -> JinaReader:
    """A :class:`JinaReader` from the Jina options (key optional) and ``reader_timeout_s``.

    Raises:
        ConfigurationError: a base URL that is not http(s) (names the setting only).
    """
    options = settings.options(JINA_ID, JinaOptions)
    key = options.api_key.get_secret_value().strip() if options.api_key else ""
    configured = options.base_url.get_secret_value().strip() if options.base_url else ""
    base = check_base_url(
        configured or DEFAULT_JINA_BASE_URL,
        option_env_var(JINA_ID, "base_url"),
        example=DEFAULT_JINA_BASE_URL,
    )
    headers = {
        "X-Return-Format": "markdown",
        "X-Timeout": str(max(1, round(settings.reader_timeout_s))),
        **bearer(key),
    }
    endpoint = ServiceEndpoint(
        base,
        service=NAME,
        service_id=JINA_ID,
        key_setting=option_env_var(JINA_ID, "api_key"),
        base_setting=option_env_var(JINA_ID, "base_url"),
        timeout_s=settings.reader_timeout_s
        + min(_DEADLINE_MARGIN_S, settings.reader_timeout_s / 4),
        headers=headers,
        secrets=tuple(v for v in (key, headers.get("Authorization", "")) if v),
        user_agent=settings.user_agent,
        transport=transport,
        now=now,
    )
    return JinaReader(
        endpoint,
        guard,
        price=float(settings.prices.get(JINA_ID, 0.0)),
        now=now,
        timeout_s=settings.reader_timeout_s,
        cpu=cpu,
    )
