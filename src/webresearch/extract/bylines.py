"""An article's byline and bare date lines, left out of its markdown. Pure functions.

A news site or blog prints who wrote the article and when above (or under) its text, in its
own block: "By Jane Doe", "Written by Jane Doe", "By Jane Doe • March 12, 2025", "Posted by
Jane at December 16, 2025 11:15 AM", or the date alone on its line ("December 15, 2025",
"19 Dec, 2025"). The line is about the article, not of it — the same page meta as the
"Published: June 2, 2025" lines :func:`~webresearch.extract.meta_lines.drop_meta_lines`
already removes, without the label. WCXB dev article outputs (main cefb306): 17 byline lines
on 13 pages and 21 bare date lines on 15 pages; the ground truth holds none of the bylines
and one of the dates (its words said again in a heading); trafilatura leaves them all out
(it reads them as metadata).

:func:`drop_bylines` removes such a line when it is a paragraph of its own — headings, list
items, table rows, quotes and code are never read: a changelog's "## March 3, 2025" heads an
entry, a list of dates is a timeline — and the text has at most :data:`MAX_BYLINE_LINES`
of them: more are a list's entries (a blog index, a thread's posts: each with its author and
date), and they stay. The caller leaves a forum thread alone (its posts' "Posted by" lines
are the thread's structure). The line must sit among the text's first or last
:data:`EDGE_BLOCKS` blocks, where page meta is printed, and not answer a sub-heading or a
line ending in ":" (review r-15: an event's "## When" over its date, a museum's "By Car"
directions in the middle of its page).

A byline is "by" (after "written", "posted", "text", "words", "reviewed", "edited", "story"
at most) and a name — one to :data:`MAX_NAME_WORDS` words, each capitalised or an initial,
joined by "and", "&" or commas ("By Dr. Jane Doe and John Roe") — then nothing, or a date
after a separator ("•", "|", "·", "-", "—", ",", "on", "at"). "By Monday, the water had
gone" is a sentence (a lower-case word) and stays, so does "By the river".

WCXB dev (webresearch alone, against main cefb306): article 0.9578 → 0.9579, 16 pages up
by up to 0.004, none down; the other types and Zyte dev unchanged (a service page's "BY
APPOINTMENT ONLY." and an events listing's "Mar 18, 2026" went in a first version: a name
does not end a sentence with a full stop, and short dated lines count toward the limit).

Cost: one pass over the lines; only a short line starting with "by"/a byline verb or a digit
or a month's letters is matched (well under 0.1 ms a page).
"""

from __future__ import annotations

import re

from webresearch.extract.sections import link_texts

__all__ = ["EDGE_BLOCKS", "MAX_BYLINE_LINES", "MAX_NAME_WORDS", "drop_bylines"]

#: An article says its byline and date once or twice (top and bottom); more are entries'.
MAX_BYLINE_LINES = 2
#: A byline or date line is one of the article's first or last this many blocks (lines).
EDGE_BLOCKS = 3
#: A byline's name (or names) has at most this many words.
MAX_NAME_WORDS = 8
#: Longer lines are never read.
_MAX_LINE_CHARS = 120

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?\.?,?\s+)?"
_DATE = (
    _WEEKDAY + r"(?:" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+\d{4}"
    r"|\d{4}-\d\d-\d\d|\d{1,2}/\d{1,2}/\d{4})"
    r"(?:,?\s+(?:at\s+)?\d{1,2}:\d\d(?::\d\d)?(?:\s*[ap]\.?m\.?)?(?:\s+[a-z]{2,4})?)?"
)
#: A line that is a date alone (a weekday before it, a time after it at most).
_BARE_DATE = re.compile(_DATE, re.IGNORECASE)
_BYLINE = re.compile(
    r"(?:(?:written|posted|text|words|reviewed|edited|story)\s+)?by\s*:?\s+(?P<name>[^\W\d_][^•|·–—]*?)"
    r"(?:\s*(?:[•|·,–—-]|\s(?:on|at))\s*" + _DATE + r")?",
    re.IGNORECASE,
)
#: A short line naming a month and a year dates something: an event's or an entry's line
#: ("Mar 6–Apr 18, 2026", "Posted in News on 3 May 2024") counts toward the limit.
_DATED = re.compile(r"\b" + _MONTH + r"(?:\W+\w+){0,4}?\W+(?:19|20)\d\d\b", re.IGNORECASE)
_MAX_DATED_CHARS = 60
#: Words a name may hold beside capitalised ones ("Jane Doe and John Roe").
_NAME_JOINERS = frozenset(["and", "&"])
_NAME_SPLIT = re.compile(r"[\s,]+")
#: Lines that are structure, not a paragraph: headings, tables, quotes, images, lists, code.
_NOT_PARAGRAPH = ("#", "|", ">", "!", "[!", "```", "~~~", "- ", "* ", "+ ", "    ", "\t")
_STRONG = ("**", "__")
_NUMBERED = re.compile(r"\d+[.)]\s")
#: How a byline starts (lowercased, after emphasis).
_STARTS = ("by", "written", "posted", "text", "words", "reviewed", "edited", "story")
#: How a date line starts when not with a digit: a month's or a weekday's first letters.
_DATE_STARTS = frozenset(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
) | frozenset(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))


