"""The browser tool's actions as models and people name them (SPEC §1.4): one row each —
name, aliases, summary, its words on an action line, whether its result holds pictures.

:data:`ACTION_TABLE` is the one list of actions. :mod:`.browser_actions` adds to each row
what it runs, needs and risks (and the schema's ``action`` enum comes from it); ``webresearch
browse`` parses and lists action lines from it through :func:`webresearch.browser_actions`.
This module imports no browser, HTTP or extraction code, so ``webresearch browse --help``
builds its list of actions without loading the tool (issue 14: help costs no heavy import).
Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .browser_usage import ActionParam, BrowserActionInfo

__all__ = ["ACTION_INFO", "ACTION_TABLE", "browser_actions"]

#: The words of an element: a ref (``d1e5``) or a selector.
_TARGET = ActionParam("selector", "target", "SELECTOR|REF")

#: Every action in the order the schema's enum and the help list them.
ACTION_TABLE: tuple[BrowserActionInfo, ...] = (
    BrowserActionInfo(
        "open", ("navigate", "goto"), "go to a page", (ActionParam("url", "word", "URL"),)
    ),
    BrowserActionInfo(
        "click", (), "click an element (CSS, text=..., or a ref like d1e5)", (_TARGET,)
    ),
    BrowserActionInfo(
        "fill", (), "type into a field", (_TARGET, ActionParam("text", "text", "TEXT"))
    ),
    BrowserActionInfo(
        "press",
        (),
        "press a key (Enter, Tab, ArrowDown, ...)",
        (ActionParam("key", "word", "KEY"),),
    ),
    BrowserActionInfo(
        "evaluate",
        ("eval",),
        "run JavaScript and print its value",
        (ActionParam("expression", "source", "EXPRESSION"),),
    ),
    BrowserActionInfo(
        "content",
        (),
        "the page as markdown; OFFSET reads on where [truncated at OFFSET of …] cut it",
        (ActionParam("offset", "int", "OFFSET", optional=True),),
    ),
    BrowserActionInfo("snapshot", (), "the page's text with refs for its controls", ()),
    BrowserActionInfo(
        "screenshot",
        (),
        "a picture of the viewport; full: the whole page in tiles; a region or an element's "
        "ref: that part, enlarged to read small print",
        (
            ActionParam("full_page", "flag", "full", optional=True),
            ActionParam("clip", "region", "X,Y,W,H", optional=True),
            ActionParam("ref", "ref", "REF", optional=True),
        ),
        pictures=True,
    ),
    BrowserActionInfo(
        "scroll",
        (),
        "scroll the page (PX, default a screen) or an element into view",
        (
            ActionParam(
                "direction", "choice", "up|down|left|right", True, ("up", "down", "left", "right")
            ),
            ActionParam("amount", "int", "PX", optional=True, minimum=1),
            ActionParam("selector", "target", "SELECTOR|REF", optional=True),
        ),
    ),
    BrowserActionInfo(
        "wait",
        (),
        "wait for an element to show, or MS milliseconds",
        (
            ActionParam("ms", "int", "MS", optional=True),
            ActionParam("selector", "target", "SELECTOR|REF", optional=True),
        ),
    ),
    BrowserActionInfo("back", (), "go back in the tab's history", ()),
    BrowserActionInfo("forward", (), "go forward in the tab's history", ()),
    BrowserActionInfo("close", (), "close the tab (and its session)", ()),
)

#: Every row by its name (aliases not included).
ACTION_INFO: Mapping[str, BrowserActionInfo] = MappingProxyType(
    {info.name: info for info in ACTION_TABLE}
)


def browser_actions() -> tuple[BrowserActionInfo, ...]:
    """Every browser action as people see it: name, aliases, summary and its words on an
    action line (``webresearch browse`` parses and lists them from these), in table order."""
    return ACTION_TABLE
