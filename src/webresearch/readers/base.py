"""Page readers and screenshot services: the small interfaces behind web_fetch and
page_screenshot (issue 8; the seed notes' ``PageReaderService`` / ``PageScreenshotService``).

The tools stay the same; only the service behind them changes:

* a :class:`PageReader` turns one URL into a *document*: the dict web_fetch caches and
  formats (SPEC §1.1), with exactly the keys of :data:`DOCUMENT_KEYS` — the local pipeline
  (``local``, the default), Firecrawl's scrape API (``firecrawl``) or Jina Reader (``jina``);
* a :class:`ScreenshotService` takes a screenshot of one URL and returns, from the SAME
  request, the page's document, so a model that cannot see images gets the text at no
  extra cost (Firecrawl: ``formats`` with both ``markdown`` and ``screenshot``).

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
from typing import Any, ClassVar, Protocol, runtime_checkable

from ..invisible import strip_invisible
from ..net.guard import SSRFGuard

__all__ = [
    "DOCUMENT_KEYS",
    "Capture",
    "OnSent",
    "PageReader",
    "ScreenshotService",
    "check_before_handing_over",
    "make_document",
]

#: ``on_sent()``: the request may have reached the service (charge the call).
OnSent = Callable[[], None]

#: Keys of every document a reader returns (web_fetch's provenance metadata, SPEC §1.1).
DOCUMENT_KEYS = frozenset(
    {
        "url",
        "requested_url",
        "final_url",
        "redirects",
        "status",
        "content_type",
        "declared_content_type",
        "title",
        "text",
        "markdown",
        "extractor",
        "fallback",
        "encoding",
        "encoding_source",
        "fetched_at",
        "sha256",
        "bytes_downloaded",
        "body_bytes",
        "download_capped",
        "content_encoding_ignored",
        "render",
        "reader",
        "hidden_chars_removed",
    }
)


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
    render: str = "service",
) -> dict[str, Any]:
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
    return {
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
        "download_capped": False,
        "content_encoding_ignored": False,
        "render": render,
        "reader": reader,
        "hidden_chars_removed": in_title + in_text,
    }


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
    #: price of one page in the settings' price units (0 for the local pipeline).
    price: float

    async def read(self, url: str, on_sent: OnSent | None = None) -> dict[str, Any]:
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

    document: dict[str, Any]
    image: bytes | None = None
    image_url: str | None = None


@runtime_checkable
class ScreenshotService(Protocol):
    """Takes a screenshot of one URL, returning the page text from the same request."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: price of one screenshot in the settings' price units.
    price: float

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
