"""Elements the page's own stylesheet hides (``<style>`` rules). Pure functions.

:func:`~webresearch.extract.page_noise.hidden_blocks` reads the inline markup that hides a
block (the ``hidden`` attribute, ``style="display:none"``, display utility classes). A page
may hide the same way from its ``<style>`` elements: ``.gone{display:none}``,
``#x2{visibility:hidden}``, ``.off{display:none !important}`` (review 11, fault 4).
:func:`stylesheet_hidden` lists the elements such a rule hides; ``hidden_blocks`` treats
them as it treats an inline ``display:none`` (the app-shell and collapsed-prose rules
included: hidden server-rendered content of an empty shell stays the content, case 06).

What counts, a simplified cascade that leaves an element shown whenever it may be:

* a rule hides when its declarations end with ``display: none`` or ``visibility: hidden``
  (or ``collapse``), in any case and spacing, ``!important`` or not; the rule is at the top
  level of the sheet, or inside ``@media`` blocks whose queries are only ``all`` /
  ``screen`` (``only screen``) or inside ``@layer`` blocks — a ``print``, ``max-width`` or
  any other query is not "the screen now". A ``<style media=…>`` other than all/screen is
  not read.
* a rule that shows (``display`` other than ``none``, ``visibility: visible``) under any
  query but print, and the element's own ``style`` attribute, undo the hiding of the same
  property unless the hiding rule is ``!important`` and they are not: specificity and order
  are not compared (a block a wider screen or a state class shows is left alone).
  An element hidden by ``visibility`` with a descendant a rule makes ``visible`` stays.
* selectors are matched by cssselect (lxml's CSS-to-XPath translator): a selector it cannot
  translate (``:focus-within``, pseudo-elements), one of ``:is()``/``:where()``/``:has()``
  (translated wrongly by cssselect 1.3) or longer than :data:`MAX_SELECTOR_CHARS` is
  skipped; state pseudo-classes (``:hover``, ``:target``) never match: never "hidden now".
  A selector naming the ``no-js`` class is skipped too (a script swaps it for ``js`` as the
  page loads).

Cost. tinycss2 (the parser) is pure Python: a whole inlined stylesheet of 1 MB took seconds
(WCXB dev: mean 120 ms a page, up to 6 s). So the hiding and showing declarations are
found by a regular expression in each sheet's comment-blanked text and only the rules around
them are read (:func:`~webresearch.extract.css_blocks.display_rules`, from the block
structure :mod:`~webresearch.extract.page_sheets` reads once for every reader of the page's
styles; a string holding a brace may misplace one rule, which then matches nothing), their
blocks by :func:`~webresearch.extract.page_sheets.declarations` (plain blocks split on ``;``,
the rest by tinycss2); a selector is only translated and matched when the class, id or tag
of its subject is on the page (one XPath finds the elements of every class the hiding rules
name), and each is then tested on those elements alone; cssselect's combinators are rewritten as
conditions on the subject (``_RightToLeft``). Caps: :data:`MAX_SHEET_CHARS` of style
text, :data:`MAX_HIDING_RULES` hiding rules, :data:`MAX_TESTS` element tests; past a cap
nothing is hidden (the page is read as served).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cssselect import ExpressionError, HTMLTranslator, SelectorError, parse
from cssselect.parser import Class, CombinedSelector, Hash, Selector
from cssselect.xpath import XPathExpr
from lxml import etree

from webresearch.extract.css_blocks import (
    HIDE_DECLARATION,
    CssRule,
    display_rules,
    print_only,
    screen_now,
    screen_sheets,
)
from webresearch.extract.page_sheets import PageSheets, declarations, read_sheets

__all__ = [
    "MAX_HIDING_RULES",
    "MAX_SELECTOR_CHARS",
    "MAX_SHEET_CHARS",
    "MAX_TESTS",
    "PAGE_TEST_COST",
    "stylesheet_hidden",
]

#: At most this many characters of ``<style>`` text are read (the rest is ignored).
MAX_SHEET_CHARS = 2_000_000
#: A sheet with more hiding rules than this is not read (WCXB and Zyte dev: at most 275).
MAX_HIDING_RULES = 600
#: At most this many element tests (a selector matched against one element) are made;
#: past it nothing is hidden.
MAX_TESTS = 4000
#: A selector with no class or id in its subject is matched against the whole page, which
#: counts as this many tests.
PAGE_TEST_COST = 100
#: A longer selector is skipped.
MAX_SELECTOR_CHARS = 300
#: Declaration blocks, selector lists and translated selectors remembered (each cache).
_CACHED = 4096

_UNSAFE_SELECTOR = re.compile(r":(?:is|where|has|matches|any)\(|\bno-js\b", re.I)
_COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+")
_SUBJECT_KEY = re.compile(r"[#.](?:[\w-]|\\.)+")
_ESCAPE = re.compile(r"\\(.)")
_TAG = re.compile(r"[a-zA-Z][\w-]*")


class _RightToLeft(HTMLTranslator):
    """cssselect's HTML translator with the combinators written as conditions on the
    subject (``.a .b`` → ``*[.b and ancestor::*[.a]]``), as browsers match right to left:
    cssselect's own form (``.a/descendant-or-self::*/*[.b]``) walks the subtree of every
    ``.a`` again and took up to 30 ms a selector on a large page."""

    def xpath_attrib_includes(self, xpath: XPathExpr, name: str, value: str | None) -> XPathExpr:
        # `contains(@class, 'b')` first: cheap, and false for most elements (the spaced
        # test builds two strings an element; 25 ms a selector on a page of 6,000 elements)
        if value and value.strip():
            xpath.add_condition(f"{name} and contains({name}, {self.xpath_literal(value)})")
        return super().xpath_attrib_includes(xpath, name, value)

    def xpath_descendant_combinator(self, left: XPathExpr, right: XPathExpr) -> XPathExpr:
        return right.add_condition(f"ancestor::{_step(left)}")

    def xpath_child_combinator(self, left: XPathExpr, right: XPathExpr) -> XPathExpr:
        return right.add_condition(f"parent::{_step(left)}")

    def xpath_direct_adjacent_combinator(self, left: XPathExpr, right: XPathExpr) -> XPathExpr:
        return right.add_condition(f"preceding-sibling::*[1]/self::{_step(left)}")

    def xpath_indirect_adjacent_combinator(self, left: XPathExpr, right: XPathExpr) -> XPathExpr:
        return right.add_condition(f"preceding-sibling::{_step(left)}")


def _step(expr: XPathExpr) -> str:
    """``expr`` as one location step (its element and condition)."""
    if expr.path:
        raise ExpressionError("a path inside a combinator")
    return str(expr)


_TRANSLATOR = _RightToLeft()


@dataclass(frozen=True, slots=True)
class _Effect:
    """What a rule's declarations say: ``display``/``visibility`` hidden (``True``), shown
    (``False``) or not said (``None``), each with its ``!important``."""

    display: bool | None
    display_important: bool
    visibility: bool | None
    visibility_important: bool


def stylesheet_hidden(
    doc: etree._Element, sheets: PageSheets | None = None
) -> frozenset[etree._Element]:
    """The elements of ``doc`` the page's ``<style>`` rules hide now (module docstring).

    Args:
        doc: the parsed page (``<html>``), its ``<style>`` elements still in it.
        sheets: the page's ``<style>`` sheets when the caller has read them
            (:func:`~webresearch.extract.page_sheets.read_sheets`; ``None``: read here).

    Returns:
        the hidden elements (outermost or not) and ``<template>`` elements (inert; not a shown
        declarative shadow root's, ``shadowrootmode``); only those when no rule hides or past a cap.
    """
    templates = _templates(doc)  # the UA sheet's `template {display: none}`
    read = screen_sheets(
        read_sheets(doc.iter("style")) if sheets is None else sheets, MAX_SHEET_CHARS
    )
    hides = sum(len(HIDE_DECLARATION.findall(sheet.lower, 0, limit)) for sheet, limit in read)
    if not hides or hides > 2 * MAX_HIDING_RULES:  # (a rule may say both)
        return templates
    hiding: list[tuple[CssRule, _Effect]] = []
    showing: list[CssRule] = []
    rules = [rule for sheet, limit in read for rule in display_rules(sheet, limit)]
    if sum(rule.hides for rule in rules) > MAX_HIDING_RULES:
        return templates
    for rule in rules:
        if rule.hides and all(map(screen_now, rule.context)):
            effect = _effect(rule.block)
            if effect is not None and (effect.display or effect.visibility):
                hiding.append((rule, effect))
        if rule.shows and not any(map(print_only, rule.context)):
            showing.append(rule)  # its block is parsed once its selector may matter
    if not hiding:
        return templates
    parsed = [(_selectors(rule.prelude), effect) for rule, effect in hiding]
    keys = {key for selectors, _ in parsed for s in selectors if (key := _subject_key(s))}
    if len(keys) > MAX_TESTS // 4:
        return templates
    index = _PageIndex.read(doc, keys)
    budget = [MAX_TESTS]
    hidden: dict[etree._Element, list[bool]] = {}  # [display, d. important, vis., v. imp.]
    for selectors, effect in parsed:
        matched = _matches(doc, selectors, index, None, budget)
        if matched is None:
            return templates
        for el in matched:
            state = hidden.setdefault(el, [False, False, False, False])
            if effect.display:
                state[0] = True
                state[1] = state[1] or effect.display_important
            if effect.visibility:
                state[2] = True
                state[3] = state[3] or effect.visibility_important
    if not hidden or not _shown_again(doc, hidden, showing, index, budget):
        return templates
    return templates | {el for el, state in hidden.items() if _still_hidden(el, state)}


def _templates(doc: etree._Element) -> frozenset[etree._Element]:
    """The ``<template>`` elements in the body (inert: the HTML Standard's UA sheet hides
    them) but a declarative shadow root's (``iter``: a tenth of an XPath's time; one walk
    over the page, each template's ancestors read for a body)."""
    return frozenset(
        template
        for template in doc.iter("template")
        if template.get("shadowrootmode") is None
        and template.get("shadowroot") is None
        and next(template.iterancestors("body"), None) is not None
    )


def _shown_again(
    doc: etree._Element,
    hidden: dict[etree._Element, list[bool]],
    showing: list[CssRule],
    index: _PageIndex,
    budget: list[int],
) -> bool:
    """Undo, in ``hidden``, the hiding the ``showing`` rules undo (module docstring); an
    element hidden by ``visibility`` only with a descendant shown again is no longer hidden.
    Only the hidden elements (and, for ``visibility``, their descendants) are tested.
    Returns ``False`` once the budget is spent."""
    pool = list(hidden)
    below = [
        d
        for el, state in hidden.items()
        if state[2] and not state[0]
        for d in el.iterdescendants(etree.Element)
    ][:MAX_TESTS]
    wanted = _element_names(pool + below)
    shown_below: set[etree._Element] = set()
    for rule in showing:
        if not _may_match(rule.prelude, wanted):
            continue
        effect = _effect(rule.block)
        if effect is None or (effect.display is not False and effect.visibility is not False):
            continue
        matched = _matches(doc, _selectors(rule.prelude), index, pool, budget)
        if matched is None:
            return False
        for el in matched:
            state = hidden[el]
            if effect.display is False and (effect.display_important or not state[1]):
                state[0] = False
            if effect.visibility is False and (effect.visibility_important or not state[3]):
                state[2] = False
        if effect.visibility is False and below:
            found = _matches(doc, _selectors(rule.prelude), index, below, budget)
            if found is None:
                return False
            shown_below.update(found)
    lifted = {a for d in shown_below for a in d.iterancestors()}
    for el, state in hidden.items():
        if state[2] and el in lifted:
            state[2] = False
    return True


@lru_cache(maxsize=_CACHED)
def _effect(block: str) -> _Effect | None:
    """What a declaration block says of ``display`` and ``visibility`` (tinycss2); ``None``
    when it says neither. An ``!important`` declaration wins over a later plain one.
    Remembered (a site's sheet and a framework's rules come back page after page)."""
    display: bool | None = None
    visibility: bool | None = None
    display_important = visibility_important = False
    for name, value, important in declarations(block):
        if name not in ("display", "visibility"):
            continue
        if name == "display" and (important or not display_important):
            display, display_important = value == "none", important
        elif name == "visibility" and (important or not visibility_important):
            visibility = value in ("hidden", "collapse")
            visibility_important = important
    if display is None and visibility is None:
        return None
    return _Effect(display, display_important, visibility, visibility_important)


@dataclass(frozen=True, slots=True)
class _PageIndex:
    """The page's elements by class name and by id (a selector's subject names one)."""

    classes: dict[str, list[etree._Element]]
    ids: dict[str, list[etree._Element]]

    @classmethod
    def read(cls, doc: etree._Element, keys: set[tuple[str, str]]) -> _PageIndex:
        """The elements that have the classes and ids of ``keys`` (``("class", name)``,
        ``("id", name)``): the page's ``class`` and ``id`` values are read in one walk
        (two XPath scans of ``//@class`` and ``//@id`` took longer) and looked up in a set
        (an XPath ``contains`` a name was 200 ms on a large page)."""
        classes: dict[str, list[etree._Element]] = {}
        ids: dict[str, list[etree._Element]] = {}
        wanted = {name for kind, name in keys if kind == "class"}
        named = {name for kind, name in keys if kind == "id"}
        if not wanted and not named:
            return cls(classes, ids)
        disjoint = wanted.isdisjoint  # (a set: one expression over the values took 3x as long)
        for el in doc.iter(etree.Element):
            value = el.get("class") if wanted else None
            if value is not None:
                names = value.split()
                if not disjoint(names):
                    for name in set(names) & wanted:
                        classes.setdefault(name, []).append(el)
            ident = el.get("id") if named else None
            if ident is not None and ident in named:
                ids.setdefault(ident, []).append(el)
        return cls(classes, ids)

    def candidates(
        self, key: tuple[str, str] | None, pool: list[etree._Element] | None
    ) -> list[etree._Element] | None:
        """The elements that may be the subject: those of ``pool`` (``None``: of the page)
        with the class or id ``key`` names; ``None`` for every element of the page."""
        if key is None:
            return pool
        kind, name = key
        if pool is None:
            return (self.classes if kind == "class" else self.ids).get(name, [])
        if kind == "class":
            return [el for el in pool if name in (el.get("class") or "").split()]
        return [el for el in pool if el.get("id") == name]


def _element_names(elements: list[etree._Element]) -> set[str]:
    """The tags, ``.class`` names and ``#id`` of ``elements`` (for :func:`_may_match`)."""
    names: set[str] = set()
    for el in elements:
        names.add(el.tag if isinstance(el.tag, str) else "")
        names.update("." + name for name in (el.get("class") or "").split())
        names.add("#" + (el.get("id") or ""))
    return names


def _may_match(prelude: str, names: set[str]) -> bool:
    """Whether a selector of ``prelude`` may match an element of ``names``
    (:func:`_element_names`): its subject's first ``#id`` or ``.class`` (escapes undone:
    Tailwind's ``.md\\:block``), else its tag, is one of them — a cheap test before
    cssselect parses the list."""
    if "(" in prelude:
        return True  # `:not(.a .b)`: commas and spaces inside; left to cssselect
    for part in prelude.split(","):
        subject = _COMBINATOR.split(part.strip())[-1]
        key = _SUBJECT_KEY.search(subject)
        if key is not None:
            if _ESCAPE.sub(r"\1", key.group()) in names:
                return True
            continue
        tag = _TAG.match(subject)
        if tag is None or tag.group().lower() in names:
            return True
    return False


@lru_cache(maxsize=_CACHED)
def _selectors(prelude: str) -> tuple[Selector, ...]:
    """The selectors of the list ``prelude`` (cssselect); none for an invalid list (a
    browser drops the rule), one too long, or one using what is not read (module
    docstring). Remembered: the same objects come back for the same text, so their
    translations are remembered too (:func:`_translated`)."""
    if len(prelude) > MAX_SELECTOR_CHARS * 10 or _UNSAFE_SELECTOR.search(prelude):
        return ()
    try:
        selectors = parse(prelude)
    except SelectorError:
        return ()
    return tuple(
        s
        for s in selectors
        if s.pseudo_element is None and len(repr(s.parsed_tree)) <= 4 * MAX_SELECTOR_CHARS
    )


@lru_cache(maxsize=_CACHED)
def _translated(selector: Selector) -> str | None:
    """``selector`` as an XPath step (:class:`_RightToLeft`); ``None`` when it cannot be
    translated, is a path or is longer than ``20 *`` :data:`MAX_SELECTOR_CHARS`."""
    try:
        expr = _TRANSLATOR.xpath(selector.parsed_tree)
    except (ExpressionError, SelectorError):
        return None
    if expr.path or len(str(expr)) > 20 * MAX_SELECTOR_CHARS:
        return None
    return str(expr)


@lru_cache(maxsize=_CACHED)
def _subject_test(step: str) -> etree.XPath | None:
    """The compiled ``boolean(self::step)``; ``None`` when lxml rejects it."""
    try:
        return etree.XPath(f"boolean(self::{step})")
    except etree.XPathError:
        return None


def _matches(
    doc: etree._Element,
    selectors: tuple[Selector, ...],
    index: _PageIndex,
    pool: list[etree._Element] | None,
    budget: list[int],
) -> list[etree._Element] | None:
    """The elements of ``pool`` (``None``: of the page) that ``selectors`` match; ``None``
    once ``budget`` (tests left: a selector over the whole page counts
    :data:`PAGE_TEST_COST`, one over an element 1) is spent."""
    found: list[etree._Element] = []
    for selector in selectors:
        candidates = index.candidates(_subject_key(selector), pool)
        if candidates is not None and not candidates:
            continue
        cost = PAGE_TEST_COST if candidates is None else len(candidates)
        if budget[0] < cost:
            return None
        budget[0] -= cost
        step = _translated(selector)
        if step is None:
            continue
        try:
            if candidates is None:
                result = doc.xpath(f"descendant-or-self::{step}")
                found.extend(el for el in result if isinstance(el, etree._Element))
            else:
                test = _subject_test(step)
                if test is None:
                    continue
                found.extend(el for el in candidates if test(el))
        except etree.XPathError:
            continue
    return found


def _subject_key(selector: Selector) -> tuple[str, str] | None:
    """An id (else a class name) the subject of ``selector`` must have, if it names one."""
    node: object = selector.parsed_tree
    if isinstance(node, CombinedSelector):
        node = node.subselector
    key: tuple[str, str] | None = None
    while node is not None:
        if isinstance(node, Hash):
            return ("id", node.id)
        if isinstance(node, Class) and key is None:
            key = ("class", node.class_name)
        node = getattr(node, "selector", None)
    return key


def _still_hidden(el: etree._Element, state: list[bool]) -> bool:
    """Whether ``el``'s own ``style`` leaves the stylesheet's hiding (``state``) standing."""
    display, display_important, visibility, visibility_important = state
    style = el.get("style")
    if style and (display or visibility):
        effect = _effect(style)
        if effect is not None:
            if effect.display is False and not display_important:
                display = False
            if effect.visibility is False and not visibility_important:
                visibility = False
    return display or visibility
