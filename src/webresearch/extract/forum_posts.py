"""The posts of a discussion thread, found by the page's structure. Pure functions.

A thread repeats one container per post (phpBB ``div.post``, XenForo ``article.message``,
vBulletin ``li.postcontainer``, Discourse ``div.topic-post``, a Q&A site's answers, a
comment tree's comments): siblings under one parent with the same tag and first class
name, each holding the poster's name (a link to a member's page, a "username"/"author"
element, a "by NAME » DATE" line) and the post's text. :func:`thread_posts` finds them:

* the posts marked with schema.org microdata (:func:`webresearch.extract.forum.post_bodies`)
  when the page has them: each post body and its unit (the ancestor right below the
  bodies' lowest common ancestor);
* otherwise the group of at least :data:`MIN_POSTS` sibling containers of which at least
  :data:`MIN_SIGNED_SHARE` name a poster (:func:`webresearch.extract.forum_bylines.author_of`)
  and that has the most posts (then the most text). In each container the post body is the element at the
  same place in every container (the same path of tags and first class names below it)
  that is found at most once per container, in at least :data:`MIN_SIGNED_SHARE` of them,
  never holds the poster's name (:func:`~webresearch.extract.forum_bylines.name_holder`:
  that is the card) and holds the most prose — text nodes of :data:`PROSE_RUN_CHARS` letters
  and digits or more (all text when no post has such), at least :data:`MIN_BODY_SHARE` of
  the containers' — the deepest such place when several hold the same: the profile card
  (short lines, however many: a member's rig list), the byline and the buttons are its
  siblings or its ancestors' siblings.

A page not known as a thread by its address or declarations
(:func:`webresearch.extract.page_type.looks_like_forum`) is read as one by
:func:`mark_thread` when such posts hold most of the page's text (:func:`holds_the_page`:
a blog's comment section under its article does not), at least :data:`MIN_SIGNED_SHARE`
of them are dated (a list of names over texts is no thread), fewer sit under a heading
linking to another page (a listing's stories: Slashdot's front page) and the page declares
no article.

Measured on the WCXB development part: forum 0.783 → 0.783 (the 59 forum pages are known
threads by their address; one, 0576, is read by structure: −0.003); the other types and
Zyte: see the commit. Reading known threads this way too (bylines on every post, every
post kept, microdata threads unchanged) gave forum 0.783 → 0.778: 8 pages up (a phpBB
thread 0.74 → 0.84, a Steam thread 0.63 → 0.92), 13 down, most by keeping replies the
ground truth leaves out (5049 holds only the opening post: 0.99 → 0.58) — not done.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from webresearch.extract.align import letters_digits, page_text_size
from webresearch.extract.forum import MIN_POSTS, POST_ATTR, post_bodies
from webresearch.extract.forum_bylines import (
    author_of,
    date_of,
    is_dateline,
    is_profile_link,
    name_holder,
    write_byline,
)
from webresearch.extract.text_count import serialized_size

__all__ = [
    "MIN_BODY_SHARE",
    "MIN_PAGE_SHARE",
    "MIN_SIGNED_SHARE",
    "PROSE_RUN_CHARS",
    "Post",
    "holds_the_page",
    "mark_thread",
    "thread_posts",
]

#: At least this share of a group's containers name their poster (and hold the body).
MIN_SIGNED_SHARE = 0.8
#: The post body holds at least this share of the containers' prose …
MIN_BODY_SHARE = 0.4
#: … text nodes of at least this many letters and digits (a card's lines are shorter).
PROSE_RUN_CHARS = 30
#: Posts found by structure alone make a page a thread when they hold this share of its text.
MIN_PAGE_SHARE = 0.6

_Key = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Post:
    """One post of a thread.

    Attributes:
        unit: the post's container (its body, profile card, byline, signature, buttons).
        body: the element holding what the post says, inside ``unit``.
    """

    unit: etree._Element
    body: etree._Element


def _label(el: etree._Element) -> str:
    """An element's tag and first class name: what its siblings of the same kind share."""
    classes = (el.get("class") or "").split()
    return f"{el.tag}.{classes[0]}" if classes else str(el.tag)


def _text_sizes(root: etree._Element) -> dict[etree._Element, int]:
    """Letters and digits under each element of ``root``'s tree (its text, its descendants'
    text and tails; not its own tail). One bottom-up pass."""
    sizes: dict[etree._Element, int] = {}
    stack: list[int] = []  # letters and digits of each open element: summed on the way up
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            text = el.text if isinstance(el.tag, str) else None
            stack.append(len(letters_digits(text)) if text and not text.isspace() else 0)
            continue
        own = stack.pop()
        sizes[el] = own
        if stack:
            tail = el.tail
            stack[-1] += own + (len(letters_digits(tail)) if tail and not tail.isspace() else 0)
    return sizes


