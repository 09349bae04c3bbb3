"""The built-in tools, in listing order: each tool's spec and its builder.

A tool is one module (its spec, typed arguments, implementation and ``build``); listing it
here registers it in every Toolkit. Tools of a plugin or an application are passed to
``Toolkit(builders=…)`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from . import (
    browser_actions,
    browser_open,
    browser_tool,
    image_info,
    image_tools,
    page_screenshot,
    web_fetch,
    web_search,
)
from .base import Tool, Unavailable
from .services import Services
from .specs import ToolSpec

__all__ = ["ALL_SPECS", "BUILTIN_TOOLS", "SPECS_BY_NAME", "Builder", "default_builders"]

#: ``build(services)`` → the tool, or why it cannot be offered in this process.
Builder = Callable[[Services], Tool | Unavailable]

#: (spec, builder) of every built-in tool, in listing order.
BUILTIN_TOOLS: tuple[tuple[ToolSpec, Builder], ...] = (
    (web_search.WEB_SEARCH, web_search.build),
    (web_fetch.WEB_FETCH, web_fetch.build),
    (browser_open.BROWSER_OPEN, browser_open.build),
    (page_screenshot.PAGE_SCREENSHOT, page_screenshot.build),
    (image_tools.FETCH_IMAGE, image_tools.build_fetch_image),
    (image_tools.VIEW_IMAGE, image_tools.build_view_image),
    (image_info.IMAGE_INFO, image_info.build),
    (browser_actions.BROWSER, browser_tool.build),
)

#: Every built-in tool spec, in listing order.
ALL_SPECS: tuple[ToolSpec, ...] = tuple(spec for spec, _ in BUILTIN_TOOLS)
SPECS_BY_NAME: MappingProxyType[str, ToolSpec] = MappingProxyType({s.name: s for s in ALL_SPECS})


def default_builders() -> list[Builder]:
    """The built-in tools' builders, in listing order."""
    return [build for _, build in BUILTIN_TOOLS]
