"""Localized tool titles: every tool has one in each language, and switching the language
changes titles only — never what the model sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.catalog import ALL_SPECS
from webresearch.tools.titles import LANGUAGES, TITLES, localized


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tool_has_a_distinct_title_in_every_language(language: str) -> None:
    titles = [TITLES[language][spec.name] for spec in ALL_SPECS]
    assert all(t.strip() for t in titles)
    assert len(set(titles)) == len(titles)


def test_english_titles_are_the_specs_own() -> None:
    for spec in ALL_SPECS:
        assert localized(spec, "en") is spec
        assert TITLES["en"][spec.name] == spec.title


def test_the_seed_notes_russian_titles() -> None:
    assert TITLES["ru"]["web_search"] == "Поиск в интернете"
    assert TITLES["ru"]["web_fetch"] == "Чтение страницы"
    assert TITLES["ru"]["page_screenshot"] == "Скриншот страницы"


def test_a_tool_without_a_translation_keeps_its_title() -> None:
    import dataclasses

    plugin = dataclasses.replace(ALL_SPECS[0], name="acme_tool", title="Acme", titles={})
    assert localized(plugin, "ru").title == "Acme"


async def test_switching_the_language_changes_titles_only(tmp_path: Path) -> None:
    run = RunContext(workspace=tmp_path)
    seen = {}
    for language in LANGUAGES:
        settings = Settings.load(
            environ={"WEBRESEARCH_TOOL_TITLES_LANGUAGE": language},
            journal_url="memory://",
            search_provider="none",
        )
        async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
            specs = toolkit.tools(run)
        assert [s.title for s in specs] == [TITLES[language][s.name] for s in specs]
        seen[language] = [(s.to_dict(), s.read_only, s.open_world, s.annotations) for s in specs]
    assert seen["en"] == seen["ru"] == seen["zh"]