def _heavy_chain(
    body: etree._Element, share: float
) -> tuple[list[etree._Element], dict[etree._Element, int]] | None:
    """The elements holding at least ``share`` (more than half) of ``body``'s letters and
    digits, from ``body`` down, with the sizes (:func:`_text_sizes`) of the body, of them
    and of their children; ``None`` when they cannot be counted from serialized text
    (:func:`~webresearch.extract.text_count.serialized_size`).

    Two elements holding more than half of the text each cannot lie side by side: those
    holding that much are a chain of ancestors, and a group of sibling posts holding that
    much has its parent on it. Only the chain's children are counted here, in C, instead of
    every element of the page in a Python walk (the thread search runs on every page)."""
    total = serialized_size(body)
    if total is None:
        return None
    sizes = {body: total}
    chain: list[etree._Element] = []
    least = share * total
    node: etree._Element | None = body if total else None
    while node is not None:
        chain.append(node)
        heavy = None
        for child in node:
            if isinstance(child.tag, str):
                size = serialized_size(child)
                if size is None:
                    return None
                sizes[child] = size
                if size >= least:
                    heavy = child
        node = heavy
    return chain, sizes


def _prose_sizes(units: list[etree._Element]) -> dict[etree._Element, int]:
    """Letters and digits of prose under each element of the ``units``' trees: text nodes of
    at least :data:`PROSE_RUN_CHARS`, not a dateline ("by gardener1 » Mon Jun 01, 2026
    10:01 am" is no prose). Read only for a group that may be posts: one bottom-up pass
    over each unit (an element's count never holds its own tail, so it is the same as in a
    pass over the whole page)."""

    def size(text: str | None) -> int:
        if not text or text.isspace():
            return 0
        n = len(letters_digits(text))
        return n if n >= PROSE_RUN_CHARS and not is_dateline(text) else 0

    prose: dict[etree._Element, int] = {}
    for unit in units:
        stack: list[int] = []
        for event, el in etree.iterwalk(unit, events=("start", "end")):
            if event == "start":
                stack.append(size(el.text) if isinstance(el.tag, str) else 0)
                continue
            own = stack.pop()
            prose[el] = own
            if stack:
                stack[-1] += own + size(el.tail)
    return prose


def thread_posts(body: etree._Element, min_share: float = 0.0) -> list[Post]:
    """The posts of a thread under ``body`` (module docstring), in document order; empty
    when fewer than :data:`MIN_POSTS` are found. Nothing is changed.

    ``min_share``: only containers found by structure holding together at least this share
    of the page's letters and digits are read (the search is then cheap on other pages)."""
    marked = post_bodies(body)
    if marked:
        posts = [Post(u, b) for u, b in zip(_own_units(marked, body), marked, strict=True)]
        return posts if len(posts) >= MIN_POSTS else []
    heavy = _heavy_chain(body, min_share) if min_share > 0.5 else None
    if heavy is None:
        sizes = _text_sizes(body)
        parents: Iterable[etree._Element] = body.iter()
    else:
        parents, sizes = heavy
    least = min_share * sizes.get(body, 0)
    best: list[Post] = []
    best_score = (0, 0)
    for parent in parents:
        if sizes.get(parent, 0) < least or len(parent) < MIN_POSTS:
            continue
        groups: dict[str, list[etree._Element]] = defaultdict(list)
        for child in parent:
            if isinstance(child.tag, str) and sizes.get(child, 0):
                groups[_label(child)].append(child)
        for units in groups.values():
            if len(units) < max(MIN_POSTS, best_score[0]):
                continue
            if sum(sizes[u] for u in units) < least or not _may_be_posts(units):
                continue
            if heavy is not None:  # the sizes inside the containers, read now
                for unit in units:
                    sizes.update(_text_sizes(unit))
            prose = _prose_sizes(units)
            posts = _posts_of(units, prose if sum(prose[u] for u in units) else sizes)
            score = (len(posts), sum(sizes[p.unit] for p in posts))
            if posts and score > best_score:
                best, best_score = posts, score
    return best


def _may_be_posts(units: list[etree._Element]) -> bool:
    """False when too few of the containers can hold a post (:func:`_posts_of` would find
    none, read without reading their text): a post's body lies below its container and its
    poster's name outside that body (:func:`~webresearch.extract.forum_bylines.author_of`),
    so its container holds at least two elements — at least two children, or one child
    with children of its own. A group of paragraphs holding a link each is no thread."""
    room = sum(1 for u in units if len(u) > 1 or (len(u) == 1 and len(u[0]) > 0))
    return room >= MIN_POSTS and room >= MIN_SIGNED_SHARE * len(units)


