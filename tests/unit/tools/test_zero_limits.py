"""A limit of 0 (or ``none``) means no limit, everywhere a count limit is configured; a negative
one is refused at start with the setting named (issue 21 item 8).

Before: ``WEBRESEARCH_SEARCH_RATE_LIMIT=0`` refused every call and told the model to "retry
after 60 s", which never worked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.cli.main import cli
from webresearch.errors import ConfigurationError
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.base import CallContext, RateLimit, ToolEntry
from webresearch.tools.limits import browser_limit, fetch_limit, search_limit
from webresearch.tools.services import Services
from webresearch.tools.web_fetch import WEB_FETCH

#: Every count-limit setting, with its default (what 0 used to turn into "refuse all").
LIMITS = {
    "search_rate_limit": 30,
    "fetch_rate_limit": None,
    "browser_rate_limit": 60,
    "user_link_views": 3,
}
NO_LIMIT = ["0", "none", "None", "OFF", " unlimited "]


@pytest.mark.parametrize("name", LIMITS)
@pytest.mark.parametrize("given", NO_LIMIT)
def test_zero_and_none_mean_no_limit_from_the_environment(name: str, given: str) -> None:
    settings = Settings.load(environ={f"WEBRESEARCH_{name.upper()}": given})
    assert getattr(settings, name) is None


@pytest.mark.parametrize("name", LIMITS)
def test_zero_and_none_mean_no_limit_from_the_file_and_arguments(
    name: str, tmp_path: Path
) -> None:
    config = tmp_path / "w.toml"
    config.write_text(f"{name} = 0\n", encoding="utf-8")
    assert getattr(Settings.load(environ={}, path=config), name) is None
    config.write_text(f'{name} = "none"\n', encoding="utf-8")
    assert getattr(Settings.load(environ={}, path=config), name) is None
    zero: dict[str, Any] = {name: 0}
    seven: dict[str, Any] = {name: 7}
    assert getattr(Settings.load(environ={}, **zero), name) is None
    assert getattr(Settings.load(environ={}, **seven), name) == 7
    assert getattr(Settings.load(environ={}), name) == LIMITS[name]


@pytest.mark.parametrize("name", LIMITS)
@pytest.mark.parametrize("given", ["-1", "-30"])
def test_negative_limits_are_refused_at_start_naming_the_setting(name: str, given: str) -> None:
    env = f"WEBRESEARCH_{name.upper()}"
    with pytest.raises(ConfigurationError) as caught:
        Settings.load(environ={env: given})
    assert env in caught.value.message
    assert "0 / none for no limit" in caught.value.message


@pytest.mark.parametrize("name", LIMITS)
def test_negative_limits_in_the_file_name_the_key(name: str, tmp_path: Path) -> None:
    config = tmp_path / "w.toml"
    config.write_text(f"{name} = -2\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=f"{name} in {config}"):
        Settings.load(environ={}, path=config)


def test_a_negative_limit_stops_the_cli_with_exit_2() -> None:
    env = {"WEBRESEARCH_SEARCH_RATE_LIMIT": "-1", "WEBRESEARCH_JOURNAL_URL": "memory://"}
    done = CliRunner().invoke(cli, ["fetch", "http://a.example/"], env=env)
    assert done.exit_code == 2, done.output
    assert "WEBRESEARCH_SEARCH_RATE_LIMIT" in done.output and "Traceback" not in done.output


def test_a_rate_limit_of_zero_is_no_rule_wherever_it_is_declared() -> None:
    assert RateLimit("my_tool", 0, 60.0).rule is None
    assert RateLimit("my_tool", None, 60.0).rule is None
    assert RateLimit("my_tool", 2, 60.0).rule is not None


def _limited(limit: Any) -> Any:
    def build(services: Services) -> ToolEntry[Any]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            await ctx.check_scope(arguments["url"])
            await ctx.rate_limit()
            return ToolResult("ok")

        return ToolEntry(spec=WEB_FETCH, run=run, rate_limit=limit(services.settings))

    return build


@pytest.mark.parametrize("limit", [search_limit, fetch_limit, browser_limit])
async def test_with_no_limit_every_call_runs(limit: Any) -> None:
    settings = Settings.load(
        environ={},
        search_rate_limit=0,
        fetch_rate_limit="none",
        browser_rate_limit=0,
    )
    async with Toolkit(settings, journal=MemoryJournal(), builders=[_limited(limit)]) as toolkit:
        results = [await toolkit.call("web_fetch", {"url": "https://a.example/"}) for _ in range(90)]
    assert all(r.ok for r in results), [r.text for r in results if not r.ok][:1]


async def test_a_limit_above_zero_still_refuses() -> None:
    settings = Settings.load(environ={}, search_rate_limit=2)
    async with Toolkit(
        settings, journal=MemoryJournal(), builders=[_limited(search_limit)]
    ) as toolkit:
        results = [await toolkit.call("web_fetch", {"url": "https://a.example/"}) for _ in range(3)]
    assert [r.ok for r in results] == [True, True, False]
    assert results[2].error is not None and results[2].error.code == "rate_limited"


async def test_user_link_views_of_zero_count_no_limit() -> None:
    run = RunContext(
        fetch_scope="user_links", user_messages=("please read https://a.example/",)
    )
    for views, expected in ((0, [True] * 6), (2, [True, True, False, False, False, False])):
        settings = Settings.load(environ={}, user_link_views=views)
        async with Toolkit(
            settings, journal=MemoryJournal(), builders=[_limited(fetch_limit)]
        ) as toolkit:
            results = [
                await toolkit.call("web_fetch", {"url": "https://a.example/"}, run=run)
                for _ in range(6)
            ]
        assert [r.ok for r in results] == expected


@pytest.mark.parametrize("budget", [-1.0, float("nan")])
def test_a_negative_run_budget_is_refused(budget: float) -> None:
    with pytest.raises(ValueError, match="budget must be 0 or more"):
        RunContext(budget=budget)
    assert RunContext(budget=0.0).budget == 0.0  # a real budget: free calls only
