"""Human-facing tool titles in English, Russian and Chinese (the ``tool_titles_language``
setting; the seed notes' ``withWebToolTitles``).

Titles are for people: the MCP ``title`` and annotation title a client shows, CLI headings.
The model never sees them — names, descriptions and input schemas stay constant whatever the
language (SPEC §1), so switching the language changes nothing a prompt cache holds. Each
tool's spec carries its own titles (``title`` in English, ``titles`` for the others); a tool
without a translation (a plugin's) keeps its own title.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Literal

from .catalog import ALL_SPECS
from .specs import ToolSpec

__all__ = ["LANGUAGES", "TITLES", "Language", "localized", "title_of"]

Language = Literal["en", "ru", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "ru", "zh")


def title_of(spec: ToolSpec, language: str) -> str:
    """The title of ``spec`` in ``language`` (its English title when there is none)."""
    return spec.titles.get(language, spec.title) if language != "en" else spec.title


def localized(spec: ToolSpec, language: str) -> ToolSpec:
    """``spec`` with its title in ``language``; everything the model sees is unchanged."""
    title = title_of(spec, language)
    return spec if title == spec.title else dataclasses.replace(spec, title=title)


#: tool name → title, per language, of every built-in tool.
TITLES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {
        language: MappingProxyType({s.name: title_of(s, language) for s in ALL_SPECS})
        for language in LANGUAGES
    }
)
