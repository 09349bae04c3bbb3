"""Status classification, Retry-After parsing, JSON decoding and foreign-exception mapping."""

from __future__ import annotations

import importlib
import inspect
import ssl
from datetime import UTC, datetime
from email.utils import format_datetime

import httpx2
import pytest

from webresearch.errors import (
    SearchAuthError,
    SearchBadRequest,
    SearchError,
    SearchNetworkError,
    SearchProtocolError,
    SearchQuotaError,
    SearchRateError,
    SearchTimeout,
    SearchUpstreamError,
)
from webresearch.hosted.endpoint import HTTPX_ERRORS
from webresearch.net.http_status import error_detail, looks_like_html, retry_after_s
from webresearch.search.classify import decode_json, status_error, translate_error

NOW = 1_720_000_000.0
NOW_DT = datetime.fromtimestamp(NOW, UTC)
#: What a foreign exception may say; none of it may reach our message.
_LEAK = "failed for http://10.9.8.7:8080/search?key=secret"
SERVICE = "Brave Search API"


def _classify(
    status: int, headers: dict[str, str] | None = None, body: bytes = b""
) -> SearchError | None:
    return status_error(
        status,
        headers or {},
        body,
        service=SERVICE,
        now=NOW_DT,
        key_env="WEBRESEARCH_BRAVE_API_KEY",
    )


@pytest.mark.parametrize(
    "status,cls,retryable",
    [
        (401, SearchAuthError, False),
        (403, SearchAuthError, False),
        (402, SearchQuotaError, False),
        (432, SearchQuotaError, False),
        (433, SearchQuotaError, False),
        (429, SearchRateError, True),
        (400, SearchBadRequest, False),
        (422, SearchBadRequest, False),
        (409, SearchBadRequest, False),
        (404, SearchProtocolError, False),
        (405, SearchProtocolError, False),
        (408, SearchTimeout, True),
        (500, SearchUpstreamError, True),
        (502, SearchUpstreamError, True),
        (503, SearchUpstreamError, True),
        (599, SearchUpstreamError, True),
    ],
)
def test_status_table(status: int, cls: type[SearchError], retryable: bool) -> None:
    error = _classify(status)
    assert type(error) is cls
    assert error.retryable is retryable
    assert SERVICE in error.message and f"HTTP {status}" in error.message


@pytest.mark.parametrize("status", [200, 201, 204])
def test_non_errors(status: int) -> None:
    assert _classify(status) is None


@pytest.mark.parametrize("status", [101, 301, 304, 307])
def test_a_redirect_is_a_protocol_error_never_followed(status: int) -> None:
    error = _classify(status)
    assert isinstance(error, SearchProtocolError) and not error.retryable
    assert f"redirected the request (HTTP {status})" in error.message


def test_auth_hint_names_the_variable() -> None:
    error = _classify(401)
    assert error is not None and error.hint is not None
    assert "WEBRESEARCH_BRAVE_API_KEY" in error.hint


def test_bad_request_keeps_a_short_address_free_detail() -> None:
    body = b'{"type":"ErrorResponse","error":{"detail":"country XX unknown, see https://api.internal/x and 10.0.0.7:8080/y","status":422}}'
    error = _classify(422, body=body)
    assert error is not None
    assert "country XX unknown" in error.message
    assert "api.internal" not in error.message and "10.0.0.7" not in error.message


@pytest.mark.parametrize(
    "headers,expected",
    [
        ({"Retry-After": "17"}, 17.0),
        ({"retry-after": " 2.5 "}, 2.5),
        ({"Retry-After": "-5"}, 0.0),
        (
            {"Retry-After": format_datetime(datetime.fromtimestamp(NOW + 42, UTC), usegmt=True)},
            42.0,
        ),
        ({"Retry-After": "soon"}, None),
        ({"X-RateLimit-Reset": "30"}, 30.0),
        ({"X-RateLimit-Reset": "1, 1419704"}, 1.0),
        ({"X-RateLimit-Reset": "1, 1419704", "X-RateLimit-Remaining": "0, 10"}, 1.0),
        ({"X-RateLimit-Reset": "1, 1419704", "X-RateLimit-Remaining": "5, 0"}, 1419704.0),
        ({"X-RateLimit-Reset": str(int(NOW + 60))}, 60.0),
        ({"X-RateLimit-Reset": str(int((NOW + 90) * 1000))}, 90.0),
        ({"X-RateLimit-Reset": "garbage"}, None),
        ({"X-RateLimit-Reset": "nan"}, None),
        ({}, None),
        ({"Retry-After": "5", "X-RateLimit-Reset": "99"}, 5.0),
    ],
)
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    got = retry_after_s(headers, NOW_DT)
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_rate_error_carries_retry_after_and_hint() -> None:
    error = _classify(429, {"Retry-After": "12"})
    assert isinstance(error, SearchRateError)
    assert error.retry_after == 12.0
    assert error.hint == "retry after 12 s"
    without = _classify(429)
    assert isinstance(without, SearchRateError) and without.retry_after is None
    assert without.hint == "retry later"


