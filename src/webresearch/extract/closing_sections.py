"""Sections an article's page closes with, left out of its markdown. Pure functions.

* **Author bios** (:func:`drop_author_bios`): a section headed "About the author", "About
  the reviewer", "Author bio", "Meet the writer", "Written by", "Article reviewed by:" —
  a heading or a line that is only bold text — whose text is at most
  :data:`MAX_BIO_WORDS` words is the writer's card (a photo, a name, credentials, a
  paragraph of life story), not the article. The heading and its section (up to the next
  heading of the same or a higher level; after a bold line, up to the next heading) go.
  :func:`~webresearch.extract.author_cards.author_cards` catches such cards by markup;
  these are marked by their heading only.
* **Comment threads** (:func:`drop_comment_sections`): on a page that is not a forum
  thread, a heading or a line alone that says "Comments", "3 Comments", "Responses",
  "Leave a reply", "Add a comment", "Post a comment" or "Join the discussion" opens the
  readers' comments or the form to write one. A heading's section goes; a bare line (no
  heading level to end it) takes the rest of the text with it — comments are the last
  thing on a page. Only after more text than it removes (an article precedes it), never a
  section holding code (a tutorial's "## Comments" about ``#`` comments), and only a
  section that reads as comments — dated or signed lines ("Posted by: Jane at March 3,
  2024", "Jane says:", "Reply") — or as the short form to write one (review r-12: an
  article's own "## Comments" section, an API's "## Responses" table went). "Responses"
  counts only with a number ("3 Responses").
* A bold line's bio ("**About the author**") is its first :data:`MAX_BOLD_BIO_BLOCKS`
  blocks, a byline's ("**Written by**") its first block: the name (the intro after it
  stays).

Both run on markdown: no walk of the tree, one regular expression per heading-like line.
WCXB dev article pages (webresearch alone): bios 4 pages up (+0.016 to +0.066), none
down; comments 3 pages up (+0.005 to +0.14), none down.
"""

from __future__ import annotations

import re

from webresearch.extract.forum_bylines import is_dateline
from webresearch.extract.markdown_tidy import join_kept_lines
from webresearch.extract.sections import closing_fence, heading_title, link_texts

__all__ = [
    "BIO_HEADING",
    "COMMENTS_HEADING",
    "MAX_BIO_WORDS",
    "MAX_BOLD_BIO_BLOCKS",
    "MAX_FORM_WORDS",
    "MIN_COMMENT_MARKS",
    "MIN_FORM_WORDS",
    "drop_author_bios",
    "drop_comment_sections",
]

#: A bio section holds at most this many words (a longer one is an interview or a profile).
MAX_BIO_WORDS = 150
#: A bio under a bold line ("**About the author**") is at most this many blocks.
MAX_BOLD_BIO_BLOCKS = 2

#: A heading over the writer's (or reviewer's) card, matched against the whole heading.
BIO_HEADING = re.compile(
    r"\W*(?:about (?:the |this )?(?:authors?|writers?|contributors?|reviewers?)"
    r"|(?:the )?authors? bio(?:graphy)?|meet the (?:authors?|writers?)"
    r"|(?:article |post )?(?:written|reviewed|fact[- ]checked|medically reviewed) by)\W*",
    re.IGNORECASE,
)
#: A heading or a line alone over readers' comments or the form to write one.
#: (Punctuation around the whole heading: "Comments:" is one, review session 16.)
COMMENTS_HEADING = re.compile(
    r"\W*(?:(?:(?:\d+|no|one)\s+)?comments?(?:\s*\(\d+\))?|(?:\d+|no|one)\s+responses?"
    r"|leave a (?:reply|comment)|post a comment|add a comment|join the discussion)\W*",
    re.IGNORECASE,
)

