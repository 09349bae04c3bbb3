"""What a page adds after the article it shows, left out of the content. Pure functions.

* **Teaser sections** (:func:`drop_teaser_sections`): a markdown section whose heading is one
  of the phrases sites put over links to their other pages — "Related posts", "Read this
  next", "Up next", "Recent blogs", "Explore more", "You'll also love…", "You may also
  like", "More news", "Want more like this?", "Latest articles" (:data:`TEASER_HEADING`) —
  is promotion, not the article, when it is links or a list of entries and follows more
  text than it holds (not "Recommended reading" or "Related resources": a course's reading
  is its content): the heading and everything under it, up to the next
  heading of the same or a higher level, is dropped; so is such a heading left with nothing
  under it (the content path dropped its links as link-dense: "## Related content" over the
  next section's heading, "## Related Post" ending the text; WCXB dev article: 4 pages up,
  none down). :func:`~webresearch.extract.page_noise.drop_teasers`
  catches such blocks by their class names; these have none it knows ("recent-posts-wrapper",
  Tailwind utility classes only, a Squarespace text block). A bare "Related" heading is not
  one: on a scholar's page it heads prose about related work (WCXB dev article 0406). The
  15 sections this drops from the WCXB dev outputs hold no ground-truth text beyond a few
  common words: article 0.9438 → 0.9447 (15 pages up, none down), the other page types and
  Zyte dev unchanged.

A class-name rule for calls to action (``cta`` blocks) was measured and left out: on pages
declaring an article it also removed a trail listing's cards and a "Key takeaways" box
(WCXB dev listing −0.012, service −0.0008).
"""

from __future__ import annotations

import re

from webresearch.extract.markdown_tidy import join_kept_lines
from webresearch.extract.sections import MARKDOWN_LINK, closing_fence, heading_title, link_texts

__all__ = ["PROMO_LABEL", "TEASER_HEADING", "drop_promo_paragraphs", "drop_teaser_sections"]

#: A heading over links to a site's other pages (matched against the whole heading text).
TEASER_HEADING = re.compile(
    r"\W*(?:related (?:posts?|articles?|stories|content|news|blogs?)"
    r"|read (?:this )?next|up next|what to read next"
    r"|recent (?:blogs?|posts?|articles?|stories|news)"
    r"|explore more(?: related content)?"
    r"|you(?:'|’)?ll (?:also )?(?:like|love|enjoy)"
    r"|you (?:may|might) (?:also )?(?:like|enjoy|be interested in)"
    r"|more (?:stories|articles|posts|news|to read|like this)"
    r"|(?:want|looking for) more like this"
    r"|recommended (?:for you|articles|posts|stories)"
    r"|popular (?:posts|articles|stories)|(?:keep|continue) reading|also read"
    r"|latest (?:news|posts|articles|stories)|other (?:articles|posts|stories))\W*",
    re.IGNORECASE,
)

#: A paragraph announcing links to other pages of the site ("**Related articles:**", "You may
#: also like…", "If you liked this post you might also like:"), matched against its whole
#: text without emphasis.
PROMO_LABEL = re.compile(
    r"\W*(?:read (?:more|next|also)|also read|must read|don(?:'|’)?t miss"
    r"|related(?: (?:articles?|posts?|stories|story|reading|content|guides?))?"
    r"|(?:if you (?:liked|enjoyed) this (?:post|article|story),? )?"
    r"you (?:may|might|will|(?:'|’)ll) (?:also )?(?:like|enjoy|love)"
    r"|more from [^:\n]{1,40})"
    r"(?: (?:from|on) [^:\n]{1,40})?\W*",
    re.IGNORECASE,
)
#: A line under such a paragraph is a link to another page when link text is at least this
#: share of its letters.
MIN_PROMO_LINK_SHARE = 0.8
_EMPHASIS = re.compile(r"[*_]+")
_LIST_ITEM = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)]) ")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")
_LETTER = re.compile(r"[^\W_]")
_ENTRY = re.compile(r"^ {0,3}(?:#{1,6} |[-*+] |\d{1,9}[.)] )", re.MULTILINE)

#: A teaser section's link text is at least this share of its letters (a list of links to
#: other pages, perhaps with a line of summary each) …
MIN_LINK_SHARE = 0.3
#: … and the page before it holds more letters than the section: it follows an article.


