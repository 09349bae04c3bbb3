r"""The page's own text in the markdown walk: ``$``, ``*`` and ``_`` are markdown only in some
places, so the walk marks each one of the page's text (:func:`prose_text`) and decides once the
inline text around it is whole (:func:`resolve_prose`) — often around the walk's own markup
(``<b>x</b>*`` → ``**x***``). Pure functions.

* dollars: a dollar-math renderer (pandoc's ``tex_math_dollars``, markdown-it's dollarmath)
  reads what lies between two ``$`` as TeX, so a ``$`` of the page's text is escaped (``\$``,
  the escape pandoc's manual names) when its inline text holds another dollar it could pair
  with into a formula ("costs $5 and $10"); a lone ``$5`` stays.
* emphasis (:func:`escape_emphasis`): CommonMark reads runs of ``*`` and ``_`` as emphasis by
  its delimiter algorithm (spec 0.31.2 §6.2 "Emphasis and strong emphasis": the flanking rules
  and rules 1–17; appendix "Processing emphasis and strong emphasis", rule of 3 included),
  which is what is run here over each inline text. A run of the page's characters that the
  algorithm pairs with another run (``2*3*4``, ``__init__``), or that touches a run of the
  walk's own marks (it would change their length), is backslash-escaped (§2.4: ``\*`` shows
  ``*``), and the algorithm runs again until none of the page's runs is paired. What nothing
  pairs with stays as written: ``2 * 3``, ``snake_case_name``, a footnote's lone ``5*``.
  Code spans (§6.1), link destinations (§6.3), raw HTML tags and autolinks (§6.5, §6.6) and
  backslash-escaped characters hold no delimiters; a link's text is paired on its own, as
  the appendix's "look for link or image" step does. Whitespace and punctuation are
  markdown-it-py's (Unicode Zs and tab/line breaks; Unicode P and S).

An inline text is a paragraph (text between blank lines), a list item's line and the indented
lines after it, or a table cell: dollars and emphasis never pair across two of them.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "ASCII_PUNCTUATION",
    "PROSE_AMP",
    "PROSE_BACKSLASH",
    "PROSE_BANG",
    "PROSE_BRACKET",
    "PROSE_DOLLAR",
    "PROSE_LT",
    "PROSE_STAR",
    "PROSE_TICK",
    "PROSE_UNDERSCORE",
    "TAG_OR_AUTOLINK",
    "code_span_end",
    "destination_end",
    "escape_emphasis",
    "is_punctuation",
    "map_inline_texts",
    "opens_underscore",
    "plain_text",
    "prose_marker",
    "prose_text",
    "resolve_prose",
    "stars_all_paired",
]

#: Stand for a ``$``, ``*`` or ``_`` of the page's text until the inline text around it is
#: known. Never in page text (the parser drops control characters) and not whitespace to
#: ``str.strip``/``str.split`` (which treat ``\x1c``–``\x1f`` as whitespace).
PROSE_DOLLAR = "\x1a"
PROSE_STAR = "\x0e"
PROSE_UNDERSCORE = "\x0f"
#: Stands for a ``!`` that ends a text of the page: before a link the walk writes next
#: (``now!<a>Download</a>``) it would make ``![Download](…)``, an image (CommonMark §6.4),
#: and is written ``\!`` there (:func:`resolve_prose`).
PROSE_BANG = "\x10"
#: Stand for a ``\\``, a backtick, a ``<``, an ``&`` and a ``[`` of the page's text: each is
#: markdown only in some places (backslash escapes, code spans, raw HTML and autolinks, entity
#: references, links), decided once the text is whole (:mod:`.markdown_escape`).
PROSE_BACKSLASH = "\x11"
PROSE_TICK = "\x12"
PROSE_LT = "\x13"
PROSE_AMP = "\x14"
PROSE_BRACKET = "\x15"
_MARKED = str.maketrans(
    {
        "$": PROSE_DOLLAR,
        "*": PROSE_STAR,
        "_": PROSE_UNDERSCORE,
        "\\": PROSE_BACKSLASH,
        "`": PROSE_TICK,
        "<": PROSE_LT,
        "&": PROSE_AMP,
        "[": PROSE_BRACKET,
    }
)
_PLAIN = str.maketrans(
    {
        PROSE_DOLLAR: "$",
        PROSE_STAR: "*",
        PROSE_UNDERSCORE: "_",
        PROSE_BANG: "!",
        PROSE_BACKSLASH: "\\",
        PROSE_TICK: "`",
        PROSE_LT: "<",
        PROSE_AMP: "&",
        PROSE_BRACKET: "[",
    }
)
_MARKABLE = "$*_\\`<&["


def prose_text(text: str) -> str:
    """A text of the page with its ``$``, ``*``, ``_``, ``\\``, backticks, ``<``, ``&``
    and ``[`` and a last ``!`` marked for :func:`resolve_prose` and
    :func:`~webresearch.extract.markdown_escape.resolve_markdown`."""
    return prose_marker(_MARKABLE)(text)


def prose_marker(page_text: str) -> Callable[[str], str]:
    """:func:`prose_text` for the texts of a page whose whole text is ``page_text``: only the
    characters that occur in it are looked for (a speed-up; the same result)."""
    present = tuple(ch for ch in _MARKABLE if ch in page_text)

    def mark(text: str) -> str:
        for ch in present:
            if ch in text:
                text = text.translate(_MARKED)
                break
        return text[:-1] + PROSE_BANG if text.endswith("!") else text

    return mark


def plain_text(text: str) -> str:
    """``text`` with the marks of :func:`prose_text` back as the characters they stand for
    (code shows them as written)."""
    return text.translate(_PLAIN)


def is_punctuation(ch: str) -> bool:
    """CommonMark's punctuation character (ASCII punctuation, Unicode P and S)."""
    return unicodedata.category(ch)[0] in "PS"


def _is_space(ch: str) -> bool:
    return ch in "\t\n\v\f\r" or unicodedata.category(ch) == "Zs"


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """(left-flanking, right-flanking) of a delimiter run between ``before`` and ``after``
    (§6.2; a line's start or end counts as whitespace)."""
    space_before, space_after = _is_space(before), _is_space(after)
    punct_before, punct_after = is_punctuation(before), is_punctuation(after)
    left = not space_after and (not punct_after or space_before or punct_before)
    right = not space_before and (not punct_before or space_after or punct_after)
    return left, right


def opens_underscore(before: str, after: str) -> bool:
    """A ``_`` between ``before`` and ``after`` can open emphasis (§6.2: it is left-flanking,
    and not right-flanking or after punctuation)."""
    left, right = _flanking(before, after)
    return left and (not right or is_punctuation(before))


def resolve_prose(markdown: str) -> str:
    """``markdown`` with every mark of :func:`prose_text` resolved (module docstring): a
    dollar as ``\\$`` when its inline text holds another, else ``$``; a ``*`` or ``_`` as
    :func:`escape_emphasis` decides; a text's last ``!`` as ``\\!`` right before a link,
    else ``!``."""
    if PROSE_BANG in markdown:
        markdown = markdown.replace(PROSE_BANG + "[", "\\![").replace(PROSE_BANG, "!")
    if (
        PROSE_DOLLAR not in markdown
        and PROSE_STAR not in markdown
        and (PROSE_UNDERSCORE not in markdown)
    ):
        return markdown
    return map_inline_texts(
        markdown,
        PROSE_DOLLAR + PROSE_STAR + PROSE_UNDERSCORE,
        lambda text: escape_emphasis(_resolve_dollars(text)),
    )


def map_inline_texts(markdown: str, marks: str, resolve: Callable[[str], str]) -> str:
    """``markdown`` with ``resolve`` applied to each inline text (module docstring) holding
    one of the characters ``marks``; the others as they are."""
    found = re.compile(f"[{marks}]")
    hit = found.search(markdown)
    if hit is None:
        return markdown
    cuts = [0, *(match.end() for match in _UNIT_START.finditer(markdown)), len(markdown)]
    out: list[str] = []
    done = 0
    while hit is not None:
        unit = bisect_right(cuts, hit.start()) - 1
        start, end = cuts[unit], cuts[unit + 1]
        text = markdown[start:end]
        cells = _CELL_BORDER.split(text) if text.lstrip().startswith("|") else [text]
        out.append(markdown[done:start])
        out.extend(resolve(cell) if found.search(cell) else cell for cell in cells)
        done = end
        hit = found.search(markdown, end)
    out.append(markdown[done:])
    return "".join(out)


#: Where one inline text ends and another starts: a blank line, a list item's line, a table
#: row (split before the line, the line break kept with the text before it).
_UNIT_START = re.compile(r"\n(?=\s*(?:[-*+]|\d{1,9}[.)])\s|\s*\||\s*$)", re.M)
#: A table's cell border: a pipe not escaped (cells are ``\\|``-escaped: markdown_tables).
_CELL_BORDER = re.compile(r"((?<!\\)\|)")


def _resolve_dollars(text: str) -> str:
    if PROSE_DOLLAR not in text:
        return text
    alone = text.count(PROSE_DOLLAR) + text.count("$") < 2
    return text.replace(PROSE_DOLLAR, "$" if alone else "\\$")


# --------------------------------------------------------------------------- emphasis


@dataclass(slots=True)
class _Run:
    """A delimiter run: its character, where it starts, its length (the rule of 3 counts it),
    the delimiters not yet paired, what it can do, and whether it was paired."""

    char: str
    start: int
    length: int
    left: int
    can_open: bool
    can_close: bool
    paired: bool = False


ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Raw HTML a CommonMark parser takes whole (§6.6: open and closing tags, comments) and
#: autolinks (§6.5): no delimiter inside them.
TAG_OR_AUTOLINK = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9-]*(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*"
    r"(?:[^ \t\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*[ \t\n]*/?|/[A-Za-z][A-Za-z0-9-]*[ \t\n]*"
    r"|!--.*?--|[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\x00-\x20<>]*"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)>",
    re.S,
)


