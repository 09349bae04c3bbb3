"""Extraction quality and speed: webresearch's ``html_to_markdown`` against peers, in one run.

Tools compared on the same pages, in the same worker process, one page at a time:

* ``webresearch`` — :func:`webresearch.extract.html.html_to_markdown` (the markdown part);
* ``trafilatura`` — ``trafilatura.extract(html, output_format="markdown", url=url)``, default
  settings;
* ``readability`` — readability-lxml ``Document(html).summary()`` then ``markdownify``;
* ``mcp-fetch`` — the reference MCP fetch server's ``extract_content_from_html`` (PyPI
  ``mcp-server-fetch``, imported, not copied).

Corpora (``--corpus-dir``, default ``../shared/corpus`` relative to the repository):

* ``zyte`` — ``zyte-aeb/``: 91 article pages, ground truth ``articleBody``;
* ``wcxb`` — ``wcxb/``: 935 pages of 7 types, ground truth ``main_content`` plus ``with``
  snippets (must be found) and ``without`` snippets (boilerplate that must be avoided).

Scoring, identical for every tool: markdown syntax is stripped first (link and image URLs,
images, heading ``#``, table pipes, emphasis, backticks, fence lines, HTML tags), then tokens
are ``\\w+`` lower-cased; per page precision / recall / F1 of the multiset overlap with the
ground truth; the table shows their means over pages whose ground truth is not empty. A
snippet matches when it occurs in the stripped output case-insensitively after whitespace
normalisation; the rates are pooled over all snippets. Timing: wall-clock milliseconds of the
extraction call alone (``time.perf_counter``), median and 95th percentile over pages.

Usage::

    PYTHONPATH=src python bench/extraction.py --corpus all --jobs 2
    PYTHONPATH=src python bench/extraction.py --corpus wcxb --limit 100 --tools webresearch,trafilatura
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import logging
import os
import re
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

#: Tool names in table order; trafilatura is the reference for the ratios.
TOOL_NAMES = ("webresearch", "trafilatura", "readability", "mcp-fetch")
REFERENCE_TOOL = "trafilatura"


@dataclass(frozen=True, slots=True)
class Page:
    """One corpus page: its HTML (decoded as UTF-8) and its ground truth."""

    corpus: str
    page_id: str
    url: str
    html: str
    truth: str
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()


@dataclass(slots=True)
class ToolScore:
    """One tool's result on one page."""

    ms: float
    precision: float | None  # None when the ground truth is empty (page not scored)
    recall: float | None
    f1: float | None
    with_found: int = 0
    with_total: int = 0
    without_avoided: int = 0
    without_total: int = 0
    error: str | None = None


# --------------------------------------------------------------------------- corpora


def _read_gz_text(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")


def load_zyte(root: Path) -> Iterator[Page]:
    """Pages of the zyte-aeb corpus (``html/<id>.html.gz`` + ``ground-truth.json``)."""
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    for page_id in sorted(truth):
        entry = truth[page_id]
        html = _read_gz_text(root / "html" / f"{page_id}.html.gz")
        yield Page("zyte", page_id, entry.get("url") or "", html, entry.get("articleBody") or "")


def load_wcxb(root: Path) -> Iterator[Page]:
    """Pages of the wcxb corpus (``html/<id>.html.gz`` + ``ground-truth/<id>.json.gz``)."""
    for gt_path in sorted((root / "ground-truth").glob("*.json.gz")):
        page_id = gt_path.name.split(".")[0]
        record = json.loads(gzip.decompress(gt_path.read_bytes()))
        truth = record.get("ground_truth") or {}
        html = _read_gz_text(root / "html" / f"{page_id}.html.gz")
        yield Page(
            "wcxb",
            page_id,
            record.get("url") or "",
            html,
            truth.get("main_content") or "",
            tuple(s for s in truth.get("with") or () if s),
            tuple(s for s in truth.get("without") or () if s),
        )


# --------------------------------------------------------------------------- scoring

_IMAGE = re.compile(r"!\[(?:[^\]\\\n]|\\.)*\]\([^)\n]*\)")
_LINK = re.compile(r"\[((?:[^\]\\\n]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"\n]*\")?\)")
_AUTOLINK = re.compile(r"<(?:https?|mailto|ftp):[^>\s]*>")
_FENCE_LINE = re.compile(r"^\s*(?:```|~~~).*$", re.MULTILINE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![^\W_])_+|_+(?![^\W_])")
_TOKEN = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")


def strip_markdown(text: str) -> str:
    """Markdown (or plain text) → plain words, the same way for every tool.

    Images are removed with their alt text, links keep their text and lose their URL,
    autolinks and HTML tags are removed, backslash escapes are undone, and ``_`` used as
    emphasis is dropped; ``#``, ``|``, ``*``, ``>`` and backticks never form ``\\w`` tokens,
    so they need no special care.
    """
    text = _FENCE_LINE.sub("", text)
    text = _IMAGE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _ESCAPE.sub(r"\1", text)
    return _EMPHASIS_UNDERSCORE.sub("", text)


