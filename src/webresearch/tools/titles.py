"""Human-facing tool titles in English, Russian and Chinese (the ``tool_titles_language``
setting; the seed notes' ``withWebToolTitles``).

Titles are for people: the MCP ``title`` and annotation title a client shows, CLI headings.
The model never sees them — names, descriptions and input schemas stay constant whatever the
language (SPEC §1), so switching the language changes nothing a prompt cache holds.
English titles are the specs' own (:mod:`webresearch.tools.specs`); a tool without a
translation (a plugin's) keeps its own title.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Literal

from .specs import ALL_SPECS, ToolSpec

__all__ = ["LANGUAGES", "TITLES", "Language", "localized", "title_of"]

Language = Literal["en", "ru", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "ru", "zh")

#: tool name → title, per language. Russian titles of the three web tools are the seed
#: notes' own ("Поиск в интернете", "Чтение страницы", "Скриншот страницы").
TITLES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType({spec.name: spec.title for spec in ALL_SPECS}),
        "ru": MappingProxyType(
            {
                "web_search": "Поиск в интернете",
                "web_fetch": "Чтение страницы",
                "browser_open": "Открыть страницу в браузере",
                "page_screenshot": "Скриншот страницы",
                "fetch_image": "Изображение из интернета",
                "view_image": "Изображение из рабочей папки",
                "image_info": "Сведения об изображении",
                "browser": "Веб-браузер",
            }
        ),
        "zh": MappingProxyType(
            {
                "web_search": "网络搜索",
                "web_fetch": "读取网页",
                "browser_open": "在浏览器中打开网页",
                "page_screenshot": "网页截图",
                "fetch_image": "查看网络图片",
                "view_image": "查看工作区图片",
                "image_info": "图片信息",
                "browser": "网页浏览器",
            }
        ),
    }
)


def title_of(name: str, language: str, default: str) -> str:
    """The title of tool ``name`` in ``language`` (``default`` when there is none)."""
    table = TITLES.get(language) or TITLES["en"]
    return table.get(name, default)


def localized(spec: ToolSpec, language: str) -> ToolSpec:
    """``spec`` with its title in ``language``; everything the model sees is unchanged."""
    title = title_of(spec.name, language, spec.title)
    return spec if title == spec.title else dataclasses.replace(spec, title=title)
