"""Widgets that documentation sites put around a page's text, found for removal. Pure functions.

Documentation generators wrap every page in the same few widgets; none of them is the page's
content, and WCXB's ground truths leave them out (its ``without`` snippets name them:
"Was this page helpful to you?", "Edit this page on GitHub", "Report an issue"):

* **Feedback widgets** (:func:`page_widgets`): a question whether the page helped ("Was this
  page's content helpful?", "Was this article helpful for you?") asked with answer buttons —
  a ``<button>`` whose block, up to three levels above it, holds no other text than the
  question and short answer labels ("Yes", "No").
* **Source and issue links**: a short block (at most :data:`MAX_META_CHARS` letters and digits)
  whose every link is one of "View source", "Edit this page", "Edit on GitHub", "Report an
  issue", "Improve this page", "Suggest an edit" (the page's own repository), with the version
  and last-update line around them ("Unless stated otherwise, the documentation on this site
  reflects Flutter 3.41.2. Page last updated on …").
* **Video embeds** of the lite-embed web components (``<lite-youtube>``, ``<lite-vimeo>``):
  the text inside is the fallback play link ("Watch on YouTube in a new tab: …"), a player
  control and not a sentence of the page (issue 13: video-player text is noise).
* **Pager links** to the next or previous page of a guide ("next lesson" over the next
  page's title and summary, "« Previous", "Next: Making queries"): a link whose text starts
  with such a label and that no words stand right before or after (a sentence's "continue on
  the next page" link stays: shared case 14); its list item or block goes with it when that
  holds nothing else.

Removed after the main content is chosen, with the hidden blocks (``extract_html``). WCXB dev:
documentation 0.9253 → 0.9289 (a widget catalog 0.82 → 0.97: its lite-youtube play links,
feedback question and source line; a lesson's "next lesson" card 0.96 → 0.99), listing
+0.0001 (two pages' "Next" pagination links), article +0.000004 (one page +0.002), the other types and Zyte dev
unchanged; no page down. Of the 157 matches on the dev pages of both corpora (the scan's
report), all are pager, feedback, source-link or player chrome.

The scan reads only ``<a>``, ``<button>`` and the lite-embed elements (lxml's tag filter,
in C), a button's blocks only when small (:data:`MAX_WIDGET_ELEMENTS`) and each once, a link's
text only when its first word may start a label: median 0.8 ms a page on the dev pages on a
loaded machine, where the consent scan took 2.0 ms.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.tree import outermost

__all__ = ["MAX_META_CHARS", "MAX_WIDGET_CHARS", "MAX_WIDGET_ELEMENTS", "page_widgets"]

#: A source-and-issue links block holds at most this many letters and digits.
MAX_META_CHARS = 300
#: A feedback widget holds at most this many letters and digits (a question and its answers) …
MAX_WIDGET_CHARS = 120
#: … and at most this many elements (its block is not read when larger).
MAX_WIDGET_ELEMENTS = 25

_FEEDBACK = re.compile(
    r"(?:was|is|did|does|do you find) (?:this|the) [\w' ]{0,30}(?:helpful|useful|help you)"
    r"[\w' ]{0,20}\?",
    re.I,
)
_ANSWER_WORDS = frozenset({"yes", "no", "thumb_up", "thumb_down", "thumbs", "up", "down"})
_META_LINK = re.compile(
    r"(?:view|edit|see) (?:the |this )?(?:page )?source|edit (?:this|the) page(?: on github)?|"
    r"edit on github|(?:report|file|open) an? (?:issue|problem|bug)(?: with this page)?|"
    r"improve this (?:page|doc\w*)|suggest (?:an )?edits?|submit (?:a )?correction",
    re.I,
)
_PAGER_NOUN = r"(?: (?:page|lesson|chapter|article|topic|post))"
#: The whole link text is a pager label ("Next", "« Previous", "Next page →") …
_PAGER_LABEL = re.compile(rf"\W*(?:next|previous|prev){_PAGER_NOUN}?\W*", re.I)
#: … or starts with one naming what it leads to ("next lesson …", "Next: Making queries").
_PAGER_START = re.compile(rf"\W*(?:next|previous|prev)(?:{_PAGER_NOUN}\b|\s*:)", re.I)
#: The first words of the labels above (a cheap filter before the text is read).
_LABEL_STARTS = frozenset(
    {"next", "previous", "prev", "view", "edit", "see", "report", "file", "open", "improve"}
    | {"suggest", "submit"}
)
_ARROWS = "«‹←<>→›»"
_JOINERS = frozenset({"or", "and", "|", "·"})
_BLOCK_TAGS = frozenset({"p", "div", "footer", "section", "aside", "li", "nav"})
_EMBED_TAGS = ("lite-youtube", "lite-vimeo")


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _first_word(link: etree._Element) -> str:
    """The first word of the link's first non-blank text (its own or a descendant's),
    lowercased, without leading arrows; empty when it has none near the start."""
    text = link.text
    if not text or text.isspace():
        text = next((d.text for d in link.iterdescendants() if d.text and not d.text.isspace()), "")
    words = text.lower().replace(":", " ").split(None, 2)
    first = words[0] if words else ""
    if first in _ARROWS and len(words) > 1:
        first = words[1]
    return first.strip(_ARROWS)


def _small_text(el: etree._Element) -> str | None:
    """The text of an element of at most :data:`MAX_WIDGET_ELEMENTS` elements (whitespace-
    collapsed, a space between text nodes), ``None`` for a larger one (not read further)."""
    parts: list[str] = []
    for count, node in enumerate(el.iter()):
        if count >= MAX_WIDGET_ELEMENTS:
            return None
        if node.text and isinstance(node.tag, str):
            parts.append(node.text)
        if node is not el and node.tail:
            parts.append(node.tail)
    return " ".join(" ".join(parts).split())


def _start(el: etree._Element, limit: int = 80) -> str:
    """The element's text, whitespace-collapsed (a space between text nodes: "Yes" and "No"
    buttons are two words), read only until it passes ``limit`` characters (a long block is
    not read to its end)."""
    parts: list[str] = []
    size = 0
    for piece in el.itertext():
        parts.append(piece)
        size += len(piece)
        if size > limit:
            break
    return " ".join(" ".join(parts).split())


def page_widgets(root: etree._Element) -> list[etree._Element]:
    """The documentation widgets under ``root`` (module docstring), outermost first; nothing
    is removed yet (pass them to ``remove_elements``).

    Args:
        root: the page's ``<body>`` (or any subtree).

    Returns:
        feedback widgets, source-and-issue link blocks, lite video embeds and pager links, each
        element at most once and none inside another.
    """
    # one walk over the page for the three kinds (each read below in its own order)
    found: list[etree._Element] = []
    buttons: list[etree._Element] = []
    links: list[etree._Element] = []
    for el in root.iter(*_EMBED_TAGS, "button", "a"):
        tag = el.tag
        (buttons if tag == "button" else links if tag == "a" else found).append(el)
    seen: set[etree._Element] = set()  # blocks read already (buttons share them)
    for button in buttons:
        widget = _feedback_widget(button.getparent(), seen)
        if widget is not None:
            found.append(widget)
    for link in links:
        if _first_word(link) not in _LABEL_STARTS:
            continue  # (most links: one attribute read, no text walk)
        label = _start(link)
        if _META_LINK.fullmatch(label):
            if _in_sentence(link):
                continue  # "Edit this page and add a footer.": an instruction, not a widget
            block = _meta_block(link)
            if block is not None:
                found.append(block)
        elif _is_pager(link, label):
            found.append(_alone_in(link))
    return outermost(found)


def _feedback_widget(
    holder: etree._Element | None, seen: set[etree._Element]
) -> etree._Element | None:
    """The block around an answer button that asks whether the page helped and holds
    nothing but the question and short answers, or ``None`` (``seen``: blocks read before,
    not read again; updated)."""
    node = holder
    for _ in range(3):
        if node is None or node in seen:
            return None
        seen.add(node)
        text = _small_text(node)
        if text is None or len(normalise(text)) > MAX_WIDGET_CHARS:
            return None
        lowered = text.lower()
        if "helpful" not in lowered and "useful" not in lowered and "help you" not in lowered:
            node = node.getparent()
            continue
        match = _FEEDBACK.search(text)
        if match is not None:
            rest = (text[: match.start()] + " " + text[match.end() :]).lower().split()
            return node if all(word.strip(".!") in _ANSWER_WORDS for word in rest) else None
        node = node.getparent()
    return None


def _meta_block(link: etree._Element) -> etree._Element | None:
    """The short block around a source or issue link whose links are all such links."""
    node = link.getparent()
    while node is not None and _tag(node) not in _BLOCK_TAGS:
        node = node.getparent()
    if node is None or len(normalise(_start(node, 3 * MAX_META_CHARS))) > MAX_META_CHARS:
        return None
    if all(_META_LINK.fullmatch(_start(a)) for a in node.iter("a")):
        return node
    return None


def _is_pager(link: etree._Element, label: str) -> bool:
    """A link to another page whose text is or starts with a pager label ("next lesson …")."""
    href = link.get("href") or ""
    if not href or href.startswith("#") or not label:
        return False
    if not (_PAGER_LABEL.fullmatch(label) or _PAGER_START.match(label)):
        return False
    return not _in_running_text(link)


def _in_running_text(link: etree._Element) -> bool:
    """True when words stand right before or after the link ("Continue on the next page,
    or …"): a link inside a sentence, not a pager."""
    previous, parent = link.getprevious(), link.getparent()
    if previous is not None:
        before = previous.tail or ""
    else:
        before = (parent.text if parent is not None else None) or ""
    after = link.tail or ""
    return any(c.isalnum() for c in before + after)


def _in_sentence(link: etree._Element) -> bool:
    """True when a lowercase word goes on right after the link, other than an "or"/"and"
    joining the next link ("Edit this page in your editor: …"; a widget's "View source or
    report an issue" is no sentence). Fresh review: a tutorial's instruction "Edit this page
    and add a footer." was dropped."""
    after = (link.tail or "").strip()
    if not after[:1].isalpha() or not after[:1].islower():
        return False
    return after.rstrip(",;:").lower() not in _JOINERS


def _alone_in(link: etree._Element) -> etree._Element:
    """The link's list item or block when it holds nothing but the link, else the link."""
    parent = link.getparent()
    if parent is None or _tag(parent) not in _BLOCK_TAGS:
        return link
    if _start(parent, MAX_META_CHARS) == _start(link, MAX_META_CHARS):
        return parent
    return link
