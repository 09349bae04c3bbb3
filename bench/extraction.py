"""Extraction quality and speed: webresearch's HTML → markdown against peers, in one run.

Tools compared on the same pages, in the same worker process, one page at a time (the order
of the tools is rotated from page to page, so none always runs on a warm cache):

* ``webresearch`` — :func:`webresearch.extract.html.html_to_markdown`, the markdown body
  ``web_fetch`` hands the model;
* ``trafilatura`` — ``trafilatura.extract(html, output_format="markdown", url=url)``, default
  settings (the reference for every ratio);
* ``readability`` — readability-lxml ``Document(html).summary()`` then ``markdownify``;
* ``mcp-fetch`` — the reference MCP fetch server's ``extract_content_from_html`` (PyPI
  ``mcp-server-fetch``, imported, not copied).

Corpora (``--corpus-dir``, default ``../shared/corpus`` relative to the repository):

* ``zyte`` — ``zyte-aeb/``: article pages, ground truth ``articleBody`` (page type
  ``article``);
* ``wcxb`` — ``wcxb/``: pages of 7 types (``metadata.json``), ground truth ``main_content``
  plus ``with`` snippets (must be found) and ``without`` snippets (boilerplate to avoid).

**Held-out part.** A page is *held out* when the SHA-256 of ``"<corpus>/<page id>"`` (UTF-8),
read as a big-endian integer, is divisible by 5 — about a fifth of each corpus, fixed for
ever and independent of the page order. Development looks only at the other four fifths
(``--part dev``); the report shows both parts side by side (``--part all``, the default).

**Scoring** is ``bench/metrics.py``, a verbatim copy of the shared ``eval/metrics.py``, and is
the same for every tool: the output goes through ``normalize_markdown`` (image alt text and
link text are kept, link and image targets dropped: what the model reads counts), then word
precision / recall / F1 (``word_prf``) against the ground truth, averaged over pages; snippet
rates with ``snippet_rate``. Time is the wall clock of the extraction call alone
(``time.perf_counter``); the tables show the median and the 90th percentile per page and their
ratios to trafilatura's in the same run.

**Markdown validity**: every webresearch output is parsed with markdown-it-py (CommonMark
plus GFM tables); a page counts as invalid when parsing raises, or when a code fence opened in
the output is never closed (the rest of the page would read as code).

Usage::

    .venv/bin/python bench/extraction.py --jobs 2 --json bench/results/extraction.json
    .venv/bin/python bench/extraction.py --corpus wcxb --part dev --tools webresearch,trafilatura
    .venv/bin/python bench/extraction.py --corpus wcxb --types forum,product --limit 40
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import logging
import math
import os
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

import metrics  # noqa: E402  (bench/metrics.py, the shared scoring, unchanged)

#: Tool names in table order; trafilatura is the reference for the ratios.
TOOL_NAMES = ("webresearch", "trafilatura", "readability", "mcp-fetch")
REFERENCE_TOOL = "trafilatura"
PAGE_TYPES = ("article", "documentation", "service", "forum", "listing", "product", "collection")
PARTS = ("dev", "held-out")


def _default_corpus_dir() -> Path:
    """``shared/corpus`` beside the repository or beside a folder holding it (worktrees)."""
    for folder in REPO.parents:
        if (folder / "shared" / "corpus").is_dir():
            return folder / "shared" / "corpus"
    return REPO.parent / "shared" / "corpus"


def part_of(corpus: str, page_id: str) -> str:
    """``held-out`` for about a fifth of the pages (module docstring), else ``dev``."""
    digest = hashlib.sha256(f"{corpus}/{page_id}".encode()).digest()
    return "held-out" if int.from_bytes(digest, "big") % 5 == 0 else "dev"


@dataclass(frozen=True, slots=True)
class Page:
    """One corpus page: its HTML (decoded as UTF-8) and its ground truth."""

    corpus: str
    page_id: str
    page_type: str
    url: str
    html: str
    truth: str
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()

    @property
    def part(self) -> str:
        return part_of(self.corpus, self.page_id)


@dataclass(slots=True)
class ToolScore:
    """One tool's result on one page."""

    ms: float
    precision: float
    recall: float
    f1: float
    with_rate: float | None = None
    without_rate: float | None = None  # share of ``without`` snippets present (lower: better)
    valid: bool = True
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
        yield Page(
            "zyte", page_id, "article", entry.get("url") or "", html, entry.get("articleBody") or ""
        )


