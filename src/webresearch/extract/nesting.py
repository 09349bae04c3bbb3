"""Bounds on nesting that keep extraction linear in page size. Pure functions.

Deep nesting. jusText (trafilatura's last second opinion) writes out the path from the root
for every block it opens, and trafilatura's wild-text recovery looks up the ancestors of
each candidate: ``O(depth)`` per block, ``O(depth²)`` for a page that is one deep chain
(2,000 nested ``<div>`` with one word at the bottom, 22 KB, took 5 s). libxml2 already stops
at 2,048 levels (``parse.py`` flattens beyond :data:`~webresearch.extract.parse.MAX_DEPTH`
then); :func:`flatten_deep_tree` flattens beyond :data:`MAX_TREE_DEPTH` levels the same way:
the elements deeper than that are removed and their text kept in place (scripts, styles and
templates there go whole). The pages of the development corpus are at most 50 levels deep.

Tables nested in tables beyond a few levels become plain blocks.

Each ``<table>`` costs trafilatura's ``handle_table`` (and its wild-text recovery, and the
jusText rescue after it) a walk over the whole subtree under it, so ``n`` tables nested in
one another cost ``O(n²)``: 400 levels (13 KB of markup) took 3.5 s, 1,000 levels (40 KB)
over 30 s. A page nested that deep is hostile or broken; no reader sees a table in a table
in a table … eight levels down as a grid. A table with :data:`MAX_TABLE_DEPTH` or more
table ancestors is therefore rewritten as ``<div>`` blocks before extraction: ``table``,
``tbody``/``thead``/``tfoot``, ``tr``, ``td``/``th`` become ``div`` (a ``caption`` too),
so every cell stays a block of its own and all text and inner markup are kept. Tables up
to that depth (old layout pages nest three or four) are left as they are.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["MAX_TABLE_DEPTH", "MAX_TREE_DEPTH", "flatten_deep_tree", "unwrap_deep_tables"]

#: Levels of elements below the root kept as elements (deeper ones are text).
MAX_TREE_DEPTH = 256

#: Table ancestors a ``<table>`` may have and still be a table (levels of nesting).
MAX_TABLE_DEPTH = 6

_INERT = ("script", "style", "template", "noscript")

_TABLE_PARTS = frozenset({"table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption"})


def unwrap_deep_tables(root: etree._Element, max_depth: int = MAX_TABLE_DEPTH) -> int:
    """Rewrite every table nested under ``max_depth`` or more tables as ``<div>`` blocks.

    One walk of the tree, linear in its size (the depth of each table is counted on the
    way down, not looked up per table).

    Args:
        root: the parsed document (changed in place).
        max_depth: how many table ancestors a table may have and stay a table.

    Returns:
        the number of tables rewritten (0 on nearly every page).
    """
    rewritten = 0
    if sum(1 for _ in root.iter("table")) <= max_depth:
        return 0  # no table can have ``max_depth`` table ancestors (lxml's C tag filter)
    # (element, tables above it): an explicit stack, as the tree may be 2,000 levels deep
    stack: list[tuple[etree._Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        tag = el.tag
        if tag == "table":
            if depth >= max_depth:
                rewritten += 1
                _to_blocks(el)
            depth += 1
        for child in el:
            if isinstance(child.tag, str):
                stack.append((child, depth))
    return rewritten


def _to_blocks(table: etree._Element) -> None:
    """``table`` and its own rows and cells (not those of the tables inside it, which the
    walk reaches on its own) as ``<div>`` elements; their attributes stay (``hidden``, a
    ``style`` that hides them still counts)."""
    todo = [table]
    while todo:
        el = todo.pop()
        el.tag = "div"
        todo.extend(
            child
            for child in el
            if isinstance(child.tag, str) and child.tag in _TABLE_PARTS and child.tag != "table"
        )


def flatten_deep_tree(root: etree._Element, max_depth: int = MAX_TREE_DEPTH) -> int:
    """Replace every element ``max_depth`` levels below ``root`` by its text (module
    docstring); the elements above are kept. One walk, linear in the size of the tree.

    Args:
        root: the parsed document (changed in place).
        max_depth: levels of elements kept below ``root``.

    Returns:
        the number of elements flattened (0 on nearly every page).
    """
    flattened = 0
    if not _deeper_than(root, max_depth):
        return 0
    stack: list[tuple[etree._Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth < max_depth:
            stack.extend((child, depth + 1) for child in el if isinstance(child.tag, str))
            continue
        if len(el):
            inert = [e for e in el.iterdescendants(*_INERT)]
            for e in inert:
                _remove_keep_tail(e)
            etree.strip_tags(el, "*")
            flattened += 1
    return flattened


def _deeper_than(root: etree._Element, depth: int) -> bool:
    """Whether an element ``depth`` levels below ``root`` has a child (an element, a comment
    or a processing instruction: what ``len`` counts). One XPath, level by level in C, where
    the walk of :func:`flatten_deep_tree` visits every element in Python."""
    path = "/".join(["*"] * depth) + "/node()[not(self::text())]"
    return bool(root.xpath(f"boolean({path})"))


def _remove_keep_tail(el: etree._Element) -> None:
    """Remove ``el`` and what it holds; the text after it stays."""
    parent = el.getparent()
    if parent is None:  # pragma: no cover - a descendant always has a parent
        return
    tail = el.tail
    previous = el.getprevious()
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