@pytest.mark.parametrize(
    "body,detail",
    [
        (b'{"error":{"detail":"Unable to validate request parameter(s)"}}', "Unable to validate"),
        (b'{"detail":{"error":"Invalid time_range"}}', "Invalid time_range"),
        (b'{"error":"numResults must be <= 100","tag":"x"}', "numResults must be"),
        (b'{"detail":[{"loc":["body"],"msg":"field required"}]}', "field required"),
        (b'{"message":"bad"}', "bad"),
        (b"<html>nope</html>", ""),
        (b"", ""),
        (b'{"error": {"nested": {"deeper": {"deepest": {"x": "too deep"}}}}}', ""),
    ],
)
def test_error_detail_shapes(body: bytes, detail: str) -> None:
    got = error_detail(body)
    assert got.startswith(detail) if detail else got == ""


def test_error_detail_never_repeats_secrets() -> None:
    body = b'{"error": "key SECRET-123 is invalid"}'
    assert error_detail(body, ["SECRET-123"]) == "key [REDACTED] is invalid"


@pytest.mark.parametrize(
    "content_type,body",
    [
        ("text/html; charset=utf-8", b"{}"),
        ("application/xhtml+xml", b"{}"),
        ("application/json", b"<!DOCTYPE html><html>"),
        ("", b"\xef\xbb\xbf  <html lang=en>"),
        ("", b"<?xml version='1.0'?><html/>"),
    ],
)
def test_looks_like_html(content_type: str, body: bytes) -> None:
    assert looks_like_html(content_type, body)
    with pytest.raises(SearchProtocolError) as info:
        decode_json(body, content_type, service=SERVICE)
    assert "HTML page instead of JSON" in info.value.message


@pytest.mark.parametrize("body", [b"", b"not json", b"\x00\xff", b"{unquoted: 1}", b'{"a": '])
def test_decode_json_rejects_non_json(body: bytes) -> None:
    with pytest.raises(SearchProtocolError) as info:
        decode_json(body, "application/json", service=SERVICE)
    assert "not JSON" in info.value.message
    assert "Expecting" not in info.value.message


@pytest.mark.parametrize("body", [b"[]", b'"text"', b"42", b"null"])
def test_decode_json_wants_an_object(body: bytes) -> None:
    with pytest.raises(SearchProtocolError):
        decode_json(body, "application/json", service=SERVICE)


def test_decode_json_object() -> None:
    assert decode_json(b'{"results": []}', "application/json", service=SERVICE) == {"results": []}


# --- foreign exceptions -------------------------------------------------------------------------


def _exported_exceptions(module_name: str) -> list[type[BaseException]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", dir(module))
    return [
        obj
        for name in names
        if inspect.isclass(obj := getattr(module, name)) and issubclass(obj, BaseException)
    ]


def test_every_httpx2_exception_has_its_own_rule() -> None:
    """Fails when httpx2 grows an exception we did not decide about."""
    ruled = {kind for kind, *_ in HTTPX_ERRORS}
    missing = [cls.__name__ for cls in _exported_exceptions("httpx2") if cls not in ruled]
    assert missing == []


def test_httpx2_rules_are_ordered_most_specific_first() -> None:
    kinds = [kind for kind, *_ in HTTPX_ERRORS]
    for i, kind in enumerate(kinds):
        for later in kinds[i + 1 :]:
            assert not issubclass(later, kind) or later is kind, (kind, later)


@pytest.mark.parametrize(
    "exc,cls,sent",
    [
        (httpx2.ConnectError(_LEAK), SearchNetworkError, False),
        (httpx2.ConnectTimeout(_LEAK), SearchTimeout, False),
        (httpx2.ReadTimeout(_LEAK), SearchTimeout, True),
        (httpx2.PoolTimeout(_LEAK), SearchTimeout, False),
        (httpx2.ReadError(_LEAK), SearchNetworkError, True),
        (httpx2.RemoteProtocolError(_LEAK), SearchNetworkError, True),
        (httpx2.LocalProtocolError(_LEAK), SearchProtocolError, False),
        (httpx2.ProxyError(_LEAK), SearchNetworkError, False),
        (httpx2.UnsupportedProtocol(_LEAK), SearchNetworkError, False),
        (httpx2.DecodingError(_LEAK), SearchProtocolError, True),
        (httpx2.StreamClosed(), SearchProtocolError, True),
        (ssl.SSLError(_LEAK), SearchNetworkError, False),
        (ConnectionResetError(_LEAK), SearchNetworkError, False),
        (TimeoutError(), SearchTimeout, True),
        (RuntimeError(_LEAK), SearchNetworkError, True),
    ],
)
def test_translate_error(exc: BaseException, cls: type[SearchError], sent: bool) -> None:
    error = translate_error(exc, "the SearXNG instance")
    assert type(error) is cls
    assert error.details["request_sent"] is sent
    assert error.message.startswith("the SearXNG instance ")
    assert "10.9.8.7" not in error.message and "secret" not in error.message


def test_translate_error_keeps_our_own_errors() -> None:
    ours = SearchQuotaError("x")
    assert translate_error(ours, "s") is ours
