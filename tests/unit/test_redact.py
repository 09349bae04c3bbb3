"""Secret redaction: every way a credential rides in a URL, anywhere in text."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webresearch.redact import (
    REDACTED,
    RedactingFilter,
    Redactor,
    is_secret_parameter,
    redact_text,
    redact_url,
)

SECRET = "S3CR3T-value_42"


@pytest.mark.parametrize(
    "text",
    [
        f"https://example.org/?token={SECRET}",
        f"https://example.org/p?q=1&api_key={SECRET}#frag",
        f"https://example.org/p#access_token={SECRET}&state=1",
        f"https://user:{SECRET}@example.org/",
        f"http://x/wiki_(disambiguation).html?token={SECRET}",  # ")" before the query
        f"[link](https://a.example/b?sig={SECRET}&x=2) more text",  # markdown link
        f"?a=1;password={SECRET}",  # ";" separated
        f"https://a.example/?next=https%3A%2F%2Fb.example%2F%3Ftoken%3D{SECRET}%26x%3D1",  # nested, encoded
        f"https://a.example/?redirect_uri=https://b.example/?apiKey={SECRET}",  # nested, raw
        f"https://s3.example/o?X-Amz-Signature={SECRET}&X-Amz-Credential={SECRET}",
        f"see the file at 'https://cdn.example/f?passkey={SECRET}' please",
        f"https://h.example/?AUTH={SECRET}",
        f"https://app.example/cb?code={SECRET}",  # RFC 6749 §4.1.2
        f"https://app.example/cb?state={SECRET}&code=x",  # state beside an OAuth response
        f"https://app.example/cb#state={SECRET}&access_token=x",
        f"https://app.example/?next=https%3A%2F%2Fb%2Fcb%3Fcode%3Dx%26state%3D{SECRET}",
        f"https://app.example/service?ticket={SECRET}",  # CAS 3.0 §2.2.4
        f"https://app.example/confirm?id=7&hash={SECRET}",
    ],
)
def test_credentials_in_urls_are_redacted_wherever_they_appear(text: str) -> None:
    out = redact_text(text)
    assert SECRET not in out
    assert REDACTED in out
    assert redact_text(out) == out  # idempotent


@pytest.mark.parametrize(
    "text",
    [
        "https://example.org/search?q=monkey&keyword=bananas&page=2",
        "https://example.org/a(b)/c?x=1",
        "plain prose with no url at all = fine",
        "mailto:anna@example.org",
        "https://user@example.org/path",
        "https://example.org:8443/path@segment",
        "https://example.org/list?state=CA&page=2",  # no OAuth response: a filter
        "https://example.org/?country_code=DE&zip_code=10115&hashtag=x",
    ],
)
def test_ordinary_urls_and_text_are_unchanged(text: str) -> None:
    assert redact_text(text) == text


def test_redact_url_keeps_everything_else_byte_for_byte() -> None:
    url = "https://u:pw@h.example/p%20q?q=%E2%9C%93&token=abc&x=1#f"
    assert (
        redact_url(url) == "https://u:[REDACTED]@h.example/p%20q?q=%E2%9C%93&token=[REDACTED]&x=1#f"
    )


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("token", True),
        ("api_key", True),
        ("apiKey", True),
        ("X-Amz-Signature", True),
        ("sig", True),
        ("client_secret", True),
        ("password", True),
        ("q", False),
        ("keyword", False),
        ("monkey", False),
        ("page", False),
        ("code", True),
        ("Ticket", True),
        ("hash", True),
        ("country_code", False),
        ("state", False),  # judged with its URL (redact_text)
    ],
)
def test_secret_parameter_names(name: str, secret: bool) -> None:
    assert is_secret_parameter(name) is secret


def test_known_secret_values_are_replaced_everywhere() -> None:
    redact = Redactor(["KEY-ABCDEF", "ab"])  # too-short values are ignored
    assert redact("header X: KEY-ABCDEF and ab") == f"header X: {REDACTED} and ab"


def test_log_records_are_redacted() -> None:
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "GET %s", (f"https://e.org/?token={SECRET}",), None
    )
    RedactingFilter().filter(record)
    assert SECRET not in record.getMessage()


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=200))
def test_redaction_never_raises_and_is_idempotent(text: str) -> None:
    once = redact_text(text)
    assert redact_text(once) == once


@pytest.mark.parametrize(
    ("endpoint", "text", "expected"),
    [
        # another port on the same host: not the endpoint, left whole (before: "[REDACTED]8931/page")
        (
            "http://127.0.0.1:1",
            "url: http://127.0.0.1:18931/page",
            "url: http://127.0.0.1:18931/page",
        ),
        ("http://searxng:8080", "http://searxng:80801/x", "http://searxng:80801/x"),
        ("http://searx", "http://searx.example.org/", "http://searx.example.org/"),
        # the endpoint itself, with a path, a query or at the end: hidden
        ("http://127.0.0.1:1", "GET http://127.0.0.1:1/json", "GET [REDACTED]/json"),
        ("http://searxng:8080", "http://searxng:8080?q=1", "[REDACTED]?q=1"),
        ("http://searxng:8080", "(at http://searxng:8080)", "(at [REDACTED])"),
        # the end of a sentence or a word after it is not a longer address
        ("http://searxng:8080", "see http://searxng:8080.", "see [REDACTED]."),
        ("http://searxng:8080", "http://searxng:8080-x", "[REDACTED]-x"),
        ("http://searx", "at http://searx.", "at [REDACTED]."),
        # secrets with a path or query are hidden wherever they appear
        (
            "ws://browser:9222/devtools/browser/tok3n",
            "ws://browser:9222/devtools/browser/tok3n.",
            "[REDACTED].",
        ),
        (
            "https://hooks.example/T00/SECRETabc",
            "https://hooks.example/T00/SECRETabcd",
            "[REDACTED]d",
        ),
    ],
)
def test_endpoint_secrets_are_hidden_only_where_they_end(
    endpoint: str, text: str, expected: str
) -> None:
    assert Redactor([endpoint])(text) == expected


def test_keys_are_hidden_even_inside_longer_words() -> None:
    # a key followed by more characters still shows the key: hide it anyway
    assert Redactor(["fc-SECRETKEY123"])("token fc-SECRETKEY1234") == "token [REDACTED]4"


def test_a_detail_named_code_is_an_error_code_not_an_oauth_code() -> None:
    """``code`` is a credential only as a URL parameter (RFC 6749 §4.1.2): a journal detail's
    ``code`` (``blocked_address``) and a digest under ``hash`` stay; inside a URL they go
    (fresh-clone CI: every refusal's code had become [REDACTED])."""
    from webresearch.redact import Redactor
    from webresearch.tools.redaction import redact_json
    from webresearch.types import JSONValue

    detail: dict[str, JSONValue] = {
        "code": "blocked_address",
        "hash": "sha256:ab12",
        "ticket": "T-1",
        "api_key": "k-1",
        "url": "https://a.test/cb?code=S4SECRET&x=1",
    }
    out = redact_json(detail, Redactor())
    assert isinstance(out, dict)
    assert out["code"] == "blocked_address"
    assert out["hash"] == "sha256:ab12"
    assert out["ticket"] == "T-1"
    assert out["api_key"] == "[REDACTED]"
    assert out["url"] == "https://a.test/cb?code=[REDACTED]&x=1"
