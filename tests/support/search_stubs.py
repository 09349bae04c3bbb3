"""Search-provider stubs: each API's documented request shape, key check and answer fixtures.

:data:`PROVIDERS` describes the four HTTP providers (SearXNG, Brave, Tavily, Exa): the
route they call, where their key travels, the fixture answer (``tests/fixtures/search``) and
the settings pointing them at a local :class:`~tests.support.api_server.ApiServer`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response
from webresearch import Settings

SEARCH_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "search"

#: Keys planted in settings; no output, log line, event or error may ever contain them.
PLANTED_KEYS = {
    "brave": "BRAVE-KEY-7f3a9c2e-do-not-leak",
    "tavily": "tvly-TAVILY-KEY-51b0e8d4-do-not-leak",
    "exa": "EXA-KEY-c0ffee42-do-not-leak",
}


#: Settings every stub test shares: no environment, the loopback reachable, no journal file.
_BASE: dict[str, Any] = {
    "environ": {},
    "allowed_networks": ["127.0.0.0/8"],
    "journal_url": "memory://",
}


def fixture_json(name: str) -> Any:
    """A fixture answer from ``tests/fixtures/search/<name>.json``."""
    return json.loads((SEARCH_FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class StubProvider:
    """How one provider's API looks on the wire.

    Attributes:
        id: provider id.
        method: HTTP method of a search.
        path: path of a search (under the base URL).
        key_header: header that carries the key (``None`` for keyless).
        key_prefix: what precedes the key in that header (``Bearer `` for Tavily).
        fixture: the answer fixture name.
    """

    id: str
    method: str
    path: str
    key_header: str | None
    key_prefix: str
    fixture: str

    @property
    def key(self) -> str | None:
        return PLANTED_KEYS.get(self.id)

    def settings(self, base: str, **extra: Any) -> Settings:
        """Settings that select this provider at ``base`` with the planted key."""
        values = {**_BASE, "search_provider": self.id, **self.options(base), **extra}
        return Settings.load(**values)

    def options(self, base: str) -> dict[str, Any]:
        """This provider's options pointing at ``base``, with the planted key."""
        if self.id == "searxng":
            return {"searxng_url": base}
        return {f"{self.id}_base_url": base, f"{self.id}_api_key": self.key}

    def key_ok(self, request: ApiRequest) -> bool:
        """Whether the request carries the planted key where the API expects it."""
        if self.key_header is None:
            return True
        return request.headers.get(self.key_header.lower()) == f"{self.key_prefix}{self.key}"

    def route(self, server: ApiServer, answer: Any) -> None:
        """Serve ``answer`` (an ApiResponse, a JSON value or a function of the request) on the
        search route, answering 401 like the real API when the key is missing or wrong."""

        def handler(request: ApiRequest) -> ApiResponse:
            if not self.key_ok(request):
                return json_response({"error": "invalid api key"}, 401)
            if callable(answer):
                result = answer(request)
                return result if isinstance(result, ApiResponse) else json_response(result)
            if isinstance(answer, ApiResponse):
                return answer
            return json_response(answer)

        server.routes[(self.method, self.path)] = handler


def chain_settings(stubs: list[tuple[StubProvider, str]], **extra: Any) -> Settings:
    """Settings listing several stub providers in order (``search_providers``), each at its
    base URL with its planted key."""
    options = {k: v for stub, base in stubs for k, v in stub.options(base).items()}
    providers = [stub.id for stub, _ in stubs]
    return Settings.load(**{**_BASE, "search_providers": providers, **options, **extra})


SEARXNG = StubProvider("searxng", "GET", "/search", None, "", "searxng")
BRAVE = StubProvider("brave", "GET", "/res/v1/web/search", "X-Subscription-Token", "", "brave")
TAVILY = StubProvider("tavily", "POST", "/search", "Authorization", "Bearer ", "tavily")
EXA = StubProvider("exa", "POST", "/search", "x-api-key", "", "exa")
PROVIDERS = (SEARXNG, BRAVE, TAVILY, EXA)

#: An empty but well-formed answer of each API (a genuine "no results").
EMPTY_ANSWERS: dict[str, Any] = {
    "searxng": {
        "query": "q",
        "number_of_results": 0,
        "results": [],
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    },
    "brave": {"type": "search", "query": {"original": "q"}, "mixed": {"type": "mixed", "main": []}},
    "tavily": {"query": "q", "answer": None, "images": [], "results": [], "response_time": 0.4},
    "exa": {"requestId": "r", "resolvedSearchType": "neural", "results": []},
}