#: Passes of the algorithm (each escapes what the one before paired) before every run of the
#: page's that can open or close at all is escaped: the end of the worst case's quadratic time.
_MAX_ROUNDS = 8


def escape_emphasis(text: str) -> str:
    """``text`` (one inline text) with each ``*`` / ``_`` of the page's text that CommonMark
    would read as emphasis backslash-escaped (module docstring); the others as written."""
    if PROSE_STAR not in text and PROSE_UNDERSCORE not in text:
        return text
    view = plain_text(text)
    prose = {i for i, ch in enumerate(text) if ch in (PROSE_STAR, PROSE_UNDERSCORE)}
    escaped: set[int] = set()
    for rounds in range(_MAX_ROUNDS, -1, -1):
        more: set[int] = set()
        for run in _runs(view, escaped):
            spots = range(run.start, run.start + run.length)
            ours = [i for i in spots if i in prose]
            if not ours:
                continue
            # paired, touching a mark, or (rounds spent: a pathological page) able to pair
            if (
                run.paired
                or len(ours) < run.length
                or (not rounds and (run.can_open or run.can_close))
            ):
                more.update(ours)
        if not more:
            break
        escaped |= more
    return "".join(
        ("\\" + view[i]) if i in escaped else view[i] if i in prose else ch
        for i, ch in enumerate(text)
    )


