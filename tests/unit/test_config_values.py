"""A wrong setting in our own words (fresh review, session 8): what was expected, the kind
of value given and an example of a valid one, never pydantic's wording; a list that is not
one is an error; a User-Agent that is no HTTP header value is refused when settings are
read; and the CLI says so in one line, without ``Usage: … Try --help``.

Before: ``WEBRESEARCH_FETCH_MAX_BYTES=abc`` said ``must be a valid integer, unable to parse
string as an integer`` after a usage block, ``WEBRESEARCH_ALLOWED_DOMAINS='[1,2'`` was the
two domains ``[1`` and ``2``, and a User-Agent holding CR LF was taken (the request then
failed and the error blamed the server).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from webresearch import ConfigurationError, Settings
from webresearch.cli.main import cli

#: pydantic's words, none of which a person should read.
PYDANTIC = ("Input should", "valid integer", "valid number", "valid boolean", "unable to",
            "String should match", "greater than or equal", "less than or equal", "type=")  # fmt: skip


def problem(environ: dict[str, str]) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ)
    message = info.value.message
    for words in PYDANTIC:
        assert words not in message
    return message


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("FETCH_MAX_BYTES", "abc", "must be a whole number, e.g. 49152, not text ('abc')"),
        ("FETCH_MAX_BYTES", "1.5", "must be a whole number, e.g. 49152, not a decimal number"),
        ("FETCH_MAX_BYTES", "", "must be a whole number, e.g. 49152, not an empty value"),
        ("FETCH_MAX_BYTES", "0", "must be 1 or more, not 0"),
        ("FETCH_MAX_BYTES", "999999", "must be at most 131072, not 999999"),
        ("CONNECT_TIMEOUT_S", "soon", "must be a number, e.g. 15, not text ('soon')"),
        ("CONNECT_TIMEOUT_S", "0", "must be above 0, not 0"),
        ("ALLOW_PRIVATE", "maybe", "must be true or false (also 1/0, yes/no, on/off), not text"),
        ("BROWSER_VIEWPORT", "big", "must be WIDTHxHEIGHT in CSS px, each 10 to 9999, e.g. 1"),
        # Chromium's start hung for good with a 20000x20000 window (fresh review, session 8)
        ("BROWSER_VIEWPORT", "20000x20000", "must be WIDTHxHEIGHT in CSS px, each 10 to 9999"),
        ("ROBOTS_PRODUCT_TOKEN", "my bot", "must be 1 to 64 letters, '-' or '_', e.g. webres"),
        ("PRICES", '{"brave": "cheap"}', "'brave' must be a number, e.g. 2.5, not text"),
        ("PRICES", "{brave", 'must be a JSON object, e.g. {"name": 1}'),
        ("RENDER", "sometimes", "must be 'auto', 'never' or 'always', not 'sometimes'"),
    ],
)
def test_a_wrong_value_is_named_with_its_kind_and_an_example(
    name: str, value: str, words: str
) -> None:
    message = problem({f"WEBRESEARCH_{name}": value})
    assert message.startswith(f"invalid setting WEBRESEARCH_{name}: {words}")


def test_a_secret_is_named_by_its_kind_only() -> None:
    message = problem({"WEBRESEARCH_ROBOTS_PRODUCT_TOKEN": "hunter2 pass"})
    assert "hunter2" not in message and "not text" in message


def test_the_error_says_the_next_step() -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={"WEBRESEARCH_FETCH_MAX_BYTES": "abc"})
    assert info.value.hint == "give a valid value, or leave the setting out to use its default"


@pytest.mark.parametrize(
    "text", ['["a.example", "b', "['a.example']", '["a.example", ["b"]]', "[1, 2]"]
)
def test_a_json_list_that_is_not_one_is_an_error(text: str) -> None:
    message = problem({"WEBRESEARCH_ALLOWED_DOMAINS": text})
    assert message.startswith("invalid setting WEBRESEARCH_ALLOWED_DOMAINS: ")
    assert 'lists are comma-separated (a.example, b.example) or JSON (["a.example"' in message


@pytest.mark.parametrize("text", ["[1,2", "[a.example]", "a.example]", "a.example,[b"])
def test_brackets_split_at_commas_are_no_domains(text: str) -> None:
    """``[1,2`` was taken as two domains, ``[1`` and ``2``."""
    message = problem({"WEBRESEARCH_ALLOWED_DOMAINS": text})
    assert "not a domain pattern" in message
    assert (
        'a list is ["a.example", "*.b.example"] in the settings file (or JSON), '
        "a.example,*.b.example in an environment variable"
    ) in message


def test_ipv6_hosts_in_brackets_are_still_a_comma_separated_list() -> None:
    text = "[::1]:8000,[::1]"
    settings = Settings.load(environ={"WEBRESEARCH_MCP_ALLOWED_HOSTS": text})
    assert settings.mcp_allowed_hosts == ("[::1]:8000", "[::1]")


def test_a_list_in_either_form_is_read() -> None:
    for text in ('["a.example", "*.b.example"]', "a.example, *.b.example"):
        settings = Settings.load(environ={"WEBRESEARCH_ALLOWED_DOMAINS": text})
        assert settings.allowed_domains == ("a.example", "*.b.example")


@pytest.mark.parametrize("item", ['"a.example"', "[a", "a.example;", "a\tb"])
def test_a_domain_holds_no_quote_bracket_or_separator(item: str) -> None:
    message = problem({"WEBRESEARCH_BLOCKED_DOMAINS": f"ok.example,{item}"})
    assert "not a domain pattern" in message


def test_an_idn_domain_as_typed_is_kept() -> None:
    settings = Settings.load(environ={"WEBRESEARCH_BLOCKED_DOMAINS": "bücher.example"})
    assert settings.blocked_domains == ("bücher.example",)


@pytest.mark.parametrize(
    ("agent", "what"),
    [
        ("bot/1\r\nX-Injected: 1", "not a line break (character 6)"),
        ("bot/1\nx", "not a line break (character 6)"),
        ("bot\x00/1", "not the control character U+0000 (character 4)"),
        ("bot\x7f", "not the control character U+007F (character 4)"),
        ("robot-café/1", "not the non-ASCII character 'é' (character 10)"),
    ],
)
def test_a_user_agent_must_be_an_http_header_value(agent: str, what: str) -> None:
    message = problem({"WEBRESEARCH_USER_AGENT": agent})
    assert message == (
        "invalid setting WEBRESEARCH_USER_AGENT: must be visible ASCII characters, spaces "
        f"and tabs only (it is sent as an HTTP header, RFC 9110 §5.5), {what}"
    )


def test_a_user_agent_with_spaces_and_tabs_inside_is_kept() -> None:
    settings = Settings.load(environ={"WEBRESEARCH_USER_AGENT": " bot/1 (+https://x.example)\t"})
    assert settings.user_agent == "bot/1 (+https://x.example)"
    assert Settings.load(environ={"WEBRESEARCH_USER_AGENT": "a\tb"}).user_agent == "a\tb"


@pytest.mark.parametrize("command", [["fetch", "https://x.example/"], ["tools"], ["search", "q"]])
def test_the_cli_says_a_wrong_setting_in_one_line_without_usage(command: list[str]) -> None:
    env = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_FETCH_MAX_BYTES": "abc"}
    result = CliRunner().invoke(cli, command, env=env)
    assert result.exit_code == 2
    assert result.stderr == (
        f"webresearch {command[0]}: error[configuration]: invalid setting "
        "WEBRESEARCH_FETCH_MAX_BYTES: must be a whole number, e.g. 49152, not text ('abc') "
        "(next step: give a valid value, or leave the setting out to use its default)\n"
    )


@pytest.mark.parametrize("command", [["tools"], ["config", "show"], ["journal"]])
def test_a_wrong_provider_option_is_one_line_too(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A provider's option is read when the toolkit starts, after the command's settings:
    ``tools`` and ``config show`` ended in a traceback, ``journal`` in a usage block."""
    from webresearch.cli.main import main

    for name, value in {
        "WEBRESEARCH_JOURNAL_URL": "memory://",
        "WEBRESEARCH_FIRECRAWL_CREDIT_PRICE": "cheap",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("WEBRESEARCH_CONFIG", raising=False)
    monkeypatch.setattr("sys.argv", ["webresearch", *command])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        f"webresearch {command[0]}: error[configuration]: invalid setting "
        "WEBRESEARCH_FIRECRAWL_CREDIT_PRICE: must be a number, e.g. 0, not text ('cheap') "
        "(next step: give a valid value, or leave the setting out to use its default)\n"
    )