def tokens(text: str) -> Counter[str]:
    """Multiset of ``\\w+`` tokens, lower-cased."""
    return Counter(_TOKEN.findall(text.lower()))


def prf(predicted: Counter[str], truth: Counter[str]) -> tuple[float, float, float]:
    """Precision, recall and F1 of the multiset overlap."""
    overlap = sum((predicted & truth).values())
    n_pred, n_truth = sum(predicted.values()), sum(truth.values())
    precision = overlap / n_pred if n_pred else 0.0
    recall = overlap / n_truth if n_truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def normalise_snippet(text: str) -> str:
    """Lower-case, whitespace-collapsed form used for snippet matching."""
    return _SPACE.sub(" ", text).strip().lower()


def score_output(page: Page, output: str, ms: float, error: str | None = None) -> ToolScore:
    """Score one tool output against the page's ground truth."""
    plain = strip_markdown(output)
    truth = tokens(page.truth)
    if truth:
        precision, recall, f1 = prf(tokens(plain), truth)
        result = ToolScore(ms, precision, recall, f1, error=error)
    else:
        result = ToolScore(ms, None, None, None, error=error)
    haystack = normalise_snippet(plain)
    for snippet in page.with_snippets:
        result.with_total += 1
        result.with_found += normalise_snippet(strip_markdown(snippet)) in haystack
    for snippet in page.without_snippets:
        result.without_total += 1
        result.without_avoided += normalise_snippet(strip_markdown(snippet)) not in haystack
    return result


# --------------------------------------------------------------------------- tools


def _tool_webresearch() -> Callable[[str, str], str]:
    from webresearch.extract.html import html_to_markdown

    def run(html: str, url: str) -> str:
        return html_to_markdown(html, url)[1]

    return run


def _tool_trafilatura() -> Callable[[str, str], str]:
    import trafilatura

    def run(html: str, url: str) -> str:
        return trafilatura.extract(html, output_format="markdown", url=url) or ""

    return run


def _tool_readability() -> Callable[[str, str], str]:
    import markdownify
    from readability import Document

    def run(html: str, url: str) -> str:
        return str(markdownify.markdownify(Document(html).summary(), heading_style="ATX"))

    return run


def _tool_mcp_fetch() -> Callable[[str, str], str]:
    from mcp_server_fetch.server import extract_content_from_html

    def run(html: str, url: str) -> str:
        return str(extract_content_from_html(html))

    return run


_FACTORIES: dict[str, Callable[[], Callable[[str, str], str]]] = {
    "webresearch": _tool_webresearch,
    "trafilatura": _tool_trafilatura,
    "readability": _tool_readability,
    "mcp-fetch": _tool_mcp_fetch,
}

_WORKER_TOOLS: dict[str, Callable[[str, str], str]] = {}


def _init_worker(names: tuple[str, ...]) -> None:
    """Import every tool once per worker and warm it up, so no page pays for imports."""
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    sys.setrecursionlimit(10_000)
    warm = (
        "<html><head><title>t</title></head><body><article><p>warm up " * 3
        + "</p></article></body></html>"
    )
    for name in names:
        tool = _FACTORIES[name]()
        with contextlib.suppress(Exception):  # a peer failing to warm up must not stop the run
            tool(warm, "https://example.org/")
        _WORKER_TOOLS[name] = tool


def _run_page(
    page: Page, names: tuple[str, ...], rotation: int
) -> tuple[Page, dict[str, ToolScore]]:
    """Run every tool on one page (order rotated per page) and score it."""
    scores: dict[str, ToolScore] = {}
    order = names[rotation % len(names) :] + names[: rotation % len(names)]
    for name in order:
        tool = _WORKER_TOOLS[name]
        start = time.perf_counter()
        try:
            output, error = tool(page.html, page.url), None
        except Exception as exc:  # record the crash and score the empty output
            output, error = "", f"{type(exc).__name__}: {exc}"[:200]
        ms = (time.perf_counter() - start) * 1000
        scores[name] = score_output(page, output, ms, error)
    return page, scores


def _run_page_star(
    args: tuple[Page, tuple[str, ...], int],
) -> tuple[str, str, dict[str, ToolScore]]:
    page, scores = _run_page(*args)
    return page.corpus, page.page_id, scores


# --------------------------------------------------------------------------- report


