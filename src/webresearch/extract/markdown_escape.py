r"""The page's own ``\``, backticks, ``<``, ``&`` and ``[`` in the markdown walk, and the walk's
emphasis next to punctuation: each is markdown only in some places, so the walk marks them
(:func:`~webresearch.extract.markdown_prose.prose_text`, :func:`emphasized`) and
:func:`resolve_markdown` decides once the text is whole — escaping only where CommonMark
(spec 0.31.2) would otherwise read markup, so that a renderer shows the page's text and plain
text stays plain. Pure functions.

* backslash (§2.4 "Backslash escapes", §6.7 "Hard line breaks"): a ``\`` before ASCII
  punctuation or a line end escapes it; a page's ``\`` there is doubled (``C:\_temp`` →
  ``C:\\_temp``); before anything else it shows as written (``\d+``).
* backticks (§6.1 "Code spans"): a page's backtick string that a later string of the same
  length would close, or that touches a backtick of the walk's own code span, is escaped
  (``\```); a lone one (``it`s``) stays.
* ``<`` (§6.5 "Autolinks", §6.6 "Raw HTML"): a page's ``<`` that starts an open or closing
  tag, a comment, a processing instruction, a declaration, CDATA or an autolink is escaped
  (``\<script>``); ``a < b`` and ``x<3`` stay. A line's first ``<`` before a letter, ``/``,
  ``!`` or ``?`` (an HTML block's start, §4.6) is escaped by
  :func:`~webresearch.extract.markdown_inline.escape_line_starts`.
* ``&`` (§2.5 "Entity and numeric character references"): a page's ``&`` that starts a
  reference (``&copy;``, ``&#169;``, ``&#xA9;``; a name of HTML5's list) is escaped (``\&``).
* ``[`` (§6.3 "Links", §6.4 "Images", appendix "look for link or image"): a page's ``[``
  whose ``]`` an inline link's ``(`` follows is escaped with that ``]`` (``\[a\](b)``); our
  markdown holds no link reference definitions (a line's ``[a]: b`` is escaped by
  :func:`~webresearch.extract.markdown_inline.escape_line_starts`), so ``[a]``, ``[a][b]``
  stay.
* emphasis next to punctuation (§6.2 flanking rules): ``**Note:**Install`` is no strong
  emphasis (the closing ``**`` follows punctuation and precedes a letter). The walk marks
  the punctuation at the edges of an emphasis (:func:`emphasized`); when the text around
  would stop the delimiter from opening or closing, that punctuation moves outside
  (``**Note**:Install``, ``**重要**：请``): the same characters, the same words, the
  emphasis kept; before a space it stays inside (``**Note:** Install``).

Inline texts are those of :func:`~webresearch.extract.markdown_prose.map_inline_texts`.
"""

from __future__ import annotations

import re
from html.entities import html5
from typing import TypeVar

from webresearch.extract.markdown_prose import (
    ASCII_PUNCTUATION,
    PROSE_AMP,
    PROSE_BACKSLASH,
    PROSE_BANG,
    PROSE_BRACKET,
    PROSE_DOLLAR,
    PROSE_LT,
    PROSE_STAR,
    PROSE_TICK,
    PROSE_UNDERSCORE,
    code_span_end,
    destination_end,
    is_punctuation,
    map_inline_texts,
    plain_text,
    resolve_prose,
    stars_all_paired,
)

__all__ = [
    "EMPHASIS_CLOSE_EDGE",
    "EMPHASIS_OPEN_EDGE",
    "RAW_HTML",
    "Emphasis",
    "beside_emphasis",
    "element_emphasis",
    "emphasis_markdown",
    "emphasized",
    "joined_emphasis",
    "resolve_markdown",
    "stars_pair",
]

#: Stand after an emphasis' opening delimiter and its leading punctuation / before its
#: trailing punctuation and closing delimiter (:func:`emphasized`) until the text around is
#: known. Control characters: never in page text, not whitespace to ``str.strip``.
EMPHASIS_OPEN_EDGE = "\x16"
EMPHASIS_CLOSE_EDGE = "\x17"