def load_wcxb(root: Path) -> Iterator[Page]:
    """Pages of the wcxb corpus (``html/<id>.html.gz`` + ``ground-truth/<id>.json.gz``)."""
    types = {
        k: v.get("page_type") or "article"
        for k, v in json.loads((root / "metadata.json").read_text(encoding="utf-8"))[
            "files"
        ].items()
    }
    for gt_path in sorted((root / "ground-truth").glob("*.json.gz")):
        page_id = gt_path.name.split(".")[0]
        record = json.loads(gzip.decompress(gt_path.read_bytes()))
        truth = record.get("ground_truth") or {}
        html = _read_gz_text(root / "html" / f"{page_id}.html.gz")
        yield Page(
            "wcxb",
            page_id,
            types.get(page_id, "article"),
            record.get("url") or "",
            html,
            truth.get("main_content") or "",
            tuple(s for s in truth.get("with") or () if s),
            tuple(s for s in truth.get("without") or () if s),
        )


# --------------------------------------------------------------------------- scoring


_QUOTE_PREFIX = re.compile(r"^(?:\s*>)*\s*")


def markdown_is_valid(text: str) -> bool:
    """True when markdown-it-py parses ``text`` and every code fence it opens is closed."""
    from markdown_it import MarkdownIt

    try:
        tokens = MarkdownIt("commonmark").enable("table").parse(text)
    except Exception:
        return False
    lines = text.split("\n")
    for token in tokens:
        if token.type != "fence" or token.map is None:
            continue
        end = token.map[1]
        # the closing line, without the blockquote markers of a fence inside a quote
        last = _QUOTE_PREFIX.sub("", lines[end - 1]) if 0 < end <= len(lines) else ""
        if end - token.map[0] < 2 or not last.startswith(token.markup):
            return False  # a fence that runs to the end of the page unclosed
    return True


def score_output(
    page: Page, output: str, ms: float, check_markdown: bool, error: str | None = None
) -> ToolScore:
    """Score one tool output against the page's ground truth with ``bench/metrics.py``."""
    text = metrics.normalize_markdown(output)
    precision, recall, f1 = metrics.word_prf(text, page.truth)
    without = metrics.snippet_rate(text, page.without_snippets)
    return ToolScore(
        ms,
        precision,
        recall,
        f1,
        with_rate=metrics.snippet_rate(text, page.with_snippets),
        without_rate=without,
        valid=markdown_is_valid(output) if check_markdown else True,
        error=error,
    )


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
    page: Page, names: tuple[str, ...], rotation: int, outputs: Path | None
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
        scores[name] = score_output(page, output, ms, name == "webresearch", error)
        if outputs is not None:
            folder = outputs / name
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{page.corpus}-{page.page_id}.md").write_text(output, encoding="utf-8")
    return page, scores


def _run_page_star(
    args: tuple[Page, tuple[str, ...], int, Path | None],
) -> tuple[str, str, str, str, dict[str, ToolScore]]:
    page, scores = _run_page(*args)
    return page.corpus, page.page_id, page.page_type, page.part, scores


# --------------------------------------------------------------------------- report


@dataclass(slots=True)
class Summary:
    """Aggregates of one tool on one group of pages."""

    precision: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    f1: list[float] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    with_rates: list[float] = field(default_factory=list)
    without_rates: list[float] = field(default_factory=list)
    invalid: int = 0
    errors: int = 0

    def add(self, score: ToolScore) -> None:
        self.precision.append(score.precision)
        self.recall.append(score.recall)
        self.f1.append(score.f1)
        self.ms.append(score.ms)
        if score.with_rate is not None:
            self.with_rates.append(score.with_rate)
        if score.without_rate is not None:
            self.without_rates.append(score.without_rate)
        self.invalid += not score.valid
        self.errors += score.error is not None


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def _pct(values: list[float], q: float) -> float:
    return metrics.percentile(sorted(values), q)


