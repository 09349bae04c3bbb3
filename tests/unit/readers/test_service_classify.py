"""Service answers → fetch-style errors (pure): every status class, retry-after, and no key
or address ever repeated from a service's error body."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from webresearch.errors import FetchError, HTTPStatusError, Timeout
from webresearch.readers.service import classify_service_status, decode_object

KEY = "fc-unit-KEY-0042"
NOW = 1_700_000_000.0
NOW_DT = datetime.fromtimestamp(NOW, UTC)


def classify(
    status: int, headers: dict[str, str] | None = None, body: bytes = b""
) -> FetchError | None:
    return classify_service_status(
        status,
        headers or {},
        body,
        service="Firecrawl",
        service_id="firecrawl",
        key_setting="WEBRESEARCH_FIRECRAWL_API_KEY",
        base_setting="WEBRESEARCH_FIRECRAWL_BASE_URL",
        now=NOW_DT,
        secrets=(KEY,),
    )


@pytest.mark.parametrize("status", [200, 201, 204, 299])
def test_success_is_no_error(status: int) -> None:
    assert classify(status) is None


@pytest.mark.parametrize(
    "status,cls,code,retryable",
    [
        (401, HTTPStatusError, "http_status", False),
        (402, HTTPStatusError, "http_status", False),
        (403, HTTPStatusError, "http_status", False),
        (404, HTTPStatusError, "http_status", False),
        (405, HTTPStatusError, "http_status", False),
        (410, HTTPStatusError, "http_status", False),
        (408, Timeout, "timeout", True),
        (429, HTTPStatusError, "http_status", True),
        (400, HTTPStatusError, "http_status", False),
        (422, HTTPStatusError, "http_status", False),
        (451, HTTPStatusError, "http_status", False),
        (500, HTTPStatusError, "http_status", True),
        (502, HTTPStatusError, "http_status", True),
        (503, HTTPStatusError, "http_status", True),
        (504, HTTPStatusError, "http_status", True),
        (301, FetchError, "fetch_error", False),
        (302, FetchError, "fetch_error", False),
        (100, FetchError, "fetch_error", False),
    ],
)
def test_every_status_class(status: int, cls: type, code: str, retryable: bool) -> None:
    error = classify(status)
    assert type(error) is cls
    assert error is not None and error.code == code and error.retryable is retryable
    assert error.details["service"] == "firecrawl"
    assert error.details["service_status"] == status
    assert error.details["request_sent"] is True
    assert "Firecrawl" in error.message and f"HTTP {status}" in error.message
    assert error.hint  # always a next step


def test_hints_name_the_setting_to_fix() -> None:
    assert "WEBRESEARCH_FIRECRAWL_API_KEY" in (classify(401) or FetchError("")).hint  # type: ignore[operator]
    assert "WEBRESEARCH_FIRECRAWL_BASE_URL" in (classify(404) or FetchError("")).hint  # type: ignore[operator]
    assert "credits" in (classify(402) or FetchError("")).message


@pytest.mark.parametrize(
    "headers,expected",
    [
        ({"Retry-After": "12"}, 12.0),
        ({"retry-after": "Tue, 14 Nov 2023 22:13:30 GMT"}, 10.0),  # NOW + 10 s as an HTTP date
        ({"X-RateLimit-Reset": "5"}, 5.0),
        ({"X-RateLimit-Reset": str(int(NOW) + 30)}, 30.0),  # an epoch timestamp
        ({}, None),
    ],
)
def test_429_carries_retry_after(headers: dict[str, str], expected: float | None) -> None:
    error = classify(429, headers)
    assert isinstance(error, HTTPStatusError)
    assert error.details["retry_after"] == expected
    assert error.hint == (f"retry after {round(expected)} s" if expected else "retry later")


def test_the_reason_of_a_bad_request_is_kept_without_keys_or_addresses() -> None:
    body = json.dumps(
        {
            "success": False,
            "error": f"Invalid URL http://10.0.0.5/x for key {KEY} at 127.0.0.1:3002",
        }
    ).encode()
    error = classify(400, body=body)
    assert error is not None
    assert "Invalid URL" in error.message
    for leak in (KEY, "10.0.0.5", "127.0.0.1"):
        assert leak not in error.message


@pytest.mark.parametrize("status", [401, 402, 403, 500])
def test_other_error_bodies_are_not_echoed(status: int) -> None:
    error = classify(status, body=json.dumps({"error": f"bad key {KEY}"}).encode())
    assert error is not None and KEY not in error.message and "bad key" not in error.message


@pytest.mark.parametrize(
    "body,content_type,reason",
    [
        (b"<html><body>login</body></html>", "text/html", "html"),
        (b"not json at all", "application/json", "not_json"),
        (b"[1, 2]", "application/json", "shape"),
    ],
)
def test_undecodable_success_answers(body: bytes, content_type: str, reason: str) -> None:
    with pytest.raises(FetchError) as caught:
        decode_object(body, content_type, service="Firecrawl")
    assert caught.value.details["reason"] == reason
    assert caught.value.details["request_sent"] is True
