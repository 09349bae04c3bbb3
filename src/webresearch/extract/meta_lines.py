"""Lines about an article, not of it, left out of its markdown. Pure functions.

:func:`drop_meta_lines` removes two kinds of line in one pass over the text.

**Photo credits.** A line that only credits a picture — "Photo: Jane Doe", "(Image credit: Site)", "Courtesy of
the artist", "Jane Doe / Shutterstock", "DGLimages via Getty Images", "Featured image via
x/Pixabay" — names who took or owns a photo; it tells a model nothing about the page, and a
reader's eye skips it. It is found by its words, not by markup: sites print it in a
``<figcaption>``, a ``<small>`` paragraph, a ``div`` of utility classes or a CSS-module
class, and the text is the only thing they share. A line goes when, without link marks and
emphasis, it has at most :data:`MAX_CREDIT_WORDS` words and is wholly one of:

* a picture word ("photo", "image", "picture", "illustration", "featured image") with an
  optional "credit"/"courtesy", then ``:``, "by", "via", "from" and a name;
* "Credit: …", "Photo credit: …", "Courtesy (of) …";
* a name followed by a stock agency or wire after ``/``, "via", "for" or a dash
  ("… / Shutterstock", "… via Getty Images", "… - AP Photo");

and it names someone (unless it ends with "/ Agency", a caption's credit): no number in it,
and at most one lower-case word of more than three letters (a handle: "courtesy of gcmap")
but a credit's own words ("photo", "courtesy", "artist", an agency's name…): "Credits: 4
ECTS", "Credit: money a bank lends you", "She was a correspondent for Reuters" and "Photo:
the bridge collapsed after the storm" are sentences and stay (review r-12).

Headings, list items, table rows, quotes, images and code are never read. A caption that
describes the picture ("Image 5: the feedback loop", "Photo 3 of the bridge at dusk seen
from the river" — a digit or more words) is not a credit and stays; so do "Source: …"
lines under charts (the WCXB ground truth keeps about half of those).

**Page meta.** A line (a heading or a list item too) that only says how long the article
takes to read ("6 min read", "11 Minute Read", "Estimated reading time:"), an
advertisement's label ("Advertisement - Page continues below") or the title of a table of
contents ("Table of contents", "In this article", "On this page": its list of in-page links
is removed before, :func:`~webresearch.extract.page_toc.drop_page_toc`) is the page's
furniture. A reading time printed in a line with other text — a byline "By Jane Doe · 28
November 2026 · 4 min read", "Jun 08, 2023 • 11 Minute Read" — loses only that fragment
(with its separator, at the line's start or end or between two separators): the author and
the date stay, since the extraction returns no author or date field and an agent needs to
know by whom and when a page was written (decision, session 16; a new-user test found whole
bylines gone). For the same reason "Published: 28 November 2026", "Last updated on June 2,
2025" stay (they were dropped until session 16; WCXB's ground truth holds few of them, so
article precision pays a little). A page with more than :data:`MAX_ENTRY_META_LINES`
reading-time lines is a list of entries, each with its own: those stay whole (a blog index,
WCXB dev listing 2972). A bare "Contents" stays (a kit's "Contents" list).

Photo credits, WCXB dev article pages (webresearch alone): 15 pages change, 14 up, one down
by 0.002 ("Photo via Pexels" the ground truth keeps).

Cost: one pass over the lines; only a short line naming a picture, a credit, an agency, a
reading time, a date word or a contents title is matched against the patterns (about 0.1 ms
a page, median of the WCXB dev article pages).
"""

from __future__ import annotations

import re

from webresearch.extract.markdown_tidy import join_kept_lines
from webresearch.extract.sections import link_texts

__all__ = ["MAX_CREDIT_WORDS", "MAX_ENTRY_META_LINES", "drop_meta_lines"]

#: A credit line has at most this many words (a name, an agency: a caption is longer).
MAX_CREDIT_WORDS = 12
#: Longer lines are never read (a paragraph, not a credit).
_MAX_LINE_CHARS = 300

