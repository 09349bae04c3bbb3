"""Local stand-ins for the hosted page services, speaking their documented wire formats.

* :class:`FirecrawlStub` — Firecrawl v2 on an :class:`~tests.support.api_server.ApiServer`:
  ``POST /v2/scrape`` (``{"url", "formats", …}`` → ``{"success": true, "data": {"markdown",
  "screenshot", "metadata": {"title", "sourceURL", "url", "statusCode", "contentType"}}}``)
  and ``POST /v2/search`` (``{"query", "limit", "sources", …}`` → ``{"success": true,
  "data": {"web": [{"url", "title", "description", "position"}]}}``); errors as
  ``{"success": false, "error": "…"}`` with the HTTP status; ``Authorization: Bearer <key>``.
* :class:`JinaStub` — Jina Reader: ``GET /<url>`` with ``Accept: application/json`` →
  ``{"code": 200, "status": 20000, "data": {"title", "url", "content", "warning"}}``, or the
  plain markdown mode (``Title:`` / ``URL Source:`` / ``Markdown Content:``) otherwise.

Both check the key, record every request (``server.requests()``), and can be told to answer
every request with a given error (``stub.fail = json_response(…, 429, …)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response

#: Keys planted in settings; no output, log line, event or error may ever contain them.
FIRECRAWL_KEY = "fc-PLANTED-firecrawl-7d1e0c9b-do-not-leak"
JINA_KEY = "jina_PLANTED_jina_4b2f81aa_do_not_leak"
PROXY_TOKEN = "proxy-PLANTED-token-93a1c5e7-do-not-leak"


@dataclass
class StubPage:
    """One page a stub service knows.

    Attributes:
        markdown: the page text the service returns.
        title: its title.
        status: the SITE's status as the service reports it (``metadata.statusCode``).
        content_type: the site's Content-Type (``metadata.contentType``).
        final_url: where the site redirected (``metadata.url``), default the URL asked.
        screenshot: what Firecrawl returns as ``data.screenshot`` (a URL or a data URI).
    """

    markdown: str
    title: str = ""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    final_url: str | None = None
    screenshot: str | None = None


@dataclass
class FirecrawlStub:
    """Firecrawl v2 (scrape and search) on ``server``.

    Attributes:
        server: the API server the routes live on.
        key: the key every request must carry (``None``: keyless self-hosted instance).
        pages: URL → page for ``/v2/scrape``.
        results: the ``data.web`` list ``/v2/search`` returns.
        fail: when set, every request is answered with it (errors, stalls).
    """

    server: ApiServer
    key: str | None = FIRECRAWL_KEY
    pages: dict[str, StubPage] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    fail: ApiResponse | None = None

    def __post_init__(self) -> None:
        self.server.routes[("POST", "/v2/scrape")] = self.scrape
        self.server.routes[("POST", "/v2/search")] = self.search

    @property
    def base(self) -> str:
        return self.server.base

    def requests(self, path: str = "/v2/") -> list[ApiRequest]:
        """Requests seen on ``path``'s prefix."""
        return [r for r in self.server.requests() if r.path.startswith(path)]

    def _refused(self, request: ApiRequest) -> ApiResponse | None:
        if self.fail is not None:
            return self.fail
        if self.key is not None and request.headers.get("authorization") != f"Bearer {self.key}":
            return json_response({"success": False, "error": "Unauthorized: Invalid token"}, 401)
        return None

    def scrape(self, request: ApiRequest) -> ApiResponse:
        refused = self._refused(request)
        if refused is not None:
            return refused
        body = request.json()
        url = body.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            return json_response({"success": False, "error": "Bad Request: Invalid URL"}, 400)
        page = self.pages.get(url)
        if page is None:
            page = StubPage("Not Found", title="404", status=404)
        data: dict[str, Any] = {
            "markdown": page.markdown,
            "metadata": {
                "title": page.title,
                "sourceURL": url,
                "url": page.final_url or url,
                "statusCode": page.status,
                "contentType": page.content_type,
            },
        }
        formats = body.get("formats", ["markdown"])
        if any(isinstance(f, dict) and f.get("type") == "screenshot" for f in formats):
            data["screenshot"] = page.screenshot
        return json_response({"success": True, "data": data})

    def search(self, request: ApiRequest) -> ApiResponse:
        refused = self._refused(request)
        if refused is not None:
            return refused
        body = request.json()
        limit = int(body.get("limit", 10))
        web = [{**r, "position": i + 1} for i, r in enumerate(self.results[:limit])]
        return json_response({"success": True, "data": {"web": web}, "creditsUsed": 2})


@dataclass
class JinaStub:
    """Jina Reader on ``server`` (add pages with :meth:`add`).

    Attributes:
        server: the API server.
        key: the key every request must carry (``None``: keyless use, also accepted).
        fail: when set, every request is answered with it.
    """

    server: ApiServer
    key: str | None = JINA_KEY
    fail: ApiResponse | None = None

    @property
    def base(self) -> str:
        return self.server.base

    def add(self, url: str, page: StubPage) -> None:
        """Serve ``page`` at ``GET /<url>`` (the URL appended to the base, as Jina reads it)."""
        path = "/" + url.split("?", 1)[0].split("#", 1)[0]

        def route(request: ApiRequest) -> ApiResponse:
            if self.fail is not None:
                return self.fail
            if (
                self.key is not None
                and request.headers.get("authorization") != f"Bearer {self.key}"
            ):
                return json_response(
                    {
                        "data": None,
                        "code": 401,
                        "name": "AuthenticationFailedError",
                        "status": 40103,
                        "message": "Invalid API key",
                        "readableMessage": "AuthenticationFailedError: Invalid API key",
                    },
                    401,
                )
            warning = (
                f"Target URL returned error {page.status}: Not Found"
                if page.status >= 400
                else None
            )
            if "application/json" in request.headers.get("accept", ""):
                data: dict[str, Any] = {
                    "title": page.title,
                    "description": "",
                    "url": page.final_url or url,
                    "content": page.markdown,
                    "usage": {"tokens": len(page.markdown.split())},
                }
                if warning:
                    data["warning"] = warning
                return json_response({"code": 200, "status": 20000, "data": data})
            lines = [f"Title: {page.title}", "", f"URL Source: {page.final_url or url}", ""]
            if warning:
                lines += [f"Warning: {warning}", ""]
            lines += ["Markdown Content:", page.markdown]
            return ApiResponse(
                200, [("Content-Type", "text/plain; charset=utf-8")], "\n".join(lines).encode()
            )

        self.server.routes[("GET", path)] = route

    def requests(self) -> list[ApiRequest]:
        return self.server.requests()


def dumps(value: Any) -> str:
    """JSON text of anything (for scanning outputs for planted secrets)."""
    return json.dumps(value, default=str, ensure_ascii=False)
