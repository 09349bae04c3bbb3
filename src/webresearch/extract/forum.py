"""Every post of a discussion thread is content (issue 13). Pure functions over lxml trees.

trafilatura reads a thread as an article followed by a comment section; its fast pass often
stops after the first post (a question without its answers, a thread's opening post), and
which posts it keeps changes with its options. Forum software and Q&A sites mark their
posts with schema.org microdata: each post is an ``itemscope`` of type ``Comment``,
``Answer``, ``Question``, ``DiscussionForumPosting`` (or ``SocialMediaPosting``), and its
text is the element with ``itemprop="text"`` (or ``articleBody``) in that scope
(Discourse, XenForo, vBulletin, StackExchange, Woltlab…). On a thread that marks at least
:data:`MIN_POSTS` posts this way, the text of every post body is kept in addition to what
trafilatura kept (:func:`post_bodies`, applied by
:func:`webresearch.extract.main_content.find_main_content`).

Measured on the development part of WCXB: forum pages 0.738 → see BENCHMARKS.md; other
page types unchanged (the rule runs only on pages read as a thread).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["MIN_POSTS", "POST_TYPES", "keep_post_bodies", "post_bodies"]

#: schema.org types (last path segment of ``itemtype``, lower case) of one post.
POST_TYPES = frozenset(
    {"comment", "answer", "question", "discussionforumposting", "socialmediaposting"}
)
#: A thread marks at least this many post bodies.
MIN_POSTS = 2
_BODY_PROPS = frozenset({"text", "articlebody"})
#: A ``Comment`` inside one of these is a remark on a Q&A post, not a post of the thread
#: (StackExchange's comments under a question or an answer).
_REMARKED = frozenset({"question", "answer"})


def _scope_types(el: etree._Element) -> list[str]:
    """The schema.org types of the items ``el`` lies in, innermost first (``itemtype`` of
    each ``itemscope`` ancestor, last path segment, lower case; empty for an untyped one)."""
    types: list[str] = []
    for ancestor in el.iterancestors():
        if ancestor.get("itemscope") is not None:
            itemtype = (ancestor.get("itemtype") or "").strip().split()
            types.append(itemtype[0].rstrip("/").rsplit("/", 1)[-1].lower() if itemtype else "")
    return types


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
    for el in body.iter():
        if not isinstance(el.tag, str) or el in inside:
            continue
        props = set((el.get("itemprop") or "").lower().split())
        if props & _BODY_PROPS and _is_post_body(el):
            found.append(el)
            inside.update(el.iter())
    return found if len(found) >= MIN_POSTS else []


def keep_post_bodies(body: etree._Element, segments: list[Segment]) -> int:
    """Mark kept every segment inside a post body (:func:`post_bodies`) of ``body``.

    Args:
        body: the page's ``<body>``.
        segments: the page's text segments (:func:`webresearch.extract.align.text_segments`),
            already aligned with the extractor's text.

    Returns:
        the letters and digits newly marked kept (0 on a page without marked posts).
    """
    posts = post_bodies(body)
    if not posts:
        return 0
    inside = {el for post in posts for el in post.iter()}
    added = 0
    for seg in segments:
        holder = seg.owner.getparent() if seg.tail else seg.owner
        if not seg.kept and holder in inside:
            seg.kept = True
            added += len(seg.norm)
    return added
