"""Reciprocal rank fusion of several providers' answers (issue 18 §2). Pure, no I/O.

Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): a result's score is
``Σ 1 / (k + rank)`` over the providers that returned it, ``rank`` counted from 1 in each
provider's (normalised) list, ``k`` = :data:`RRF_K` = 60 as in the paper. Results are the
same page when their URLs have the same :func:`~.normalize.dedupe_key` (scheme, host case,
default port, trailing slash, tracking parameters …).

Ties are broken by the best single rank, then by the order of the providers (the operator's
order), then by the rank there — so the fused list is deterministic. A fused result shows
the title, URL and snippet of its best-ranked occurrence (the operator's order breaks a tie),
the first date any provider gave, the engines of every occurrence, and the ids of every
provider that returned it (``providers``), in the operator's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .base import EngineFailure, Infobox, SearchResponse, SearchResult
from .dates import normalize_engines
from .normalize import dedupe_key

__all__ = ["RRF_K", "fuse", "rrf_scores"]

#: The RRF constant (the paper's k = 60; issue 18 §2).
RRF_K = 60


@dataclass
class _Entry:
    """One page across the providers' lists."""

    order: int  # where it was first seen (provider order, then rank): the last tie-break
    best: tuple[int, int]  # (rank, provider index) of its best occurrence
    result: SearchResult
    score: float = 0.0
    providers: list[str] = field(default_factory=list)
    engines: list[str] = field(default_factory=list)
    published: str = ""


def rrf_scores(
    answers: Sequence[tuple[str, SearchResponse]], k: int = RRF_K
) -> list[tuple[SearchResult, float]]:
    """Every distinct result of ``answers`` with its RRF score, best first.

    Args:
        answers: (provider id, normalised response) in the operator's order.
        k: the RRF constant.

    Returns:
        (fused result, score) pairs sorted by score, then best rank, then provider order.
    """
    entries: dict[str, _Entry] = {}
    for index, (provider, response) in enumerate(answers):
        for rank, result in enumerate(response.results, 1):
            key = dedupe_key(result.url)
            entry = entries.get(key)
            if entry is None:
                entry = entries[key] = _Entry(len(entries), (rank, index), result)
            elif (rank, index) < entry.best:
                entry.best, entry.result = (rank, index), result
            if provider in entry.providers:
                continue  # a provider's own duplicate counts once (normalisation drops it)
            entry.score += 1.0 / (k + rank)
            entry.providers.append(provider)
            entry.engines.extend(e for e in result.engine.split(",") if e.strip())
            entry.published = entry.published or result.published
    ranked = sorted(entries.values(), key=lambda e: (-e.score, e.best, e.order))
    return [
        (
            replace(
                e.result,
                providers=tuple(e.providers),
                engine=normalize_engines(",".join(e.engines)),
                published=e.result.published or e.published,
            ),
            e.score,
        )
        for e in ranked
    ]


def fuse(
    answers: Sequence[tuple[str, SearchResponse]], max_results: int, k: int = RRF_K
) -> SearchResponse:
    """One response from several providers' normalised responses.

    Args:
        answers: (provider id, normalised response) in the operator's order; at least one.
        max_results: most results kept.
        k: the RRF constant.

    Returns:
        the fused results (:func:`rrf_scores`, cut to ``max_results``); answers, infoboxes
        (one per source page) and suggestions of every provider, each once, in the
        operator's order; every
        unresponsive engine; the options any provider ignored; counts summed.
    """
    responses = [response for _, response in answers]
    results = tuple(result for result, _ in rrf_scores(answers, k)[:max_results])
    boxes: dict[str, Infobox] = {}  # one per source page (or per text, without a URL)
    for box in (b for r in responses for b in r.infoboxes):
        boxes.setdefault(dedupe_key(box.url) if box.url else f"{box.title}\n{box.text}", box)
    failures: list[EngineFailure] = []
    for response in responses:
        failures.extend(f for f in response.unresponsive_engines if f not in failures)
    return SearchResponse(
        results=results,
        answers=_each_once(a for r in responses for a in r.answers),
        infoboxes=tuple(boxes.values()),
        suggestions=_each_once(s for r in responses for s in r.suggestions),
        unresponsive_engines=tuple(failures),
        raw_count=sum(r.raw_count for r in responses),
        ignored=_each_once(i for r in responses for i in r.ignored),
        hidden_chars_removed=sum(r.hidden_chars_removed for r in responses),
    )


def _each_once(items: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return tuple(out)