def _cell(value: float, spec: str = ".2f") -> str:
    """A figure against the reference tool, or "–" when that tool was not run (NaN)."""
    return "–" if math.isnan(value) else format(value, spec)


def render_table(title: str, summaries: dict[str, Summary]) -> str:
    """A markdown table of one group of pages, ratios against the reference tool."""
    ref = summaries.get(REFERENCE_TOOL)
    ref_f1 = _mean(ref.f1) if ref else float("nan")
    ref_med = _pct(ref.ms, 0.5) if ref else float("nan")
    ref_p90 = _pct(ref.ms, 0.9) if ref else float("nan")
    snippets = any(s.with_rates for s in summaries.values())
    head = "| tool | pages | P | R | F1 | F1 − traf | median ms | × traf | p90 ms | × traf |"
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    if snippets:
        head += " with found | without kept |"
        rule += "---:|---:|"
    head += " invalid md | errors |"
    rule += "---:|---:|"
    lines = [f"#### {title}", "", head, rule]
    for name, s in summaries.items():
        f1 = _mean(s.f1)
        med, p90 = _pct(s.ms, 0.5), _pct(s.ms, 0.9)
        row = (
            f"| {name} | {len(s.f1)} | {_mean(s.precision):.3f} | {_mean(s.recall):.3f} "
            f"| {f1:.3f} | {_cell(f1 - ref_f1, '+.3f')} | {med:.1f} | {_cell(med / ref_med)} "
            f"| {p90:.1f} | {_cell(p90 / ref_p90)} |"
        )
        if snippets:
            row += f" {_mean(s.with_rates):.3f} | {_mean(s.without_rates):.3f} |"
        row += f" {s.invalid if name == 'webresearch' else '–'} | {s.errors} |"
        lines.append(row)
    return "\n".join(lines)


