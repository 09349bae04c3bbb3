"""A search provider's JSON API: the shared operator endpoint
(:class:`~webresearch.hosted.endpoint.OperatorEndpoint`: no environment proxy, no redirects,
one deadline of ``search_timeout_s`` (SPEC §1.2: 10 s), a size cap, its address kept out of
log lines) with search's error vocabulary (:mod:`.classify`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx2

from ..config import DEFAULT_USER_AGENT
from ..hosted.endpoint import Answer, OperatorEndpoint
from ..net.http_status import WallClock, utc_now
from .classify import SEARCH_ERRORS, decode_json, status_error

__all__ = ["MAX_RESPONSE_BYTES", "JSONEndpoint"]

#: Largest provider answer read (bytes, decoded); a JSON page of 20 results is ~20–100 KiB.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class JSONEndpoint:
    """A provider's HTTP API: GET/POST JSON with one deadline, a size cap and classified errors.

    Args:
        base_url: the API origin (trusted operator configuration).
        service: how messages name the provider.
        timeout_s: deadline of one whole request, body included (seconds).
        headers: headers sent with every request (the key header; never logged).
        key_env: the key's environment variable (for the auth hint), or ``None``.
        secrets: values never repeated in an error (the key; some APIs echo it).
        user_agent: the User-Agent header.
        transport: an httpx2 transport seam (tests pass a mock transport).
        now: wall clock (Retry-After dates).
        max_bytes: body cap (bytes).
    """

    def __init__(
        self,
        base_url: str,
        *,
        service: str,
        timeout_s: float,
        headers: Mapping[str, str] | None = None,
        key_env: str | None = None,
        secrets: tuple[str, ...] = (),
        user_agent: str = DEFAULT_USER_AGENT,
        transport: httpx2.AsyncBaseTransport | None = None,
        now: WallClock = utc_now,
        max_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        self.service = service
        self.key_env = key_env
        self._secrets = secrets
        self._now = now
        self._endpoint = OperatorEndpoint(
            base_url,
            service=service,
            vocabulary=SEARCH_ERRORS,
            timeout_s=timeout_s,
            max_bytes=max_bytes,
            headers=headers,
            secrets=secrets,
            user_agent=user_agent,
            transport=transport,
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._endpoint.aclose()

    async def get_json(self, path: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """``GET {base}{path}?params`` → the JSON object (see :meth:`request_json`)."""
        return await self.request_json("GET", path, params=params)

    async def post_json(self, path: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """``POST {base}{path}`` with a JSON body → the JSON object (see :meth:`request_json`)."""
        return await self.request_json("POST", path, json_body=payload)

    async def request_json(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Send one request and return the answer's JSON object.

        Raises:
            SearchError: classified by status (:func:`.classify.status_error`), transport
                failure, deadline (:class:`SearchTimeout`), size cap, a redirect, HTML or
                non-JSON bodies (:class:`SearchProtocolError`).
        """
        answer = await self.fetch(method, path, params=params, json_body=json_body)
        return self.interpret(answer)

    async def fetch(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Send one request; return the answer (any status) or raise a search error."""
        return await self._endpoint.fetch(method, path, params=params, json_body=json_body)

    def interpret(self, answer: Answer) -> dict[str, Any]:
        """Classify an answer: the JSON object of a success, else raise the error."""
        error = status_error(
            answer.status,
            answer.headers,
            answer.body,
            service=self.service,
            now=self._now(),
            key_env=self.key_env,
            secrets=self._secrets,
        )
        if error is not None:
            error.details["request_sent"] = True
            raise error
        return decode_json(answer.body, answer.content_type, service=self.service)
