"""Every post of a discussion thread is content (issue 13). Pure functions over lxml trees.

trafilatura reads a thread as an article followed by a comment section; its fast pass often
stops after the first post (a question without its answers, a thread's opening post), and
it keeps the posters' profile cards ("Joined", "Messages 2,345", user titles) and
signatures between the posts. Forum software and Q&A sites mark their posts with schema.org
microdata: each post is an ``itemscope`` of type ``Comment``, ``Answer``, ``Question``,
``DiscussionForumPosting`` (or ``SocialMediaPosting``) and its text is the element with
``itemprop="text"`` (or ``articleBody``) in that scope (Discourse, XenForo, vBulletin,
StackExchange, WoltLab…). On a page read as a thread
(:func:`webresearch.extract.page_type.looks_like_forum`) that marks at least
:data:`MIN_POSTS` post bodies this way, :func:`keep_thread` decides inside each post:

* the post body is kept, whatever the extractor kept of it (a thread's replies);
* the post's byline — the author's ``itemprop="name"`` and its ``<time>``/``datePublished``
  — is kept (the thread's "author, date" line for each post);
* the rest of the post's unit (profile card, signature, vote counts, "Reply"/"Quote"
  buttons) is left out, and so is a ``Comment`` inside a ``Question`` or ``Answer``: a
  remark under a Q&A post, not a post of the thread;
* text outside the post units (the thread's title, "2 Answers") keeps the extractor's
  decision.

On some threads trafilatura reads the same posts twice: once as the article (each post
flattened into one paragraph with its profile card) and once as the comment section (the
posts' paragraphs). When the comment section's blocks repeat the article
(:func:`repeats_article`, at least :data:`MIN_REPEATED_SHARE` of its text), only the comment
section is kept (:func:`webresearch.extract.main_content.find_main_content`).

Measured on the development part of WCXB (59 forum pages): 0.738 → 0.766 for the post
bodies (StackExchange questions with their answers, XenForo threads where trafilatura kept
the first post only), → 0.774 with the bylines and without the rest of each post's unit,
→ 0.781 without the repeated article (Invision threads; any share from 0.69 to 0.80 gives
the same figure, 0.68 and below loses a page by −0.09); other page types unchanged (the
rules run on thread pages only). Pages whose posts carry no microdata (phpBB, Invision,
Flarum) keep trafilatura's comment extraction.

A page that no address or declaration names a thread may still be one by its posts
(:func:`webresearch.extract.forum_posts.mark_thread`): the posts found by structure are
marked (:data:`POST_ATTR`) with an "author · date" line before each body, and
:func:`keep_thread` keeps each body and its line and leaves the rest of each post out. So
is a page known as a thread by its address whose posts carry no microdata (phpBB's
``viewtopic.php``): trafilatura's comment reading dropped some of its posts, and the quoted
replies in them (dev part of WCXB, forum pages: 0.783 → 0.789; four pages up, three down,
the largest −0.12 on a thread whose quoted posts the reference leaves out).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment, normalise
from webresearch.extract.forum_bylines import BYLINE_ATTR

__all__ = [
    "MIN_POSTS",
    "MIN_REPEATED_SHARE",
    "POST_ATTR",
    "POST_TYPES",
    "keep_thread",
    "post_bodies",
    "repeats_article",
]

#: schema.org types (last path segment of ``itemtype``, lower case) of one post.
POST_TYPES = frozenset(
    {"comment", "answer", "question", "discussionforumposting", "socialmediaposting"}
)
#: A thread marks at least this many post bodies.
MIN_POSTS = 2
#: Comments whose blocks are found in the article's text for at least this share of their
#: letters and digits repeat the article (:func:`repeats_article`).
MIN_REPEATED_SHARE = 0.75
#: The attribute marking a post's unit (``"unit"``) and its body (``"body"``) found by
#: structure (:func:`webresearch.extract.forum_posts.mark_thread`).
POST_ATTR = "data-wr-post"
_BODY_PROPS = frozenset({"text", "articlebody"})
_AUTHOR_PROPS = frozenset({"author", "creator"})
_DATE_PROPS = frozenset({"datepublished", "datecreated", "datemodified"})
#: A ``Comment`` inside one of these is a remark on a Q&A post, not a post of the thread
#: (StackExchange's comments under a question or an answer).
_REMARKED = frozenset({"question", "answer"})


def _with_itemprop(el: etree._Element) -> list[etree._Element]:
    """``el`` and its descendants that have an ``itemprop`` attribute, in document order
    (what ``descendant-or-self::*[@itemprop]`` selects)."""
    return [d for d in el.iter(etree.Element) if d.get("itemprop") is not None]


def _scope_types(el: etree._Element) -> list[str]:
    """The schema.org types of the items ``el`` lies in, innermost first (``itemtype`` of
    each ``itemscope`` ancestor, last path segment, lower case; empty for an untyped one)."""
    return [_scope_of(a) for a in el.iterancestors() if a.get("itemscope") is not None]


def _is_post_body(el: etree._Element) -> bool:
    """``el`` is the text of a post, not of a remark on a question or an answer."""
    scopes = _scope_types(el)
    if not scopes or scopes[0] not in POST_TYPES:
        return False
    return not (scopes[0] == "comment" and _REMARKED & set(scopes[1:]))


def post_bodies(body: etree._Element) -> list[etree._Element]:
    """The body element of each post the page marks with microdata (module docstring).

    Returns:
        the outermost ``itemprop="text"``/``"articleBody"`` elements of post items, in
        document order; empty when fewer than :data:`MIN_POSTS` are found.
    """
    found: list[etree._Element] = []
    inside: set[etree._Element] = set()
    # only the elements with an itemprop, in document order (a walk reading one attribute
    # an element: with the page's elements held (tree.py), two thirds of the XPath's time)
    for el in _with_itemprop(body):
        if el in inside:
            continue
        props = set((el.get("itemprop") or "").lower().split())
        if props & _BODY_PROPS and _is_post_body(el):
            found.append(el)
            inside.update(el.iter())
    return found if len(found) >= MIN_POSTS else []


def post_units(body: etree._Element, posts: list[etree._Element]) -> list[etree._Element]:
    """Each post's unit: its ancestor right below the posts' lowest common ancestor (the
    post with its author card, signature and buttons)."""
    paths = [[*reversed(list(post.iterancestors())), post] for post in posts]
    depth = 0
    while all(len(p) > depth + 1 for p in paths) and len({id(p[depth]) for p in paths}) == 1:
        depth += 1
    units: list[etree._Element] = []
    for path in paths:
        if path[depth] not in units and path[depth] is not body:
            units.append(path[depth])
    return units


def _item(el: etree._Element) -> etree._Element | None:
    """The nearest ``itemscope`` ancestor of ``el`` (the item ``el`` is a property of)."""
    for ancestor in el.iterancestors():
        if ancestor.get("itemscope") is not None:
            return ancestor
    return None


def _bylines(posts: list[etree._Element]) -> set[etree._Element]:
    """Elements whose text is a post's byline: the author's name and dates of each post
    item, not those of the items nested in it (a remark, a quoted post)."""
    items = {item for post in posts if (item := _item(post)) is not None}
    found: set[etree._Element] = set()
    for item in items:
        for el in item.iter():
            if not isinstance(el.tag, str):
                continue
            props = set((el.get("itemprop") or "").lower().split())
            if not (el.tag == "time" or props & (_DATE_PROPS | _AUTHOR_PROPS)):
                continue
            owner = _item(el)
            while owner is not None and owner is not item and _scope_of(owner) not in POST_TYPES:
                owner = _item(owner)
            if owner is not item:
                continue  # the byline of an item nested in this one
            if props & _AUTHOR_PROPS:
                names = [n for n in el.iter() if "name" in (n.get("itemprop") or "").split()]
                for holder in names or [el]:
                    found.update(holder.iter())
            else:
                found.update(el.iter())
    return found


def _scope_of(item: etree._Element) -> str:
    """An item's schema.org type: its ``itemtype``'s last path segment, lower case."""
    itemtype = (item.get("itemtype") or "").strip().split()
    return itemtype[0].rstrip("/").rsplit("/", 1)[-1].lower() if itemtype else ""


def _keep_marked_posts(body: etree._Element, segments: list[Segment]) -> int:
    """Mark what is content in a thread whose posts are marked (:data:`POST_ATTR`), in place.
    (:func:`keep_thread` on a page read as a thread by its posts alone.)

    Inside each post's unit (the post with its author card, signature and buttons): the
    post body and its "author · date" line (:data:`~webresearch.extract.forum_bylines.BYLINE_ATTR`)
    are kept, everything else (profile card, the original byline, signature, vote counts,
    "reply"/"quote" buttons, remarks under a Q&A post) is left out. Text outside the units
    keeps the extractor's decision.

    Args:
        body: the page's ``<body>``, its posts marked by
            :func:`webresearch.extract.forum_posts.mark_thread`.
        segments: the page's text segments (:func:`webresearch.extract.align.text_segments`),
            already aligned with the extractor's text.

    Returns:
        the change in kept letters and digits (negative when more was left out than
        added; 0 on a page without marked posts).
    """
    inside: set[etree._Element] = set()
    in_unit: set[etree._Element] = set()
    for el in body.iter():
        if not isinstance(el.tag, str):
            continue
        mark = el.get(POST_ATTR)
        if mark == "unit":
            in_unit.update(el.iter())
        elif mark == "body" or el.get(BYLINE_ATTR) is not None:
            inside.update(el.iter())
    return _keep_units(segments, inside, in_unit)


def _keep_units(
    segments: list[Segment], kept: set[etree._Element], in_unit: set[etree._Element]
) -> int:
    """Keep each segment held by an element of ``kept``, leave out the rest of the post
    units (``in_unit``); others keep the extractor's decision. Returns the change in kept
    letters and digits."""
    change = 0
    for seg in segments:
        holder = seg.holder
        if holder in kept:
            keep = True
        elif holder in in_unit:
            keep = False
        else:
            continue
        if keep != seg.kept:
            seg.kept = keep
            change += len(seg.norm) if keep else -len(seg.norm)
    return change


def keep_thread(body: etree._Element, segments: list[Segment]) -> int:
    """Mark what is content in a thread whose posts are marked with microdata, in place.

    Inside each post's unit (the post with its author card, signature and buttons; the
    post bodies' ancestors right below their lowest common ancestor): the post body is
    kept, the author's name and the dates of the post are kept, everything else
    (profile card, signature, vote counts, "reply"/"quote" buttons, remarks under a Q&A
    post) is left out. Text outside the units keeps the extractor's decision.

    Args:
        body: the page's ``<body>``.
        segments: the page's text segments (:func:`webresearch.extract.align.text_segments`),
            already aligned with the extractor's text.

    Returns:
        the change in kept letters and digits (negative when more was left out than
        added; 0 on a page without marked posts).
    """
    if body.find(f".//*[@{POST_ATTR}]") is not None:  # posts found by structure
        return _keep_marked_posts(body, segments)
    posts = post_bodies(body)
    if not posts:
        return 0
    inside = {el for post in posts for el in post.iter()}
    in_unit = {el for unit in post_units(body, posts) for el in unit.iter()}
    byline = _bylines(posts) - inside
    return _keep_units(segments, inside | (byline & in_unit), in_unit)


def repeats_article(comments: etree._Element, article_text: str) -> bool:
    r"""True when an extractor's comment section only repeats its article (module docstring).

    Args:
        comments: the extractor's comment tree (one child element per block).
        article_text: the article's text, :func:`webresearch.extract.align.normalise`\ d.

    Returns:
        whether blocks holding at least :data:`MIN_REPEATED_SHARE` of the comments' letters
        and digits occur in ``article_text``.
    """
    total = found = 0
    for block in comments:
        norm = normalise("".join(block.itertext()))
        total += len(norm)
        if norm and norm in article_text:
            found += len(norm)
    return total > 0 and found >= MIN_REPEATED_SHARE * total