_Item = TypeVar("_Item")
_SPACE = r"[ \t]*\n?[ \t]*"
_ATTRIBUTE = (
    r"(?:[ \t]+\n?[ \t]*|[ \t]*\n[ \t]*)[A-Za-z_:][A-Za-z0-9_.:-]*"
    rf"(?:{_SPACE}={_SPACE}(?:[^ \t\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?"
)
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
#: What a ``<`` starts in CommonMark inline text (§6.6 raw HTML: open tag, closing tag,
#: comment, processing instruction, declaration, CDATA; §6.5 URI and email autolinks).
RAW_HTML = re.compile(
    rf"<(?:[A-Za-z][A-Za-z0-9-]*(?:{_ATTRIBUTE})*{_SPACE}/?>"
    rf"|/[A-Za-z][A-Za-z0-9-]*{_SPACE}>"
    r"|!--(?:>|->|.*?-->)|\?.*?\?>|![A-Za-z][^>]*>|!\[CDATA\[.*?\]\]>"
    r"|[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\x00-\x20<>]*>"
    rf"|[A-Za-z0-9.!#$%&'*+/=?^_`{{|}}~-]+@{_LABEL}(?:\.{_LABEL})*>)",
    re.S,
)
_REFERENCE = re.compile(
    PROSE_AMP + r"(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|([A-Za-z][A-Za-z0-9]{1,31});)"
)
_PAGE_MARKS = frozenset(
    PROSE_AMP + PROSE_BACKSLASH + PROSE_BANG + PROSE_BRACKET + PROSE_DOLLAR + PROSE_LT
    + PROSE_STAR + PROSE_TICK + PROSE_UNDERSCORE
)  # fmt: skip
#: The walk's own markup at an emphasis' start / end: never moved (a link's ``[``, math's
#: ``$``, a backslash escape, nested delimiters; an image's ``![`` and a link's closing ``)``
#: are told apart in :func:`emphasized`).
_FIXED_LEAD = frozenset("\\`*_~[$")
_FIXED_TRAIL = frozenset("\\`*_~)$")


def emphasized(text: str, mark: str) -> str:
    """``text`` (inline, edges stripped) wrapped in the delimiter ``mark`` (``**``, ``*``,
    ``~~``), its leading and trailing punctuation marked with :data:`EMPHASIS_OPEN_EDGE` /
    :data:`EMPHASIS_CLOSE_EDGE` for :func:`resolve_markdown` (module docstring)."""
    if not any(c.isalnum() for c in text):
        return text  # only punctuation: its marks could pair with a later run (``**:**x``)
    fixed_trail = _FIXED_TRAIL if _ENDS_WITH_LINK.search(text) else _FIXED_TRAIL - {")"}
    if not (
        (_movable(text[0], _FIXED_LEAD) and not text.startswith("!["))
        or _movable(text[-1], fixed_trail)
    ):
        return f"{mark}{text}{mark}"
    size = len(text)
    start, end = 0, size
    # spaces too (a delimiter before a space opens nothing): "b<s>. x</s>" → "b. ~~x~~"
    while (
        start < size
        and (_movable(text[start], _FIXED_LEAD) or text[start] == " ")
        and text[start : start + 2] != "!["
    ):
        start += 1
    while end > 0 and (_movable(text[end - 1], fixed_trail) or text[end - 1] == " "):
        end -= 1
    if end < size and end and text[end - 1] == "\\":  # an escaped character stays escaped
        end += 1
    if start >= end or (not start and end == size):
        return f"{mark}{text}{mark}"
    # each moved run and its delimiter between two marks: the delimiter's length is known
    head = f"{EMPHASIS_OPEN_EDGE}{mark}{text[:start]}{EMPHASIS_OPEN_EDGE}" if start else mark
    tail = f"{EMPHASIS_CLOSE_EDGE}{text[end:]}{mark}{EMPHASIS_CLOSE_EDGE}" if end < size else mark
    return f"{head}{text[start:end]}{tail}"


class Emphasis(str):
    """An emphasis' markdown (``lead`` + ``*text*`` + ``trail``: :func:`emphasis_markdown`)
    that knows its delimiter ``mark`` (``***``: emphasis and strong emphasis at once) and its
    parts, so that one right after it can join it (:func:`joined_emphasis`)."""

    mark: str
    lead: str
    text: str
    trail: str


def emphasis_markdown(lead: str, text: str, trail: str, mark: str) -> str:
    """``lead`` + ``text`` wrapped in ``mark`` (:func:`emphasized`) + ``trail`` (the spaces
    around the element) as an :class:`Emphasis`; a plain ``str`` when ``text`` is only
    punctuation (left unwrapped)."""
    wrapped = emphasized(text, mark)
    if wrapped == text:
        return lead + text + trail
    item = Emphasis(lead + wrapped + trail)
    item.mark, item.lead, item.text, item.trail = mark, lead, text, trail
    return item


