"""One table of browser actions (issue 15): the schema's enum, the accepted names, the checks,
the risk and the CLI's parser and help all derive from ``ACTIONS`` — one name per action."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import webresearch
from webresearch import InvalidArguments, Settings
from webresearch.cli import browse
from webresearch.images.region import Region
from webresearch.tools.arguments import ArgumentValidator
from webresearch.tools.browser_actions import (
    ACTIONS,
    ACTIONS_BY_NAME,
    BROWSER,
    BrowserArgs,
    normalize_arguments,
)
from webresearch.tools.browser_table import ACTION_TABLE
from webresearch.tools.browser_tool import call_timeout
from webresearch.tools.browser_usage import ActionParam, BrowserActionInfo

VALIDATOR = ArgumentValidator(BROWSER, normalize_arguments)


def _typed(arguments: dict[str, Any]) -> BrowserArgs:
    return BrowserArgs.from_json(VALIDATOR.validate(arguments))


def test_the_schema_lists_each_action_once_by_its_one_name() -> None:
    properties = BROWSER.input_schema["properties"]
    assert isinstance(properties, dict) and isinstance(properties["action"], dict)
    enum = properties["action"]["enum"]
    assert enum == [a.name for a in ACTIONS]
    assert "evaluate" in enum and "eval" not in enum and "navigate" not in enum
    assert [i.name for i in webresearch.browser_actions()] == enum


@pytest.mark.parametrize(
    ("given", "name"),
    [("eval", "evaluate"), ("navigate", "open"), ("goto", "open"), ("Evaluate", "evaluate")],
)
def test_aliases_are_accepted_without_schema_characters(given: str, name: str) -> None:
    arguments: dict[str, Any] = {"action": given, "url": "https://example.org", "expression": "1"}
    assert _typed(arguments).action == name


def test_fill_takes_value_as_the_texts_name() -> None:
    args = _typed({"action": "fill", "selector": "#q", "value": "hello"})
    assert args.text == "hello"
    # Both names at once: the schema's rule stands (no silent choice between them).
    with pytest.raises(InvalidArguments, match="value"):
        _typed({"action": "fill", "selector": "#q", "value": "a", "text": "b"})
    # value belongs to fill only.
    with pytest.raises(InvalidArguments, match="value"):
        _typed({"action": "click", "selector": "#q", "value": "a"})


@pytest.mark.parametrize("odd", [None, [], "open", {"action": 3}, {"action": "dance"}])
def test_normalizing_leaves_what_it_does_not_know_to_validation(odd: object) -> None:
    assert normalize_arguments(odd) == odd


def test_needs_and_risk_come_from_the_table() -> None:
    for action in ACTIONS:
        assert ACTIONS_BY_NAME[action.name] is action
    with pytest.raises(InvalidArguments, match="browser action fill needs text"):
        _typed({"action": "fill", "selector": "#q"})
    assert {a.name for a in ACTIONS if a.risk == "medium"} == {
        "click",
        "fill",
        "press",
        "evaluate",
    }


def test_offset_timeout_and_clip_are_typed() -> None:
    args = _typed({"action": "screenshot", "clip": "10, 20,300,40", "timeout_ms": 9000})
    assert args.clip == Region(10, 20, 300, 40) and args.timeout_ms == 9000
    assert _typed({"action": "content", "offset": 4096}).offset == 4096
    for bad in ("10,20,300", "a,b,c,d", "0,0,0,10", "-1,0,5,5"):
        with pytest.raises(InvalidArguments, match="clip"):
            _typed({"action": "screenshot", "clip": bad})
    with pytest.raises(InvalidArguments, match="offset"):
        _typed({"action": "content", "offset": -1})


def test_timeout_ms_is_bounded_by_the_ceiling_setting() -> None:
    settings = Settings.load(environ={}, browser_max_timeout_s=60, browser_action_timeout_s=45)
    assert call_timeout(settings, None) == (45, None)
    assert call_timeout(settings, 90_000) == (
        60,
        "note: timeout_ms was capped at 60000 (the operator's ceiling)",
    )
    assert call_timeout(settings, 500) == (0.5, None)


# --- the CLI derives its parser and help from the same table ---------------------------


def test_the_tool_runs_the_light_tables_rows_in_its_order() -> None:
    """``browse`` reads the table without the tool (fast --help); the tool adds behaviour to
    those same rows, so neither can list an action, alias or word the other lacks."""
    seen = [BrowserActionInfo(a.name, a.aliases, a.summary, a.params, a.pictures) for a in ACTIONS]
    assert seen == list(ACTION_TABLE)
    assert webresearch.browser_actions() == ACTION_TABLE


def test_every_action_and_alias_is_in_the_help() -> None:
    text = browse.help_text()
    for info in webresearch.browser_actions():
        assert f"  {info.usage}" in text, info.name
        for alias in info.aliases:
            assert alias in text
    assert "screenshot [full] [X,Y,W,H] [REF] [FILE]" in text


@pytest.mark.parametrize(
    ("line", "want", "file"),
    [
        ("content 49152", {"action": "content", "offset": 49152}, None),
        (
            "screenshot 0,0,300,200 zoom.png",
            {"action": "screenshot", "clip": "0,0,300,200"},
            "zoom.png",
        ),
        ("screenshot d3e4", {"action": "screenshot", "ref": "d3e4"}, None),
        ("screenshot full", {"action": "screenshot", "full_page": True}, None),
        ("evaluate 'a' + \"b", {"action": "evaluate", "expression": "'a' + \"b"}, None),
        ("goto https://example.org", {"action": "open", "url": "https://example.org"}, None),
        ("NAVIGATE https://example.org", {"action": "open", "url": "https://example.org"}, None),
        ("scroll up", {"action": "scroll", "direction": "up"}, None),
        ("wait d2e1", {"action": "wait", "ref": "d2e1"}, None),
    ],
)
def test_lines_parse_by_the_tables_words(line: str, want: dict[str, Any], file: str | None) -> None:
    assert browse.parse_action(line) == (want, file)


@pytest.mark.parametrize(
    "bad", ["content -5", "content 1 2", "snapshot now", "press", "evaluate", "scroll up 0"]
)
def test_lines_that_do_not_fit_say_the_usage(bad: str) -> None:
    with pytest.raises(browse.ActionError):
        browse.parse_action(bad)


def test_a_mistyped_action_names_the_close_one() -> None:  # new-user test 16, L2
    with pytest.raises(browse.ActionError, match=r"did you mean 'click'\? type help"):
        browse.parse_action("clik d1e2")
    with pytest.raises(browse.ActionError) as unlike:
        browse.parse_action("zzzzqq")
    assert "did you mean" not in str(unlike.value)


def test_a_mistyped_do_action_points_to_the_help_not_to_the_prompt() -> None:
    """``--do 'clik #x'`` said "type help", which only the interactive prompt understands
    (new-user test 18): in ``--do`` mode it points to ``--help``, which lists the actions."""
    from click.testing import CliRunner

    from webresearch.cli.main import cli

    result = CliRunner().invoke(
        cli,
        ["browse", "http://127.0.0.1:9/", "--do", "clik #x"],
        env={"WEBRESEARCH_JOURNAL_URL": "memory://"},
    )
    assert result.exit_code == 2
    assert "did you mean 'click'?" in result.stderr
    assert "type help" not in result.stderr
    assert "webresearch browse --help" in result.stderr


def test_a_new_row_reaches_the_cli_without_touching_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding an action touches the table (and its test): the CLI parses and lists it."""
    rows = webresearch.browser_actions()
    hover = BrowserActionInfo(
        "hover",
        ("mouseover",),
        "move the mouse over an element",
        (ActionParam("selector", "target", "SELECTOR|REF"),),
    )
    monkeypatch.setattr(browse, "browser_actions", lambda: (*rows, hover))
    assert browse.parse_action("mouseover d1e2") == ({"action": "hover", "ref": "d1e2"}, None)
    assert "hover SELECTOR|REF" in browse.help_text()
    assert dataclasses.replace(hover, aliases=()).usage == "hover SELECTOR|REF"


@pytest.mark.parametrize(
    "raw", [" https://example.org/a", "https://example.org/a \n", "\thttps://example.org/a"]
)
def test_every_tool_reads_a_url_as_the_guard_and_a_browser_do(raw: str) -> None:
    """web_fetch, fetch_image/page_screenshot/browser_open and the browser's open all clean
    a URL the one WHATWG way (outer spaces and controls, tabs and newlines), so the URL
    checked, cached and shown is the one requested."""
    from webresearch.tools.arguments import UrlArgs
    from webresearch.tools.web_fetch import WebFetchArgs

    assert _typed({"action": "open", "url": raw}).url == "https://example.org/a"
    assert UrlArgs.from_json({"url": raw}).url == "https://example.org/a"
    assert WebFetchArgs.from_json({"url": raw}).url == "https://example.org/a"
