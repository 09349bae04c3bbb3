"""A page's structure for focused reading: headings, sections, chunks, the outline. Pure.

Offsets are UTF-8 byte positions in the text, the unit of web_fetch's ``offset`` argument
(SPEC §1.1), so a model that reads ``offset=N`` next to a heading continues exactly there.

* **Headings** are CommonMark headings outside fenced code blocks: ATX (``## Title``, what
  our HTML conversion writes) and, in markdown text, setext (``Title`` underlined with ``=``
  or ``-``). A ``#`` line inside a code block (a shell or Python comment) is not a heading.
* **Sections** run from a heading to the next heading of any level; text before the first
  heading is a section with an empty path.
* **Chunks** are the units a query ranks: a section up to :data:`CHUNK_MAX_BYTES`, else its
  blocks (paragraphs; a fenced code block with its blank lines is one block) grouped into
  pieces of at most that size; a longer block is split at lines, a longer line at characters.
  A chunk records the code fence open at its start, so a piece of a long listing is shown
  inside its fence.
* The **outline** lists headings with the offset of each, within a byte budget: shallower
  levels first, and within a level the headings after the reader's position first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "CHUNK_MAX_BYTES",
    "MARKDOWN_LINK",
    "OUTLINE_TITLE_CHARS",
    "Chunk",
    "Heading",
    "Structure",
    "closing_fence",
    "heading_title",
    "link_texts",
    "render_outline",
    "scan",
]

#: Largest chunk (bytes) a section is ranked as; longer sections are split by paragraphs.
CHUNK_MAX_BYTES = 2048
#: Longest heading title shown in an outline or a section path (characters).
OUTLINE_TITLE_CHARS = 80

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Lines that cannot be the text of a setext heading: list items, quotes, tables, indented code.
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[-+*>|]|\d{1,9}[.)])(?:[ \t]|$))")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
#: A markdown link or image, its text holding brackets one level deep (``[![a](i)](p)``).
MARKDOWN_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|`)")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Heading:
    """One heading of the text.

    Attributes:
        level: 1–6 (``#`` … ``######``; setext ``=`` is 1, ``-`` is 2).
        title: the heading's text, as shown (links reduced to their text, emphasis marks
            dropped, at most :data:`OUTLINE_TITLE_CHARS` characters).
        start: byte offset of the heading's first line: where its section starts.
        path: the titles of the enclosing headings, outermost first, this one last.
    """

    level: int
    title: str
    start: int
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Chunk:
    """A ranked unit: a section or a piece of one (byte offsets in the text).

    Attributes:
        start: byte offset where the chunk starts (a line start).
        end: byte offset just after it.
        path: heading path of its section (empty before the first heading).
        fence: the code fence open at ``start`` (reopened when the chunk is shown), else
            ``None``.
        body: byte offset where the chunk's text after its section's heading starts
            (``start`` for a chunk without the heading; ``end`` for a heading alone).
    """

    start: int
    end: int
    path: tuple[str, ...]
    fence: str | None = None
    body: int = 0

    @property
    def has_heading(self) -> bool:
        """The chunk starts with its section's heading."""
        return self.body > self.start


@dataclass(frozen=True, slots=True)
class Structure:
    """Headings and chunks of a text.

    Attributes:
        headings: every heading, in page order.
        chunks: the text cut into chunks, in page order, covering every byte once (chunks
            that hold only blank lines are left out).
        total: the text's UTF-8 size.
    """

    headings: tuple[Heading, ...]
    chunks: tuple[Chunk, ...]
    total: int


class _Line(NamedTuple):
    start: int
    end: int  # after the newline
    fence: str | None  # fence open at the start of this line (None: outside code)
    blank: bool
    code: bool  # inside a code block, or one of its fence lines


def link_texts(markdown: str) -> str:
    """``markdown`` with each link and image written as its text alone (``[Guide](u)`` ->
    ``Guide``): what the line says, for counting its words or matching its wording (the
    article passes: article_extras, closing_sections, meta_lines)."""
    return MARKDOWN_LINK.sub(r"\1", markdown)


def heading_title(raw: str) -> str:
    """A heading's text for people: links reduced to their text, emphasis and code marks
    dropped, spaces collapsed, cut to :data:`OUTLINE_TITLE_CHARS` characters (``…``)."""
    title = _LINK.sub(lambda m: m.group(1), raw)
    title = _SPACES.sub(" ", _EMPHASIS.sub("", title)).strip()
    if len(title) > OUTLINE_TITLE_CHARS:
        title = title[: OUTLINE_TITLE_CHARS - 1].rstrip() + "…"
    return title


