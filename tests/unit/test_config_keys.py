"""Fresh review, session 9: a misspelt key of a table setting failed open, and spending
amounts could overflow the spending arithmetic.

Before: ``WEBRESEARCH_APPROVAL='{"web_serch":"deny"}'`` denied nothing (the search ran,
exit 0); ``WEBRESEARCH_PRICES='{"brvae":0.5}'`` made every call free (a spending limit never
applied); ``SPENDING_LIMIT=1e308`` or a price of ``1e300`` made every paid call fail
``error[internal]`` (OverflowError), and a price of ``-1`` was taken and recorded as 0.
"""

from __future__ import annotations

import pytest

from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.config.names import unknown_key_error


def toolkit_error(**environ: str) -> str:
    settings = Settings.load(environ={"WEBRESEARCH_JOURNAL_URL": "memory://", **environ})
    with pytest.raises(ConfigurationError) as info:
        Toolkit(settings)
    return info.value.message


def test_a_misspelt_tool_in_the_approval_policy_is_refused_with_the_closest_name() -> None:
    message = toolkit_error(WEBRESEARCH_APPROVAL='{"web_serch": "deny"}')
    assert message.startswith("invalid setting WEBRESEARCH_APPROVAL: 'web_serch' is no tool")
    assert "did you mean 'web_search'?" in message


def test_a_tool_name_in_another_case_is_named_in_its_own() -> None:
    # second fresh review: {"WEB_FETCH": "deny"} got no "did you mean"
    message = toolkit_error(WEBRESEARCH_APPROVAL='{"WEB_FETCH": "deny"}')
    assert "'WEB_FETCH' is no tool (did you mean 'web_fetch'?" in message


def test_a_misspelt_provider_in_the_prices_is_refused_with_the_closest_name() -> None:
    message = toolkit_error(WEBRESEARCH_PRICES='{"brvae": 0.5}')
    assert "WEBRESEARCH_PRICES: 'brvae' is no search provider or page reader" in message
    assert "did you mean 'brave'?" in message
    assert "'web_search' is no" in toolkit_error(WEBRESEARCH_PRICES='{"web_search": 1}')


def test_valid_keys_are_taken() -> None:
    settings = Settings.load(
        environ={},
        journal_url="memory://",
        approval={"web_search": "deny", "web_fetch": "supervised"},
        prices={"brave": 0.5, "jina": 0.1},
    )
    Toolkit(settings)  # no error


def test_unknown_key_error_names_every_bad_key_and_its_source() -> None:
    error = unknown_key_error(
        {"prices": ("search provider", ["acme", "zzzz"], ["acme", "brave"])},
        {"prices": "prices in /etc/w.toml"},
    )
    assert error is not None
    assert error.message == (
        "invalid setting prices in /etc/w.toml: 'zzzz' is no search provider (valid: acme, brave)"
    )
    assert unknown_key_error({"approval": ("tool", [], [])}, {}) is None


@pytest.mark.parametrize("command", [["config", "show"], ["search", "x"]])
def test_the_cli_refuses_a_misspelt_approval_in_one_line(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from webresearch.cli.main import main

    monkeypatch.setenv("WEBRESEARCH_JOURNAL_URL", "memory://")
    monkeypatch.setenv("WEBRESEARCH_SEARCH_PROVIDER", "none")  # never the public internet
    monkeypatch.setenv("WEBRESEARCH_APPROVAL", '{"web_serch": "deny"}')
    monkeypatch.delenv("WEBRESEARCH_CONFIG", raising=False)
    monkeypatch.setattr("sys.argv", ["webresearch", *command])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"webresearch {command[0]}: error[configuration]: invalid setting "
        "WEBRESEARCH_APPROVAL: 'web_serch' is no tool (did you mean 'web_search'?"
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("SPENDING_LIMIT", "1e308", "must be at most 1000000000, not 1e308"),
        ("SPENDING_LIMIT", "inf", "must be a finite number"),
        ("MCP_BUDGET", "1e12", "must be at most 1000000000"),
        ("PRICES", '{"brave": 1e300}', "'brave' must be at most 1000000000"),
        ("PRICES", '{"brave": -1}', "'brave' must be 0 or more, not -1"),
        ("PRICES", '{"brave": "NaN"}', "'brave' must be a finite number"),
        ("PRICES", '{"brave": 1e309}', "'brave' must be a finite number"),
        # second fresh review: true was read as 1.0
        ("PRICES", '{"brave": true}', "'brave' must be a number, e.g. 0.005, not a boolean"),
    ],
)
def test_spending_amounts_beyond_the_documented_range_are_refused(
    name: str, value: str, words: str
) -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={f"WEBRESEARCH_{name}": value})
    assert f"WEBRESEARCH_{name}: {words}" in info.value.message


def test_the_largest_amounts_fit_the_spending_arithmetic() -> None:
    from webresearch.runtime.spending import to_nanos

    settings = Settings.load(environ={}, prices={"brave": 1e9}, spending_limit=1e9, mcp_budget=1e9)
    assert settings.spending_limit is not None
    total = to_nanos(settings.spending_limit) + to_nanos(settings.prices["brave"])
    assert total < 2**63  # a signed 64-bit integer (SQLite, Redis INCRBY)


def test_the_mcp_budget_option_has_the_settings_maximum() -> None:
    from webresearch.cli.mcp import BUDGET_MAX
    from webresearch.config import MAX_PRICE_UNITS

    assert BUDGET_MAX == MAX_PRICE_UNITS
