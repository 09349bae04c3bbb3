"""Tidying a page's markdown: a first heading repeating the title, widget labels, copies.

On a shop page (:func:`~webresearch.extract.product.is_shop_page`), a paragraph of
:data:`MIN_REPEAT_WORDS` words or more that repeats an earlier one word for word is left
out: a shop renders a block twice (one copy for phones, one for desktops, a
stylesheet shows one), the reader sees it once. Quotations stay, and so do paragraphs of
mostly link text (a listing shows one item in two places), and a page declaring an
article keeps them all (a meal plan repeats its entries day after day: one Zyte dev page
0.99 → 0.72 without this exception). WCXB dev: product 0.659 → 0.666
(12 pages up, 3 down by at most 0.003), collection 0.700 → 0.704 (7 up, 5 down: item cards
repeating "Or fastest delivery Wed, Mar 18"). Of the 122 paragraphs repeated in the dev
product and collection outputs before, the ground truth holds 62 once, 39 not at all and
21 more than once (mostly such item-card lines). Only shop pages: elsewhere a repeat is
meant (a manual's chapters each ending with the same note lost all but the first).

A line that is only a date ("Dec 1, 2026", nothing else) goes when the line right before or
after it is a short byline writing the same date (one starting "By", or with a link to an
author page: "By Ann Lee · Dec 1, 2026"), a labelled date line ("Published: Dec 1, 2026"), or
the same line: a theme prints the date in its byline and again in a date line, the reader
needs it once (review, session 17). The neighbour may write the same day in another format
("By Ann Lee · 2026-03-03" beside "March 3, 2026": :func:`date_key`; new-user test,
session 17); a numeric date that reads as two days (03/04/2026) is never the same. Only in the article's head, before its first long
paragraph: further down a date line is a release's or an entry's date, and a sentence
naming the same date is no byline (review n-17: "Version 3.2 / 14 November 2026 / Upgrade if
you run a version released before 14 November 2026" lost its release date). A labelled line
("Updated 2 December 2026" under "By Maria Kovacs · 2 December 2026") is never dropped: it
tells of an update; only a date line that the line right before it writes word for word (its
links unwrapped: a forum's "[Posted March 1, 2026](#post-2)" then "Posted March 1, 2026")
goes anywhere, a copy.

A rule (``---``, an ``<hr>``) that begins or ends the markdown, or follows another rule,
separates nothing: it goes. An Apache or nginx "Index of /files/" page opens and closes its
listing with ``<hr>``, and its markdown began with ``---`` once its ``<h1>`` (the title)
was dropped (review); a page whose content between two rules was left out kept both.

The first heading repeating the title is looked for again once the markdown is tidied
(:func:`tidy_below_title`), when none was dropped before: a rule or a widget label above it
("---" of a theme's ``<hr>`` over the ``<h1>``) hid it, and the title came out twice; and
when the heading dropped is printed again right below it (a banner's ``<h1>`` and the
article's, the same line), that copy goes too. WCXB dev
(against main d0fb484 with block_ends.py), summed page F1: article half A +0.007 (2 pages
up, none down), half B unchanged; documentation B +0.0005 (one page), collection B −0.0007 (one
page of half B, not studied: what goes is only a heading the title line shows), Zyte dev B
+0.003 (one page), A unchanged.

A widget label (:data:`UI_LABEL`) is a whole paragraph or heading and nothing else:
"Loading…", "Skip to content", and an ad slot's label — "Advertisement", "Sponsored",
"Continue reading below", "Story continues below advertisement", "Article continues after
this ad", and the word publishers print over an ad in German, French, Spanish, Portuguese,
Italian, Dutch and Polish/Czech ("Anzeige", "Werbung", "Publicité", "Publicidad",
"Publicidade", "Pubblicità", "Advertentie", "Reklama"). A sentence merely holding such a
word ("Continue reading below to learn …", "Werbung ist überall") stays. Source of the
continuation labels: WCXB dev article 5111 (half A: a health site's "Continue reading
below" over each inline ad slot, three times).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Mapping
from types import MappingProxyType

from webresearch.extract.align import normalise
from webresearch.extract.inline_dates import DATE_LABEL

__all__ = [
    "MAX_REPEAT_LINK_SHARE",
    "MIN_REPEAT_WORDS",
    "UI_LABEL",
    "date_key",
    "drop_title_heading",
    "join_kept_lines",
    "tidy_below_title",
    "tidy_markdown",
]

#: A paragraph of at least this many words repeating an earlier one is a second copy.
MIN_REPEAT_WORDS = 6
#: … unless this share of its words or more is link text: an item a listing shows twice.
MAX_REPEAT_LINK_SHARE = 0.5

_WORD = re.compile(r"[^\W_]+")
#: A paragraph or heading that is only a widget's label (a reader never needs it).
UI_LABEL = re.compile(
    r"(?:#{1,6} )?\W*(?:loading|please wait|advertisement|advertising|sponsored(?: content)?|"
    r"skip to (?:main )?content|back to top|toggle navigation|(?:open|close) menu|"
    r"(?:advertisement\W+)?(?:continue reading below|(?:the )?(?:story|article|text|content) "
    r"continues (?:below|after (?:this |the )?(?:ad|advert|advertisement))(?: advertisement)?)|"
    r"anzeige|werbung|publicit[ée]|publicidad|publicidade|pubblicit[àa]|advertentie|reklama)\W*",
    re.I,
)
#: A thematic break as written by :mod:`webresearch.extract.markdown` (``<hr>``).
_RULE = "---"
#: A markdown link: its text is what a reader sees.
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: A whole date: "Dec 1, 2026", "1 December 2026", "2026-12-01", "01/12/2026".
_DATE = (
    rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?"
    r"\s+\d{4}|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})"
)
#: Any whole date in a line.
_ANY_DATE = re.compile(rf"(?<!\w){_DATE}(?!\w)", re.I)
#: Month names by their first three letters.
_MONTHS: Mapping[str, int] = MappingProxyType({name: n for n, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
)})  # fmt: skip
#: A heading that is a date and other words, the date first or last, a separator between.
_DATED_HEADING = re.compile(
    rf"(?P<lead>{_DATE})\s*[-–—:|·,]?\s+(?P<after>.+)|(?P<before>.+?)\s*[-–—:|·,]?\s+(?P<end>{_DATE})",
    re.IGNORECASE,
)


#: A line that is a date alone, a label before it or not (emphasis marks dropped first).
_DATE_LINE = re.compile(rf"(?:(?P<label>{DATE_LABEL.pattern})\s*)?(?P<date>{_DATE})\.?", re.I)
#: A byline longer than this (characters) is no byline: a date in it does not count.
_MAX_BYLINE = 120
#: A paragraph longer than this (characters) is body text: the article's head ends there.
_BODY_PARAGRAPH = 200
#: A byline: "By Ann Lee …", or a line with a link to an author's page.
_BYLINE = re.compile(r"by\s|.*\]\([^)]*\b(?:authors?|people|profile|users?)\b", re.I)


def drop_title_heading(markdown: str, title: str) -> str:
    """Drop a first heading that only repeats the title (the title line already shows it).

    The heading counts as a repeat when it is the title, or the title without the site
    name around it ("Story headline" under the title "Story headline | Site"). A heading
    that is such a repeat with a date before or after it (a blog theme's
    ``<h1><a><time>Dec 1 2026</time> Story headline</a></h1>``, the ``<time>`` text restored
    by :mod:`webresearch.extract.inline_dates`) is a repeat too, and its date is kept as a
    line of its own: it may be the page's only date (review, session 16).
    """
    if not markdown.startswith("#") or not title:
        return markdown
    first, _, rest = markdown.partition("\n")
    if not rest.strip():
        return markdown
    wanted = normalise(title)
    if _repeats_title(normalise(re.sub(r"\]\([^)]*\)", "]", first.lstrip("#"))), wanted):
        return rest.lstrip("\n")
    dated = _DATED_HEADING.fullmatch(_LINK.sub(r"\1", first.lstrip("#")).strip())
    if dated is None:
        return markdown
    date = dated["lead"] or dated["end"]
    words = dated["after"] if dated["lead"] else dated["before"]
    if _repeats_title(normalise(words), wanted):
        return f"{date}\n\n{rest.lstrip(chr(10))}"
    return markdown


def tidy_below_title(markdown: str, title: str, keep_repeats: bool) -> str:
    """``markdown`` without a first heading repeating ``title`` (:func:`drop_title_heading`),
    tidied (:func:`tidy_markdown`); when no heading was dropped, or when the tidied markdown
    begins with the very line dropped (the ``<h1>`` printed twice), its first heading is
    tested again (module docstring)."""
    dropped = drop_title_heading(markdown, title)
    tidied = tidy_markdown(dropped, keep_repeats)
    if dropped != markdown and tidied.partition("\n")[0] != markdown.partition("\n")[0]:
        return tidied
    return drop_title_heading(tidied, title)


def _repeats_title(heading: str, wanted: str) -> bool:
    """Whether ``heading`` (normalised) is the title ``wanted`` or its part without the site."""
    return bool(heading) and (
        heading == wanted or (len(heading) >= max(12, len(wanted) // 2) and heading in wanted)
    )


def tidy_markdown(markdown: str, keep_repeats: bool) -> str:
    """Drop paragraphs and headings that are only a widget label ("Loading…",
    "Advertisement", a "Skip to main content" link), rules that separate nothing, and, unless ``keep_repeats`` (every
    page but a shop page not declaring an article), second copies of paragraphs (module docstring). One pass over the blocks; fenced code is never touched.
    """
    kept: list[str] = []
    seen: set[str] = set()
    in_code = False
    for block in markdown.split("\n\n"):
        fences = (  # (a block holding neither has no fence line: its lines are not read)
            sum(1 for line in block.split("\n") if line.lstrip().startswith(("```", "~~~")))
            if "```" in block or "~~~" in block
            else 0
        )
        if not in_code and not fences:
            text = _LINK.sub(r"\1", block)
            if UI_LABEL.fullmatch(text):
                continue
            if not keep_repeats and not block.startswith(">") and _repeats(text, block, seen):
                continue  # a quotation quotes: it is never a second copy
        if not in_code and block == _RULE and (not kept or kept[-1] == _RULE):
            continue  # a rule first, or right after another: it separates nothing
        kept.append(block)
        if fences % 2:
            in_code = not in_code
    while kept and kept[-1] == _RULE:
        kept.pop()  # a rule last: likewise
    return "\n\n".join(_without_repeated_dates(kept))


def _without_repeated_dates(blocks: list[str]) -> list[str]:
    """``blocks`` without each date line that repeats the line before it word for word, and,
    in the article's head, each bare date line whose neighbour is a short byline or labelled
    date line writing the same date (module docstring)."""
    drop: set[int] = set()
    head = True  # until the first long paragraph
    for i, block in enumerate(blocks):
        if len(block) > _BODY_PARAGRAPH and not block.startswith(("#", "|", "```", ">")):
            head = False
        if len(block) > 60 or not any(c.isdigit() for c in block):
            continue  # (a cheap test first: a date line is short and has digits)
        text = _plain(_LINK.sub(r"\1", block))
        line = _DATE_LINE.fullmatch(text)
        if line is None:
            continue
        if i and _plain(_LINK.sub(r"\1", blocks[i - 1])).lower() == text.lower():
            drop.add(i)  # a copy of the line before ("Posted Dec 1" as a link, then as text)
            continue
        if line["label"] or not head:
            continue  # a labelled line ("Updated …") tells something: it stays
        date = " ".join(line["date"].lower().split())
        for j in (i - 1, i + 1):
            if j < 0 or j >= len(blocks) or j in drop or len(blocks[j]) > _MAX_BYLINE:
                continue
            if _writes_date(blocks[j], date):
                drop.add(i)
                break
    return [b for i, b in enumerate(blocks) if i not in drop] if drop else blocks


def _plain(block: str) -> str:
    """``block`` without emphasis marks, its spaces single."""
    return " ".join(block.replace("*", "").replace("_", " ").split())


def _writes_date(block: str, date: str) -> bool:
    """Whether ``block`` (a short line) is a byline or a labelled date line writing ``date``
    (lower case)."""
    text = _plain(_LINK.sub(r"\1", block))
    if date not in text.lower() and not _same_date_in(text, date):
        return False
    labelled = _DATE_LINE.fullmatch(text)
    return bool(labelled and labelled["label"]) or bool(_BYLINE.match(_plain(block)))


def _same_date_in(text: str, date: str) -> bool:
    """Whether ``text`` writes the day ``date`` names in another format ("2026-03-03"
    beside "March 3, 2026"; :func:`date_key`)."""
    wanted = date_key(date)
    return wanted is not None and any(
        date_key(m.group()) == wanted for m in _ANY_DATE.finditer(text)
    )


def date_key(date: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a date written as :data:`_DATE` reads it ("Dec 1, 2026",
    "1st December 2026", "2026-12-01"); ``None`` when it names no real day or cannot be
    read without guessing: a numeric "01/12/2026" is day-month in some countries and
    month-day in others, so it is read only when both readings agree or one is no day."""
    text = " ".join(date.lower().replace(",", " ").replace(".", " . ").split())
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if iso:
        return _real_day(int(iso[1]), int(iso[2]), int(iso[3]))
    numeric = re.fullmatch(r"(\d{1,2}) ?[./] ?(\d{1,2}) ?[./] ?(\d{4})", date.strip())
    if numeric:
        first, second, year = int(numeric[1]), int(numeric[2]), int(numeric[3])
        readings = {_real_day(year, second, first), _real_day(year, first, second)} - {None}
        return readings.pop() if len(readings) == 1 else None
    words = re.findall(r"\d+|[a-z]+", text)
    numbers = [int(w) for w in words if w.isdigit()]
    months = [_MONTHS[w[:3]] for w in words if w[:3] in _MONTHS]
    if len(numbers) != 2 or len(months) != 1 or numbers[-1] < 1000:
        return None
    return _real_day(numbers[1], months[0], numbers[0])


