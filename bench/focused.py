"""Focused reading (issue 18 §1): does web_fetch's ``query`` put the answer in 8 KiB?

For each WCXB ``article`` and ``documentation`` page (``--types``) the page goes through our
real pipeline — :func:`webresearch.extract.dispatch.convert` (HTML → markdown), then
:func:`webresearch.tools.page_text.format_document`, the formatter web_fetch uses — twice,
with the same budget (``--max-bytes``, default 8192):

* ``first 8 KiB`` — without ``query``: the text's first bytes (and, since issue 18, the
  outline) — what every peer returns;
* ``query`` — with a question about a section deep in the page.

**The question and its answer** come from the page's ground truth (``main_content_markdown``),
never from our conversion:

1. headings are the ground truth's ATX lines (``#`` … ``######``) outside code fences; a
   heading's *answer* is the text below it up to the next heading of any level, stripped of
   markdown (``metrics.normalize_markdown``), as ``metrics.words`` tokens (``[^\\W_]+``,
   lower-cased), its first :data:`ANSWER_WORDS`;
2. a heading is a *candidate* when its answer has at least :data:`MIN_ANSWER_WORDS` words,
   it starts in the second half of the ground truth (character position ≥ 50 %: "deep in
   the page"), its text has a word of two characters or more that is not a number, and no
   other heading of the page has the same words (a question about "Pros" on a page with
   five "Pros" sections names no one section);
3. one candidate per page is picked by the page id (SHA-256 of ``"wcxb/<id>"`` modulo the
   number of candidates): fixed, not chosen by us;
4. the question is built from the heading's words (``metrics.words``; numbers and
   one-character words such as the ``s`` of ``what's`` dropped):
   with three words or more, the word at position SHA-256 modulo the count is *dropped*;
   the longest remaining word is *changed* between singular and plural (a final ``s``
   removed, else added); the words are put in the sentence
   ``What does the page say about <words>?``. Example: heading ``4. Personal Photography
   Projects`` → ``What does the page say about personal project?`` (``photography``
   dropped, ``projects`` → ``project``).

**A hit**: the output the model reads (everything the formatter returns, stripped with
``metrics.normalize_markdown``) holds at least 80 % of what our conversion holds of the
answer in one place. Recall is multiset word recall (``metrics.word_prf``); "in one place"
is the best window of the converted text (its ``metrics.words``, windows of twice the
answer's length, every start): the *ceiling*. The ground truth keeps text our conversion may
drop (pull quotes, captions), so the ceiling is below 1 on some pages; a hit is recall ≥
0.8 × ceiling. Pages are left out of the rates, and counted, when the converted text fits
the budget (both modes show everything), when the ground truth has no candidate, or when our
conversion does not hold the answer (ceiling < 0.5: an extraction miss, not a focusing one).

**Held-out part**: a page is held out when the SHA-256 of ``"wcxb/<page id>"`` read as a
big-endian integer is divisible by 5 (the rule ``bench/extraction.py`` uses, so the same
pages are held out for every benchmark). The ranking was tuned on the other four fifths
(``--part dev``); the report shows both.

Usage::

    .venv/bin/python bench/focused.py --jobs 2
    .venv/bin/python bench/focused.py --part dev --types documentation --show-misses 5
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

import metrics  # noqa: E402  (bench/metrics.py, the shared scoring, unchanged)

#: Words of a section's text that make its answer (its start).
ANSWER_WORDS = 150
#: Fewest answer words for a heading to be asked about.
MIN_ANSWER_WORDS = 20
#: Share of the ceiling (module docstring) the output must hold.
HIT_RECALL = 0.8
#: Lowest ceiling of a page whose conversion holds the answer.
MIN_CEILING = 0.5
PARTS = ("dev", "held-out")
MODES = ("first 8 KiB", "query")

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _default_corpus_dir() -> Path:
    """``shared/corpus`` beside the repository or beside a folder holding it (worktrees)."""
    for folder in REPO.parents:
        if (folder / "shared" / "corpus").is_dir():
            return folder / "shared" / "corpus"
    return REPO.parent / "shared" / "corpus"


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def part_of(page_id: str) -> str:
    """``held-out`` for about a fifth of the pages (module docstring), else ``dev``."""
    return "held-out" if _hash(f"wcxb/{page_id}") % 5 == 0 else "dev"


@dataclass(frozen=True, slots=True)
class Question:
    """What is asked of one page."""

    heading: str
    question: str
    answer: str  # the answer's words, space-separated


@dataclass(slots=True)
class Outcome:
    """One page's result."""

    page_id: str
    page_type: str
    part: str
    status: str  # "scored", "fits", "no candidate", "not extracted"
    text_bytes: int = 0
    question: str = ""
    heading: str = ""
    hits: tuple[bool, ...] = ()
    recalls: tuple[float, ...] = ()
    output_bytes: tuple[int, ...] = ()
    query_ms: float = 0.0
    ceiling: float = 0.0
    in_outline: bool = False  # the baseline's outline names the heading