def element_emphasis(
    lead: str, text: str, trail: str, mark: str, only: Emphasis | None, glued: bool = False
) -> str:
    """An emphasis element's markdown: ``lead`` + its inline ``text`` in ``mark`` +
    ``trail`` (:func:`emphasis_markdown`), ``only`` the emphasis that is all its content, if
    one is. Filled by one of the other ``*`` kind (``<b><em>x.</em></b>``) it is both at once
    (``***x.***``); around the walk's own stars otherwise (``<b>x <em>y</em></b>`` →
    ``**x *y***``) only when CommonMark pairs every star (:func:`stars_pair`) and no inner
    edge punctuation may move out (``<b>x <em>y.</em></b>z``), else the inner one alone.
    Around a link alone, ``glued`` to a letter or digit outside (``**[a](u)**b``: a closing
    delimiter between the link's ``)`` and a letter closes nothing, CommonMark §6.2), it goes
    inside the link's text (``[**a**](u)b``: the same text, the same emphasis)."""
    if (
        only is not None
        and {only.mark, mark} <= _STARS
        and only.mark != mark
        and not (only.lead or only.trail or "\n" in text)
    ):
        text, mark = only.text, "***"
        only = None
    link = _sole_link(text) if glued and mark[0] in "*~" else None
    if link is not None:
        return f"{lead}[{emphasis_markdown('', link[0], '', mark)}]{link[1]}{trail}"
    if mark == "***":
        return emphasis_markdown(lead, text, trail, mark)
    core = text.strip(_EDGES)
    if core.startswith(mark[0]) or core.endswith(mark[0]) or "\n" in text:
        if mark[0] == "*" and "\n" not in text and core == text:
            wrapped = emphasis_markdown(lead, text, trail, mark)
            if stars_pair(wrapped):
                return wrapped
        if only is not None:  # <b><i>x</i></b> that cannot be both: the <i>
            return emphasis_markdown(lead, only.text, trail, only.mark)
        return lead + text + trail
    return emphasis_markdown(lead, text, trail, mark)


_STARS = frozenset({"*", "**", "***"})


def _sole_link(text: str) -> tuple[str, str] | None:
    """(link text, ``(destination)``) when ``text`` is one link of the walk's, else ``None``."""
    if not (text.startswith("[") and text.endswith(")")):
        return None
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        depth += (ch == "[" or ch == PROSE_BRACKET) - (ch == "]")
        if depth == 0:
            end = destination_end(text, i + 1)
            return (text[1:i], text[i + 1 :]) if end == len(text) else None
        i += 2 if ch == "\\" else 1
    return None


#: The other layer of ``***`` (emphasis and strong emphasis) beside one of them.
_OTHER_LAYER = {"*": "**", "**": "*"}


def joined_emphasis(before: object, after: object) -> str | None:
    """One emphasis of both texts when ``after`` is an :class:`Emphasis` right after one of
    the same kind (``<em>a</em><em>b</em>`` → ``*ab*``), else ``None``. Side by side, the
    closing and opening delimiters would make one run (``*a**b*``, ``**x****y**``,
    ``~~a~~~~b~~``) that CommonMark §6.2 reads otherwise: an emphasis around ``a**b``,
    literal stars, no strikethrough. Beside a ``***`` (both kinds), an emphasis of one kind
    holds both texts, the other kind around the ``***`` one's (``<em>a</em><b><em>b</em>
    </b>`` → ``*a**b***``, ``<b><em>a</em></b><em>b</em>`` → ``***a**b*``): the same
    letters with the same kinds."""
    if not (
        isinstance(before, Emphasis)
        and isinstance(after, Emphasis)
        and not before.trail
        and not after.lead
    ):
        return None
    joined: str | None = None
    if before.mark == after.mark:
        joined = emphasis_markdown(before.lead, before.text + after.text, after.trail, after.mark)
    elif after.mark == "***" and before.mark in _OTHER_LAYER:
        layer = emphasis_markdown("", after.text, "", _OTHER_LAYER[before.mark])
        joined = emphasis_markdown(before.lead, before.text + layer, after.trail, before.mark)
    elif before.mark == "***" and after.mark in _OTHER_LAYER:
        layer = emphasis_markdown("", before.text, "", _OTHER_LAYER[after.mark])
        joined = emphasis_markdown(before.lead, layer + after.text, after.trail, after.mark)
    # the texts' own emphases may meet inside (``**`` around ``*a*`` and ``*b*c``): not joined
    return joined if joined is None or "*" not in before.mark or stars_pair(joined) else None