def stars_all_paired(view: str) -> bool:
    """True when CommonMark's emphasis algorithm (§6.2 and its appendix, as
    :func:`escape_emphasis` runs it) pairs every ``*`` of ``view``, plain inline markdown
    (a backslash-escaped ``*``, a code span's, a link destination's and raw HTML's are no
    delimiters): no star of it would show as written (``*a**b*****c**`` leaves two)."""
    return "*" not in view or all(run.left == 0 for run in _runs(view, set()) if run.char == "*")


def _runs(view: str, escaped: set[int]) -> list[_Run]:
    """The delimiter runs of ``view``, those emphasis pairs marked (``escaped``: positions
    taken as backslash-escaped characters)."""
    runs: list[_Run] = []
    brackets: list[int] = []  # where each open ``[`` stands in ``runs``
    done: list[_Run] = []
    i, n = 0, len(view)
    while i < n:
        ch = view[i]
        if ch == "\\" and i + 1 < n and view[i + 1] in ASCII_PUNCTUATION:
            i += 2
        elif ch == "`":
            i = code_span_end(view, i)
        elif ch == "<":
            tag = TAG_OR_AUTOLINK.match(view, i)
            i = tag.end() if tag else i + 1
        elif ch == "[":
            brackets.append(len(runs))
            i += 1
        elif ch == "]" and brackets:
            bottom = brackets.pop()
            end = destination_end(view, i + 1)
            if end is not None:  # a link: its text pairs on its own, then leaves the stack
                inner = runs[bottom:]
                _pair(inner)
                done.extend(inner)
                del runs[bottom:]
                i = end
            else:
                i += 1
        elif (ch == "*" or ch == "_") and i not in escaped:
            j = i + 1
            while j < n and view[j] == ch and j not in escaped:
                j += 1
            left, right = _flanking(view[i - 1] if i else "\n", view[j] if j < n else "\n")
            if ch == "*":
                opens, closes = left, right
            else:
                punct_before = i > 0 and is_punctuation(view[i - 1])
                punct_after = j < n and is_punctuation(view[j])
                opens = left and (not right or punct_before)
                closes = right and (not left or punct_after)
            runs.append(_Run(ch, i, j - i, j - i, opens, closes))
            i = j
        else:
            i += 1
    _pair(runs)
    done.extend(runs)
    return done