def ground_truth_headings(markdown: str) -> list[tuple[int, str, int, int]]:
    """(line index, heading text, character position, level) of each ATX heading."""
    found: list[tuple[int, str, int, int]] = []
    fence: str | None = None
    pos = 0
    for i, line in enumerate(markdown.split("\n")):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
        elif m:
            fence = m.group(1)
        else:
            h = _HEADING.match(line)
            if h:
                found.append((i, h.group(2), pos, len(h.group(1))))
        pos += len(line) + 1
    return found


def make_question(page_id: str, markdown: str) -> Question | None:
    """The page's question (module docstring), or ``None`` without a candidate heading."""
    lines = markdown.split("\n")
    headings = ground_truth_headings(markdown)
    size = max(1, len(markdown))
    candidates: list[Question] = []
    named = [tuple(_heading_words(text)) for _, text, _, _ in headings]
    for k, (line, text, pos, _level) in enumerate(headings):
        stop = headings[k + 1][0] if k + 1 < len(headings) else len(lines)
        answer = metrics.words(metrics.normalize_markdown("\n".join(lines[line + 1 : stop])))
        words = list(named[k])
        if len(answer) < MIN_ANSWER_WORDS or pos / size < 0.5 or not words:
            continue
        if named.count(named[k]) > 1:
            continue
        candidates.append(Question(text, _ask(page_id, words), " ".join(answer[:ANSWER_WORDS])))
    if not candidates:
        return None
    return candidates[_hash(f"wcxb/{page_id}") % len(candidates)]


def _heading_words(text: str) -> list[str]:
    words = metrics.words(metrics.normalize_markdown(text))
    return [w for w in words if len(w) > 1 and not w.isdigit()]


def _ask(page_id: str, words: list[str]) -> str:
    words = list(words)
    if len(words) >= 3:
        del words[_hash(f"wcxb/{page_id}/drop") % len(words)]
    longest = max(range(len(words)), key=lambda i: (len(words[i]), -i))
    word = words[longest]
    words[longest] = word[:-1] if word.endswith("s") and len(word) > 3 else word + "s"
    return f"What does the page say about {' '.join(words)}?"


def ceiling(text: str, answer: str) -> float:
    """The best recall of the answer's words in a window of ``text`` (module docstring)."""
    words = metrics.words(metrics.normalize_markdown(text))
    wanted = Counter(answer.split())
    size = 2 * sum(wanted.values())
    window: Counter[str] = Counter()
    best = found = 0
    for i, word in enumerate(words):
        window[word] += 1
        if window[word] <= wanted[word]:
            found += 1
        if i >= size:
            old = words[i - size]
            if window[old] <= wanted[old]:
                found -= 1
            window[old] -= 1
        best = max(best, found)
    return best / max(1, sum(wanted.values()))


def recall(output: str, answer: str) -> float:
    """Share of the answer's words the output holds (``metrics.word_prf`` recall)."""
    return metrics.word_prf(metrics.normalize_markdown(output), answer)[1]


def run_page(args: tuple[str, str, str, int]) -> Outcome:
    """Convert one page, ask its question in both modes, score both outputs."""
    root, page_id, page_type, max_bytes = args
    from webresearch.extract.dispatch import convert
    from webresearch.tools.page_text import format_document
    from webresearch.types import PageText

    folder = Path(root)
    record = json.loads(
        gzip.decompress((folder / "ground-truth" / f"{page_id}.json.gz").read_bytes())
    )
    truth = record.get("ground_truth") or {}
    html = gzip.decompress((folder / "html" / f"{page_id}.html.gz").read_bytes())
    outcome = Outcome(page_id, page_type, part_of(page_id), "scored")
    converted = convert(html, "text/html; charset=utf-8", record.get("url") or "")
    outcome.text_bytes = len(converted.text.encode("utf-8"))
    asked = make_question(page_id, truth.get("main_content_markdown") or "")
    if asked is None:
        outcome.status = "no candidate"
        return outcome
    outcome.question, outcome.heading = asked.question, asked.heading
    if outcome.text_bytes <= max_bytes:
        outcome.status = "fits"
        return outcome
    outcome.ceiling = ceiling(converted.text, asked.answer)
    if outcome.ceiling < MIN_CEILING:
        outcome.status = "not extracted"
        return outcome
    doc: PageText = {
        "url": record.get("url") or "",
        "content_type": converted.mime,
        "title": converted.title,
        "text": converted.text,
        "markdown": converted.markdown,
    }
    baseline, _ = format_document(doc, 0, max_bytes)
    started = time.perf_counter()
    focused, _ = format_document(doc, 0, max_bytes, asked.question)
    outcome.query_ms = (time.perf_counter() - started) * 1000
    outputs = (baseline, focused)
    outcome.recalls = tuple(recall(out, asked.answer) for out in outputs)
    outcome.hits = tuple(r >= HIT_RECALL * outcome.ceiling for r in outcome.recalls)
    outcome.output_bytes = tuple(len(out.encode("utf-8")) for out in outputs)
    title = metrics.normalize_markdown(asked.heading).strip().lower()
    outline = baseline.partition("\n[outline:")[2].lower()
    outcome.in_outline = bool(title) and title[:40] in outline
    return outcome