def beside_emphasis(before: object, after: _Item) -> tuple[str | None, _Item | str]:
    """``after`` (an item of the walk) right after ``before``: (their :func:`joined_emphasis`
    or ``None``, ``after`` as it is to follow ``before`` then). An emphasis whose opening
    stars would run into the closing stars of the one before, read otherwise by CommonMark
    (``*a**b***`` then ``**c**``: ``**`` shown), loses its outer delimiter (``***``: its
    emphasis, the strong one kept) until they join or pair: its words never show stars."""
    joined = joined_emphasis(before, after)
    item: _Item | str = after
    while joined is None and isinstance(item, Emphasis) and isinstance(before, str):
        if not (before.endswith("*") and item.startswith("*")) or stars_pair(before + item):
            break
        item = (
            emphasis_markdown(item.lead, item.text, item.trail, "**")
            if item.mark == "***"
            else item.lead + item.text + item.trail
        )
        joined = joined_emphasis(before, item)
    return joined, item


def stars_pair(markdown: str) -> bool:
    """True when every ``*`` of the walk's inline ``markdown`` (not yet resolved) pairs into
    emphasis (:func:`~webresearch.extract.markdown_prose.stars_all_paired`): the page's own
    stars and underscores count as the punctuation they are once resolved (an escaped or a
    lone one pairs with nothing), the edge marks of :func:`emphasized` as nothing."""
    if "*" not in markdown:
        return True
    view = markdown.translate(_CHECK_VIEW)
    return stars_all_paired(plain_text(view))


_CHECK_VIEW = str.maketrans(
    {PROSE_STAR: ".", PROSE_UNDERSCORE: ".", EMPHASIS_OPEN_EDGE: None, EMPHASIS_CLOSE_EDGE: None}
)


#: A link or image written at the end of a text (its ``)`` is the walk's).
_ENDS_WITH_LINK = re.compile(r"\]\([^\s]*\)$")


def _movable(ch: str, fixed: frozenset[str]) -> bool:
    return ch in _PAGE_MARKS or (ch not in fixed and is_punctuation(ch))


def resolve_markdown(markdown: str) -> str:
    """``markdown`` of the walk with every mark resolved: the emphasis edges and the page's
    ``\\``, backticks, ``<``, ``&`` and ``[`` (module docstring), then the page's ``$``,
    ``*``, ``_`` and ``!`` (:func:`~webresearch.extract.markdown_prose.resolve_prose`)."""
    if EMPHASIS_OPEN_EDGE in markdown or EMPHASIS_CLOSE_EDGE in markdown:
        markdown = _resolve_edges(markdown)
    if PROSE_BACKSLASH in markdown:
        markdown = _resolve_backslashes(markdown)
    if PROSE_LT in markdown:
        view = plain_text(markdown)
        markdown = re.sub(
            PROSE_LT, lambda m: "\\<" if RAW_HTML.match(view, m.start()) else "<", markdown
        )
    if PROSE_AMP in markdown:
        markdown = _REFERENCE.sub(_reference, markdown).replace(PROSE_AMP, "&")
    if PROSE_TICK in markdown or PROSE_BRACKET in markdown:
        markdown = map_inline_texts(markdown, PROSE_TICK + PROSE_BRACKET, _resolve_code_and_links)
    return resolve_prose(markdown)


def _resolve_code_and_links(text: str) -> str:
    if PROSE_TICK in text:
        text = _resolve_ticks(text)
    return _resolve_brackets(text) if PROSE_BRACKET in text else text


def _reference(match: re.Match[str]) -> str:
    name = match.group(1)
    return "&" if name and name + ";" not in html5 else "\\&"


#: An emphasis' delimiter and its edge punctuation (never a letter nor a space), between two
#: edge marks.
_OPEN_EDGE = re.compile(
    rf"{EMPHASIS_OPEN_EDGE}(\*\*\*|\*\*|\*|~~)([^\w\n*~{EMPHASIS_OPEN_EDGE}]*){EMPHASIS_OPEN_EDGE}"
)
_CLOSE_EDGE = re.compile(
    rf"{EMPHASIS_CLOSE_EDGE}([^\w\n*~{EMPHASIS_CLOSE_EDGE}]*)(\*\*\*|\*\*|\*|~~){EMPHASIS_CLOSE_EDGE}"
)
_EDGES = EMPHASIS_OPEN_EDGE + EMPHASIS_CLOSE_EDGE


