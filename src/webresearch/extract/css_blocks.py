"""The rules of a page's sheets that say ``display``/``visibility``, and a block's
declarations, read cheaply. Pure functions.

:mod:`webresearch.extract.style_rules` needs, of a page's screen ``<style>`` sheets, only
the rules whose block says ``display``/``visibility``; tinycss2 (pure Python) over a whole
sheet took seconds on a 1 MB sheet. :func:`display_rules` finds those declarations with a
regular expression in the sheet's lower-case, comment-blanked text and takes the rules around
them from the sheet's block structure (:class:`~webresearch.extract.page_sheets.Sheet`, read
once for every reader of the page's styles). :func:`~webresearch.extract.page_sheets.declarations` reads a block's declarations. Both give
what a plain brace scan and tinycss2 give.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from webresearch.extract.page_sheets import PageSheets, Sheet

__all__ = [
    "HIDE_DECLARATION",
    "SHOW_DECLARATION",
    "CssRule",
    "display_rules",
    "print_only",
    "screen_now",
    "screen_sheets",
]

#: A hiding declaration, searched in the lower-cased sheet (``re.I`` is slow).
HIDE_DECLARATION = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)")
#: A showing declaration (``display`` other than ``none``, ``visibility: visible``), likewise.
SHOW_DECLARATION = re.compile(r"display\s*:\s*(?!none\b)[a-z-]|visibility\s*:\s*visible")
_SCREEN_QUERY = re.compile(r"(?:only\s+)?(?:all|screen)", re.I)
_PRINT_QUERY = re.compile(r"(?:only\s+)?print", re.I)


@dataclass(frozen=True, slots=True)
class CssRule:
    """One qualified rule: its selector text, declaration text and enclosing at-rules'
    preludes (outermost first), and whether the block holds a hiding or a showing
    declaration (before parsing)."""

    prelude: str
    block: str
    context: tuple[str, ...]
    hides: bool
    shows: bool


def screen_sheets(sheets: PageSheets, chars: int) -> list[tuple[Sheet, int]]:
    """The page's screen sheets (``type`` ``text/css``, ``media`` all/screen), each with the
    characters of it read: at most ``chars`` of them all."""
    read: list[tuple[Sheet, int]] = []
    size = 0
    for sheet in sheets.sheets:
        if sheet.kind != "text/css" or not all(
            _SCREEN_QUERY.fullmatch(q.strip()) for q in sheet.media.split(",")
        ):
            continue
        limit = min(len(sheet.text), chars - size)
        read.append((sheet, limit))
        size += limit
        if size >= chars:
            break
    return read


def display_rules(sheet: Sheet, limit: int) -> list[CssRule]:
    """The rules of the first ``limit`` characters of ``sheet`` (comments blanked) whose
    block holds a hiding or showing declaration, in the order their blocks close; at the
    top level or inside at-rules only (a rule nested in a rule, CSS nesting, is not read;
    its parent is, with the declarations before it)."""
    text = sheet.blanked_lower
    hides = [m.start() for m in HIDE_DECLARATION.finditer(text, 0, limit)]
    shows = [m.start() for m in SHOW_DECLARATION.finditer(text, 0, limit)]
    if not hides and not shows:
        return []
    return [
        CssRule(
            rule.selector,
            rule.block,
            rule.context,
            _any_between(hides, rule.start, rule.end),
            _any_between(shows, rule.start, rule.end),
        )
        for rule in sheet.holding(sorted(hides + shows), limit)
        if rule.selector and all(p.startswith("@") for p in rule.context)
    ]


def screen_now(at_rule: str) -> bool:
    """Whether rules inside ``at_rule`` apply on a screen now: ``@media`` all/screen only, or
    ``@layer``."""
    name, _, query = at_rule.partition(" ")
    name = name.lower()
    if name == "@layer":
        return True
    return name == "@media" and all(_SCREEN_QUERY.fullmatch(q.strip()) for q in query.split(","))


def print_only(at_rule: str) -> bool:
    """Whether ``at_rule`` is ``@media print`` (no screen ever applies it)."""
    name, _, query = at_rule.partition(" ")
    return name.lower() == "@media" and all(
        _PRINT_QUERY.fullmatch(q.strip()) for q in query.split(",")
    )


def _any_between(positions: list[int], low: int, high: int) -> bool:
    index = bisect_left(positions, low)
    return index < len(positions) and positions[index] < high