def pages(root: Path, types: tuple[str, ...], part: str) -> Iterator[tuple[str, str]]:
    files = json.loads((root / "metadata.json").read_text(encoding="utf-8"))["files"]
    for page_id in sorted(files):
        page_type = files[page_id].get("page_type") or "article"
        if page_type in types and (part == "all" or part_of(page_id) == part):
            yield page_id, page_type


def report(outcomes: list[Outcome], max_bytes: int) -> str:
    lines = [
        f"budget: {max_bytes} bytes (max_bytes); hit: ≥ {HIT_RECALL:.0%} of the answer's words "
        "our conversion holds in one place"
    ]
    header = (
        f"{'part':<9} {'pages':>5} {'scored':>6} {'fits':>5} {'no q':>5} {'not ext':>7} "
        f"{'first 8 KiB':>11} {'query':>7} {'ratio':>6} {'outline':>7} "
        f"{'bytes 8K':>8} {'bytes q':>7} {'q ms p50':>8}"
    )
    lines += [header, "-" * len(header)]
    for part in (*PARTS, "all"):
        rows = [o for o in outcomes if part == "all" or o.part == part]
        if not rows:
            continue
        scored = [o for o in rows if o.status == "scored"]
        count = {
            s: sum(o.status == s for o in rows) for s in ("fits", "no candidate", "not extracted")
        }
        rates = [sum(o.hits[m] for o in scored) / len(scored) if scored else 0.0 for m in range(2)]
        ratio = f"{rates[1] / rates[0]:.2f}" if rates[0] else "inf"
        outline = sum(o.in_outline for o in scored) / len(scored) if scored else 0.0
        sizes = [
            statistics.median(o.output_bytes[m] for o in scored) if scored else 0 for m in range(2)
        ]
        ms = statistics.median(o.query_ms for o in scored) if scored else 0.0
        lines.append(
            f"{part:<9} {len(rows):>5} {len(scored):>6} {count['fits']:>5} "
            f"{count['no candidate']:>5} {count['not extracted']:>7} {rates[0]:>11.1%} "
            f"{rates[1]:>7.1%} {ratio:>6} {outline:>7.1%} {sizes[0]:>8.0f} {sizes[1]:>7.0f} "
            f"{ms:>8.1f}"
        )
    lines.append(
        "scored: pages asked; fits: text within the budget; no q: no candidate heading; "
        "not ext: our conversion lacks the answer; outline: share of scored pages whose "
        "first-8-KiB output lists the heading in its outline; bytes: median output size"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="web_fetch query mode against the first max_bytes, on WCXB pages.",
        epilog="The question rule, the hit rule and the held-out rule: see the module docstring.",
    )
    parser.add_argument(
        "--corpus-dir",
        type=Path,
        default=_default_corpus_dir(),
        help="folder holding wcxb/ (default: the nearest shared/corpus)",
    )
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="all")
    parser.add_argument(
        "--types",
        default="article,documentation",
        help="WCXB page types, comma-separated (default: article,documentation)",
    )
    parser.add_argument("--max-bytes", type=int, default=8192)
    parser.add_argument("--limit", type=int, default=0, help="pages at most (0: all)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--json", type=Path, help="write per-page outcomes here")
    parser.add_argument(
        "--show-misses",
        type=int,
        default=0,
        metavar="N",
        help="print N pages the query mode missed (question and heading)",
    )
    opts = parser.parse_args(argv)
    root = opts.corpus_dir / "wcxb"
    if not (root / "metadata.json").is_file():
        parser.error(f"no WCXB corpus under {opts.corpus_dir} (give --corpus-dir)")
    todo = list(pages(root, tuple(opts.types.split(",")), opts.part))
    if opts.limit:
        todo = todo[: opts.limit]
    work = [(str(root), page_id, page_type, opts.max_bytes) for page_id, page_type in todo]
    print(f"{len(work)} pages ({opts.types}; part {opts.part}), {opts.jobs} jobs", file=sys.stderr)
    with ProcessPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        outcomes = list(pool.map(run_page, work, chunksize=4))
    for part_types in sorted({o.page_type for o in outcomes}):
        subset = [o for o in outcomes if o.page_type == part_types]
        print(f"\n{part_types}\n" + report(subset, opts.max_bytes))
    print("\nall types\n" + report(outcomes, opts.max_bytes))
    misses = [o for o in outcomes if o.status == "scored" and not o.hits[1]]
    for o in misses[: opts.show_misses]:
        print(
            f"miss {o.page_id} ({o.part}): {o.question!r} ← {o.heading!r} "
            f"recall {o.recalls[1]:.2f} of ceiling {o.ceiling:.2f}"
        )
    if opts.json:
        opts.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
