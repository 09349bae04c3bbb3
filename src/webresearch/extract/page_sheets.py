"""The page's ``<style>`` sheets read once into rules, shared by every reader of them. Pure.

Five passes read the page's own stylesheets: the rules that hide an element
(:mod:`~webresearch.extract.style_rules`), move it off the screen
(:mod:`~webresearch.extract.offscreen_text`), paint it in its background's colour
(:mod:`~webresearch.extract.same_colour`), hide a copy at a desktop width
(:mod:`~webresearch.extract.responsive_copies`) and make it a flex or grid container
(:mod:`~webresearch.extract.flex_items`). :func:`read_sheets` lists the page's ``<style>``
elements once; each :class:`Sheet` cuts its text into :class:`StyleRule` s once, on first
use, and every pass reads those rules (and the sheet's lower-case text) instead of
scanning the text again.

The cut follows the block structure of CSS Syntax Module Level 3 (§5.4.1 "consume a list of
rules", §5.4.2 "consume an at-rule", §5.4.3 "consume a qualified rule"), simplified:

* comments (§4.3.2) are blanked to spaces of the same length, so every offset in the
  blanked text is the offset in the text as served (an unclosed comment runs to the end);
* a rule is the text before a ``{`` (its prelude: after the last ``;``, as a statement such
  as ``@import url(a.css);`` ends there) and the block up to the matching ``}``; a block
  holding blocks (``@media``, ``@supports``, ``@layer``, a rule with nested rules) gives its
  rules with its prelude in their ``context``, outermost first;
* a stray ``}`` is ignored and an unclosed block is not read (its closed rules are);
  strings are not tokenised: a brace inside a string may misplace one rule (which then
  matches nothing). tinycss2's full tokeniser took 10 s over the 1,026 pages of the
  benchmark corpus (27 MB of inline CSS, 0.5 s for one 1.2 MB sheet) where these few
  regular-expression steps take a tenth of it; the declarations of one block are read by
  tinycss2 when they are not plain (:func:`StyleRule.declarations`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import tinycss2
from lxml import etree

__all__ = ["PageSheets", "Sheet", "StyleRule", "declarations", "read_sheets"]

#: A comment, closed or running to the end of the text (CSS Syntax Level 3 §4.3.2).
_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
#: A run of rules with flat blocks (``a{…}b{…}``), else the text up to the next brace.
_STEP = re.compile(r"(?:[^{}]*\{[^{}]*\})+|[^{}]*([{}])")
_SIMPLE_BLOCK = re.compile(r"[a-zA-Z0-9 \t\n:;!#%.,+_-]*")
_NAME = re.compile(r"-?[a-zA-Z_][a-zA-Z0-9_-]*|--[a-zA-Z0-9_-]*")
_TWO_BANGS = re.compile(r"![^;]*!")
_IMPORTANT = re.compile(r"!\s*important\s*$", re.I)
#: The brace opening a block.
_BLOCK_START = re.compile(r"\{")


class StyleRule(NamedTuple):
    """One rule of a sheet, its text with comments blanked (module docstring).

    Attributes:
        selector: the prelude (the selector list of a style rule), after its last ``;``,
            stripped; as written (case kept).
        head: all the text between the brace before and the rule's ``{``, unstripped.
        css: the text of its sheet, comments blanked (:attr:`Sheet.blanked`): its
            :attr:`block` is cut from it when asked (a copy per rule would be quadratic in
            the depth of nested blocks).
        context: the preludes of the blocks around it, outermost first (``("@media (min-width:
            800px)",)``); empty at the top level.
        start: the offset of its ``{`` in its sheet's text.
        end: the offset of its ``}`` in its sheet's text.
        nested: its block holds rules of its own (CSS nesting).
        flat_parent: the block around it (if any) holds only rules with flat blocks.
    """

    selector: str
    head: str
    css: str
    context: tuple[str, ...]
    start: int
    end: int
    nested: bool
    flat_parent: bool

    @property
    def block(self) -> str:
        """The text between its braces (its declarations; with the nested rules of a
        ``nested`` one), case kept."""
        return self.css[self.start + 1 : self.end]

    @property
    def own(self) -> str:
        """The block's text up to its first nested rule (its whole text when not ``nested``)."""
        block = self.block
        return block[: block.find("{")] if self.nested else block

    def declarations(self) -> list[tuple[str, str, bool]]:
        """The block's declarations: (lower-case name, lower-case value stripped, whether
        ``!important``) (:func:`declarations`)."""
        return declarations(self.block)


@dataclass(frozen=True, eq=False)
class Sheet:
    """One ``<style>`` element's text, with its lower-case and comment-blanked forms and its
    rules computed on first use."""

    element: etree._Element
    text: str

    @property
    def media(self) -> str:
        """The element's ``media`` attribute, stripped (``all`` when absent)."""
        return (self.element.get("media") or "all").strip()

    @property
    def kind(self) -> str:
        """The element's ``type`` attribute, stripped, lower case (``text/css`` when absent)."""
        return (self.element.get("type") or "text/css").strip().lower()

    @cached_property
    def lower(self) -> str:
        """:attr:`text` in lower case."""
        return self.text.lower()

    @cached_property
    def blanked(self) -> str:
        """:attr:`text` with every comment replaced by as many spaces (offsets kept)."""
        if "/*" not in self.text:
            return self.text
        return _COMMENT.sub(lambda m: " " * len(m.group()), self.text)

    @cached_property
    def blanked_lower(self) -> str:
        """:attr:`blanked` in lower case (the offsets of :attr:`text` when lowering keeps
        the length, as it does but for a few letters such as ``İ``)."""
        return self.blanked.lower()

    @cached_property
    def _skeleton(self) -> _Skeleton:
        """The sheet's block structure (:func:`_skeleton`)."""
        return _skeleton(self.blanked)

    @property
    def rules(self) -> tuple[StyleRule, ...]:
        """Every rule of the sheet, in the order their blocks close (module docstring).
        Cut anew at each call: a reader of some rules asks :meth:`holding`."""
        skeleton = self._skeleton
        found = [
            rule
            for run in skeleton.runs
            for at in _BLOCK_START.finditer(self.blanked, run.start, run.stop)
            if (rule := self._flat_rule(run, at.start() + 1)) is not None
        ]
        return tuple(sorted(found + skeleton.nested, key=lambda rule: rule.end))

    def written(self, rule: StyleRule) -> tuple[str, str]:
        """``rule``'s :attr:`~StyleRule.head` and :attr:`~StyleRule.block` as the sheet
        writes them, comments in."""
        return self.text[rule.start - len(rule.head) : rule.start], self.text[
            rule.start + 1 : rule.end
        ]

    def holding(self, offsets: Iterable[int], limit: int | None = None) -> list[StyleRule]:
        """The rules holding ``offsets`` (:meth:`rule_at`), each once, in :attr:`rules`
        order; only rules whose ``}`` is before ``limit`` (``None``: any)."""
        found: dict[int, StyleRule] = {}
        for offset in offsets:
            rule = self.rule_at(offset)
            if rule is not None and (limit is None or rule.end < limit):
                found[rule.end] = rule
        return [found[end] for end in sorted(found)]

    def rule_at(self, offset: int) -> StyleRule | None:
        """The innermost rule whose block holds ``offset`` (of :attr:`text`); ``None`` in a
        selector, an at-rule's own block or between rules. A rule holding rules holds the
        offsets of its own declarations before its first nested rule."""
        skeleton = self._skeleton
        at = bisect_right(skeleton.starts, offset) - 1
        if at >= 0 and offset < skeleton.runs[at].stop:
            rule = self._flat_rule(skeleton.runs[at], offset)
            if rule is not None:
                return rule
        at = bisect_right(skeleton.bounds, offset) - 1
        if at < 0 or (index := skeleton.holders[at]) < 0:
            return None
        if skeleton.inner[index] < offset:
            return None  # in or after a nested rule: not its own declarations
        return skeleton.nested[index]

    def _flat_rule(self, run: _Run, offset: int) -> StyleRule | None:
        """The rule of the flat ``run`` whose block holds ``offset``, if any."""
        css = self.blanked
        opened = css.rfind("{", run.start, offset)
        if opened < 0 or css.rfind("}", opened, offset) >= 0:
            return None  # in a selector
        end = css.find("}", offset)
        head = css[max(run.start, css.rfind("}", run.start, opened) + 1) : opened]
        selector = head[head.rfind(";") + 1 :].strip()
        if selector.startswith("@"):
            return None  # `@font-face {…}`: no rule's
        flat = run.parent is None or not run.parent.deep
        return StyleRule(selector, head, css, run.context, opened, end, False, flat)


@dataclass(frozen=True)
class PageSheets:
    """The page's ``<style>`` elements, in document order, as :class:`Sheet` s."""

    sheets: tuple[Sheet, ...]

    def capped(self, chars: int) -> list[tuple[Sheet, int]]:
        """The sheets in order, each with how many of its characters are read when at most
        ``chars`` of them all are (a reader's bound); the sheets past the bound are left out."""
        read: list[tuple[Sheet, int]] = []
        size = 0
        for sheet in self.sheets:
            limit = min(len(sheet.text), chars - size)
            read.append((sheet, limit))
            size += limit
            if size >= chars:
                break
        return read


def read_sheets(styles: Iterable[etree._Element], previous: PageSheets | None = None) -> PageSheets:
    """The sheets of the ``<style>`` elements ``styles`` (``doc.iter("style")``); a sheet of
    ``previous`` for the same element is taken again with what it has read."""
    known = {id(sheet.element): sheet for sheet in previous.sheets} if previous else {}
    found: list[Sheet] = []
    for style in styles:
        sheet = known.get(id(style))
        found.append(
            sheet
            if sheet is not None and sheet.element is style
            else Sheet(style, style.text or "")
        )
    return PageSheets(tuple(found))


class _Open:
    """An open block while a sheet is cut: its head and prelude, where its text starts, and
    whether a block was opened inside it."""

    __slots__ = ("begin", "deep", "head", "prelude")

    def __init__(self, head: str, begin: int) -> None:
        self.head = head
        self.prelude = head[head.rfind(";") + 1 :].strip()
        self.begin = begin
        self.deep = False


class _Run(NamedTuple):
    """A run of rules with flat blocks (``a{…}b{…}``): where it starts and stops, the
    preludes of the blocks around it and the innermost of them (``None``: top level)."""

    start: int
    stop: int
    context: tuple[str, ...]
    parent: _Open | None


class _Skeleton(NamedTuple):
    """A sheet's structure: its runs of flat rules in order, their starts, the rules holding
    rules (CSS nesting) with the offset of the first ``{`` inside each (``end`` when none),
    and which of them is innermost around an offset: from ``bounds[i]`` up to the next
    bound, the one at index ``holders[i]`` of ``nested`` (``-1``: none). Built once, so an
    offset is looked up by bisection (:func:`_holders`)."""

    runs: list[_Run]
    starts: list[int]
    nested: list[StyleRule]
    inner: list[int]
    bounds: list[int]
    holders: list[int]


def _skeleton(css: str) -> _Skeleton:
    """The structure of ``css`` (comments blanked): one regular-expression step a run of
    flat rules, one a brace of a block holding blocks (an ``@media`` block's rules are not
    stepped through one by one)."""
    runs: list[_Run] = []
    nested: list[StyleRule] = []
    last = max(css.rfind("{"), css.rfind("}"))
    stack: list[_Open] = []
    context: tuple[str, ...] = ()
    for match in _STEP.finditer(css, 0, last + 1):  # (none after: no step, no rescan)
        start, stop = match.span()
        brace = match.group(1)
        if brace is None:
            runs.append(_Run(start, stop, context, stack[-1] if stack else None))
        elif brace == "{":
            if stack:
                stack[-1].deep = True
            stack.append(_Open(css[start : stop - 1], stop))
            context = (*context, stack[-1].prelude)
        elif stack:
            opened = stack.pop()
            context = context[:-1]
            if opened.prelude and not opened.prelude.startswith("@"):
                end = stop - 1
                flat = not stack
                rule = StyleRule(
                    opened.prelude, opened.head, css, context, opened.begin - 1, end, True, flat
                )
                nested.append(rule)
    inner = [
        (found if (found := css.find("{", r.start + 1, r.end)) >= 0 else r.end) for r in nested
    ]
    bounds, holders = _holders(nested)
    return _Skeleton(runs, [run.start for run in runs], nested, inner, bounds, holders)


def _holders(nested: list[StyleRule]) -> tuple[list[int], list[int]]:
    """Where the innermost rule of ``nested`` around an offset changes, in order, and the
    index of that rule from there on (``-1``: none): a rule holds the offsets strictly
    between its braces. The blocks nest (each closes the last one opened), so one sweep in
    the order of their ``{`` with a stack of the open ones finds them."""
    bounds: list[int] = []
    holders: list[int] = []
    stack: list[int] = []

    def close_before(offset: int) -> None:
        while stack and nested[stack[-1]].end <= offset:
            end = nested[stack.pop()].end
            bounds.append(end)
            holders.append(stack[-1] if stack else -1)

    for index in sorted(range(len(nested)), key=lambda i: nested[i].start):
        close_before(nested[index].start)
        stack.append(index)
        bounds.append(nested[index].start + 1)
        holders.append(index)
    close_before(max((rule.end for rule in nested), default=0))
    return bounds, holders


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
