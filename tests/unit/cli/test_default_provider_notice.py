"""Session 10 review: with no provider set, ``webresearch search`` asked ddgs — the keyless
default (SPEC §1.2), which sends the query to public search engines — and said nothing of
it. Now one line on stderr says so before the search, and how to choose a provider; a
provider that was chosen (by any setting or ``--provider``) gets no line.

No search leaves this process: ddgs's client is replaced by one that refuses to run and the
provider's own call by a stub answering two results."""

from __future__ import annotations

import json
from typing import Any

import ddgs
import pytest
from click.testing import CliRunner

from webresearch import Settings
from webresearch.cli.main import cli
from webresearch.config.search_notice import DEFAULT_PROVIDER_NOTICE, default_provider_notice

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": None}


@pytest.mark.parametrize(
    ("environ", "notice"),
    [
        ({}, True),
        ({"WEBRESEARCH_SEARCH_PROVIDER": "ddgs"}, False),  # chosen, even if the same
        ({"WEBRESEARCH_SEARCH_PROVIDER": "brave"}, False),
        ({"WEBRESEARCH_SEARCH_PROVIDERS": "searxng,ddgs"}, False),
        ({"WEBRESEARCH_SEARXNG_URL": "http://127.0.0.1:9"}, False),
        ({"WEBRESEARCH_SEARXNG_URL": " "}, True),  # set to nothing: ddgs still answers
    ],
)
def test_the_notice_is_for_the_default_only(environ: dict[str, str], notice: bool) -> None:
    expected = DEFAULT_PROVIDER_NOTICE if notice else None
    assert default_provider_notice(Settings.load(environ=environ)) == expected


class NoClient:
    def __init__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a test must not reach ddgs's client")


@pytest.fixture
def stub_ddgs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from webresearch.search.ddgs import DdgsProvider

    asked: list[str] = []

    def answer(_self: DdgsProvider, query: str, _kwargs: dict[str, Any]) -> list[dict[str, str]]:
        asked.append(query)
        return [
            {"title": "One", "href": "https://one.test/", "body": "First."},
            {"title": "Two", "href": "https://two.test/", "body": "Second."},
        ]

    monkeypatch.setattr(ddgs, "DDGS", NoClient)
    monkeypatch.setattr(DdgsProvider, "_run", answer)
    return asked


def test_a_search_with_no_provider_set_says_so_on_stderr(stub_ddgs: list[str]) -> None:
    result = CliRunner().invoke(cli, ["search", "tide tables"], env=ENV)
    assert result.exit_code == 0, result.stderr
    assert stub_ddgs == ["tide tables"]
    assert "[One](https://one.test/)" in result.stdout
    assert result.stderr.splitlines()[0] == f"webresearch search: {DEFAULT_PROVIDER_NOTICE}"
    assert "public search engines" in DEFAULT_PROVIDER_NOTICE
    assert "WEBRESEARCH_SEARCH_PROVIDER" in DEFAULT_PROVIDER_NOTICE


def test_a_chosen_provider_gets_no_notice(stub_ddgs: list[str]) -> None:
    result = CliRunner().invoke(cli, ["search", "tide tables", "--provider", "ddgs"], env=ENV)
    assert result.exit_code == 0, result.stderr
    assert stub_ddgs == ["tide tables"]
    assert "no search provider is set" not in result.stderr


def test_the_notice_is_a_json_record_in_json_logs(stub_ddgs: list[str]) -> None:
    result = CliRunner().invoke(
        cli, ["--log-format", "json", "search", "tide tables", "--json"], env=ENV
    )
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stderr.splitlines()]
    assert any(DEFAULT_PROVIDER_NOTICE in r["message"] for r in records)


def test_arguments_refused_before_any_search_get_no_notice(stub_ddgs: list[str]) -> None:
    """Nothing was sent, so nothing is said about where it would have gone: the error stays
    the one line (the surrogate test in tests/unit/runtime caught the extra line)."""
    result = CliRunner().invoke(cli, ["search", "x" * 501], env=ENV)
    assert result.exit_code != 0
    assert stub_ddgs == []
    assert "no search provider is set" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_the_notice_comes_before_the_query_is_sent(
    stub_ddgs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 10 review, 7: it was said after the search returned (a Ctrl-C during the
    search: no notice at all). The order of the two events is recorded here."""
    import webresearch.cli.search as search_cmd

    said: list[str] = []
    monkeypatch.setattr(
        search_cmd, "say", lambda message, **_kw: said.append(f"{len(stub_ddgs)} {message}")
    )
    result = CliRunner().invoke(cli, ["search", "tide tables"], env=ENV)
    assert result.exit_code == 0, result.stderr
    assert said == [f"0 {DEFAULT_PROVIDER_NOTICE}"]  # no query sent yet when it was said


def test_a_provider_check_that_asks_ddgs_says_so(stub_ddgs: list[str]) -> None:
    """Session 10 review, 7: ``search --test`` sent its query to ddgs and never said so."""
    result = CliRunner().invoke(cli, ["search", "--test", "tide tables"], env=ENV)
    assert stub_ddgs == ["tide tables"]
    assert f"webresearch search: {DEFAULT_PROVIDER_NOTICE}" in result.stderr.splitlines()


def test_a_chosen_provider_check_gets_no_notice(stub_ddgs: list[str]) -> None:
    result = CliRunner().invoke(cli, ["search", "--test", "tide", "--provider", "ddgs"], env=ENV)
    assert stub_ddgs == ["tide"]
    assert "no search provider is set" not in result.stderr
