"""Where an article's text ends on its page, and what the content kept after it. Pure functions.

The evidence is the page's own structure, not phrases: an article's paragraphs sit side by
side in one container (a ``<div class="entry-content">``, a ``<div class="rich-text">`` per
section of a page builder). What trafilatura keeps *after* that container — outside it, in
document order — is what the site puts below every article: a call to action ("Book a free
demo"), the writer's card, a newsletter box, a row of teaser cards, a disclaimer, a
subscriber wall. :func:`drop_after_article` removes it from the content about to be
rendered when the container is clearly the article and what follows is small and not prose:

* **the article's container**: the element whose ``<p>`` children hold the most words, each
  ``<p>`` of at least :data:`PROSE_WORDS` words counted. It holds at least
  :data:`MIN_CONTAINER_SHARE` of the content's words (text inside ``<pre>`` not counted: a
  tutorial's code is not prose), and together with the elements of its kind (same tag and
  first class name: the page builder's other text blocks) and its ancestors holding such
  paragraphs, at least :data:`MIN_PROSE_SHARE` — on a page of many small text boxes (an
  FAQ's answers, a service page's cards) no container is the article and nothing goes;
* **its end**: the last of those containers holding such a paragraph; what follows it in
  document order (the following siblings of it and of each of its ancestors up to the
  rendered root), except an element holding one of those containers, is the *tail*;
* **the tail goes** when it holds text (at most :data:`MAX_TAIL_SHARE` of the article's prose
  words), at most :data:`MAX_TAIL_PARAGRAPHS` text blocks of :data:`LONG_BLOCK_WORDS` words
  or more (an FAQ or a second part of the article after a layout break has more), and no
  reference material: no ``<pre>``, ``<dl>`` or ``<table>``, fewer than
  :data:`MAX_TAIL_CODES` ``<code>`` elements (a library's API index under its overview) and
  no paragraph that is code alone (a function's signature after its description; review
  r-14).

Measured on the WCXB dev part (webresearch alone, before → after): article 0.9541 → 0.9560
(35 pages up, by up to +0.16 — a consultancy's article followed by its services' cards —,
none down), collection +0.0007, forum +0.0002 (one page each up), documentation, service,
listing and product unchanged; Zyte dev one page up (+0.12), none down. The caller skips
shop pages: the lines after a product's description ("Returns accepted within 30 days")
are the offer's (two WCXB dev product pages gained +0.047 and +0.03 without that skip).
Without the share of the single container eight service pages went down (Q&A columns,
accordions, utility-class cards: the "best" container held a tenth of the text); letting a
page builder's blocks of one kind stand in for it when they hold 70 % of the words gained
+0.0002 on articles and lost three service and documentation pages. Without the reference
guard an API index went (documentation −0.0007); with 0.6 as the tail share a list of
webcams after a park's introduction went. Cost: about 0.5 % of an extraction (word counts by
``str.split`` over lxml's text serialisation).

Not measured to help (WCXB dev article, offline on the outputs): cutting blocks absent from a
declared ``articleBody`` (17 of 395 pages declare one: +0.0003 at best), or blocks whose text
the page shows twice (−0.007), or everything after the last horizontal rule (+0.0001 at best, 7 pages down).
"""

from __future__ import annotations

from lxml import etree

__all__ = [
    "LONG_BLOCK_WORDS",
    "MAX_TAIL_CODES",
    "MAX_TAIL_PARAGRAPHS",
    "MAX_TAIL_SHARE",
    "MIN_CONTAINER_SHARE",
    "MIN_PROSE_SHARE",
    "PROSE_WORDS",
    "drop_after_article",
]