_AGENCY = (
    r"(?:getty(?:\s+images)?|shutterstock(?:\.com)?|istock(?:photo)?(?:\s*/\s*getty\s+images)?"
    r"|adobe\s+stock|alamy(?:\s+stock\s+photo)?|unsplash|pexels|pixabay|thinkstock|dreamstime"
    r"|depositphotos|ap\s+photo|reuters|afp)"
)
#: A caption ending with its stock agency after a slash: a credit whatever it says first.
_SLASH_AGENCY = re.compile(r"/\s*" + _AGENCY + r"\W*$", re.IGNORECASE)
_CREDIT = re.compile(
    r"[(\[]?\s*(?:"
    r"(?:photo(?:graph)?|image|picture|illustration|header\s+image|featured\s+image)s?"
    r"\s*(?:credits?|courtesy(?:\s+of)?)?\s*(?::|by|via|from|courtesy(?:\s+of)?)\s*[^\W\d][^:\d]*"
    r"|(?:photo\s+|image\s+)?credits?\s*:\s*\S.*"
    r"|courtesy(?:\s+of)?\s*:?\s*\S.*"
    r"|[^:]{0,80}?(?:\s*/\s*|\s+via\s+|\s+for\s+|\s*[-–—|]\s*)" + _AGENCY + r""
    r")\s*[)\]]?\.?",
    re.IGNORECASE,
)
#: Words without which no line is a credit (tested on a short line, lowercased, before the
#: regular expression: an alternation searched with IGNORECASE costs about 0.7 µs a character).
_HINTS = (
    "photo", "image", "picture", "illustration", "credit", "courtesy", "getty", "shutterstock",
    "istock", "stock", "unsplash", "pexels", "pixabay", "dreamstime", "reuters", "afp",
)  # fmt: skip
#: The lower-case words a credit line may hold (beside names, which are capitalised).
_CREDIT_WORDS = frozenset(
    [
        "photo",
        "photos",
        "photograph",
        "photographs",
        "image",
        "images",
        "picture",
        "pictures",
        "illustration",
        "illustrations",
        "featured",
        "header",
        "credit",
        "credits",
        "courtesy",
        "from",
        "stock",
        "with",
        "artist",
        "author",
        "authors",
        "photographer",
        "photographers",
        "family",
        "staff",
        "archive",
        "archives",
        "collection",
        "getty",
        "shutterstock",
        "istock",
        "istockphoto",
        "adobe",
        "alamy",
        "unsplash",
        "pexels",
        "pixabay",
        "thinkstock",
        "dreamstime",
        "depositphotos",
        "reuters",
    ]
)
#: A line with more spaces than this is a paragraph, never read further.
_MAX_SPACES = 3 * MAX_CREDIT_WORDS
_WORD = re.compile(r"[^\W_]+")
_READING_TIME = (
    r"(?:estimated\s+)?reading\s+time\s*:?(?:\s*\d+\s*min(?:ute)?s?\.?)?"
    r"|(?:\d+\s*)?min(?:ute)?s?\.?\s+read"
)
#: An entry's meta: how long it takes to read.
_ENTRY_META = re.compile(_READING_TIME, re.IGNORECASE)
_SEPARATOR = r"\s*[•·|—–]\s*|\s+-\s+"
#: A reading time at the end of a line with other text, after a separator …
_TRAILING_TIME = re.compile(
    r"(?P<rest>.*?\S)(?:" + _SEPARATOR + r")(?:" + _READING_TIME + r")(?P<end>[*_]*)\s*$",
    re.IGNORECASE,
)
#: … at its start, before one …
_LEADING_TIME = re.compile(
    r"(?P<start>[*_]*)(?:" + _READING_TIME + r")(?:" + _SEPARATOR + r")(?P<rest>\S.*)$",
    re.IGNORECASE,
)
#: … or between two.
_INNER_TIME = re.compile(
    r"(?P<sep>" + _SEPARATOR + r")(?:" + _READING_TIME + r")(?:" + _SEPARATOR + r")",
    re.IGNORECASE,
)
#: The page's furniture: an advertisement's label, a table of contents' title.
_FURNITURE = re.compile(
    r"(?:advertisement|sponsored)(?:\s*[-–—:]\s*(?:page|story|article) continues below)?"
    r"|table\s+of\s+contents|in\s+this\s+(?:article|post)|on\s+this\s+page",
    re.IGNORECASE,
)
#: An article says its reading time or date once or twice; more such lines are a list's
#: entries (a blog index: "·1d ago·3 min read" under each title), and they stay.
MAX_ENTRY_META_LINES = 2
#: Words without which no line is page meta (tested lowercased, as :data:`_HINTS`).
_META_HINTS = (
    "advertis",
    "sponsored",
    "read",
    "content",
    "in this",
    "on this",
)
#: A page-meta line has at most this many characters.
_MAX_META_CHARS = 100
#: The marks a heading or a list item starts with.
_MARKS = re.compile(r"\s*(?:#{1,6}\s+|[-*+]\s+)?")
#: Lines that are structure, not a paragraph: headings, tables, quotes, images, lists, code.
_NOT_PARAGRAPH = ("#", "|", ">", "!", "[!", "```", "~~~", "- ", "* ", "+ ", "    ")