#: Words without which no heading is a bio's (tested on the lowercased text: an alternation
#: searched with IGNORECASE costs about 0.7 µs a character).
_BIO_HINTS = (
    "author",
    "writer",
    "contributor",
    "reviewer",
    "written by",
    "reviewed by",
    "checked by",
)
#: … and a comment section's.
_COMMENTS_HINTS = ("comment", "response", "reply", "discussion")
#: A heading-like line longer than this is never a bio's or a comment section's heading.
_MAX_MARK_CHARS = 100
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")
_BOLD_LINE = re.compile(r"^ {0,3}\*\*([^*\n]{1,80})\*\*:?[ \t]*$")
#: A short line alone (no list, table, quote or link): a comment section's label.
_BARE_LINE = re.compile(r"^ {0,3}([^\W\d_][^*#\[\]|>\n]{0,40}?)[ \t]*$")
_WORD = re.compile(r"[^\W_]+")
#: The level given to a bold line or a bare line: below every heading.
_LINE_LEVEL = 7
#: A comment section this short is the form to write one when it says so ("Add a comment",
#: "Your email address will not be published", "Post comment") or asks for two of an
#: e-mail, a website, a login… (or when it has a few words: "0 Comments"); any other must
#: read as comments (:func:`_reads_as_comments`).
MAX_FORM_WORDS = 120
#: What only the form to write a comment says.
_FORM_PHRASES = re.compile(
    r"\b(?:post (?:a )?comment|be the first to comment|not be (?:published|displayed)"
    r"|(?:add|leave|write|post) a (?:comment|reply)|your comment)\b",
    re.IGNORECASE,
)
#: What the form asks for (words a sentence uses too: two are needed).
_FORM_WORDS = re.compile(
    r"\b(?:e-?mail|website|log ?in|sign ?in|submit|required|name)\b", re.IGNORECASE
)
#: Distinct form words a short section holds to be the form (one is a sentence's word:
#: "A short comment is required above every public function", review n-12b).
MIN_FORM_WORDS = 2
#: Date or writer lines a longer comment section holds at least.
MIN_COMMENT_MARKS = 2
_COMMENT_MARK = re.compile(
    r"(?:[^\W\d][\w .'-]{0,40}\s+(?:says|said|wrote)\s*:?|reply|reply ↓)", re.I
)
#: The bold line's section of a byline ("**Written by**" over a name) is one block.
_BYLINE_TITLE = re.compile(r"\W*(?:(?:article |post )?\w+(?:[- ]\w+)? by)\W*", re.I)


def drop_author_bios(markdown: str) -> str:
    """``markdown`` without its author-bio sections (module docstring); unchanged when it
    has none. Code blocks are never read as headings."""
    lines = markdown.split("\n")
    if not _candidates(markdown, lines, _BIO_HINTS):
        return markdown  # the cheap test: no short line says one of these words
    marks = _marks(lines, bold=True)
    drop: set[int] = set()
    for index, (start, level, title) in enumerate(marks):
        if start in drop or not BIO_HEADING.fullmatch(title):
            continue
        end = _section_end(marks, index, level, len(lines))
        if level == _LINE_LEVEL:  # a bold line has no level to end it: its first blocks
            blocks = 1 if _BYLINE_TITLE.fullmatch(title) else MAX_BOLD_BIO_BLOCKS
            end = _after_blocks(lines, start + 1, end, blocks)
        if _words("\n".join(lines[start + 1 : end])) <= MAX_BIO_WORDS:
            drop.update(range(start, end))
    return _without(lines, drop) if drop else markdown


