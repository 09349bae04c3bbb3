"""Page readers and screenshot services: the small interfaces behind web_fetch and
page_screenshot (issue 8; the seed notes' ``PageReaderService`` / ``PageScreenshotService``).

The tools stay the same; only the service behind them changes:

* a :class:`PageReader` turns one URL into a :class:`~webresearch.types.Document`: what
  web_fetch caches and formats (SPEC §1.1), with exactly the keys of :data:`DOCUMENT_KEYS`
  — the local pipeline (``local``, the default), Firecrawl's scrape API (``firecrawl``),
  Jina Reader (``jina``) or a plugin's;
* a :class:`ScreenshotService` takes a screenshot of one URL and returns, from the SAME
  request, the page's document, so a model that cannot see images gets the text at no
  extra cost (Firecrawl: ``formats`` with both ``markdown`` and ``screenshot``).

Both are pluggable exactly like search providers (:mod:`.registry`): a class with ``id``,
``name``, ``options_model`` (its own options: ``[reader.<id>]`` in the settings file,
``WEBRESEARCH_<ID>_<OPTION>``) and ``from_context(context)`` building it from a
:class:`ReaderContext` (the settings, the SSRF guard, the guarded client, the clock).

Hosted services fetch the page themselves, out of our SSRF guard's reach: every hosted
implementation runs the full SPEC §2 check (string rules and DNS, every address) on the URL
before handing it over (:func:`check_before_handing_over`); what the service then fetches,
redirects included, is its own business (docs/architecture.md, "Residual risks").

Each paid call reports itself through ``on_sent``: called once the request may have reached
the service, so a call cut off after that (a timeout, a cancelled run) is still charged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from ..access import AccessPolicy
from ..config import ProviderOptions, Settings
from ..invisible import strip_invisible
from ..net.client import GuardedClient
from ..net.guard import SSRFGuard
from ..net.http_status import WallClock
from ..runtime.cpu_pool import CPUPool
from ..types import Document, RenderMode

__all__ = [
    "DOCUMENT_KEYS",
    "Capture",
    "NoOptions",
    "OnSent",
    "PageReader",
    "ReaderContext",
    "ScreenshotService",
    "check_before_handing_over",
    "make_document",
]

#: ``on_sent()``: the request may have reached the service (charge the call).
OnSent = Callable[[], None]

#: Keys of every document a reader returns (web_fetch's provenance metadata, SPEC §1.1).
DOCUMENT_KEYS = frozenset(Document.__required_keys__)


class NoOptions(ProviderOptions):
    """The options of a reader that has none (the local pipeline)."""


@dataclass(frozen=True, slots=True)
class ReaderContext:
    """What a page reader or screenshot service is built from.

    Attributes:
        settings: the settings (its own options: ``settings.options(id, options_model)``).
        guard: the SSRF guard (a hosted service checks every URL with it first).
        client: the guarded client (the only way to fetch a model-chosen URL ourselves).
        now: the wall clock (provenance timestamps, Retry-After dates).
        cpu: the CPU worker pool for conversions (``None``: convert in-process).
        access: the per-URL gates (domain policy, robots.txt) the local reader applies to
            every hop; ``None``: none. Tools check a hosted reader's URL before handing it
            over and the final URL it reports.
    """

    settings: Settings
    guard: SSRFGuard
    client: GuardedClient
    now: WallClock
    cpu: CPUPool | None = None
    access: AccessPolicy | None = None


def make_document(
    *,
    reader: str,
    url: str,
    requested_url: str,
    status: int,
    content_type: str,
    title: str,
    text: str,
    fetched_at: str,
    sha256: str,
    bytes_downloaded: int,
    markdown: bool = True,
    declared_content_type: str | None = None,
    extractor: str | None = None,
    render: RenderMode = "service",
) -> Document:
    """A document produced by a hosted service, with every key of :data:`DOCUMENT_KEYS`.

    Args:
        reader: the service id (``firecrawl``, ``jina``): the provenance says who made the text.
        url: the final URL the service reports (already redacted).
        requested_url: the URL asked for (already redacted).
        status: the page's HTTP status as the service reports it.
        content_type: the page's MIME type (no parameters), e.g. ``text/html``.
        title: the page title (already redacted).
        text: the page as markdown (already redacted).
        fetched_at: ISO 8601 time of our request.
        sha256: hex sha256 of the text the service returned (UTF-8).
        bytes_downloaded: bytes of the service's answer.
        markdown: whether ``text`` is markdown (cutting then closes code fences).
        declared_content_type: the page's Content-Type as the service reports it.
        extractor: what made the text (default: the service id).
        render: how the page was rendered (``service``: by the service's own browser).

    The title and text are cleaned of invisible characters here (the one way hosted text
    enters; ``hidden_chars_removed`` counts them), like the local pipeline's.
    """
    title, in_title = strip_invisible(title)
    text, in_text = strip_invisible(text)
    body_bytes = len(text.encode("utf-8"))
    document: Document = {
        "url": url,
        "requested_url": requested_url,
        "final_url": url,
        "redirects": [],
        "status": status,
        "content_type": content_type,
        "declared_content_type": declared_content_type,
        "title": title,
        "text": text,
        "markdown": markdown,
        "extractor": extractor or reader,
        "fallback": None,
        "encoding": "utf-8",
        "encoding_source": "service",
        "fetched_at": fetched_at,
        "sha256": sha256,
        "bytes_downloaded": bytes_downloaded,
        "body_bytes": body_bytes,
        "download_truncated": False,
        "content_encoding_ignored": False,
        "render": render,
        "reader": reader,
        "hidden_chars_removed": in_title + in_text,
    }
    return document


async def check_before_handing_over(guard: SSRFGuard, url: str) -> None:
    """Every SPEC §2 check for a URL a hosted service will fetch for us.

    The string rules (scheme, userinfo, host names, IP spellings) and DNS with every
    resolved address checked, exactly as for our own requests; no packet goes to the URL's
    host from here.

    Raises:
        InvalidArguments: not an absolute URL.
        BlockedAddress: a rule refuses it or an address it resolves to is blocked.
        NetworkError: the name does not resolve.
    """
    await guard.check(url)


@runtime_checkable
class PageReader(Protocol):
    """Turns one URL into a document (see :data:`DOCUMENT_KEYS`)."""

    #: the ``reader`` setting value, e.g. ``firecrawl``.
    id: ClassVar[str]
    #: how messages name it, e.g. ``Firecrawl`` (never its address or key).
    name: ClassVar[str]
    #: its options model (``[reader.<id>]``, ``WEBRESEARCH_<ID>_<OPTION>``).
    options_model: ClassVar[type[ProviderOptions]]
    #: price of one page in the settings' price units (0 for the local pipeline).
    price: float

    @classmethod
    def from_context(cls, context: ReaderContext) -> PageReader:
        """Build the reader.

        Raises:
            ConfigurationError: required configuration (key, base URL) is missing.
        """
        ...

    async def read(self, url: str, on_sent: OnSent | None = None) -> Document:
        """The document of ``url``.

        Args:
            url: absolute http(s) URL chosen by a model.
            on_sent: called once the request may have reached the service (charging).

        Raises:
            WebResearchError: a fetch-style error (``http_status`` with the page's or the
                service's status, ``timeout``, ``network``, ``blocked_address`` …).
        """
        ...

    async def aclose(self) -> None:
        """Release connections (idempotent)."""
        ...


@dataclass(frozen=True, slots=True)
class Capture:
    """What one screenshot request returned.

    Attributes:
        document: the page's document from the same request (see :data:`DOCUMENT_KEYS`).
        image: the screenshot's bytes when the service sent them inline, else ``None``.
        image_url: where to download the screenshot when the service gave a URL, else
            ``None`` (downloaded through the guarded client by the caller).
    """

    document: Document
    image: bytes | None = None
    image_url: str | None = None


@runtime_checkable
class ScreenshotService(Protocol):
    """Takes a screenshot of one URL, returning the page text from the same request."""

    #: the ``screenshot_service`` setting value, e.g. ``firecrawl``.
    id: ClassVar[str]
    #: how messages name it (never its address or key).
    name: ClassVar[str]
    #: its options model (``[screenshot.<id>]``, ``WEBRESEARCH_<ID>_<OPTION>``).
    options_model: ClassVar[type[ProviderOptions]]
    #: price of one screenshot in the settings' price units.
    price: float

    @classmethod
    def from_context(cls, context: ReaderContext) -> ScreenshotService:
        """Build the service.

        Raises:
            ConfigurationError: required configuration (key, base URL) is missing.
        """
        ...

    async def capture(
        self, url: str, *, full_page: bool = False, on_sent: OnSent | None = None
    ) -> Capture:
        """Screenshot and document of ``url``.

        Raises:
            WebResearchError: as :meth:`PageReader.read`.
        """
        ...

    async def aclose(self) -> None:
        """Release connections (idempotent)."""
        ...