def _fence_closes(line: str, fence: str) -> bool:
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith(fence[0] * len(fence)):
        return False
    run = len(stripped) - len(stripped.lstrip(fence[0]))
    return run >= len(fence) and not stripped[run:].strip()


def _fence_opens(line: str) -> str | None:
    if line.lstrip(" ")[:3] not in ("```", "~~~"):
        return None
    m = _FENCE_OPEN.match(line)
    if m is None or (m.group(1)[0] == "`" and "`" in m.group(2)):
        return None  # a backtick fence's info string holds no backtick (CommonMark)
    return m.group(1)


def closing_fence(fence: str | None, text: str) -> str | None:
    """The fence left open at the end of ``text`` when it starts inside ``fence`` (or
    outside code when ``None``), else ``None``."""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if fence is None:
            fence = _fence_opens(line)
        elif _fence_closes(line, fence):
            fence = None
    return fence


def _lines(text: str) -> list[tuple[_Line, str]]:
    out: list[tuple[_Line, str]] = []
    pos = 0
    fence: str | None = None
    for raw in text.split("\n"):
        size = len(raw.encode("utf-8")) + 1
        line = raw.rstrip("\r")
        at = fence
        if fence is None:
            fence = _fence_opens(line)
        elif _fence_closes(line, fence):
            fence = None
        out.append(
            (
                _Line(pos, pos + size, at, not line.strip(), at is not None or fence is not None),
                line,
            )
        )
        pos += size
    if out:  # the text does not end with a newline: the last line has none
        last, line = out[-1]
        out[-1] = (last._replace(end=last.end - 1), line)
    return out


def _find_headings(lines: list[tuple[_Line, str]]) -> list[tuple[int, int, int, str]]:
    """(first line index, last line index, level, title) of each heading."""
    found: list[tuple[int, int, int, str]] = []
    para_start: int | None = None  # index of the first line of the current paragraph
    for i, (info, line) in enumerate(lines):
        if info.code:
            para_start = None
            continue
        lead = line.lstrip(" ")[:1]
        atx = _ATX.match(line) if lead == "#" else None
        if atx is not None:
            title = heading_title(_ATX_CLOSE.sub("", atx.group(2) or ""))
            if title:
                found.append((i, i, len(atx.group(1)), title))
            para_start = None
            continue
        setext = _SETEXT.match(line) if lead in ("=", "-") else None
        if setext is not None and para_start is not None:
            words = " ".join(text.strip() for _, text in lines[para_start:i])
            title = heading_title(words)
            if title:
                level = 1 if setext.group(1)[0] == "=" else 2
                found.append((para_start, i, level, title))
            para_start = None
            continue
        if info.blank or _NOT_PARAGRAPH.match(line):
            para_start = None
        elif para_start is None:
            para_start = i
    return found


def scan(text: str, *, markdown: bool = True) -> Structure:
    """The headings and chunks of ``text``.

    Args:
        text: the page text (markdown from our conversion, or pass-through text).
        markdown: the text is markdown; ``False`` (plain text, JSON, PDF text) finds no
            headings — a ``#`` line there is data — and chunks by paragraphs and lines only.

    Returns:
        the structure, offsets in UTF-8 bytes of ``text``.
    """
    lines = _lines(text)
    data = text.encode("utf-8")
    found = _find_headings(lines) if markdown else []
    headings: list[Heading] = []
    stack: list[tuple[int, str]] = []
    for first, _, level, title in found:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        headings.append(Heading(level, title, lines[first][0].start, tuple(t for _, t in stack)))
    chunks: list[Chunk] = []
    firsts = [0, *(first for first, _, _, _ in found), len(lines)]
    bodies = [0, *(lines[last][0].end for _, last, _, _ in found)]
    paths = [(), *(h.path for h in headings)]
    for k, path in enumerate(paths):
        section = [info for info, _ in lines[firsts[k] : firsts[k + 1]]]
        chunks.extend(_chunk_section(data, section, path, bodies[k]))
    return Structure(tuple(headings), tuple(chunks), len(data))


def _blocks(section: list[_Line]) -> list[list[_Line]]:
    """Paragraphs: runs of lines between blank lines outside code (a fenced block and its
    blank lines are one block); blank lines themselves are dropped."""
    blocks: list[list[_Line]] = []
    current: list[_Line] = []
    for info in section:
        if info.blank and info.fence is None:
            if current:
                blocks.append(current)
                current = []
            continue
        current.append(info)
    if current:
        blocks.append(current)
    return blocks


