"""Focused reading (issue 18 §1): what of a long text a model sees. Pure.

Two layouts of a text within a byte budget (SPEC §1.1 ``max_bytes``), both ending with the
page's outline (:func:`webresearch.extract.sections.render_outline`) when the text does not
fit:

* :func:`prefix_window` — the text from ``offset`` (web_fetch without ``query``); the outline
  takes at most :func:`outline_budget` bytes of the budget and the text the rest.
* :func:`query_window` — the sections most relevant to a question, ranked by **BM25**
  (Okapi BM25 with Lucene's IDF, k1 = 1.2, b = 0.75; the ``bm25s`` library) over the
  page's chunks (:func:`webresearch.extract.sections.scan`: sections from the markdown
  headings, long ones split by paragraphs), each indexed with its heading path. Chunks
  scoring at least :data:`RELATIVE_FLOOR` of the best are taken best first while they fit,
  then shown in page order, each under a line with its heading path and offset; a first
  line says how many were left out.

Tokens (:func:`tokenize`) work for any script: NFKC, case-folded runs of letters, digits and
marks; a word longer than :data:`PREFIX_CHARS` characters also gives its first
:data:`PREFIX_CHARS` characters (prefix truncation, a language-independent stand-in for
stemming: *installing* and *installation* share *insta*); scripts written without spaces
(Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) give overlapping character bigrams, as
Lucene's CJK analyzer does. Stop words (NLTK's English and Russian lists, as shipped by
``bm25s``) are dropped from the question unless nothing would remain.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import regex

from .budget import TextWindow, cut_window
from .sections import Chunk, Structure, closing_fence, render_outline

__all__ = [
    "OUTLINE_HEADER",
    "PREFIX_CHARS",
    "RELATIVE_FLOOR",
    "QueryWindow",
    "outline_budget",
    "prefix_window",
    "query_window",
    "rank",
    "tokenize",
]

#: First line of the outline block.
OUTLINE_HEADER = "[outline: each heading with the offset where its section starts]"
#: Characters kept of a word as its extra prefix token.
PREFIX_CHARS = 5
#: A chunk is shown only when its score is at least this share of the best chunk's score.
RELATIVE_FLOOR = 0.25
#: Times a chunk's own section heading counts in its index text (its ancestors: once).
HEADING_WEIGHT = 2
#: Most bytes an outline takes, whatever the budget.
OUTLINE_MAX_BYTES = 4096

_NO_SPACE = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}"
_RUN = regex.compile(r"[\p{L}\p{N}\p{M}]+")
_WORD = regex.compile(rf"[[\p{{L}}\p{{N}}\p{{M}}]--[{_NO_SPACE}]]+", regex.V1)
_NO_SPACE_RUN = regex.compile(rf"[{_NO_SPACE}]+")
# Link and image targets, bare URLs: addresses are not words of the text.
_TARGETS = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|https?://\S+")


@cache
def _stop_words() -> frozenset[str]:
    from bm25s import stopwords

    return frozenset(stopwords.STOPWORDS_EN_PLUS) | frozenset(stopwords.STOPWORDS_RUSSIAN)


def tokenize(text: str) -> list[str]:
    """Index terms of ``text`` (module docstring): words, their prefixes, CJK bigrams.

    The terms are a bag (BM25 ignores order): words first, then prefixes, then bigrams.
    """
    words: list[str] = _RUN.findall(unicodedata.normalize("NFKC", text).casefold())
    foreign = " ".join(w for w in words if not w.isascii())
    runs: list[str] = _NO_SPACE_RUN.findall(foreign) if foreign else []
    if runs:  # letters of scripts without spaces: split them off their neighbours
        words = [w for w in words if w.isascii()] + _WORD.findall(foreign)
    tokens = words + [w[:PREFIX_CHARS] for w in words if len(w) > PREFIX_CHARS]
    for run in runs:
        tokens.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return tokens


def query_terms(query: str) -> list[str]:
    """The question's terms: :func:`tokenize` without stop words (kept when nothing else
    would remain)."""
    stop = _stop_words()
    words = _RUN.findall(unicodedata.normalize("NFKC", query).casefold())
    return tokenize(" ".join(w for w in words if w not in stop)) or tokenize(query)


def rank(documents: Sequence[Sequence[str]], terms: Sequence[str]) -> list[float]:
    """BM25 score of each tokenised document for the query ``terms`` (0.0: no term).

    Lucene's BM25 (k1 = 1.2, b = 0.75; IDF ``log(1 + (N - df + 0.5) / (df + 0.5))``),
    computed by ``bm25s``. Terms outside the query are given to it as one filler term (id
    0): document lengths and the query terms' frequencies stay exact, so the scores are the
    same, and the index is as small as the query.
    """
    vocabulary = {"": 0} | {term: i for i, term in enumerate(dict.fromkeys(terms), 1)}
    if not documents or len(vocabulary) == 1:
        return [0.0] * len(documents)
    ids = [[vocabulary.get(t, 0) for t in doc] for doc in documents]
    if not any(any(doc) for doc in ids):
        return [0.0] * len(documents)
    import bm25s

    index = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    index.index((ids, vocabulary), create_empty_token=False, show_progress=False)
    scores = index.get_scores_from_ids([vocabulary[t] for t in terms])
    return [float(score) for score in scores]


def outline_budget(max_bytes: int) -> int:
    """Bytes the outline may take of a ``max_bytes`` budget: an eighth, at most 4 KiB."""
    return min(max_bytes // 8, OUTLINE_MAX_BYTES)


def _outline_block(
    structure: Structure,
    max_bytes: int,
    position: int,
    relevance: Mapping[int, float] | None = None,
) -> str:
    lines = render_outline(
        structure.headings,
        outline_budget(max_bytes) - len(OUTLINE_HEADER.encode()) - 1,
        position,
        relevance,
    )
    return f"{OUTLINE_HEADER}\n{lines}" if lines else ""


def prefix_window(
    text: str, structure: Structure, offset: int, max_bytes: int, *, markdown: bool
) -> tuple[TextWindow, str]:
    """The text from ``offset`` within ``max_bytes``, and the outline when it is cut.

    Returns:
        (the window — its ``text`` the kept text, cut with :func:`cut_window` —, the
        outline block or ``""``). The window's text, a blank line and the outline together
        take at most ``max_bytes`` bytes; the window alone when there is no outline.
    """
    window = cut_window(text, offset, max_bytes, markdown=markdown)
    if not window.truncated or len(structure.headings) < 2:
        return window, ""
    # Where the reader will stand decides which headings an outline over its budget keeps:
    # estimate it with the room the outline leaves, then cut again after the outline.
    position = cut_window(text, offset, max_bytes - outline_budget(max_bytes), markdown=markdown)
    outline = _outline_block(structure, max_bytes, position.end)
    if not outline:
        return window, ""
    room = max_bytes - len(outline.encode("utf-8")) - 2
    window = cut_window(text, offset, max(1, room), markdown=markdown)
    return TextWindow(window.text.rstrip("\n"), window.start, window.end, window.total), outline


@dataclass(frozen=True, slots=True)
class QueryWindow:
    """The sections a query chose, laid out for a model.

    Attributes:
        text: the summary line, then each group of consecutive chosen chunks under a line
            ``[section at offset=N: A > B]``, then the outline block when there is one.
        offsets: start offset of each group shown, in page order.
        shown: chunks shown.
        total: chunks ranked (the page's sections and section pieces from ``offset`` on).
        outline: the text ends with the outline block.
    """

    text: str
    offsets: tuple[int, ...]
    shown: int
    total: int
    outline: bool

    @property
    def left_out(self) -> int:
        """Chunks not shown."""
        return self.total - self.shown


def _index_text(text: str, chunk: Chunk) -> str:
    """What a chunk is ranked by: its section's heading path (the section's own heading
    :data:`HEADING_WEIGHT` times), then its text without link targets."""
    own = chunk.path[-1:] * HEADING_WEIGHT
    return " ".join((*chunk.path[:-1], *own)) + "\n" + _TARGETS.sub("]", text)


def _display(data: bytes, chunk: Chunk, end: int) -> str:
    """A chunk's bytes up to ``end``, inside its code fence when it starts in one, with
    any fence left open closed."""
    body = data[chunk.start : end].decode("utf-8")
    if chunk.fence is not None:
        body = chunk.fence + "\n" + body
    fence = closing_fence(None, body)
    if fence is not None:
        body += ("" if body.endswith("\n") else "\n") + fence + "\n"
    return body


def _header(chunk: Chunk) -> str:
    where = " > ".join(chunk.path) if chunk.path else "top of the page"
    return f"[section at offset={chunk.start}: {where}]"


def query_window(
    text: str, structure: Structure, query: str, offset: int, max_bytes: int
) -> QueryWindow | None:
    """The chunks of ``text`` (ending after ``offset``) that best match ``query``, within
    ``max_bytes`` bytes together with their header lines, the summary line and the outline.

    Returns:
        the layout (``shown`` 0 when chunks matched but the budget holds none), or ``None``
        when no chunk contains a term of the query.
    """
    data = text.encode("utf-8")
    chunks = [c for c in structure.chunks if c.end > offset and c.body < c.end]
    terms = query_terms(query)
    documents = [tokenize(_index_text(data[c.start : c.end].decode("utf-8"), c)) for c in chunks]
    scores = rank(documents, terms)
    best = max(scores, default=0.0)
    if best <= 0.0:
        return None
    outline = _outline_block(structure, max_bytes, offset, _relevance(structure, chunks, scores))
    summary_room = len(_summary(len(chunks), len(chunks)).encode()) + 1
    room = max_bytes - summary_room - (len(outline.encode("utf-8")) + 2 if outline else 0)
    order = sorted(range(len(chunks)), key=lambda i: (-scores[i], i))
    chosen: dict[int, str] = {}
    for i in order:
        if scores[i] < RELATIVE_FLOOR * best:
            break
        shown = _display(data, chunks[i], chunks[i].end)
        cost = len(_header(chunks[i]).encode()) + len(shown.encode()) + 2
        if cost <= room:
            chosen[i] = shown
            room -= cost
        elif not chosen:  # the best chunk alone is over the budget: its start
            header = _header(chunks[i])
            cut = _cut(data, chunks[i], room - len(header.encode()) - 2)
            if cut is not None:
                chosen[i] = cut
                room = 0
    if not chosen:  # matched, but the budget holds no section
        return QueryWindow("", (), 0, len(chunks), False)
    groups: list[tuple[Chunk, list[str]]] = []
    previous = -2
    for i in sorted(chosen):
        if i == previous + 1 and chunks[i].path == chunks[previous].path:
            groups[-1][1].append(chosen[i])
        else:
            groups.append((chunks[i], [chosen[i]]))
        previous = i
    parts = [_summary(len(chosen), len(chunks))]
    for first, texts in groups:
        parts.append(_header(first) + "\n" + "\n".join(t.rstrip("\n") + "\n" for t in texts))
    body = "\n".join(parts).rstrip("\n")
    if outline:
        body += "\n\n" + outline
    offsets = tuple(first.start for first, _ in groups)
    return QueryWindow(body, offsets, len(chosen), len(chunks), bool(outline))


def _relevance(
    structure: Structure, chunks: Sequence[Chunk], scores: Sequence[float]
) -> dict[int, float]:
    """Each heading's best chunk score (heading start → score): an outline over its budget
    lists the sections that matched the query first."""
    starts = [h.start for h in structure.headings]
    best: dict[int, float] = {}
    for chunk, score in zip(chunks, scores, strict=True):
        k = bisect_right(starts, chunk.start) - 1
        if k >= 0 and score > best.get(starts[k], 0.0):
            best[starts[k]] = score
    return best


def _summary(shown: int, total: int) -> str:
    return (
        f"[query: the {shown} best-matching of {total} sections, in page order; "
        f"{total - shown} left out]"
    )


def _cut(data: bytes, chunk: Chunk, budget: int) -> str | None:
    """The start of a chunk within ``budget`` bytes (fences closed) and where it goes on."""
    whole = _display(data, chunk, chunk.end)
    reopen = len(chunk.fence.encode()) + 1 if chunk.fence is not None else 0
    note_room = len(f"[section goes on at offset={chunk.end}]".encode()) + 1
    if budget - note_room < 64:
        return None
    window = cut_window(whole, 0, budget - note_room, markdown=True)
    resume = min(chunk.end, chunk.start + max(0, window.end - reopen))
    return f"{window.text.rstrip(chr(10))}\n[section goes on at offset={resume}]\n"
