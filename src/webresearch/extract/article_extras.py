"""What a page adds after the article it shows, left out of the content. Pure functions.

* **Teaser sections** (:func:`drop_teaser_sections`): a markdown section whose heading is one
  of the phrases sites put over links to their other pages — "Related posts", "Read this
  next", "Up next", "Recent blogs", "Explore more", "You'll also love…", "You may also
  like", "More news", "Want more like this?", "Latest articles" (:data:`TEASER_HEADING`) —
  is promotion, not the article: the heading and everything under it, up to the next heading
  of the same or a higher level, is dropped. :func:`~webresearch.extract.page_noise.drop_teasers`
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

from webresearch.extract.sections import closing_fence, heading_title

__all__ = ["TEASER_HEADING", "drop_teaser_sections"]

#: A heading over links to a site's other pages (matched against the whole heading text).
TEASER_HEADING = re.compile(
    r"\W*(?:related (?:posts?|articles?|stories|content|reading|news|blogs?|resources|guides)"
    r"|read (?:this )?next|up next|what to read next"
    r"|recent (?:blogs?|posts?|articles?|stories|news)"
    r"|explore more(?: related content)?"
    r"|you(?:'|’)?ll (?:also )?(?:like|love|enjoy)"
    r"|you (?:may|might) (?:also )?(?:like|enjoy|be interested in)"
    r"|more (?:stories|articles|posts|news|to read|like this)"
    r"|(?:want|looking for) more like this"
    r"|recommended (?:for you|reading|articles|posts|stories)"
    r"|popular (?:posts|articles|stories)|(?:keep|continue) reading|also read"
    r"|latest (?:news|posts|articles|stories)|other (?:articles|posts|stories))\W*",
    re.IGNORECASE,
)

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")


def drop_teaser_sections(markdown: str) -> str:
    """``markdown`` without its teaser sections (module docstring); code blocks are never
    read as headings. Returns the text unchanged when it has none."""
    kept: list[str] = []
    fence: str | None = None
    skip_level = 0  # the level of the teaser heading being skipped; 0: keeping
    for line in markdown.split("\n"):
        heading = _ATX.match(line) if fence is None else None
        fence = closing_fence(fence, line)
        if heading is not None:
            level = len(heading.group(1))
            if skip_level and level <= skip_level:
                skip_level = 0
            if not skip_level and TEASER_HEADING.fullmatch(heading_title(heading.group(2))):
                skip_level = level
        if not skip_level:
            kept.append(line)
    if len(kept) == markdown.count("\n") + 1:
        return markdown
    return "\n".join(kept).strip("\n")
