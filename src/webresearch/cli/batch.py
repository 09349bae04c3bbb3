"""Batches for ``fetch`` and ``image``: many inputs, bounded concurrency, output in input order.

Pure parts (tested without sockets): :func:`read_targets` (the inputs from arguments and
``-i`` lines), :class:`InOrder` (results released in input order as soon as every earlier
one is in), :func:`batch_exit_code`, :func:`json_line`. :func:`run_batch` is the I/O: it
runs one coroutine per input under a semaphore and shows a progress bar (tqdm, on stderr,
only for a person at a terminal and more than :data:`PROGRESS_MIN_ITEMS` inputs).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

import click

from webresearch import ToolResult

from .render import EXIT_OK, exit_code_for, result_dict

__all__ = [
    "DEFAULT_CONCURRENCY",
    "PROGRESS_MIN_ITEMS",
    "InOrder",
    "batch_exit_code",
    "concurrency_option",
    "json_line",
    "read_targets",
    "run_batch",
]

#: Calls at once when ``--concurrency`` is not given.
DEFAULT_CONCURRENCY = 4
#: A progress bar appears for more inputs than this (and only when stderr is a terminal).
PROGRESS_MIN_ITEMS = 3

T = TypeVar("T")


F = TypeVar("F", bound=Callable[..., Any])


def concurrency_option(what: str) -> Callable[[F], F]:
    """``--concurrency N`` (1–32, default :data:`DEFAULT_CONCURRENCY`): ``what`` at once."""
    return click.option(
        "--concurrency",
        type=click.IntRange(1, 32),
        default=DEFAULT_CONCURRENCY,
        show_default=True,
        help=f"{what} at once in a batch.",
    )


def read_targets(arguments: Sequence[str], lines: Iterable[str] = ()) -> list[str]:
    """The inputs of a batch: the arguments, then one per line of ``-i``'s text.

    Blank lines and lines starting with ``#`` are skipped; surrounding spaces are removed.
    Duplicates are kept (the output has one line per input, in order).
    """
    out = list(arguments)
    for line in lines:
        item = line.strip()
        if item and not item.startswith("#"):
            out.append(item)
    return out


class InOrder(Generic[T]):
    """Collects results that finish in any order and releases them in input order.

    ``put(index, item)`` returns the items that may be printed now: the one at the next
    index to release and every consecutive one already in.
    """

    def __init__(self) -> None:
        self._waiting: dict[int, T] = {}
        self._next = 0

    def put(self, index: int, item: T) -> list[T]:
        """Record ``item`` (input number ``index``, from 0); the items now releasable."""
        self._waiting[index] = item
        ready = []
        while self._next in self._waiting:
            ready.append(self._waiting.pop(self._next))
            self._next += 1
        return ready


def batch_exit_code(results: Iterable[ToolResult]) -> int:
    """0 when every call succeeded, else the exit code of the first failure in input order
    (1 tool error, 2 usage, 3 refused by policy)."""
    for result in results:
        if result.error is not None:
            return exit_code_for(result.error)
    return EXIT_OK


def json_line(target: str, result: ToolResult, *, hint: str | None = None, **extra: Any) -> str:
    """One JSON Lines record: ``{"input": target, "ok": …, "text": …, "meta": …,
    "error": {"code", "message", …} | null, …extra}``, on one line (no indentation);
    ``hint``: the command's own next step after an error (:func:`.render.result_dict`)."""
    data = {"input": target, **result_dict(result, hint), **extra}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def _progress_bar(total: int, label: str) -> Any:
    if total <= PROGRESS_MIN_ITEMS or not sys.stderr.isatty():
        return None
    from tqdm import tqdm  # only when a bar is shown: a person at a terminal

    return tqdm(total=total, desc=label, unit="url", file=sys.stderr, leave=False)


async def run_batch(
    targets: Sequence[str],
    call: Callable[[str], Awaitable[T]],
    emit: Callable[[int, str, T], None],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    label: str = "",
) -> list[T]:
    """Run ``call(target)`` for every target, at most ``concurrency`` at once.

    ``emit(index, target, item)`` is called in input order as soon as an item and all
    earlier ones are done (printing streams; a slow first URL holds back the later lines).

    Returns:
        The items in input order.
    """
    gate = asyncio.Semaphore(max(1, concurrency))
    order: InOrder[tuple[int, str, T]] = InOrder()
    items: dict[int, T] = {}
    bar = _progress_bar(len(targets), label)

    async def one(index: int, target: str) -> None:
        async with gate:
            item = await call(target)
        items[index] = item
        if bar is not None:
            bar.update(1)
        for ready in order.put(index, (index, target, item)):
            if bar is not None:
                bar.clear()
            emit(*ready)
            if bar is not None:
                bar.refresh()

    try:
        async with asyncio.TaskGroup() as group:
            for index, target in enumerate(targets):
                group.create_task(one(index, target))
    finally:
        if bar is not None:
            bar.close()
    return [items[i] for i in range(len(targets))]
