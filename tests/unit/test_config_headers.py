"""A provider's option sent as an HTTP header is an HTTP header value (RFC 9110 §5.5), as
the User-Agent setting already is (fresh review, session 9).

Before: ``WEBRESEARCH_FIRECRAWL_HEADERS='{"X-Token": "a\\r\\nX-Evil: 1"}'`` was taken (a
CR LF ends the header and starts another: header injection), and so was a header name with
a space, and an API key with a line break inside.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webresearch import ConfigurationError, Settings
from webresearch.hosted.firecrawl import FirecrawlOptions
from webresearch.readers.jina import JinaOptions
from webresearch.search.brave import BraveOptions

VALUE_RULE = (
    "must be visible ASCII characters, spaces and tabs only (it is sent as an HTTP header, "
    "RFC 9110 §5.5)"
)
SECRET = "(the value itself is not shown: it is a secret)"


def firecrawl(environ: dict[str, str]) -> FirecrawlOptions:
    return Settings.load(environ=environ).options("firecrawl", FirecrawlOptions)


def refused(
    environ: dict[str, str], provider: str = "firecrawl", model: type = FirecrawlOptions
) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ).options(provider, model)
    assert info.value.hint == "give a valid value, or leave the setting out to use its default"
    return info.value.message


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("tok\r\nX-Evil: 1", "not a line break (character 4)"),
        ("tok\nX-Evil: 1", "not a line break (character 4)"),
        ("to\x00k", "not the control character U+0000 (character 3)"),
        ("tök", "not the non-ASCII character 'ö' (character 2)"),
    ],
)
def test_a_header_value_with_a_line_break_or_control_character_is_refused(
    value: str, what: str
) -> None:
    env = {"WEBRESEARCH_FIRECRAWL_HEADERS": json.dumps({"X-Proxy-Token": value})}
    message = refused(env)
    assert message == (
        "invalid setting WEBRESEARCH_FIRECRAWL_HEADERS: header 'X-Proxy-Token': its value "
        f"{VALUE_RULE}, {what} {SECRET}"
    )
    assert "X-Evil" not in message and "tok" not in message


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("X Token", "not the character ' '"),
        ("X-Token:", "not the character ':'"),
        ("X-Token\r\nX-Evil", "not a line break"),
        ("", "it is empty"),
    ],
)
def test_a_header_name_that_is_no_token_is_refused(name: str, what: str) -> None:
    env = {"WEBRESEARCH_FIRECRAWL_HEADERS": json.dumps({name: "v"})}
    message = refused(env)
    assert message == (
        f"invalid setting WEBRESEARCH_FIRECRAWL_HEADERS: header name {name!r} must be ASCII "
        "letters, digits and !#$%&'*+-.^_`|~ only (RFC 9110 §5.1), e.g. X-Proxy-Token; "
        f"{what}"
    )


@pytest.mark.parametrize("name", ["Host", "content-length", "Transfer-Encoding", "Connection"])
def test_a_header_the_http_client_writes_itself_is_refused(name: str) -> None:
    # second fresh review: {"Host": "evil"} was taken (routing, request framing)
    message = refused({"WEBRESEARCH_FIRECRAWL_HEADERS": json.dumps({name: "v"})})
    assert f"header {name!r} is set by the HTTP client itself" in message


def test_the_file_names_the_table_key(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text('[reader.firecrawl]\nheaders = { "X-A" = "v\\u0007" }\n', encoding="utf-8")
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={}, path=path).options("firecrawl", FirecrawlOptions)
    assert info.value.message.startswith(
        f"invalid setting [reader.firecrawl] headers in {path}: header 'X-A': its value "
    )
    assert "U+0007 (character 2)" in info.value.message


@pytest.mark.parametrize(
    ("provider", "model"),
    [("firecrawl", FirecrawlOptions), ("jina", JinaOptions), ("brave", BraveOptions)],
)
def test_an_api_key_with_a_line_break_inside_is_refused(provider: str, model: type) -> None:
    """The key goes into ``Authorization: Bearer <key>`` (or the API's own key header)."""
    variable = f"WEBRESEARCH_{provider.upper()}_API_KEY"
    message = refused({variable: "fc-123\r\nX-Evil: 1"}, provider, model)
    assert message == (
        f"invalid setting {variable}: {VALUE_RULE}, not a line break (character 7) {SECRET}"
    )
    assert "fc-123" not in message


def test_white_space_around_a_key_or_a_header_value_is_dropped() -> None:
    """A key file's final line break worked before (the key was stripped where used)."""
    options = firecrawl(
        {
            "WEBRESEARCH_FIRECRAWL_API_KEY": "fc-123\n",
            "WEBRESEARCH_FIRECRAWL_HEADERS": '{"X-Proxy-Token": " t\\tk \\n"}',
        }
    )
    assert options.api_key is not None and options.api_key.get_secret_value() == "fc-123"
    assert options.headers["X-Proxy-Token"].get_secret_value() == "t\tk"
