"""A third-party search provider package, as an entry point would load it (registry tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from webresearch.config import Settings
from webresearch.search.base import (
    Capability,
    SearchOptions,
    SearchResponse,
    SearchResult,
    require_key,
)


class AcmeProvider:
    """A keyed plugin provider that answers from memory."""

    id: ClassVar[str] = "acme"
    name: ClassVar[str] = "Acme Search"
    key_setting: ClassVar[str | None] = "exa_api_key"  # borrows a key field for the test
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"freshness"})

    def __init__(self, key: str) -> None:
        self.key = key
        self.closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> AcmeProvider:
        return cls(require_key(settings, cls))

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        return SearchResponse(
            results=(SearchResult(f"Acme: {query}", "https://acme.example/r", "<b>hit</b>"),),
            raw_count=1,
        )

    async def aclose(self) -> None:
        self.closed = True


class OtherProvider(AcmeProvider):
    id: ClassVar[str] = "other"
    name: ClassVar[str] = "Other Search"
    key_setting: ClassVar[str | None] = None

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