def drop_comment_sections(markdown: str) -> str:
    """``markdown`` without its readers' comments (module docstring); unchanged when it has
    none. Call it only for a page that is not a forum thread."""
    lines = markdown.split("\n")
    if not _candidates(markdown, lines, _COMMENTS_HINTS):
        return markdown
    marks = _marks(lines, bold=True, bare=True)
    for index, (start, level, title) in enumerate(marks):
        if not COMMENTS_HEADING.fullmatch(title):
            continue
        end = _section_end(marks, index, level, len(lines)) if level < _LINE_LEVEL else len(lines)
        section = lines[start:end]
        if any(line.lstrip().startswith(("```", "~~~")) for line in section):
            continue
        words = _words("\n".join(section))
        body = "\n".join(section[1:])
        asks = {m.group().lower() for m in _FORM_WORDS.finditer(body)}
        says = _FORM_PHRASES.search(body) is not None or len(asks) >= MIN_FORM_WORDS
        form = words <= 8 or (words <= MAX_FORM_WORDS and says)
        if not form and not _reads_as_comments(section[1:]):
            continue  # prose under "Comments": an article's section about comments
        if _words("\n".join(lines[:start])) > words:
            return _without(lines, set(range(start, end)))
    return markdown


def _reads_as_comments(lines: list[str]) -> bool:
    """Whether lines hold readers' comments: at least :data:`MIN_COMMENT_MARKS` short lines
    that date a comment or name its writer ("March 3, 2024 at 9:14 am", "Jane says:",
    "Reply")."""
    marks = 0
    for line in lines:
        text = link_texts(line).strip().strip("*_#> ").strip()
        if text and (is_dateline(text) or _COMMENT_MARK.fullmatch(text)):
            marks += 1
            if marks >= MIN_COMMENT_MARKS:
                return True
    return False


def _after_blocks(lines: list[str], start: int, end: int, blocks: int) -> int:
    """Where the first ``blocks`` blocks (runs of lines between blank lines) from ``start``
    end, at most ``end``."""
    seen = 0
    inside = False
    for number in range(start, end):
        if lines[number].strip():
            inside = True
        elif inside:
            seen += 1
            inside = False
            if seen == blocks:
                return number
    return end


def _candidates(text: str, lines: list[str], hints: tuple[str, ...]) -> bool:
    """Whether a short line of ``text`` (``lines``: its lines) says one of ``hints``
    (lowercase, ASCII, no line break): the cheap test before headings are read. The whole
    text lower-cased is searched first (most pages say none of them anywhere): a line's
    lower-case form is that part of it (only a sigma's form depends on its neighbours)."""
    lowered = text.lower()
    if not any(hint in lowered for hint in hints):
        return False
    for line in lines:
        if len(line) <= _MAX_MARK_CHARS:
            lowered = line.lower()
            if any(hint in lowered for hint in hints):
                return True
    return False


def _marks(lines: list[str], *, bold: bool, bare: bool = False) -> list[tuple[int, int, str]]:
    """(line, level, title) of every heading outside code, and of every bold line or bare
    short line when asked (level :data:`_LINE_LEVEL`)."""
    marks: list[tuple[int, int, str]] = []
    fence: str | None = None
    for number, line in enumerate(lines):
        inside = fence is not None
        if "```" in line or "~~~" in line:  # a line without either opens or closes no fence
            fence = closing_fence(fence, line)
        if inside or fence is not None:
            continue
        if (heading := _ATX.match(line)) is not None:
            marks.append((number, len(heading.group(1)), heading_title(heading.group(2))))
        elif bold and (strong := _BOLD_LINE.match(line)) is not None:
            marks.append((number, _LINE_LEVEL, strong.group(1).strip()))
        elif bare and (plain := _BARE_LINE.match(line)) is not None:
            marks.append((number, _LINE_LEVEL, plain.group(1)))
    return marks


def _section_end(marks: list[tuple[int, int, str]], index: int, level: int, total: int) -> int:
    """Where the section of ``marks[index]`` ends: the next heading of the same or a higher
    level (any heading after a bold line)."""
    for start, other, _ in marks[index + 1 :]:
        if other < _LINE_LEVEL and other <= level:
            return start
    return total


def _words(text: str) -> int:
    return len(_WORD.findall(link_texts(text)))


def _without(lines: list[str], drop: set[int]) -> str:
    return join_kept_lines(lines, drop).strip("\n")  # one blank line between blocks left