#: A ``<p>`` of at least this many words is a paragraph of prose.
PROSE_WORDS = 8
#: The article's container holds at least this share of the content's words on its own …
MIN_CONTAINER_SHARE = 0.3
#: … and, with the containers of its kind and its ancestors, at least this share.
MIN_PROSE_SHARE = 0.5
#: The tail removed holds at most this many words per word of the article's prose.
MAX_TAIL_SHARE = 0.4
#: A text block (an element with no block inside) of this many words or more is long …
LONG_BLOCK_WORDS = 25
#: … and a tail of more than this many long blocks is prose of its own: it stays.
MAX_TAIL_PARAGRAPHS = 3
#: A tail with this many ``<code>`` elements or more is reference material: it stays.
MAX_TAIL_CODES = 3

_BLOCKS = frozenset({"p", "div", "li"})
_TEXT_BLOCKS = frozenset({"p", "li", "div", "dd", "span", "td", "blockquote"})
_REFERENCE = frozenset({"pre", "dl", "table"})


def _words(el: etree._Element) -> int:
    """Whitespace-separated words of ``el``'s text (``str.split``: a regular expression for
    letters cost eight times as much)."""
    return len(etree.tostring(el, method="text", encoding=str, with_tail=False).split())


def _kind(el: etree._Element) -> tuple[str, str]:
    classes = (el.get("class") or "").split()
    return str(el.tag), classes[0] if classes else ""


def drop_after_article(root: etree._Element) -> int:
    """Remove what the content holds after the article's container (module docstring).

    Args:
        root: the content about to be rendered (changed in place).

    Returns:
        how many words were removed (0 when nothing was).
    """
    prose: dict[etree._Element, int] = {}
    last: dict[etree._Element, int] = {}  # container → document position of its last paragraph
    for position, el in enumerate(root.iter("p")):  # position: among the paragraphs
        parent = el.getparent()
        words = _words(el)
        if parent is None or words < PROSE_WORDS:
            continue
        prose[parent] = prose.get(parent, 0) + words
        last[parent] = position
    if not prose:
        return 0
    best = max(prose, key=prose.__getitem__)
    total = _words(root) - sum(_words(pre) for pre in root.iter("pre"))
    kind = _kind(best)
    article = {el for el in prose if _kind(el) == kind}
    article.update(a for a in best.iterancestors() if a in prose)
    article_words = sum(prose[el] for el in article)
    if prose[best] < MIN_CONTAINER_SHARE * total or article_words < MIN_PROSE_SHARE * total:
        return 0
    tail = [
        el
        for el in _following(max(article, key=last.__getitem__), root)
        if not any(inner in article for inner in el.iter())
    ]
    tail_words = sum(_words(el) for el in tail)
    if not tail_words or tail_words > MAX_TAIL_SHARE * article_words or _is_content(tail):
        return 0
    for el in tail:
        el.tail = None
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)
    return tail_words


def _following(el: etree._Element, root: etree._Element) -> list[etree._Element]:
    """The elements after ``el`` in document order, outside it, up to ``root``'s end:
    the following siblings of ``el`` and of each ancestor below ``root``."""
    found: list[etree._Element] = []
    while el is not root:
        parent = el.getparent()
        if parent is None:
            break
        found.extend(s for s in el.itersiblings() if isinstance(s.tag, str))
        el = parent
    return found


def _is_content(tail: list[etree._Element]) -> bool:
    """True when the tail is prose or reference material of its own (module docstring)."""
    long_blocks = codes = 0
    for el in (inner for block in tail for inner in block.iter()):
        tag = el.tag
        if tag in _REFERENCE:
            return True
        if tag == "code":
            codes += 1
            parent = el.getparent()
            if parent is not None and parent.tag == "p" and _only_code(parent, el):
                return True  # a signature written as its own paragraph
        if (
            tag in _TEXT_BLOCKS
            and not any(child.tag in _BLOCKS for child in el)
            and _words(el) >= LONG_BLOCK_WORDS
        ):
            long_blocks += 1
    return codes >= MAX_TAIL_CODES or long_blocks > MAX_TAIL_PARAGRAPHS


def _only_code(block: etree._Element, code: etree._Element) -> bool:
    """Whether ``code`` is all the text of ``block``."""
    whole = "".join(block.itertext()).strip()
    return bool(whole) and whole == "".join(code.itertext()).strip()
