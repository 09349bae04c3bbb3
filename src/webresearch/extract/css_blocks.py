"""A stylesheet's rule blocks and a block's declarations, read cheaply. Pure functions.

:mod:`webresearch.extract.style_rules` needs, of a page's whole ``<style>`` text, only the
rules whose block says ``display``/``visibility``; tinycss2 (pure Python) over the whole
sheet took seconds on a 1 MB sheet. :func:`rule_blocks` finds those rules with regular
expressions: a run of flat rules (``a{…}b{…}``, no brace inside a block) is one match, so
Python only steps through the braces of nested blocks (``@media``) and the rules that hold
a declaration looked for. :func:`declarations` splits a block of plain words on ``;`` and
``:`` and leaves any other to tinycss2. Both give what a plain brace scan and tinycss2 give.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

import tinycss2

__all__ = ["HIDE_DECLARATION", "SHOW_DECLARATION", "CssRule", "declarations", "rule_blocks"]

#: A hiding declaration, searched in the lower-cased sheet (``re.I`` is slow).
HIDE_DECLARATION = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)")
#: A showing declaration (``display`` other than ``none``, ``visibility: visible``), likewise.
SHOW_DECLARATION = re.compile(r"display\s*:\s*(?!none\b)[a-z-]|visibility\s*:\s*visible")
#: A run of flat rules, else the text up to the next brace.
_STEP = re.compile(r"(?:[^{}]*\{[^{}]*\})+|[^{}]*([{}])")
_SIMPLE_BLOCK = re.compile(r"[a-zA-Z0-9 \t\n:;!#%.,+_-]*")
_NAME = re.compile(r"-?[a-zA-Z_][a-zA-Z0-9_-]*|--[a-zA-Z0-9_-]*")
_TWO_BANGS = re.compile(r"![^;]*!")
_IMPORTANT = re.compile(r"!\s*important\s*$", re.I)


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


def rule_blocks(css: str) -> list[CssRule]:
    """The qualified rules of ``css`` (comments removed) whose block holds a hiding or
    showing declaration, in the order their blocks close: a rule nested in another rule
    (CSS nesting) is not read, an unclosed block is not read, a stray ``}`` is ignored, and
    a string holding a brace may misplace one rule (which then matches nothing)."""
    lower = css.lower()
    if len(lower) != len(css):  # a letter whose lower case is longer (İ): positions move
        lower = re.sub(r"[A-Z]+", lambda m: m.group().lower(), css)
    hides = [m.start() for m in HIDE_DECLARATION.finditer(lower)]
    shows = [m.start() for m in SHOW_DECLARATION.finditer(lower)]
    either = sorted(hides + shows)
    last = max(css.rfind("{"), css.rfind("}"))
    if not either or last < 0:
        return []
    found: list[CssRule] = []
    # the open blocks: where the text before the brace starts, where the block starts; the
    # preludes are only cut for a block holding a declaration looked for
    stack: list[tuple[int, int]] = []

    def add(head: int, begin: int, end: int) -> None:
        hide, show = _any_between(hides, begin, end), _any_between(shows, begin, end)
        prelude = _prelude(css, head, begin)
        context = tuple(_prelude(css, h, b) for h, b in stack)
        if (
            prelude
            and not prelude.startswith("@")
            and all(p.startswith("@") for p in context)  # CSS nesting: not read
        ):
            found.append(CssRule(prelude, css[begin:end], context, hide, show))

    for match in _STEP.finditer(css, 0, last + 1):
        start, stop = match.span()
        if match.group(1) is None:  # flat rules: those holding a position looked for
            index = bisect_left(either, start)
            done = -1
            while index < len(either) and either[index] < stop:
                pos = either[index]
                index += 1
                opened = css.rfind("{", start, pos)
                if opened <= done or opened < css.rfind("}", start, pos):
                    continue  # in a selector, or a block already read
                done = opened
                add(max(start, css.rfind("}", start, opened) + 1), opened + 1, css.find("}", pos))
        elif match.group(1) == "{":
            stack.append((start, stop))
        elif stack:
            head, begin = stack.pop()
            if _any_between(either, begin, stop - 1):
                add(head, begin, stop - 1)
    return found


def _prelude(css: str, head: int, begin: int) -> str:
    """The prelude of the block opened at ``begin - 1``: the text from ``head`` (after the
    brace before) to the brace, after its last ``;``, stripped."""
    text = css[head : begin - 1]
    return text[text.rfind(";") + 1 :].strip()


def _any_between(positions: list[int], low: int, high: int) -> bool:
    index = bisect_left(positions, low)
    return index < len(positions) and positions[index] < high


def declarations(block: str) -> list[tuple[str, str, bool]]:
    """The declarations of ``block``: (lower-case name, lower-case value stripped, whether
    ``!important``), as tinycss2 reads them (a value may differ in a ``/**/`` tinycss2 adds
    between tokens). A block of plain ASCII words, numbers and ``:;!#%.,+-`` is split on
    ``;`` and ``:`` (a tenth of tinycss2's time); any other (or one with two ``!`` in a
    declaration) is parsed by tinycss2."""
    if _SIMPLE_BLOCK.fullmatch(block) and not _TWO_BANGS.search(block):
        found: list[tuple[str, str, bool]] = []
        for part in block.split(";"):
            name, colon, value = part.partition(":")
            name = name.strip().lower()
            if not colon or not _NAME.fullmatch(name):
                continue
            important = False
            if "!" in value:
                bang = _IMPORTANT.search(value)
                if bang is not None:
                    value, important = value[: bang.start()], True
            found.append((name, value.strip().lower(), important))
        return found
    return [
        (node.lower_name, tinycss2.serialize(node.value).strip().lower(), node.important)
        for node in tinycss2.parse_blocks_contents(block, skip_comments=True, skip_whitespace=True)
        if node.type == "declaration"
    ]