def _pair(runs: list[_Run]) -> None:
    """CommonMark's "process emphasis" over ``runs`` (in order): marks the runs it pairs."""
    stack = list(runs)
    # per kind of closer, the run below which no opener fits it (a speed-up only: the spec's
    # openers_bottom; a run, not an index, since pairing deletes runs below it)
    bottoms: dict[tuple[str, bool, int], _Run] = {}
    c = 0
    while c < len(stack):
        closer = stack[c]
        if not closer.can_close:
            c += 1
            continue
        key = (closer.char, closer.can_open, closer.length % 3)
        bottom = bottoms.get(key)
        o = c - 1
        while o >= 0 and stack[o] is not bottom:
            opener = stack[o]
            if (
                opener.char == closer.char
                and opener.can_open
                and not _rule_of_three(opener, closer)
            ):
                break
            o -= 1
        else:
            if c:
                bottoms[key] = stack[c - 1]
            if closer.can_open:
                c += 1
            else:
                del stack[c]
            continue
        opener = stack[o]
        use = 2 if opener.left >= 2 and closer.left >= 2 else 1
        opener.left -= use
        closer.left -= use
        opener.paired = closer.paired = True
        del stack[o + 1 : c]
        c = o + 1
        if opener.left == 0:
            del stack[o]
            c = o
        if closer.left == 0:
            del stack[c]


def _rule_of_three(opener: _Run, closer: _Run) -> bool:
    """§6.2 rules 9 and 10: when one side can both open and close, the two runs' lengths may
    not sum to a multiple of 3 unless both are multiples of 3."""
    return (
        (opener.can_close or closer.can_open)
        and (opener.length + closer.length) % 3 == 0
        and not (opener.length % 3 == 0 and closer.length % 3 == 0)
    )


def code_span_end(view: str, start: int) -> int:
    """After the code span opening at ``start`` (§6.1: closed by a backtick string of the
    same length), else after the backtick string itself (it is text)."""
    end = start
    while end < len(view) and view[end] == "`":
        end += 1
    fence = view[start:end]
    close = re.compile(f"(?<!`){fence}(?!`)").search(view, end)
    return close.end() if close else end


def destination_end(view: str, start: int) -> int | None:
    """After a link's ``(destination)`` opening at ``start`` (balanced parentheses, no
    whitespace: the walk writes no titles), else ``None`` (taken as no inline link, whose
    text would pair with the text around it: the side that escapes more)."""
    if not view.startswith("(", start):
        return None
    depth, i = 0, start
    while i < len(view):
        ch = view[i]
        if ch.isspace():
            return None
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i + 1
        i += 2 if ch == "\\" else 1
    return None