def render_types(title: str, groups: dict[str, dict[str, Summary]], names: tuple[str, ...]) -> str:
    """One row per page type: each tool's F1 (and ours against trafilatura's)."""
    head = "| page type | pages | " + " | ".join(f"{n} F1" for n in names)
    rule = "|---|---:|" + "---:|" * len(names)
    if "webresearch" in names and REFERENCE_TOOL in names:
        head += " | ours − traf | ours P | ours R"
        rule += "---:|---:|---:|"
    lines = [f"#### {title}", "", head + " |", rule]
    for page_type in PAGE_TYPES:
        group = groups.get(page_type)
        if not group:
            continue
        n = len(next(iter(group.values())).f1)
        row = f"| {page_type} | {n} | " + " | ".join(f"{_mean(group[t].f1):.3f}" for t in names)
        if "webresearch" in names and REFERENCE_TOOL in names:
            ours = group["webresearch"]
            delta = _mean(ours.f1) - _mean(group[REFERENCE_TOOL].f1)
            row += f" | {delta:+.3f} | {_mean(ours.precision):.3f} | {_mean(ours.recall):.3f}"
        lines.append(row + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="The held-out rule, the scoring and the validity check: see the module docstring.",
    )
    parser.add_argument("--corpus", choices=("zyte", "wcxb", "all"), default="all")
    parser.add_argument(
        "--corpus-dir",
        type=Path,
        default=_default_corpus_dir(),
        help="folder holding zyte-aeb/ and wcxb/ (default: the nearest shared/corpus above "
        "the repository)",
    )
    parser.add_argument(
        "--part",
        choices=("dev", "held-out", "all"),
        default="all",
        help="dev: the four fifths used while developing; held-out: the other fifth",
    )
    parser.add_argument("--types", default="", help="only these comma-separated page types")
    parser.add_argument("--limit", type=int, default=0, help="at most N pages per corpus (0: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--tools", default=",".join(TOOL_NAMES), help="comma-separated subset")
    parser.add_argument("--json", type=Path, help="also write per-page scores to this JSON file")
    parser.add_argument("--outputs", type=Path, help="also write every output to DIR/<tool>/")
    args = parser.parse_args(argv)

    names = tuple(n.strip() for n in args.tools.split(",") if n.strip())
    unknown = [n for n in names if n not in _FACTORIES]
    if unknown:
        parser.error(f"unknown tool(s): {', '.join(unknown)}")
    wanted_types = {t.strip() for t in args.types.split(",") if t.strip()}
    corpora = ("zyte", "wcxb") if args.corpus == "all" else (args.corpus,)
    loaders = {"zyte": (load_zyte, "zyte-aeb"), "wcxb": (load_wcxb, "wcxb")}
    pages: list[Page] = []
    for corpus in corpora:
        loader, folder = loaders[corpus]
        if not (args.corpus_dir / folder).is_dir():
            parser.error(
                f"no {folder}/ under {args.corpus_dir}: pass --corpus-dir DIR "
                "(the folder holding zyte-aeb/ and wcxb/)"
            )
        loaded = [
            p
            for p in loader(args.corpus_dir / folder)
            if (args.part == "all" or p.part == args.part)
            and (not wanted_types or p.page_type in wanted_types)
        ]
        pages.extend(loaded[: args.limit] if args.limit else loaded)

    tasks = [(page, names, i, args.outputs) for i, page in enumerate(pages)]
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_init_worker, initargs=(names,)) as pool:
            results = list(pool.map(_run_page_star, tasks, chunksize=2))
    else:
        _init_worker(names)
        results = [_run_page_star(t) for t in tasks]
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()[0]

    def new_group() -> dict[str, Summary]:
        return {n: Summary() for n in names}

    by_part: dict[tuple[str, str], dict[str, Summary]] = {}
    by_type: dict[str, dict[str, dict[str, Summary]]] = {}
    per_page: list[dict[str, object]] = []
    for corpus, page_id, page_type, part, scores in results:
        for key in ((corpus, part), (corpus, "all")):
            group = by_part.setdefault(key, new_group())
            for name, score in scores.items():
                group[name].add(score)
        if corpus == "wcxb":
            for p in (part, "all"):
                group = by_type.setdefault(p, {}).setdefault(page_type, new_group())
                for name, score in scores.items():
                    group[name].add(score)
        per_page.append(
            {
                "corpus": corpus,
                "id": page_id,
                "type": page_type,
                "part": part,
                **{
                    n: {
                        "f1": round(s.f1, 4),
                        "p": round(s.precision, 4),
                        "r": round(s.recall, 4),
                        "ms": round(s.ms, 2),
                        "valid": s.valid,
                        "error": s.error,
                    }
                    for n, s in scores.items()
                },
            }
        )

    print(
        f"extraction benchmark: {len(pages)} pages, tools: {', '.join(names)}, "
        f"part: {args.part}, jobs: {args.jobs}, wall {elapsed:.0f} s"
    )
    print(
        f"load average (1 min) {load_before:.1f} at the start, {load_after:.1f} at the end, "
        f"on {os.cpu_count()} cores"
    )
    if "webresearch" in names:
        import webresearch.extract.html as ours

        print(f"webresearch from {Path(ours.__file__).resolve().parent}")
    print()
    parts = PARTS if args.part == "all" else (args.part,)
    for corpus in corpora:
        print(f"### {corpus}\n")
        for part in (*parts, "all") if args.part == "all" else parts:
            group = by_part.get((corpus, part))
            if group:
                print(render_table(f"{corpus} — {part}", group))
                print()
        if corpus == "wcxb":
            for part in (*parts, "all") if args.part == "all" else parts:
                if part in by_type:
                    print(render_types(f"wcxb page types — {part}", by_type[part], names))
                    print()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(per_page, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
