"""Sections a newsletter labels as its own advertisements, left out of its markdown. Pure
functions.

A newsletter issue prints its paid slots and house ads as sections titled with a label
and a colon: "## Advertisement: New AI Book!", "## Sponsored: …", "### Paid advertisement:
…". The author says the section is an ad; it is not the issue's article. :func:`drop_ad_sections`
removes each such heading and its section (up to the next heading of the same or a higher
level), only

* when the heading is the label, a colon or a dash, and a title (:data:`_AD_HEADING`); a
  bare "## Advertisement" heading is a widget label (only the heading goes,
  :data:`~webresearch.extract.markdown_tidy.UI_LABEL`) or an article's own section about
  advertising, and its text stays;
* when the page holds at least :data:`MIN_AD_SECTIONS` of them: an issue's ads recur, while
  an article about advertising titling one section "Advertisement: a short history" keeps
  it;
* never inside fenced code.

Source of the rule: WCXB dev article 4444 (half A: a newsletter issue with four
"Advertisement: …" sections — a book, a course, an event, a fund —, which its ground truth
lists as not content). WCXB dev article half A 4444 +0.097 (no page down), half B
unchanged (no page there has two such sections), other types and Zyte unchanged.
"""

from __future__ import annotations

import re

from webresearch.extract.sections import heading_title

__all__ = ["MIN_AD_SECTIONS", "drop_ad_sections"]

#: A page needs at least this many labelled ad sections for any of them to go.
MIN_AD_SECTIONS = 2

_HEADING = re.compile(r"(#{1,6})\s+(.*)")
_AD_HEADING = re.compile(
    r"(?:advertisement|sponsored|sponsor|paid advertisement|paid post|ad)\s*[:–—-]\s*\w.*",
    re.IGNORECASE,
)
_FENCES = ("```", "~~~")


def drop_ad_sections(markdown: str) -> str:
    """``markdown`` without its labelled ad sections (module docstring); unchanged when it
    has fewer than :data:`MIN_AD_SECTIONS`."""
    lines = markdown.split("\n")
    starts: list[tuple[int, int]] = []  # (line, heading level) of each ad heading
    levels: list[tuple[int, int]] = []  # (line, level) of every heading
    fenced = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith(_FENCES):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.fullmatch(line.strip())
        if match is None:
            continue
        level = len(match.group(1))
        levels.append((number, level))
        if _AD_HEADING.fullmatch(heading_title(match.group(2))):
            starts.append((number, level))
    if len(starts) < MIN_AD_SECTIONS:
        return markdown
    drop: set[int] = set()
    for start, level in starts:
        end = next((n for n, lv in levels if n > start and lv <= level), len(lines))
        drop.update(range(start, end))
    kept = [line for number, line in enumerate(lines) if number not in drop]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")
