"""The local page reader: our own pipeline (the default ``reader``).

Guarded GET (SSRF guard on every hop, ≤ 5 redirects, 2 MiB decoded cap, timeouts) →
challenge check → status check → :func:`webresearch.extract.dispatch.convert` in the CPU
worker pool (off the event loop). One time budget, ``request_timeout_s``, covers the
download *and* the conversion. Nothing is paid: ``price`` is 0.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from ..access import AccessPolicy
from ..config import ProviderOptions
from ..errors import AntiBotChallenge
from ..extract.challenge import is_challenge_page
from ..extract.dispatch import Converted, convert
from ..net.client import FetchResponse, GuardedClient
from ..net.http_status import WallClock, status_error, utc_now
from ..redact import redact_text, redact_url
from ..runtime.cpu_pool import CPUPool
from ..types import Document
from .base import NoOptions, OnSent, ReaderContext

__all__ = ["Converter", "LocalReader"]

#: ``convert(body, content_type, url)``: a picklable top-level function (it runs in a worker).
Converter = Callable[[bytes, str | None, str], Converted]


class LocalReader:
    """web_fetch's own pipeline as a :class:`~webresearch.readers.base.PageReader`.

    Args:
        client: the guarded client (the only way to fetch a model-chosen URL).
        now: wall clock (provenance timestamps).
        cpu: the worker pool conversions run in (default: in-process).
        converter: the conversion (default :func:`~webresearch.extract.dispatch.convert`;
            tests pass another top-level function).
        access: the per-URL gates applied to every hop (domain policy, robots.txt).
    """

    id: ClassVar[str] = "local"
    name: ClassVar[str] = "the local reader"
    options_model: ClassVar[type[ProviderOptions]] = NoOptions

    def __init__(
        self,
        client: GuardedClient,
        now: WallClock = utc_now,
        access: AccessPolicy | None = None,
        *,
        cpu: CPUPool | None = None,
        converter: Converter = convert,
    ) -> None:
        self.client = client
        self.now = now
        self.access = access
        self.cpu = cpu if cpu is not None else CPUPool(workers=0)
        self.converter = converter
        self.price = 0.0

    @classmethod
    def from_context(cls, context: ReaderContext) -> LocalReader:
        """The local pipeline over the services' guarded client, access gates and CPU pool."""
        return cls(context.client, context.now, context.access, cpu=context.cpu)

    async def read(self, url: str, on_sent: OnSent | None = None) -> Document:
        """The document of ``url``.

        Raises:
            InvalidArguments, BlockedAddress, TooManyRedirects, TooLarge, Timeout,
            NetworkError, TLSError, HTTPStatusError, AntiBotChallenge, UnsupportedContent.
        """
        _response, document = await self.fetch(url)
        return document

    async def fetch(self, url: str) -> tuple[FetchResponse, Document]:
        """The response and its document (web_fetch's renderer decides from the response
        whether an app-shell page needs the browser).

        The client's ``request_timeout_s`` is the budget of the download and the conversion
        together: a page that takes too long to convert is a ``timeout`` too.

        Raises:
            as :meth:`read`.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.client.request_timeout_s
        self.cpu.warm()  # the workers start during the download, not inside the budget left
        gate = self.access.hop_gate if self.access is not None else None
        response = await self.client.get(url, gate=gate)
        return response, await self.convert(response, timeout_s=deadline - loop.time())

    async def aclose(self) -> None:
        """Nothing to release (the guarded client and the pool belong to the services)."""

    async def convert(self, response: FetchResponse, *, timeout_s: float | None = None) -> Document:
        """The document of a fetched response (challenge and status checked first).

        Args:
            response: the fetched response.
            timeout_s: seconds left for the conversion (``None``: no limit).

        Raises:
            AntiBotChallenge, HTTPStatusError, UnsupportedContent; Timeout: the conversion
            did not finish in time; InternalError: its worker process died.
        """
        shown = redact_url(response.url)
        content_type = response.content_type
        head = response.body[:65536].decode("utf-8", "replace")
        challenge = is_challenge_page(response.status, dict(response.headers), head)
        if challenge:
            raise AntiBotChallenge(
                f"{shown} answered with an anti-bot challenge ({challenge}), not the page",
                hint="the site blocks automated clients; try the browser tool or another source",
                status=response.status,
            )
        if response.status >= 400:
            raise status_error(response, shown, now=self.now())
        converted, digest = await asyncio.gather(
            self.cpu.run(
                self.converter,
                response.body,
                content_type,
                response.url,
                timeout_s=timeout_s,
                what=f"converting {shown}",
            ),
            self.cpu.sha256_hex(response.body),
        )
        # Secrets in URLs inside the text (links, JSON) are redacted before the window is
        # cut, so byte offsets refer to what the model sees.
        text = redact_text(converted.text)
        document: Document = {
            "url": shown,
            "requested_url": redact_url(response.requested_url),
            "final_url": shown,
            "redirects": [[status, redact_url(u)] for status, u in response.redirects],
            "status": response.status,
            "content_type": converted.mime,
            "declared_content_type": content_type,
            "title": redact_text(converted.title),
            "text": text,
            "markdown": converted.markdown,
            "extractor": converted.extractor,
            "fallback": converted.fallback,
            "encoding": converted.encoding,
            "encoding_source": converted.encoding_source,
            "fetched_at": self.now().isoformat(timespec="seconds"),
            "sha256": digest,
            "bytes_downloaded": response.raw_bytes,
            "body_bytes": len(response.body),
            "download_capped": response.capped,
            "content_encoding_ignored": not response.decoded,
            "render": "none",
            "reader": "local",
            "hidden_chars_removed": converted.hidden_chars_removed,
        }
        return document
