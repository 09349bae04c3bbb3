"""A third-party package with a search provider, a page reader and a screenshot service, as
entry points load them (registry and plugin tests).

Each declares its own options model: the provider is configured with ``[search.acme]`` in the
settings file or ``WEBRESEARCH_ACME_API_KEY`` / ``WEBRESEARCH_ACME_REGION``, the reader with
``[reader.acmereader]`` or ``WEBRESEARCH_ACMEREADER_*``, the screenshot service with
``[screenshot.acmeshots]`` — without any change to webresearch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import SecretStr

from tests.support.tiny_png import png_bytes
from webresearch.config import ProviderOptions, Settings
from webresearch.readers.base import (
    Capture,
    OnSent,
    ReaderContext,
    check_before_handing_over,
    make_document,
)
from webresearch.search.base import (
    Capability,
    KeyOptions,
    NoOptions,
    SearchOptions,
    SearchResponse,
    SearchResult,
    require_key,
)
from webresearch.types import Document


class AcmeOptions(KeyOptions):
    """Acme's own options: its key (a secret), its origin and a region."""

    api_key: SecretStr | None = None
    base_url: str = "https://api.acme.example"
    region: str = "eu"


class AcmeProvider:
    """A keyed plugin provider that answers from memory."""

    id: ClassVar[str] = "acme"
    name: ClassVar[str] = "Acme Search"
    options_model: ClassVar[type[ProviderOptions]] = AcmeOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"freshness"})

    def __init__(self, key: str, region: str = "eu") -> None:
        self.key = key
        self.region = region
        self.closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> AcmeProvider:
        options = settings.options(cls.id, AcmeOptions)
        return cls(require_key(options, cls), options.region)

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        return SearchResponse(
            results=(
                SearchResult(
                    f"Acme ({self.region}): {query}",
                    "https://acme.example/r",
                    f"<b>hit</b> (asked with key {self.key})",  # an API that echoes the key
                ),
            ),
            raw_count=1,
        )

    async def aclose(self) -> None:
        self.closed = True


class OtherProvider(AcmeProvider):
    id: ClassVar[str] = "other"
    name: ClassVar[str] = "Other Search"
    options_model: ClassVar[type[ProviderOptions]] = NoOptions

    @classmethod
    def from_settings(cls, settings: Settings) -> OtherProvider:
        return cls("")


def register_many(register: Callable[[type[Any]], Any]) -> None:
    """A plugin hook registering several providers."""
    register(OtherProvider)


class NotAProvider:
    """Lacks the provider shape."""

    id = "broken"


def failing_hook(register: Callable[[type[Any]], Any]) -> None:
    raise RuntimeError("plugin bug")


class AcmeReaderOptions(ProviderOptions):
    """The reader's own options: a token (a secret), a greeting and a price."""

    token: SecretStr | None = None
    greeting: str = "hello"
    page_price: float = 0.0


class AcmeReader:
    """A hosted page reader that makes its document without any network."""

    id: ClassVar[str] = "acmereader"
    name: ClassVar[str] = "Acme Reader"
    options_model: ClassVar[type[ProviderOptions]] = AcmeReaderOptions

    def __init__(self, context: ReaderContext, options: AcmeReaderOptions) -> None:
        self.context = context
        self.options = options
        self.price = options.page_price

    @classmethod
    def from_context(cls, context: ReaderContext) -> AcmeReader:
        return cls(context, context.settings.options(cls.id, AcmeReaderOptions))

    async def read(self, url: str, on_sent: OnSent | None = None) -> Document:
        await check_before_handing_over(self.context.guard, url)
        if on_sent is not None:
            on_sent()
        token = self.options.token.get_secret_value() if self.options.token else "none"
        text = f"{self.options.greeting} from Acme Reader for {url} (token {token})"
        return make_document(
            reader=self.id,
            url=url,
            requested_url=url,
            status=200,
            content_type="text/html",
            title="Acme page",
            text=text,
            fetched_at=self.context.now().isoformat(timespec="seconds"),
            sha256="0" * 64,
            bytes_downloaded=len(text),
        )

    async def aclose(self) -> None:
        return None


class AcmeShotsOptions(ProviderOptions):
    """The screenshot service's own options: the picture's width (px)."""

    width: int = 40


class AcmeShots:
    """A screenshot service drawing a plain picture (and the page text) without any network."""

    id: ClassVar[str] = "acmeshots"
    name: ClassVar[str] = "Acme Shots"
    options_model: ClassVar[type[ProviderOptions]] = AcmeShotsOptions

    def __init__(self, context: ReaderContext, options: AcmeShotsOptions) -> None:
        self.reader = AcmeReader(context, AcmeReaderOptions())
        self.width = options.width
        self.price = 0.0

    @classmethod
    def from_context(cls, context: ReaderContext) -> AcmeShots:
        return cls(context, context.settings.options(cls.id, AcmeShotsOptions))

    async def capture(
        self, url: str, *, full_page: bool = False, on_sent: OnSent | None = None
    ) -> Capture:
        document = await self.reader.read(url, on_sent)
        return Capture(document, image=png_bytes(self.width, 20))

    async def aclose(self) -> None:
        return None
