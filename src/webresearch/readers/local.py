"""The local page reader: our own pipeline (the default ``reader``).

Guarded GET (SSRF guard on every hop, ≤ 5 redirects, 2 MiB decoded cap, timeouts) →
challenge check → status check → :func:`webresearch.extract.dispatch.convert` in the CPU
worker pool (off the event loop). One time budget, ``request_timeout_s``, covers the
download *and* the conversion. Nothing is paid: ``price`` is 0.

Issue 21 (SPEC §1.1):

* HTML and text over the download cap are converted as far as they arrived, with
  ``download_truncated`` and a note saying so; a PDF, an image or another binary over the
  cap is ``too_large`` (the download still stops at the cap: bombs stay bounded);
* a ``<meta http-equiv="refresh">`` with a delay ≤ 5 s on a page without readable text of
  its own is followed like a redirect — the guarded client checks the target as a hop, and
  it counts among the same ``max_redirects`` — otherwise its target is named in a note
  (:mod:`webresearch.extract.refresh`);
* a label the bytes contradict (text served as ``image/png``) is named in a note.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from .. import progress
from ..access import AccessPolicy
from ..config import ProviderOptions
from ..errors import (
    BLOCKED_HINT,
    AntiBotChallenge,
    BlockedAddress,
    NetworkError,
    TooManyRedirects,
)
from ..extract.challenge import is_challenge_page
from ..extract.dispatch import Converted, convert, reads_from_a_prefix
from ..extract.refresh import (
    HEAD_CHARS,
    MetaRefresh,
    find_meta_refresh,
    is_followed,
    reloads_itself,
)
from ..extract.sniff import is_html_mime, label_note, sniff_mime
from ..net.client import (
    REFUSED_HOP,
    RETRY_HINT,
    FetchResponse,
    GuardedClient,
    HopGate,
    hop_refused,
)
from ..net.download import cap_text, too_large
from ..net.http_status import WallClock, status_error, utc_now
from ..redact import redact_text, redact_url
from ..runtime.cpu_pool import CPUPool
from ..types import Document
from ..wording import count
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
        response = await self.client.get(url, allow_capped=True, allow_incomplete=True, gate=gate)
        document = await self.convert(response, timeout_s=deadline - loop.time())
        hops = len(response.redirects)
        while True:
            refresh = self._meta_refresh(response, document)
            if refresh is None:
                return response, document
            shown = redact_url(refresh.url)
            if not is_followed(refresh, document["text"]):
                return response, _noted(
                    document,
                    f"this page asks to be replaced by {shown} after {refresh.delay_s} s "
                    "(meta refresh); fetch that URL to read it",
                )
            left = self.client.max_redirects - hops - 1
            if left < 0:
                raise TooManyRedirects(
                    f"{redact_url(url)} redirected more than {self.client.max_redirects} "
                    "times (meta refresh included)",
                    hint="the site is in a redirect loop or needs a browser; try the final URL or another source",
                )
            try:
                target = await self.client.get(
                    refresh.url,
                    allow_capped=True,
                    allow_incomplete=True,
                    max_redirects=left,
                    gate=_later_hops(gate),
                )
            except BlockedAddress as exc:
                raise hop_refused(
                    exc, "the page's meta refresh leads", _refresh_chain(document, shown, exc)
                ) from None
            origin = document
            hops += 1 + len(target.redirects)
            document = await self.convert(target, timeout_s=deadline - loop.time())
            response = target
            document = _noted(
                {
                    **document,
                    "requested_url": origin["requested_url"],
                    "redirects": [
                        *origin["redirects"],
                        [origin["status"], shown],
                        *document["redirects"],
                    ],
                },
                f"reached through a meta refresh (a redirect in the page) from {origin['url']}",
            )

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
                hint=BLOCKED_HINT,
                status=response.status,
            )
        if response.status >= 400:
            raise status_error(response, shown, now=self.now())
        notes: list[str] = []
        if response.capped:
            if not reads_from_a_prefix(sniff_mime(response.body, content_type)):
                raise too_large(shown, len(response.body))
            cap = cap_text(len(response.body))
            notes.append(
                f"the page is larger than the {cap} download cap; only its first {cap} "
                "were downloaded and converted"
            )
        if response.incomplete:
            if not reads_from_a_prefix(sniff_mime(response.body, content_type)):
                raise NetworkError(
                    f"{shown} closed the connection before the whole file arrived",
                    hint=RETRY_HINT,
                )
            notes.append(
                f"the server closed the connection after {count(len(response.body), 'byte')}, before "
                "the whole page arrived; this is the part that arrived"
            )
        # A new stage: a long conversion must not be reported as the download it followed.
        progress.report("converting the page")
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
        mislabelled = label_note(content_type, converted.mime)
        if mislabelled:
            notes.append(mislabelled)
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
            "download_truncated": response.capped,
            "content_encoding_ignored": not response.decoded,
            "render": "none",
            "reader": "local",
            "hidden_chars_removed": converted.hidden_chars_removed,
            "hidden_chars_kept": converted.hidden_chars_kept,
        }
        if notes:
            document["notes"] = notes
        if converted.invisible_chars_kept:  # white on white, off the screen (types.py)
            document["hidden_chars_invisible"] = converted.invisible_chars_kept
        return document

    @staticmethod
    def _meta_refresh(response: FetchResponse, document: Document) -> MetaRefresh | None:
        if not is_html_mime(document["content_type"]):
            return None
        head = response.body[: HEAD_CHARS * 2].decode("utf-8", "replace")
        refresh = find_meta_refresh(head, response.url)
        return None if refresh is None or reloads_itself(refresh, response.url) else refresh


def _refresh_chain(document: Document, shown: str, exc: BlockedAddress) -> list[tuple[int, str]]:
    """The redirect chain of a call whose meta refresh the SSRF guard refused: the page's own
    redirects, then the refresh — its target withheld when it was the hop refused, else
    shown (``shown``: redacted) and followed by the refused chain it led to (``exc``'s)."""
    chain = [(int(status), str(url)) for status, url in document["redirects"]]
    later = exc.details.get("redirects")
    if not isinstance(later, list):
        return [*chain, (document["status"], REFUSED_HOP)]
    return [*chain, (document["status"], shown), *later]


def _later_hops(gate: HopGate | None) -> HopGate | None:
    """``gate`` for a chain that starts at a meta refresh target: every request in it is a
    hop the page chose (the domain policy and robots.txt word it as a redirect)."""
    if gate is None:
        return None
    inner = gate

    async def later(url: str, hop: int) -> None:
        await inner(url, hop + 1)

    return later


def _noted(document: Document, note: str) -> Document:
    """``document`` with one more note line for the model."""
    return {**document, "notes": [*document.get("notes", []), note]}