def _pieces(data: bytes, block: list[_Line]) -> list[tuple[int, int, str | None]]:
    """A block cut into (start, end, fence at start) pieces of at most CHUNK_MAX_BYTES: at
    line starts, and inside a longer line at character boundaries."""
    pieces: list[tuple[int, int, str | None]] = []
    start, fence = block[0].start, block[0].fence
    end = start
    for info in block:
        if info.end - start > CHUNK_MAX_BYTES and end > start:
            pieces.append((start, end, fence))
            start, fence = info.start, info.fence
        end = info.end
        while end - start > CHUNK_MAX_BYTES:  # one line longer than a chunk
            step = _char_start(data, start + CHUNK_MAX_BYTES)
            if step <= start:  # cannot happen in UTF-8 (a character is ≤ 4 bytes)
                break
            pieces.append((start, step, fence))
            start = step
    if end > start:
        pieces.append((start, end, fence))
    return pieces


def _chunk_section(
    data: bytes, section: list[_Line], path: tuple[str, ...], body: int
) -> list[Chunk]:
    """A section's blocks grouped into chunks of at most CHUNK_MAX_BYTES (``body``: where
    the text after the section's heading starts; 0 for the part before any heading)."""
    chunks: list[Chunk] = []
    start: int | None = None
    end = 0
    fence: str | None = None

    def close() -> None:
        assert start is not None
        after = min(max(body, start), end) if not chunks else start
        chunks.append(Chunk(start, end, path, fence, after))

    for block in _blocks(section):
        for lo, hi, at in _pieces(data, block):
            if start is not None and hi - start > CHUNK_MAX_BYTES:
                close()
                start = None
            if start is None:
                start, fence = lo, at
            end = hi
    if start is not None:
        close()
    return chunks


def _char_start(data: bytes, pos: int) -> int:
    while 0 < pos < len(data) and (data[pos] & 0xC0) == 0x80:
        pos -= 1
    return pos


def render_outline(
    headings: Sequence[Heading],
    budget: int,
    position: int = 0,
    relevance: Mapping[int, float] | None = None,
) -> str:
    """The outline lines for ``headings`` within ``budget`` UTF-8 bytes.

    One line per heading, indented two spaces per level below the shallowest:
    ``  - Install (offset=1520)``. When all lines do not fit, the most relevant headings
    come first (with ``relevance``), then shallower levels and, within a level, headings at
    or after ``position`` (where the reader stands) before those behind it; a heading is
    listed with its ancestors (so indentation never shows a wrong parent); the chosen lines
    keep page order and a last line says how many headings were left out.

    Args:
        headings: the page's headings (page order).
        budget: bytes the lines may take, newlines included.
        position: byte offset of the reader (the end of what was shown).
        relevance: a score per heading (by its ``start``; absent: 0), e.g. how well its
            section matched a query.

    Returns:
        the lines joined by newlines, or ``""`` when fewer than two headings fit.
    """
    if len(headings) < 2:
        return ""
    top = min(h.level for h in headings)
    lines = [f"{'  ' * (h.level - top)}- {h.title} (offset={h.start})" for h in headings]
    sizes = [len(line.encode("utf-8")) + 1 for line in lines]
    if sum(sizes) <= budget:
        return "\n".join(lines)
    score = relevance or {}
    order = sorted(
        range(len(headings)),
        key=lambda i: (
            -score.get(headings[i].start, 0.0),
            headings[i].level,
            headings[i].start < position,
            i,
        ),
    )
    parents: list[int | None] = []
    stack: list[int] = []
    for i, h in enumerate(headings):
        while stack and headings[stack[-1]].level >= h.level:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(i)
    note_room = len(f"- … {len(headings)} more headings not listed".encode()) + 1
    chosen: set[int] = set()
    used = note_room
    for i in order:
        # A heading comes with its ancestors, so the indentation shows its real parents.
        wanted: list[int] = []
        j: int | None = i
        while j is not None and j not in chosen:
            wanted.append(j)
            j = parents[j]
        cost = sum(sizes[k] for k in wanted)
        if used + cost > budget:
            break
        chosen.update(wanted)
        used += cost
    if len(chosen) < 2:
        return ""
    kept = [lines[i] for i in sorted(chosen)]
    left = len(headings) - len(chosen)
    kept.append(f"- … {left} more heading{'s' if left > 1 else ''} not listed")
    return "\n".join(kept)