def _resolve_edges(markdown: str) -> str:
    """Move an emphasis' edge punctuation outside its delimiter where a letter (or other
    character neither whitespace nor punctuation) stands on the delimiter's other side
    (past any delimiter run it would join)."""

    def opening(match: re.Match[str]) -> str:
        delimiter, run = match.group(1), match.group(2)
        i = match.start() - 1
        while i >= 0 and (markdown[i] == delimiter[0] or markdown[i] in _EDGES):
            i -= 1
        return run + delimiter if i >= 0 and _is_word(markdown[i]) else delimiter + run

    def closing(match: re.Match[str]) -> str:
        run, delimiter = match.group(1), match.group(2)
        i, size = match.end(), len(markdown)
        while i < size and (markdown[i] == delimiter[0] or markdown[i] in _EDGES):
            i += 1
        return delimiter + run if i < size and _is_word(markdown[i]) else run + delimiter

    markdown = _OPEN_EDGE.sub(opening, markdown)
    return _CLOSE_EDGE.sub(closing, markdown)


def _is_word(ch: str) -> bool:
    """Neither whitespace, punctuation nor a mark standing for punctuation (§6.2)."""
    return ch > " " and not ch.isspace() and not is_punctuation(ch) and ch not in _PAGE_MARKS


def _resolve_backslashes(markdown: str) -> str:
    view = plain_text(markdown)
    size = len(view)

    def backslash(match: re.Match[str]) -> str:
        after = match.start() + 1
        nxt = view[after] if after < size else ""
        return "\\\\" if nxt in ASCII_PUNCTUATION or nxt == "\n" else "\\"

    return re.sub(PROSE_BACKSLASH, backslash, markdown)


def _resolve_ticks(text: str) -> str:
    """One inline text's page backticks: escaped when they would open or close a code span
    (a later backtick string of the same length) or touch the walk's code span."""
    view = plain_text(text)
    escaped: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and view[i + 1] in ASCII_PUNCTUATION:
            i += 2
        elif ch == "`":  # the walk's code span: its fence is longer than any run inside
            j = i
            while j < n and text[j] == "`":
                j += 1
            close = re.compile(f"(?<!`){text[i:j]}(?!`)").search(text, j)
            i = close.end() if close else j
        elif ch == PROSE_TICK:
            j = i
            while j < n and text[j] == PROSE_TICK:
                j += 1
            touching = (i and text[i - 1] == "`") or (j < n and text[j] == "`")
            if touching or re.compile(f"(?<!`){'`' * (j - i)}(?!`)").search(view, j):
                escaped.extend(range(i, j))
            i = j
        else:
            i += 1
    for k in reversed(escaped):
        text = text[:k] + "\\`" + text[k + 1 :]
    return text.replace(PROSE_TICK, "`")


def _resolve_brackets(text: str) -> str:
    """One inline text's page ``[``: escaped with its ``]`` when an inline link's ``(``
    follows that ``]`` and no link before deactivated it (the appendix's bracket stack)."""
    view = plain_text(text)
    openers: list[list[int]] = []  # [position, from the page, active]
    escaped: list[int] = []
    i, n = 0, len(view)
    while i < n:
        ch = view[i]
        if ch == "\\" and i + 1 < n and view[i + 1] in ASCII_PUNCTUATION:
            i += 2
            continue
        if ch == "`":
            i = code_span_end(view, i)
            continue
        if ch == "<":
            tag = RAW_HTML.match(view, i)
            i = tag.end() if tag else i + 1
            continue
        if ch == "[":
            openers.append([i, text[i] == PROSE_BRACKET, 1])
        elif ch == "]" and openers:
            position, page, active = openers.pop()
            if active and view.startswith("(", i + 1):
                if page:
                    escaped += [position, i]
                else:  # the walk's link or image: a link deactivates the openers before it
                    end = destination_end(view, i + 1)
                    if end is not None:
                        if not (position and view[position - 1] == "!"):
                            for opener in openers:
                                opener[2] = 0
                        i = end
                        continue
        i += 1
    for k in sorted(escaped, reverse=True):
        text = text[:k] + "\\" + view[k] + text[k + 1 :]
    return text.replace(PROSE_BRACKET, "[")