@dataclass(slots=True)
class Summary:
    """Aggregates of one tool on one corpus."""

    pages: int = 0
    scored: int = 0
    precision: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    f1: list[float] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    with_found: int = 0
    with_total: int = 0
    without_avoided: int = 0
    without_total: int = 0
    errors: int = 0

    def add(self, score: ToolScore) -> None:
        self.pages += 1
        self.ms.append(score.ms)
        self.errors += score.error is not None
        if score.f1 is not None and score.precision is not None and score.recall is not None:
            self.scored += 1
            self.precision.append(score.precision)
            self.recall.append(score.recall)
            self.f1.append(score.f1)
        self.with_found += score.with_found
        self.with_total += score.with_total
        self.without_avoided += score.without_avoided
        self.without_total += score.without_total


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def render_table(corpus: str, summaries: dict[str, Summary]) -> str:
    """A markdown table of one corpus, with ratios against the reference tool."""
    ref = summaries.get(REFERENCE_TOOL)
    ref_f1 = _mean(ref.f1) if ref else 0.0
    ref_ms = statistics.median(ref.ms) if ref and ref.ms else 0.0
    has_snippets = any(s.with_total or s.without_total for s in summaries.values())
    head = "| tool | pages | P | R | F1 | F1 vs traf | median ms | p95 ms | median vs traf |"
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    if has_snippets:
        head += " with found | without avoided |"
        rule += "---:|---:|"
    head += " errors |"
    rule += "---:|"
    lines = [f"### {corpus}", "", head, rule]
    for name, s in summaries.items():
        f1 = _mean(s.f1)
        med = statistics.median(s.ms) if s.ms else 0.0
        row = (
            f"| {name} | {s.pages} | {_mean(s.precision):.3f} | {_mean(s.recall):.3f} | {f1:.3f} "
            f"| {f1 / ref_f1 if ref_f1 else 0:.3f} | {med:.1f} | {_p95(s.ms):.1f} "
            f"| {med / ref_ms if ref_ms else 0:.2f} |"
        )
        if has_snippets:
            w = s.with_found / s.with_total if s.with_total else 0.0
            wo = s.without_avoided / s.without_total if s.without_total else 0.0
            row += f" {w:.3f} | {wo:.3f} |"
        row += f" {s.errors} |"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("zyte", "wcxb", "all"), default="all")
    parser.add_argument(
        "--corpus-dir",
        type=Path,
        default=REPO.parent / "shared" / "corpus",
        help="folder holding zyte-aeb/ and wcxb/ (default: ../shared/corpus)",
    )
    parser.add_argument("--limit", type=int, default=0, help="at most N pages per corpus (0: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--tools", default=",".join(TOOL_NAMES), help="comma-separated subset")
    parser.add_argument("--json", type=Path, help="also write per-page scores to this JSON file")
    args = parser.parse_args(argv)

    names = tuple(n.strip() for n in args.tools.split(",") if n.strip())
    unknown = [n for n in names if n not in _FACTORIES]
    if unknown:
        parser.error(f"unknown tool(s): {', '.join(unknown)}")
    corpora = ("zyte", "wcxb") if args.corpus == "all" else (args.corpus,)
    loaders = {"zyte": (load_zyte, "zyte-aeb"), "wcxb": (load_wcxb, "wcxb")}
    pages: list[Page] = []
    for corpus in corpora:
        loader, folder = loaders[corpus]
        if not (args.corpus_dir / folder).is_dir():
            parser.error(
                f"no {folder}/ under {args.corpus_dir}: pass --corpus-dir DIR (the folder holding zyte-aeb/ and wcxb/)"
            )
        loaded = list(loader(args.corpus_dir / folder))
        pages.extend(loaded[: args.limit] if args.limit else loaded)

    summaries = {c: {n: Summary() for n in names} for c in corpora}
    per_page: list[dict[str, object]] = []
    tasks = [(page, names, i) for i, page in enumerate(pages)]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_init_worker, initargs=(names,)) as pool:
            results = list(pool.map(_run_page_star, tasks, chunksize=4))
    else:
        _init_worker(names)
        results = [_run_page_star(t) for t in tasks]
    for corpus, page_id, scores in results:
        for name, score in scores.items():
            summaries[corpus][name].add(score)
        per_page.append(
            {
                "corpus": corpus,
                "id": page_id,
                **{
                    n: {
                        "f1": s.f1,
                        "p": s.precision,
                        "r": s.recall,
                        "ms": round(s.ms, 2),
                        "error": s.error,
                    }
                    for n, s in scores.items()
                },
            }
        )
    elapsed = time.perf_counter() - started

    print(
        f"extraction benchmark: {len(pages)} pages, tools: {', '.join(names)}, "
        f"jobs: {args.jobs}, wall {elapsed:.0f} s"
    )
    if "webresearch" in names:
        import webresearch.extract.html as ours

        print(f"webresearch from {Path(ours.__file__).resolve().parent}")
    print()
    for corpus in corpora:
        print(render_table(corpus, summaries[corpus]))
        print()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(per_page, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
