"""Compare two ``bench/extraction.py --json`` runs on two halves of the dev part.

A rule tuned on every dev page can fit those pages and not unseen ones (session 17: WCXB
collection 0.739 on dev, 0.608 held out). So: split the dev pages of each type into two
halves by page id — half A where ``md5(id)`` is even, half B where it is odd —, study and
tune on half A only, then read half B as a check. A rule is kept when it helps on both
halves (or is neutral on B for a reason from how pages are built).

Usage::

    python bench/dev_halves.py before.json after.json --types collection,service
    python bench/dev_halves.py before.json after.json --list A --top 20

Prints, per corpus, page type and half: pages, mean F1 before and after, the change, the
pages up and down, and ours − trafilatura after (when ``after`` holds trafilatura's
scores). ``--list A`` lists the pages of half A that moved most (never list half B's pages
while tuning: reading them is studying them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

#: A change smaller than this (the JSON's rounding) is no change.
EPSILON = 1e-4


def half_of(page_id: str) -> str:
    """``"A"`` when the md5 of ``page_id`` is even, else ``"B"``."""
    return "A" if int(hashlib.md5(page_id.encode()).hexdigest(), 16) % 2 == 0 else "B"


@dataclass(slots=True)
class Group:
    """Sums over one corpus, page type and half."""

    pages: int = 0
    before: float = 0.0
    after: float = 0.0
    up: int = 0
    down: int = 0
    reference: float = 0.0
    referenced: int = 0


def _load(path: Path) -> dict[tuple[str, str], dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))
    return {(str(r["corpus"]), str(r["id"])): r for r in rows}


def _f1(row: dict[str, object], tool: str) -> float | None:
    scores = row.get(tool)
    if not isinstance(scores, dict):
        return None
    value = scores.get("f1")
    return float(value) if isinstance(value, int | float) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Two extraction runs on two halves of dev.")
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--part", default="dev")
    parser.add_argument("--tool", default="webresearch")
    parser.add_argument("--reference", default="trafilatura")
    parser.add_argument("--types", default="", help="only these comma-separated page types")
    parser.add_argument("--list", default="", help="list the moved pages of this half (A)")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    types = {t for t in args.types.split(",") if t}
    before, after = _load(args.before), _load(args.after)
    groups: dict[tuple[str, str, str], Group] = defaultdict(Group)
    moves: list[tuple[float, str, str, str]] = []
    for key, row in before.items():
        other = after.get(key)
        if other is None or row.get("part") != args.part:
            continue
        page_type = str(row.get("type"))
        if types and page_type not in types:
            continue
        old, new = _f1(row, args.tool), _f1(other, args.tool)
        if old is None or new is None:
            continue
        half = half_of(key[1])
        group = groups[(key[0], page_type, half)]
        group.pages += 1
        group.before += old
        group.after += new
        group.up += new > old + EPSILON
        group.down += new < old - EPSILON
        reference = _f1(other, args.reference)
        if reference is not None:
            group.reference += reference
            group.referenced += 1
        if half in args.list and abs(new - old) > EPSILON:
            moves.append((new - old, key[1], page_type, half))
    print(
        f"{'corpus/type/half':30} {'n':>4} {'before':>7} {'after':>7} {'delta':>8}  up down  vs ref"
    )
    for (corpus, page_type, half), g in sorted(groups.items()):
        ref = f"{(g.after - g.reference) / g.referenced:+.4f}" if g.referenced else "-"
        print(
            f"{corpus + '/' + page_type + '/' + half:30} {g.pages:4} {g.before / g.pages:7.4f} "
            f"{g.after / g.pages:7.4f} {(g.after - g.before) / g.pages:+8.4f} {g.up:4} {g.down:4}  {ref}"
        )
    if args.list:
        moves.sort()
        down = [m for m in moves if m[0] < 0][: args.top]
        print("down:", *(f"{p} {t} {h} {d:+.3f}" for d, p, t, h in down), sep="\n  ")
        up = [m for m in moves[::-1] if m[0] > 0][: args.top]
        print("up:", *(f"{p} {t} {h} {d:+.3f}" for d, p, t, h in up), sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