def drop_bylines(markdown: str) -> str:
    """``markdown`` without its byline and bare date lines (module docstring); unchanged
    when it has none, or more than :data:`MAX_BYLINE_LINES` of them."""
    lines = markdown.split("\n")
    found: list[int] = []
    dated = 0  # lines giving a date, a byline's or an entry's ("Mar 6–Apr 18, 2026")
    fenced = False
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and _is_byline(line, stripped):
            found.append(number)
        elif not fenced and len(stripped) <= _MAX_DATED_CHARS and _DATED.search(stripped):
            dated += 1
    if not found or len(found) + dated > MAX_BYLINE_LINES:
        return markdown
    found = _at_an_edge(lines, found)
    if not found:
        return markdown
    gone = set(found)
    for number in found:  # and a blank line beside it, so no run of blank lines is left
        after, before = number + 1, number - 1
        blank_after = after < len(lines) and not lines[after].strip() and after not in gone
        blank_before = before < 0 or (not lines[before].strip() and before not in gone)
        if blank_after and blank_before:
            gone.add(after)
    return "\n".join(line for number, line in enumerate(lines) if number not in gone)


def _at_an_edge(lines: list[str], found: list[int]) -> list[int]:
    """The lines of ``found`` among the first or last :data:`EDGE_BLOCKS` blocks and not
    introduced by a sub-heading or a line ending in ":" (review r-15: "## When" over an
    event's date, "The closing date is:" over it, "**By Car**" in a page's directions)."""
    blocks = [n for n, line in enumerate(lines) if line.strip()]
    rank = {n: i for i, n in enumerate(blocks)}
    kept: list[int] = []
    for number in found:
        i = rank[number]
        if EDGE_BLOCKS <= i < len(blocks) - EDGE_BLOCKS:
            continue  # a meta line sits above or under the text, not inside it
        before = lines[blocks[i - 1]].strip() if i else ""
        if before.endswith(":") or before.startswith("##"):
            continue  # the line answers what comes before it
        kept.append(number)
    return kept


def _is_byline(line: str, stripped: str) -> bool:
    """True when the line is a byline or a date alone, as a paragraph of its own."""
    if (
        not stripped
        or len(stripped) > _MAX_LINE_CHARS
        or line.startswith(_NOT_PARAGRAPH)
        or stripped.startswith(_NOT_PARAGRAPH[:6])
        or _NUMBERED.match(stripped)
    ):
        return False
    if len(stripped) > 4 and stripped[:2] in _STRONG and stripped.endswith(stripped[:2]):
        return False  # a bold line is a label heading what follows ("**By Car**": review r-15)
    plain = link_texts(stripped).replace("*", "").replace("_", " ").replace("\\", "").strip()
    lowered = plain.lower()
    dated = plain[:1].isdigit() or lowered[:3] in _DATE_STARTS
    if dated and _BARE_DATE.fullmatch(plain):
        return True
    if not lowered.startswith(_STARTS):
        return False
    match = _BYLINE.fullmatch(plain)
    return match is not None and _is_name(match.group("name"))


def _is_name(text: str) -> bool:
    """True when ``text`` is a person's name or a few: capitalised words and initials,
    joined by "and", "&" or commas, at most :data:`MAX_NAME_WORDS` words."""
    words = [w for w in _NAME_SPLIT.split(text.strip()) if w]
    if not words or len(words) > MAX_NAME_WORDS:
        return False
    if len(words[-1]) > 3 and words[-1].endswith("."):
        return False  # a sentence: "BY APPOINTMENT ONLY." (an initial, "Jr." may end a name)
    return all(w[0].isupper() or w in _NAME_JOINERS for w in words) and words[-1][0].isupper()