def drop_teaser_sections(markdown: str) -> str:
    """``markdown`` without its teaser sections (module docstring); code blocks are never
    read as headings. Returns the text unchanged when it has none.

    A section headed by a teaser phrase goes only when it is a list of links or entries
    (:func:`_is_teaser_list`) and follows more text than it holds: a blog index's "Latest
    posts" (most of the page) and a course page's "Recommended reading" paragraph stay."""
    lines = markdown.split("\n")
    drop: set[int] = set()
    fence: str | None = None
    headings: list[tuple[int, int, bool]] = []  # (line, level, teaser phrase)
    for number, line in enumerate(lines):
        heading = _ATX.match(line) if fence is None else None
        if "```" in line or "~~~" in line:  # a line without either opens or closes no fence
            fence = closing_fence(fence, line)
        if heading is not None:
            title = heading_title(heading.group(2))
            headings.append((number, len(heading.group(1)), bool(TEASER_HEADING.fullmatch(title))))
    for index, (start, level, teaser) in enumerate(headings):
        if not teaser or start in drop:
            continue
        end = next((n for n, lv, _ in headings[index + 1 :] if lv <= level), len(lines))
        section = "\n".join(lines[start + 1 : end])
        empty = not _letters(section)  # its list was left out as link-dense: the title stays
        if (empty or _is_teaser_list(section)) and _letters(
            "\n".join(lines[n] for n in range(start) if n not in drop)
        ) > _letters(section):
            drop.update(range(start, end))
    if not drop:
        return markdown
    return join_kept_lines(lines, drop).strip("\n")  # one blank line between blocks left


def _letters(text: str) -> int:
    return len(_LETTER.findall(link_texts(text)))


def _is_teaser_list(section: str) -> bool:
    """Links to other pages (:data:`MIN_LINK_SHARE`), or entries: two or more list items or
    headings (the content path often keeps a card's title without its link)."""
    total = _letters(section)
    linked = sum(_letters(m.group(1)) for m in MARKDOWN_LINK.finditer(section))
    if total > 0 and linked >= MIN_LINK_SHARE * total:
        return True
    return len(_ENTRY.findall(section)) >= 2


def drop_promo_paragraphs(markdown: str) -> str:
    """``markdown`` without its paragraph-headed lists of links; code is never read.

    A paragraph that is only a promotion's label (:data:`PROMO_LABEL`) or a teaser heading's
    phrase (:data:`TEASER_HEADING`) written as a paragraph — "**Related Articles:**", "You
    may also like…" — goes with the links under it: the blocks right after it that are a
    list of links or a line that is one link (not a heading: a card's title; each item or line mostly link text,
    :data:`MIN_PROMO_LINK_SHARE`) — or alone, when it ends the text (the links under it
    were left out as link-dense) —, when the text before it is longer (it follows an
    article: a blog index's "Latest articles" stays). Without such links the paragraph stays (a label over
    prose, "Related work" over a paper's discussion). A label followed by a link on the
    same line ("**Read more:** [Title]") stays: the WCXB ground truth keeps about as many
    of those as it leaves out.

    Source of the rule: the WCXB dev article pages (lists under "**Related Articles:**",
    "Read Next", "If you liked this post you might also like:") and the Zyte articles
    ("You may also like..." over one link a line); none of their text is in the truth."""
    blocks = markdown.split("\n\n")
    drop: set[int] = set()
    fence: str | None = None
    for number, block in enumerate(blocks):
        inside = fence is not None
        if inside or "```" in block or "~~~" in block:  # a fence opens or closes here
            fence = closing_fence(fence, block)
        if inside or fence is not None or number in drop or not _is_label(block.strip()):
            continue
        if number == len(blocks) - 1 and number:
            drop.add(number)  # the label alone at the end: its links were dropped
            continue
        links = number + 1
        while links < len(blocks) and _is_link_block(blocks[links]):
            links += 1
        if links > number + 1 and _letters("\n\n".join(blocks[:number])) > _letters(
            "\n\n".join(blocks[number + 1 : links])
        ):
            drop.update(range(number, links))
    if not drop:
        return markdown
    return "\n\n".join(b for n, b in enumerate(blocks) if n not in drop)


def _is_label(paragraph: str) -> bool:
    """One line, no heading, that is only a promotion's label or a teaser phrase."""
    if not paragraph or "\n" in paragraph or paragraph.startswith(("#", "[", "!")):
        return False
    plain = _EMPHASIS.sub("", paragraph).strip()
    return bool(PROMO_LABEL.fullmatch(plain) or TEASER_HEADING.fullmatch(plain))


def _mostly_links(text: str) -> bool:
    total = _letters(text)
    linked = sum(_letters(m.group(1)) for m in MARKDOWN_LINK.finditer(text))
    return total > 0 and linked >= MIN_PROMO_LINK_SHARE * total


def _is_link_block(block: str) -> bool:
    """A list whose every item is mostly a link, or one line that is mostly a link."""
    lines = block.strip("\n").split("\n")
    if not block.strip():
        return False
    if len(lines) == 1 and not _LIST_ITEM.match(lines[0]):
        return not lines[0].startswith("#") and _mostly_links(lines[0])
    return all(
        _LIST_ITEM.match(item) and _mostly_links(_LIST_ITEM.sub("", item, count=1))
        for item in lines
    )