def drop_meta_lines(markdown: str) -> str:
    """``markdown`` without its photo-credit and page-meta lines (module docstring);
    unchanged when it has none. Lines inside a fenced code block are never read."""
    lines = markdown.split("\n")
    drop: list[int] = []
    entry_meta: list[int] = []
    trimmed: dict[int, str] = {}  # a line without its reading time (module docstring)
    fenced = False
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            credit = _is_credit(line, stripped)
            kind = None if credit else _meta_kind(stripped)
            if kind is _ENTRY_META:
                entry_meta.append(number)
            elif credit or kind is not None:
                drop.append(number)
            elif (rest := _without_reading_time(line)) is not None:
                entry_meta.append(number)
                trimmed[number] = rest
    if len(entry_meta) <= MAX_ENTRY_META_LINES:
        for number in entry_meta:
            if number in trimmed:
                lines[number] = trimmed[number]
            else:
                drop.append(number)
    elif not drop:
        return markdown
    if not drop:
        return "\n".join(lines)
    return join_kept_lines(lines, set(drop))  # one blank line between the blocks left


def _is_credit(line: str, stripped: str) -> bool:
    if (
        not stripped
        or len(stripped) > _MAX_LINE_CHARS
        or stripped.count(" ") > _MAX_SPACES
        or line.startswith(_NOT_PARAGRAPH)
        or stripped.startswith(_NOT_PARAGRAPH[:6])
    ):
        return False
    lowered = stripped.lower()
    if not any(hint in lowered for hint in _HINTS):
        return False
    plain = link_texts(stripped).replace("*", "").replace("_", " ").strip(" \\")
    words = _WORD.findall(plain)
    if len(words) > MAX_CREDIT_WORDS or not _CREDIT.fullmatch(plain):
        return False
    if _SLASH_AGENCY.search(plain):
        return True  # "Harbour wall at dusk / Shutterstock": a caption's credit, read so
    # a credit names someone: no number, and no lower-case word but credit words (review
    # r-12: "Credits: 4 ECTS", "Credit: money a bank lends you", "… a correspondent for
    # Reuters", "Photo: the bridge collapsed after the storm" are sentences, not credits)
    if any(word[0].isdigit() for word in words):
        return False
    unknown = [w for w in words if w[0].islower() and len(w) > 3 and w not in _CREDIT_WORDS]
    return len(unknown) <= 1  # a handle ("courtesy of gcmap"), not a sentence


def _without_reading_time(line: str) -> str | None:
    """``line`` without the reading time it prints beside other text (module docstring), or
    ``None`` when it prints none so placed. Code, tables and quotes are not read."""
    if (
        len(line) > _MAX_LINE_CHARS
        or "read" not in line.lower()
        or line.lstrip().startswith(("|", ">", "```", "~~~"))
        or line.startswith("    ")
    ):
        return None
    body = line.rstrip()
    marks = _MARKS.match(body)
    head = marks.group() if marks else ""
    body = body[len(head) :]
    if (found := _TRAILING_TIME.fullmatch(body)) is not None:
        body = found["rest"] + found["end"]
    elif (found := _LEADING_TIME.fullmatch(body)) is not None:
        body = found["start"] + found["rest"]
    elif (found := _INNER_TIME.search(body)) is not None:
        body = body[: found.start()] + found["sep"] + body[found.end() :]
    else:
        return None
    return head + body


def _meta_kind(stripped: str) -> re.Pattern[str] | None:
    """:data:`_ENTRY_META` or :data:`_FURNITURE` when the line is only that, else ``None``."""
    if not stripped or len(stripped) > _MAX_META_CHARS:
        return None
    lowered = stripped.lower()
    if not any(hint in lowered for hint in _META_HINTS):
        return None
    plain = link_texts(stripped).replace("*", "").replace("\\", "")
    plain = _MARKS.sub("", plain, count=1).strip().strip("_").strip()
    for kind in (_ENTRY_META, _FURNITURE):
        if kind.fullmatch(plain):
            return kind
    return None
