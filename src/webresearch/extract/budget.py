"""Output budgets: cutting converted text to a UTF-8 byte window. Pure functions.

SPEC §1.1: ``max_bytes`` is a budget of UTF-8 bytes of the converted text; ``offset`` skips
bytes already read. A cut never splits a character and never exceeds the budget. For
converted markdown it prefers a paragraph or line boundary when one is near, never leaves
a fenced code block open (a closing fence is added, its bytes counted against the budget),
never starts or ends between a backslash and the character it escapes, and never ends
inside a link (``[text](url``: the cut moves before the link, when the link starts within
the last half of the window); a window starting among a
table's rows repeats the table's header and delimiter rows first (their bytes counted too,
when they take at most half the budget).
For pass-through data it cuts at the last character boundary, so the kept text is an exact
prefix (case 16: ``B - 3 <= N <= B``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["TextWindow", "cut_window", "truncation_marker", "utf8_boundary"]

#: How far back (bytes) a cut may move to reach a paragraph or line boundary (and never
#: more than a quarter of the budget).
BOUNDARY_LOOKBACK_BYTES = 2048

#: ASCII punctuation (CommonMark §2.1), as byte values: what a backslash escapes (§2.4).
_PUNCTUATION = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
#: A markdown ATX heading line (CommonMark §4.2), as bytes.
_ATX_HEADING = re.compile(rb" {0,3}#{1,6}(?:[ \t]|$)")
#: A GFM table's delimiter row (``|---|:--:|``), as this converter writes it.
_TABLE_DELIMITER = re.compile(r"\|(?: ?:?-+:? ?\|)+$")


@dataclass(frozen=True, slots=True)
class TextWindow:
    """A slice of a text, by UTF-8 byte positions.

    Attributes:
        text: the kept text (plus a closing fence when the cut fell inside a code block, and a
            reopening fence or a table's header rows when ``start`` fell inside one).
        start: byte offset of the window in the whole text.
        end: byte offset just after the kept part of the whole text (``start`` + bytes kept,
            not counting an added fence).
        total: UTF-8 byte length of the whole text.
    """

    text: str
    start: int
    end: int
    total: int

    @property
    def truncated(self) -> bool:
        """True when text remains after ``end``."""
        return self.end < self.total


def utf8_boundary(data: bytes, pos: int) -> int:
    """The largest character boundary ≤ ``pos`` in UTF-8 ``data`` (skips continuation bytes)."""
    pos = max(0, min(pos, len(data)))
    while 0 < pos < len(data) and (data[pos] & 0xC0) == 0x80:
        pos -= 1
    return pos


def _open_fence(text: str) -> str | None:
    """The fence string of a code block left open at the end of ``text``, if any."""
    open_fence: str | None = None
    for m in _FENCE.finditer(text):
        fence = m.group(1)
        if open_fence is None:
            open_fence = fence
        elif fence[0] == open_fence[0] and len(fence) >= len(open_fence):
            line_end = text.find("\n", m.end())
            rest = text[m.end() : line_end if line_end != -1 else len(text)]
            if not rest.strip():
                open_fence = None
    return open_fence


def cut_window(text: str, offset: int, max_bytes: int, *, markdown: bool = False) -> TextWindow:
    """Cut ``text`` to at most ``max_bytes`` UTF-8 bytes starting at byte ``offset``.

    Args:
        text: the whole converted text.
        offset: bytes to skip (moved back to a character boundary if it falls inside one).
        max_bytes: budget in bytes for the returned ``text`` (added fences included).
        markdown: the text is converted markdown: prefer a paragraph or line boundary within
            :data:`BOUNDARY_LOOKBACK_BYTES`, close a code block left open by the cut, and
            reopen one that an ``offset`` starts inside, and repeat the header rows of a table
            it starts inside (:func:`_table_header`). Otherwise (pass-through data) the
            cut is at the last character boundary within the budget, so the kept text is an
            exact byte prefix of the rest of the text.

    Returns:
        the window; ``truncated`` tells whether more text follows.
    """
    data = text.encode("utf-8")
    total = len(data)
    start = utf8_boundary(data, offset)
    if markdown:
        start = _outside_escape(data, start)
    reopen = ""
    if markdown and start > 0:
        before = data[:start].decode("utf-8")
        fence = _open_fence(before)
        if fence is not None:
            reopen = fence + "\n"
        else:
            reopen = _table_header(before, data[start : start + 1])
            if len(reopen.encode("utf-8")) > max_bytes // 2:
                reopen = ""  # a header as long as the window would crowd its rows out
    budget = max(1, max_bytes - len(reopen.encode("utf-8")))
    if total - start <= budget:
        return TextWindow(reopen + data[start:].decode("utf-8"), start, total, total)
    limit = utf8_boundary(data, start + budget)
    if not markdown:
        return TextWindow(data[start:limit].decode("utf-8"), start, limit, total)
    end = _drop_last_heading(data, start, _prefer_boundary(data, start, limit), reopen)
    kept = reopen + data[start:end].decode("utf-8")
    fence = _open_fence(kept)
    if fence is not None:
        closing = ("" if kept.endswith("\n") else "\n") + fence + "\n"
        need = len(closing.encode("utf-8"))
        if end - start + need > budget:
            # Make room for the closing fence, still on a character (and line) boundary.
            limit = utf8_boundary(data, start + max(0, budget - need - 1))
            end = _prefer_boundary(data, start, limit)
            kept = reopen + data[start:end].decode("utf-8")
            closing = ("" if kept.endswith("\n") else "\n") + fence + "\n"
        kept += closing
    return TextWindow(kept, start, end, total)


def _table_header(before: str, first: bytes) -> str:
    """The header and delimiter rows (``| a | b |`` and ``|---|---|``, with their newline) of
    the GFM table a window starting at a line boundary after ``before`` falls inside, when
    its first line (starting with ``first``) is a row below them: a row without its header
    is a list of cells whose columns mean nothing (review r-11). Else ``""``."""
    if first != b"|" or not before.endswith("\n"):
        return ""
    lines = before[:-1].split("\n")
    top = len(lines)
    while top > 0 and lines[top - 1].startswith("|"):
        top -= 1
    rows = lines[top:]
    if len(rows) < 2 or not _TABLE_DELIMITER.match(rows[1]):
        return ""
    return rows[0] + "\n" + rows[1] + "\n"


def _drop_last_heading(data: bytes, start: int, end: int, reopen: str) -> int:
    """``end`` moved back before a markdown ATX heading (``## Setup``) that would be the
    cut window's last line: a heading without its section tells the reader nothing, and
    the next window (or the outline) starts with it. A ``#`` line inside a code block is
    no heading; a window holding nothing but the heading keeps it."""
    kept = data[start:end]
    body = kept.rstrip(b"\n")
    line = body.rfind(b"\n") + 1
    if line == 0 or _ATX_HEADING.match(body[line:]) is None:
        return end
    if _open_fence(reopen + kept[:line].decode("utf-8")) is not None:
        return end
    return start + line


def _prefer_boundary(data: bytes, start: int, limit: int) -> int:
    """Move ``limit`` back to a blank line, else a newline, within the lookback window;
    else before a link it falls inside (within half the window, :func:`_outside_link`)."""
    floor = max(start + 1, limit - min(BOUNDARY_LOOKBACK_BYTES, (limit - start) // 4))
    para = data.rfind(b"\n\n", floor, limit)
    if para != -1:
        return para + 2
    line = data.rfind(b"\n", floor, limit)
    if line != -1:
        return line + 1
    # a table row longer than the lookback: cut before it, so the next window starts at a
    # row (and repeats the header) instead of at the tail of this one
    row = data.rfind(b"\n", start, limit) + 1
    if row > start and data[row : row + 1] == b"|":
        return row
    # a link may take back up to half the window: a broken one is worse than a shorter text
    link_floor = max(start + 1, limit - min(BOUNDARY_LOOKBACK_BYTES, (limit - start) // 2))
    return max(start + 1, _outside_link(data, link_floor, _outside_escape(data, limit)))


def _outside_link(data: bytes, floor: int, pos: int) -> int:
    """``pos`` moved back before a markdown link or image it falls inside (``[text](url``,
    ``[text`` or ``![alt](src``), when the link starts after ``floor``: a window ending
    there would hand on a broken link, its text without the target or a URL cut short.
    Only the line up to ``pos`` is read (links do not span lines in converted markdown);
    an escaped bracket (``\\[``) opens nothing. Otherwise ``pos`` unchanged."""
    base = max(data.rfind(b"\n", floor, pos) + 1, floor)
    # a cut between ``[text]`` and ``(url)`` is inside the link: read its ``(`` too
    ahead = 1 if data[pos : pos + 1] == b"(" else 0
    opener = _open_link(data[base : pos + ahead])
    if opener is None or base + opener <= floor:
        return pos
    return base + opener


def _open_link(text: bytes) -> int | None:
    """Where the markdown link or image left open at the end of ``text`` starts (its ``[``,
    or the ``!`` before it), else ``None``. Brackets are matched by depth, so a link around
    an image (``[![alt](a.png)](page``) is found whole; a target is open while its
    parentheses are (``(https://x.org/Foo_(bar)`` is)."""
    stack: list[int] = []  # the ``[`` not yet closed
    link: int | None = None  # the start of a link whose target is being read
    depth = 0  # parentheses open in that target
    i = 0
    while i < len(text):
        byte = text[i]
        if byte == 0x5C:  # a backslash escapes the next character
            i += 2
            continue
        if link is not None:
            depth += (byte == 0x28) - (byte == 0x29)
            if depth == 0:
                link = None
        elif byte == 0x5B:
            stack.append(i)
        elif byte == 0x5D and stack:
            opened = stack.pop()
            if text[i + 1 : i + 2] == b"(":
                link, depth = opened, 1
                i += 1
        i += 1
    start = stack[0] if stack else link  # a bracket still open holds the open link
    if start is None:
        return None
    return start - (start > 0 and text[start - 1] == 0x21)


def _outside_escape(data: bytes, pos: int) -> int:
    """``pos`` moved back one byte when it falls inside a markdown backslash escape (after
    an odd run of ``\\`` and before ASCII punctuation, CommonMark §2.4): a window starting
    there would read ``<script>`` where the text says ``\\<script>`` (raw HTML), one
    ending there a lone ``\\``. Escapes are ASCII: ``pos`` stays a character boundary."""
    if pos <= 0 or pos >= len(data) or data[pos - 1] != 0x5C or data[pos] not in _PUNCTUATION:
        return pos
    run = pos - 1
    while run > 0 and data[run - 1] == 0x5C:
        run -= 1
    return pos - 1 if (pos - run) % 2 else pos


def truncation_marker(window: TextWindow) -> str:
    """The SPEC §1.1 marker line after a cut window: ``[truncated at N of M bytes]``.

    N is the byte position reached in the whole text (``window.end``; pass it as ``offset``
    to read on) and M the total. The marker is always the last line of the output. Its
    words are SPEC's literal format, ``bytes`` even when M is 1, so a client that parses
    the line reads every marker alike.
    """
    return f"[truncated at {window.end} of {window.total} bytes]"
