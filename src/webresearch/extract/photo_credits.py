"""Photo-credit lines left out of an article's markdown. Pure functions.

A line that only credits a picture — "Photo: Jane Doe", "(Image credit: Site)", "Courtesy of
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
  ("… / Shutterstock", "… via Getty Images", "… - AP Photo").

Headings, list items, table rows, quotes, images and code are never read. A caption that
describes the picture ("Image 5: the feedback loop", "Photo 3 of the bridge at dusk seen
from the river" — a digit or more words) is not a credit and stays; so do "Source: …"
lines under charts (the WCXB ground truth keeps about half of those).

Cost: one pass over the lines; a short line (at most :data:`MAX_CREDIT_WORDS` words or so)
naming a picture, a credit or an agency is matched against the pattern (about 0.1 ms a page). WCXB dev article pages (webresearch alone):
15 pages change, 14 up, one down by 0.002 ("Photo via Pexels" the ground truth keeps).
"""

from __future__ import annotations

import re

__all__ = ["MAX_CREDIT_WORDS", "drop_credit_lines"]

#: A credit line has at most this many words (a name, an agency: a caption is longer).
MAX_CREDIT_WORDS = 12
#: Longer lines are never read (a paragraph, not a credit).
_MAX_LINE_CHARS = 300

_AGENCY = (
    r"(?:getty(?:\s+images)?|shutterstock(?:\.com)?|istock(?:photo)?(?:\s*/\s*getty\s+images)?"
    r"|adobe\s+stock|alamy(?:\s+stock\s+photo)?|unsplash|pexels|pixabay|thinkstock|dreamstime"
    r"|depositphotos|ap\s+photo|reuters|afp)"
)
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
#: A line with more spaces than this is a paragraph, never read further.
_MAX_SPACES = 3 * MAX_CREDIT_WORDS
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
_WORD = re.compile(r"[^\W_]+")
#: Lines that are structure, not a paragraph: headings, tables, quotes, images, lists, code.
_NOT_PARAGRAPH = ("#", "|", ">", "!", "[!", "```", "~~~", "- ", "* ", "+ ", "    ")


def drop_credit_lines(markdown: str) -> str:
    """``markdown`` without its photo-credit lines (module docstring); unchanged when it
    has none. Lines inside a fenced code block are never read."""
    kept: list[str] = []
    fenced = False
    dropped = False
    for line in markdown.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and _is_credit(line, stripped):
            dropped = True
            continue
        kept.append(line)
    return "\n".join(kept) if dropped else markdown


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
    plain = _LINK.sub(r"\1", stripped).replace("*", "").replace("_", " ").strip(" \\")
    return len(_WORD.findall(plain)) <= MAX_CREDIT_WORDS and bool(_CREDIT.fullmatch(plain))