def _real_day(year: int, month: int, day: int) -> tuple[int, int, int] | None:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return None
    return year, month, day


def _repeats(text: str, block: str, seen: set[str]) -> bool:
    """Whether ``block`` (``text``: its words, links unwrapped) repeats a paragraph in
    ``seen``; a paragraph long enough and not mostly link text is added to ``seen``."""
    size = len(_WORD.findall(text))
    linked = sum(len(_WORD.findall(m)) for m in _LINK.findall(block))
    if size < MIN_REPEAT_WORDS or linked >= MAX_REPEAT_LINK_SHARE * size:
        return False
    key = normalise(text)
    if key in seen:
        return True
    seen.add(key)
    return False


def join_kept_lines(lines: list[str], drop: Collection[int]) -> str:
    """``lines`` joined without those whose numbers are in ``drop``, and without the blank
    lines a removal leaves doubled: the blocks around removed lines are one blank line
    apart (blank lines before the removal counted too: review, session 16), and no blank
    line is left at the start or the end where lines were removed (review n-15: "# Title",
    two meta lines removed, a stray blank line under the title).
    A blank line not beside a removal is never touched (a code block keeps its own)."""
    out: list[str] = []
    cut = False  # a line was removed since the last kept line that is not blank
    for number, line in enumerate(lines):
        if number in drop:
            cut = True
            while len(out) > 1 and not out[-1].strip() and not out[-2].strip():
                out.pop()  # blank lines before the removal: one at most
            if len(out) == 1 and not out[0].strip():
                out.pop()
            continue
        if not line.strip():
            if cut and (not out or not out[-1].strip()):
                continue
        else:
            cut = False
        out.append(line)
    while cut and out and not out[-1].strip():
        out.pop()
    return "\n".join(out)