def _own_units(bodies: list[etree._Element], body: etree._Element) -> list[etree._Element]:
    """For each post body, its highest ancestor below ``body`` holding no other post body
    (the post with its card and buttons; the post body itself when its parent holds
    another)."""
    holding: dict[etree._Element, int] = defaultdict(int)
    for post_body in bodies:
        for ancestor in post_body.iterancestors():
            holding[ancestor] += 1
    units = []
    for post_body in bodies:
        unit = post_body
        for ancestor in post_body.iterancestors():
            if ancestor is body or holding[ancestor] > 1:
                break
            unit = ancestor
        units.append(unit)
    return units


def _posts_of(units: list[etree._Element], sizes: dict[etree._Element, int]) -> list[Post]:
    """The posts of a group of sibling containers, or ``[]`` when they are not posts."""
    bodies = _bodies(units, sizes)
    posts = [
        Post(unit, found)
        for unit, found in zip(units, bodies, strict=True)
        if found is not None and author_of(unit, found)
    ]
    if len(posts) < MIN_POSTS or len(posts) < MIN_SIGNED_SHARE * len(units):
        return []
    # a container laid out otherwise (an opening post with its own layout): not read
    return [p for p in posts if sizes.get(p.body, 0) >= MIN_BODY_SHARE * sizes.get(p.unit, 0)]


def _bodies(
    units: list[etree._Element], sizes: dict[etree._Element, int]
) -> list[etree._Element | None]:
    """Each container's post body (module docstring), ``None`` where it has none."""
    found: list[dict[_Key, list[etree._Element]]] = []
    totals: dict[_Key, int] = defaultdict(int)
    carded: set[_Key] = set()  # places holding a poster's name: the card, not the body
    for unit in units:
        paths: dict[etree._Element, _Key] = {unit: ()}
        at: dict[_Key, list[etree._Element]] = defaultdict(list)
        for el in unit.iterdescendants():
            parent = el.getparent()
            if not isinstance(el.tag, str) or parent is None:
                continue
            key = (*paths[parent], _label(el))
            paths[el] = key
            at[key].append(el)
            totals[key] += sizes.get(el, 0)
        holder = name_holder(unit)
        if holder is not None and holder in paths:
            key = paths[holder]
            carded.update(key[:n] for n in range(1, len(key) + 1))
        found.append(at)
    whole = sum(sizes[u] for u in units)
    best: _Key | None = None
    for key, total in totals.items():
        if key in carded or total < MIN_BODY_SHARE * whole:
            continue
        if best is not None and (total, len(key)) <= (totals[best], len(best)):
            continue
        present = [at[key] for at in found if key in at]
        if any(len(els) > 1 for els in present) or len(present) < MIN_SIGNED_SHARE * len(units):
            continue
        best = key
    if best is None:
        return [None] * len(units)
    return [at[best][0] if best in at else None for at in found]


def holds_the_page(posts: list[Post], body: etree._Element) -> bool:
    """True when the posts' containers hold at least :data:`MIN_PAGE_SHARE` of the letters
    and digits of the page's ``body``."""
    page_chars = page_text_size(body)
    held = sum(page_text_size(p.unit) for p in posts)
    return page_chars > 0 and held >= MIN_PAGE_SHARE * page_chars


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _titled(post: Post) -> bool:
    """True when the post's container has, outside its body, a heading linking to another
    page (an item's title on a listing; a post's "Re: …" links to its own anchor, a card's
    heading to the member's page)."""
    inside = set(post.body.iter())
    for heading in post.unit.iter(*_HEADINGS):
        if heading in inside:
            continue
        for link in heading.iter("a"):
            href = (link.get("href") or "").strip()
            if href and not href.startswith("#") and not is_profile_link(href):
                return True
    return False


def mark_thread(body: etree._Element, article: bool = False) -> bool:
    """Read a page not known as a thread by its posts: when posts found by structure hold
    most of the page (:func:`holds_the_page`) and the page declares no article, mark them
    for :func:`webresearch.extract.forum.keep_thread`, in place — each post's container and
    body get :data:`~webresearch.extract.forum.POST_ATTR` (``"unit"``, ``"body"``) and its
    "author · date" line is added before its body
    (:func:`~webresearch.extract.forum_bylines.write_byline`).

    Args:
        body: the page's ``<body>``.
        article: the page declares an article (its comments are never its content).

    Returns:
        whether the page is read as a thread.
    """
    if article:
        return False
    posts = thread_posts(body, MIN_PAGE_SHARE)
    if not posts or not holds_the_page(posts, body):
        return False
    dated = sum(1 for p in posts if date_of(p.unit, p.body))
    if dated < MIN_SIGNED_SHARE * len(posts):
        return False  # a thread dates its posts: an author's name alone is no post
    if sum(1 for p in posts if _titled(p)) >= MIN_SIGNED_SHARE * len(posts):
        return False  # stories each under a linked title: a listing, not a thread
    for post in posts:
        post.unit.set(POST_ATTR, "unit")
        post.body.set(POST_ATTR, "body")
        write_byline(post.unit, post.body)
    return True
