"""Concurrency and latency of web_fetch (issue 14), measured in one run.

A loopback server (a separate ``python -m http.server`` process, so it never competes for
our GIL) serves generated article pages of 100 KB, 1 MB and 2 MB. The full tool runs
(``Toolkit.call("web_fetch")``: SQLite journal in a temporary directory, cache off) in two
modes of the same code:

* ``pool``   — the default: conversion in the CPU worker pool (``cpu_workers`` = cores);
* ``inline`` — ``cpu_workers = 0``: conversion on the event loop (what ``main`` did before).

Every part is repeated ``--reps`` times (default 3), the repetitions interleaved (the order
of the cases alternates), and medians are reported.

A. ``lag``: event-loop lag (a 10 ms ticker beside the calls: max and p99 of its lateness)
   and calls/s, at concurrency 1 and 32, per page size. Targets: max lag ≤ 50 ms at every
   size (pool); calls/s at c=32 ≥ 1.6 × c=1 on 2 cores for 1 MB pages. Three columns tell
   our stalls from a loaded machine's, from the loop thread's own scheduler statistics
   (``/proc/self/task/<tid>/schedstat``) over each tick: ``unqueued`` is the worst
   lateness minus the time the loop's thread waited in the run queue for a CPU (what is
   left is our code on the loop, or waiting for the GIL or a lock); ``on CPU`` the worst
   lateness during which the thread ran; ``ctl`` the worst lateness of the same ticker in
   an idle control process during the same batch (the OS scheduler alone).
B. ``peer``: full web_fetch vs the reference MCP fetch server's pure-Python path
   (``mcp_server_fetch.server.fetch_url``: httpx GET + readabilipy without Node +
   markdownify; the ``bench`` extra), same page, calls/s at c=1 and c=4. Target ≥ 3×.
C. ``ping``: MCP ``ping`` round trips while 32 web_fetch calls of 1 MB pages are in flight
   (``webresearch mcp`` over stdio, a child process); the pool and ``cpu_workers = 0``
   servers run side by side, their batches interleaved. Target p99 ≤ 100 ms.
D. ``memory``: 100 concurrent web_fetch calls of 2 MiB pages with the default 30 s call
   budget: peak RSS of this process and of the workers, calls done / timed out, wall
   time. HTML articles (more than two cores convert in 30 s: the rest must end in
   ``timeout`` within their budget, memory bounded) and 2 MiB text files (every call
   completes). Bounded in time by the budget.
E. ``kinds``: which pool: the same jobs in-process one after another, in 2 threads, and in
   the 2-process pool — HTML → markdown of 1 MB pages (pure Python: threads only add GIL
   hand-offs) and image preparation of a 12-megapixel JPEG (Pillow releases the GIL).
F. ``json``: what parsing a search provider's answer costs on the loop (``json_object``,
   the one parser of every provider and hosted reader), for answers of realistic shapes
   up to the 4 MiB cap.
G. ``cpu``: CPU seconds per 1 MB web_fetch call in this process (the event loop's) and in
   the workers (``/proc/<pid>/stat``), and the ceiling of (b) they imply when the call is
   CPU-bound and nothing else runs: a load-independent check of the split (b) measures.

    .venv/bin/python bench/concurrency.py                 # everything, 3 repetitions
    .venv/bin/python bench/concurrency.py --parts lag,peer --sizes 1M
    .venv/bin/python bench/concurrency.py --parts kinds,json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webresearch import Settings, Toolkit

SIZES = {"100K": 100_000, "1M": 1_000_000, "2M": 2 * 1024 * 1024 - 4096}
TICK_S = 0.010
CONCURRENCY = (1, 32)
#: The reference converts a 1 MB page in seconds on its event loop: 32 of its calls at once
#: measure nothing more than 4 do (its loop serialises them), and take minutes.
PEER_CONCURRENCY = (1, 4)
UA = "bench"


# --- pages and the loopback server ---------------------------------------------------------------
_TEXT = (
    "the of and to in is that for it as was with be by on not this are or from at which but "
    "have an they you were there one all we their has been if more when will would who so no "
    "data page model agent network server request response cache journal browser image search"
)
_WORDS = _TEXT.split()


def article(size: int, seed: int = 14) -> bytes:
    """A deterministic article page of about ``size`` bytes: navigation, headings,
    paragraphs with links, lists, tables, code blocks and a footer."""
    rng = random.Random(seed)

    def sentence() -> str:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 24))]
        return " ".join(words).capitalize() + "."

    head = (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>A long article</title>"
        "</head><body><header><nav><ul>"
        + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(30))
        + "</ul></nav></header><main><article><h1>A long article</h1>"
    )
    tail = (
        "</article></main><footer><p>Copyright</p>"
        + "".join(f'<a href="/f{i}">Footer {i}</a>' for i in range(20))
        + "</footer></body></html>"
    )
    parts, total, i = [head], len(head) + len(tail), 0
    while True:
        i += 1
        section = [f"<h2>Part {i}</h2>"]
        for _ in range(4):
            text = " ".join(sentence() for _ in range(rng.randint(2, 5)))
            section.append("<p>" + text.replace(" data ", ' <a href="/d">data</a> ', 1) + "</p>")
        if i % 3 == 0:
            section.append("<ul>" + "".join(f"<li>{sentence()}</li>" for _ in range(5)) + "</ul>")
        if i % 5 == 0:
            rows = "".join(
                f"<tr><td>{rng.random():.3f}</td><td>{rng.choice(_WORDS)}</td></tr>"
                for _ in range(6)
            )
            section.append(f"<table><tr><th>a</th><th>b</th></tr>{rows}</table>")
        if i % 7 == 0:
            section.append("<pre><code>for x in range(10):\n    print(x)\n</code></pre>")
        chunk = "".join(section)
        if total + len(chunk) > size:
            break
        parts.append(chunk)
        total += len(chunk)
    parts.append(tail)
    return "".join(parts).encode()


def text_file(size: int, seed: int = 14) -> bytes:
    """A deterministic plain-text file of about ``size`` bytes (lines of words)."""
    rng = random.Random(seed)
    lines, total = [], 0
    while total < size - 200:
        line = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 24))) + "\n"
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()


@contextlib.contextmanager
def loopback_server(pages: dict[str, bytes]) -> Iterator[str]:
    """``python -m http.server`` on 127.0.0.1 (a free port) serving ``pages``; yields the base URL."""
    with tempfile.TemporaryDirectory() as root:
        for name, body in pages.items():
            Path(root, name).write_bytes(body)
        proc = subprocess.Popen(
            [
                sys.executable,
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
                root,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().decode()
            port = re.search(r"port (\d+)", line)
            if port is None:
                raise RuntimeError(f"http.server did not start: {line!r}")
            yield f"http://127.0.0.1:{port.group(1)}"
        finally:
            proc.terminate()
            proc.wait(timeout=10)


# --- measuring --------------------------------------------------------------------------------------
def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


@dataclass
class Run:
    """One batch of calls: wall time, calls, the ticker's lateness samples (s), the part of
    each during which the loop's thread ran (s), and the control ticker's max lateness (s)."""

    calls: int
    wall_s: float
    lags: list[float] = field(default_factory=list)
    failures: int = 0
    held: list[float] = field(default_factory=list)
    control_max_s: float = 0.0
    unqueued: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Successful calls per second."""
        return (self.calls - self.failures) / self.wall_s

    @property
    def max_lag_ms(self) -> float:
        return max(self.lags, default=0.0) * 1000

    @property
    def p99_lag_ms(self) -> float:
        return pct(self.lags, 99) * 1000

    @property
    def max_held_ms(self) -> float:
        return max(self.held, default=0.0) * 1000

    @property
    def max_unqueued_ms(self) -> float:
        return max(self.unqueued, default=0.0) * 1000


def schedstat() -> tuple[float, float]:
    """(seconds on a CPU, seconds waiting in the run queue) of the calling thread so far."""
    with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as fh:
        on_cpu, queued, _slices = fh.read().split()
    return int(on_cpu) / 1e9, int(queued) / 1e9


#: The same 10 ms ticker in an idle process: its lateness is the OS scheduler's alone. It
#: ticks until its stdin closes, then prints its max lateness (seconds).
CONTROL_TICKER = """
import sys, threading, time
tick = float(sys.argv[1])
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
worst = 0.0
while not stop.is_set():
    started = time.perf_counter()
    time.sleep(tick)
    worst = max(worst, time.perf_counter() - started - tick)
print(worst)
"""


@contextlib.contextmanager
def control_ticker(out: list[float]) -> Iterator[None]:
    """Runs :data:`CONTROL_TICKER` for the duration of the block; its max lateness → ``out``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CONTROL_TICKER, str(TICK_S)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield
    finally:
        stdout, _ = proc.communicate("", timeout=30)
        out.append(float(stdout.strip() or 0.0))


async def batch(call: Callable[[], Awaitable[bool]], calls: int, concurrency: int) -> Run:
    """``calls`` calls, ``concurrency`` at a time, with a 10 ms ticker measuring the loop's lag."""
    lags: list[float] = []
    held: list[float] = []
    unqueued: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            started, (cpu, queued) = time.perf_counter(), schedstat()
            await asyncio.sleep(TICK_S)
            late = max(0.0, time.perf_counter() - started - TICK_S)
            cpu_after, queued_after = schedstat()
            lags.append(late)
            held.append(min(late, cpu_after - cpu))
            unqueued.append(max(0.0, late - (queued_after - queued)))

    queue = list(range(calls))
    failures = 0

    async def worker() -> None:
        nonlocal failures
        while queue:
            queue.pop()
            if not await call():
                failures += 1

    control: list[float] = []
    with control_ticker(control):
        tick = asyncio.create_task(ticker())
        await asyncio.sleep(TICK_S * 2)  # the ticker is running before the first call
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - started
        done.set()
        await tick
    return Run(calls, wall, lags, failures, held, control[0], unqueued)


#: Seconds per call: generous, so a queue of 32 conversions on a busy machine measures
#: throughput, not the default 30 s budget (a timed-out call is counted as a failure).
CALL_TIMEOUT_S = 300


def settings_for(tmp: str, **changes: Any) -> Settings:
    values: dict[str, Any] = {
        "environ": {},
        "allowed_networks": ["127.0.0.0/8"],
        "journal_url": f"sqlite:///{tmp}/journal-{len(changes)}-{os.getpid()}.sqlite3",
        "search_provider": "none",
        "render": "never",
        "fetch_cache_size": 0,
        "request_timeout_s": CALL_TIMEOUT_S,
    }
    return Settings.load(**(values | changes))


def ours(toolkit: Toolkit, url: str) -> Callable[[], Awaitable[bool]]:
    async def call() -> bool:
        result = await toolkit.call("web_fetch", {"url": url})
        return result.ok

    return call


def reference(url: str) -> Callable[[], Awaitable[bool]]:
    """The reference MCP fetch server's fetch path, its pure-Python extraction forced."""
    import readabilipy.simple_json
    from mcp_server_fetch.server import fetch_url

    simple_json = readabilipy.simple_json.simple_json_from_html_string

    def python_path(html: str, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("use_readability", None)  # never Node's Readability.js
        return simple_json(html, *args, use_readability=False, **kwargs)

    readabilipy.simple_json.simple_json_from_html_string = python_path

    async def call() -> bool:
        try:
            text, _prefix = await fetch_url(url, UA, allow_private_ips=True)
        except Exception:  # its ToolError: e.g. connect timeouts while its loop converts
            return False
        return bool(text)

    return call


# --- parts --------------------------------------------------------------------------------------
async def part_lag(base: str, sizes: list[str], reps: int, calls1: int, tmp: str) -> None:
    print("\nA. event-loop lag and throughput (full web_fetch, cache off)")
    async with (
        Toolkit(settings_for(tmp)) as pooled,
        Toolkit(settings_for(tmp, cpu_workers=0)) as inline,
    ):
        print(f"   pool: {pooled.services.cpu.describe()}")
        for tk in (pooled, inline):  # warm: workers started, imports done
            assert (await tk.call("web_fetch", {"url": f"{base}/100K.html"})).ok
        results: dict[tuple[str, str, int], list[Run]] = {}
        plan = [(s, m, c) for s in sizes for m in ("pool", "inline") for c in CONCURRENCY]
        # in-process conversion serialises everything: c=32 is measured at 1 MB only
        plan = [(s, m, c) for s, m, c in plan if not (m == "inline" and c == 32 and s != "1M")]
        for rep in range(reps):
            for size, mode, conc in plan if rep % 2 == 0 else plan[::-1]:
                tk = pooled if mode == "pool" else inline
                calls = calls1 if conc == 1 else conc
                run = await batch(ours(tk, f"{base}/{size}.html"), calls, conc)
                results.setdefault((size, mode, conc), []).append(run)
        print(
            f"   median of {reps} repetition(s); c=1: {calls1} calls in a row, c=32: 32 calls at once"
        )
        header = (
            f"   {'page':>5} {'mode':>7} {'c':>3} {'calls/s':>8} {'max lag ms':>11} "
            f"{'p99 lag ms':>11} {'unqueued':>9} {'on CPU':>7} {'ctl ms':>7} {'fail':>5}"
        )
        print(header)
        print("   " + "-" * (len(header) - 3))
        for size, mode, conc in plan:
            runs = results[(size, mode, conc)]
            print(
                f"   {size:>5} {mode:>7} {conc:>3} {statistics.median(r.rate for r in runs):8.2f} "
                f"{statistics.median(r.max_lag_ms for r in runs):11.1f} "
                f"{statistics.median(r.p99_lag_ms for r in runs):11.1f} "
                f"{statistics.median(r.max_unqueued_ms for r in runs):9.1f} "
                f"{statistics.median(r.max_held_ms for r in runs):7.1f} "
                f"{statistics.median(r.control_max_s * 1000 for r in runs):7.1f} "
                f"{sum(r.failures for r in runs):5d}"
            )
        print(
            "   unqueued = worst lateness minus the loop thread's wait for a CPU (our code, the "
            "GIL, locks); on CPU = worst lateness while it ran; ctl = an idle process's worst "
            "lateness (the machine)"
        )
        print()
        for size in sizes:
            worst = max(
                statistics.median(r.max_lag_ms for r in results[(size, "pool", c)])
                for c in CONCURRENCY
            )
            unqueued = max(
                statistics.median(r.max_unqueued_ms for r in results[(size, "pool", c)])
                for c in CONCURRENCY
            )
            print(
                f"   (a) {size}: max lag (pool, worst of c=1/c=32) {worst:.1f} ms -> target <= "
                f"50 ms: {'met' if worst <= 50 else 'NOT met'}; without the loop thread's wait "
                f"for a CPU {unqueued:.1f} ms: {'met' if unqueued <= 50 else 'NOT met'}"
            )
        if "1M" in sizes:
            ratios = [
                r32.rate / r1.rate
                for r1, r32 in zip(
                    results[("1M", "pool", 1)], results[("1M", "pool", 32)], strict=True
                )
            ]
            ratio = statistics.median(ratios)
            print(
                f"   (b) 1M: calls/s c=32 / c=1 (pool) = {ratio:.2f} (per repetition: "
                f"{', '.join(f'{x:.2f}' for x in ratios)}) on {os.cpu_count()} cores -> target >= 1.6: "
                f"{'met' if ratio >= 1.6 else 'NOT met'}"
            )
            inline_ratio = statistics.median(
                r32.rate / r1.rate
                for r1, r32 in zip(
                    results[("1M", "inline", 1)], results[("1M", "inline", 32)], strict=True
                )
            )
            print(f"       (inline, the old path: {inline_ratio:.2f})")


async def part_peer(base: str, size: str, reps: int, calls1: int, tmp: str) -> None:
    print(
        f"\nB. full web_fetch vs the reference MCP fetch server (Python path), {size} page, cache off"
    )
    url = f"{base}/{size}.html"
    peer = reference(url)
    assert await peer(), "the reference fetch failed"
    async with Toolkit(settings_for(tmp)) as tk:
        assert (await tk.call("web_fetch", {"url": url})).ok
        results: dict[tuple[str, int], list[Run]] = {}
        plan = [(who, c) for c in PEER_CONCURRENCY for who in ("webresearch", "mcp-fetch")]
        for rep in range(reps):
            for who, conc in plan if rep % 2 == 0 else plan[::-1]:
                call = ours(tk, url) if who == "webresearch" else peer
                run = await batch(call, calls1 if conc == 1 else conc, conc)
                results.setdefault((who, conc), []).append(run)
    print(f"   median of {reps} repetition(s); c=1: {calls1} calls in a row, c=4: 4 at once")
    print(f"   {'c':>3} {'webresearch calls/s':>20} {'mcp-fetch calls/s':>18} {'ratio':>6}")
    for conc in PEER_CONCURRENCY:
        ratios = [
            a.rate / b.rate
            for a, b in zip(
                results[("webresearch", conc)], results[("mcp-fetch", conc)], strict=True
            )
        ]
        ours_rate = statistics.median(r.rate for r in results[("webresearch", conc)])
        their_rate = statistics.median(r.rate for r in results[("mcp-fetch", conc)])
        fails = [
            sum(r.failures for r in results[(who, conc)]) for who in ("webresearch", "mcp-fetch")
        ]
        ratio = statistics.median(ratios)
        print(
            f"   {conc:>3} {ours_rate:20.2f} {their_rate:18.2f} {ratio:6.2f}  failed calls {fails[0]}/{fails[1]} -> target >= 3: {'met' if ratio >= 3 else 'NOT met'}"
        )


async def pinger(client: Any, done: asyncio.Event, latencies: list[float]) -> None:
    """MCP pings one after another (20 ms apart) until ``done``; round trips into ``latencies``."""
    while not done.is_set():
        started = time.perf_counter()
        await client.send_ping()
        latencies.append(time.perf_counter() - started)
        await asyncio.sleep(0.02)


async def part_ping(base: str, size: str, reps: int, tmp: str) -> None:
    import mcp_types  # noqa: F401  (the mcp extra)
    from mcp import Client, StdioServerParameters

    print(
        f"\nC. MCP ping latency while 32 web_fetch calls of {size} pages are in flight (stdio server)"
    )
    url = f"{base}/{size}.html"
    env_base = {
        k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH")
    } | {
        "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.0/8",
        "WEBRESEARCH_SEARCH_PROVIDER": "none",
        "WEBRESEARCH_RENDER": "never",
        "WEBRESEARCH_FETCH_CACHE_SIZE": "0",
        "WEBRESEARCH_REQUEST_TIMEOUT_S": str(CALL_TIMEOUT_S),
    }
    modes = {"pool": {}, "inline": {"WEBRESEARCH_CPU_WORKERS": "0"}}
    latencies: dict[str, list[list[float]]] = {mode: [] for mode in modes}
    walls: dict[str, list[float]] = {mode: [] for mode in modes}
    failed: dict[str, int] = dict.fromkeys(modes, 0)
    async with contextlib.AsyncExitStack() as stack:
        clients = {}
        for mode, extra in modes.items():
            journal = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp}/mcp-{mode}.sqlite3"}
            params = StdioServerParameters(
                command=sys.executable,
                args=["-m", "webresearch", "mcp"],
                env=env_base | journal | extra,
            )
            # ping is a 2025-11-25 request: the legacy handshake
            client = await stack.enter_async_context(Client(params, mode="legacy"))
            warm = await client.call_tool("web_fetch", {"url": url})
            assert not warm.is_error, warm
            clients[mode] = client
        order = list(modes)
        for rep in range(reps):
            for mode in order if rep % 2 == 0 else order[::-1]:
                client = clients[mode]
                done = asyncio.Event()
                rounds: list[float] = []
                ping = asyncio.create_task(pinger(client, done, rounds))
                started = time.perf_counter()
                results = await asyncio.gather(
                    *(client.call_tool("web_fetch", {"url": url}) for _ in range(32))
                )
                walls[mode].append(time.perf_counter() - started)
                done.set()
                await ping
                failed[mode] += sum(1 for r in results if r.is_error)  # e.g. over the budget
                latencies[mode].append(rounds)
    print(f"   median over {reps} interleaved repetition(s) of each statistic")
    for mode in modes:
        p50 = statistics.median(pct(r, 50) for r in latencies[mode]) * 1000
        p99 = statistics.median(pct(r, 99) for r in latencies[mode]) * 1000
        worst = statistics.median(max(r) for r in latencies[mode]) * 1000
        count = sum(len(r) for r in latencies[mode])
        verdict = (
            f" -> target p99 <= 100 ms: {'met' if p99 <= 100 else 'NOT met'}"
            if mode == "pool"
            else ""
        )
        print(
            f"   {mode:>6}: {count} pings, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms; "
            f"32 calls took {statistics.median(walls[mode]):.1f} s, {failed[mode]} of "
            f"{32 * reps} failed{verdict}"
        )


def _status_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _descendants(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                out += [int(child), *_descendants(int(child))]
    return out


#: Calls of the memory part, all at once, each with the default 30 s budget.
MEMORY_CALLS = 100
MEMORY_BUDGET_S = 30.0


async def part_memory(base: str, reps: int, tmp: str) -> None:
    print(
        f"\nD. memory: {MEMORY_CALLS} concurrent web_fetch calls of 2 MiB pages, "
        f"{MEMORY_BUDGET_S:g} s budget each (peak RSS in MiB; medians of {reps})"
    )
    pages = {"html": f"{base}/2M.html", "text": f"{base}/2M.txt"}
    modes = {"pool": {}, "inline": {"cpu_workers": 0}}
    cases = [(page, mode) for page in pages for mode in modes]
    rows: dict[tuple[str, str], list[tuple[float, float, float, int, int, float]]] = {}
    async with contextlib.AsyncExitStack() as stack:
        toolkits = {}
        for mode, changes in modes.items():
            settings = settings_for(tmp, request_timeout_s=MEMORY_BUDGET_S, **changes)
            toolkits[mode] = await stack.enter_async_context(Toolkit(settings))
            for url in pages.values():  # warm: workers started, imports done
                assert (await toolkits[mode].call("web_fetch", {"url": url})).ok
        for rep in range(reps):
            for page, mode in cases if rep % 2 == 0 else cases[::-1]:
                rows.setdefault((page, mode), []).append(
                    await _memory_batch(toolkits[mode], pages[page])
                )
    print(
        f"   {'page':>5} {'mode':>7} {'own before':>10} {'own peak':>9} {'workers peak':>13} "
        f"{'ok':>4} {'timeout':>8} {'wall s':>7}"
    )
    for page, mode in cases:
        runs = rows[(page, mode)]
        med = [statistics.median(r[i] for r in runs) for i in range(6)]
        print(
            f"   {page:>5} {mode:>7} {med[0]:10.0f} {med[1]:9.0f} {med[2]:13.0f} "
            f"{med[3]:4.0f} {med[4]:8.0f} {med[5]:7.1f}"
        )
    print(
        "   own = this process (VmRSS before, VmHWM peak); workers = the sum of the worker "
        "processes' and the forkserver's peaks; ok/timeout = calls of the 100"
    )


async def _memory_batch(toolkit: Toolkit, url: str) -> tuple[float, float, float, int, int, float]:
    """One batch of :data:`MEMORY_CALLS` calls: (own RSS before, own peak, workers' peak, calls
    ok, calls timed out, wall seconds); memory in MiB."""
    me = os.getpid()
    for pid in [me, *_descendants(me)]:
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset the peak (VmHWM)
    before = _status_kib(me, "VmRSS")
    started = time.perf_counter()
    results = await asyncio.gather(
        *(toolkit.call("web_fetch", {"url": url}) for _ in range(MEMORY_CALLS))
    )
    wall = time.perf_counter() - started
    codes = [r.error.code if r.error is not None else "ok" for r in results]
    unexpected = set(codes) - {"ok", "timeout"}
    assert not unexpected, [r.text for r in results if r.error and r.error.code in unexpected][:1]
    peaks = {pid: _status_kib(pid, "VmHWM") for pid in [me, *_descendants(me)]}
    own = peaks.pop(me)
    del results
    return (
        before / 1024,
        own / 1024,
        sum(peaks.values()) / 1024,
        codes.count("ok"),
        codes.count("timeout"),
        wall,
    )


def _photo_jpeg() -> bytes:
    from PIL import Image

    base = Image.linear_gradient("L").resize((4000, 3000))
    grain = Image.effect_noise((4000, 3000), 24)
    im = Image.merge(
        "RGB",
        (base, Image.radial_gradient("L").resize((4000, 3000)), Image.blend(base, grain, 0.3)),
    )
    out = io.BytesIO()
    im.save(out, "JPEG", quality=90)
    return out.getvalue()


async def part_kinds(reps: int) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from webresearch.extract.dispatch import convert
    from webresearch.images.prepare import prepare_image
    from webresearch.runtime.cpu_pool import CPUPool
    from webresearch.tools.services import CPU_PRELOAD

    print("\nE. which pool: jobs/s for 8 jobs, in-process vs 2 threads vs 2 worker processes")
    html = article(SIZES["1M"])
    jpeg = _photo_jpeg()
    jobs: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "HTML 1 MB -> markdown": (convert, (html, "text/html", "https://example.org/")),
        "JPEG 12 Mpx -> prepared": (prepare_image, (jpeg,)),
    }
    loop = asyncio.get_running_loop()
    threads = ThreadPoolExecutor(2)
    pool = CPUPool(2, preload=CPU_PRELOAD)
    await pool.start()
    rates: dict[tuple[str, str], list[float]] = {}
    try:
        for fn, job_args in jobs.values():  # warm every path (imports, worker caches)
            fn(*job_args)
            await loop.run_in_executor(threads, fn, *job_args)
            await asyncio.gather(*(pool.run(fn, *job_args) for _ in range(2)))
        for rep in range(reps):
            for name, (fn, job_args) in jobs.items():
                kinds: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
                    ("in-process", lambda fn=fn, a=job_args: _serial(fn, a, 8)),
                    (
                        "2 threads",
                        lambda fn=fn, a=job_args: asyncio.gather(
                            *(loop.run_in_executor(threads, fn, *a) for _ in range(8))
                        ),
                    ),
                    (
                        "2 processes",
                        lambda fn=fn, a=job_args: asyncio.gather(
                            *(pool.run(fn, *a) for _ in range(8))
                        ),
                    ),
                ]
                for kind, go in kinds if rep % 2 == 0 else kinds[::-1]:
                    started = time.perf_counter()
                    await go()
                    rates.setdefault((name, kind), []).append(8 / (time.perf_counter() - started))
    finally:
        threads.shutdown()
        await pool.aclose()
    print(
        f"   {'job':<24} {'in-process':>10} {'2 threads':>10} {'2 processes':>12}   (jobs/s, median of {reps})"
    )
    for name in jobs:
        row = [
            statistics.median(rates[(name, k)]) for k in ("in-process", "2 threads", "2 processes")
        ]
        print(
            f"   {name:<24} {row[0]:10.2f} {row[1]:10.2f} {row[2]:12.2f}   threads x{row[1] / row[0]:.2f}, processes x{row[2] / row[0]:.2f}"
        )


async def _serial(fn: Callable[..., Any], args: tuple[Any, ...], n: int) -> None:
    for _ in range(n):
        fn(*args)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (``/proc/<pid>/stat`` fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def part_cpu(base: str, size: str, reps: int, calls1: int, tmp: str) -> None:
    """Where a call's CPU goes: this process (the event loop) vs the workers."""
    from multiprocessing import forkserver

    print(
        f"\nG. CPU per web_fetch call of a {size} page, the loop's process vs the workers "
        f"(median of {reps} batches of {calls1 * 2} calls)"
    )
    url = f"{base}/{size}.html"
    async with Toolkit(settings_for(tmp)) as toolkit:
        await toolkit.services.cpu.start()
        assert (await toolkit.call("web_fetch", {"url": url})).ok  # warm
        server = forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
        workers = _descendants(server)
        own, theirs = [], []
        for _ in range(reps):
            own0 = time.process_time()
            theirs0 = sum(_cpu_s(p) for p in workers)
            for _ in range(calls1 * 2):
                assert (await toolkit.call("web_fetch", {"url": url})).ok
            own.append((time.process_time() - own0) / (calls1 * 2))
            theirs.append((sum(_cpu_s(p) for p in workers) - theirs0) / (calls1 * 2))
        n = toolkit.services.cpu.workers
    loop_s, work_s = statistics.median(own), statistics.median(theirs)
    cores = os.cpu_count() or 1
    # Calls at once are bounded by the cores (all CPU), the workers, and the loop's process.
    ceiling = (loop_s + work_s) / max((loop_s + work_s) / cores, work_s / n, loop_s)
    print(f"   loop's process {loop_s * 1000:.0f} ms, workers {work_s * 1000:.0f} ms per call")
    print(
        f"   -> CPU-bound ceiling of calls/s at c=32 / c=1 on {cores} cores with {n} workers: "
        f"{ceiling:.2f} (what (b) measures when nothing else runs on the machine)"
    )


def part_json(reps: int) -> None:
    from webresearch.net.http_status import json_object

    print(f"\nF. parsing a provider's JSON answer on the loop (json_object; median of {reps * 3})")
    rng = random.Random(14)

    def words(n: int) -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(n))

    def result(i: int, content_words: int) -> dict[str, Any]:
        return {
            "url": f"https://example.org/article/{i}",
            "title": words(8),
            "content": words(content_words),
            "engine": "bench",
            "score": rng.random(),
        }

    answers = {
        "50 results (SearXNG page)": {"results": [result(i, 40) for i in range(50)]},
        "20 results + raw page text (4 MiB)": {"results": [result(i, 36_000) for i in range(20)]},
        "4 MiB of small results (worst case)": {"results": [result(i, 40) for i in range(11_000)]},
    }
    print(f"   {'answer':<38} {'KiB':>6} {'ms':>7}")
    for name, value in answers.items():
        body = json.dumps(value).encode()
        times = []
        for _ in range(reps * 3):
            started = time.perf_counter()
            data, _reason = json_object(body, "application/json")
            times.append(time.perf_counter() - started)
            assert data is not None
        print(f"   {name:<38} {len(body) >> 10:6d} {statistics.median(times) * 1000:7.1f}")


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--reps", type=int, default=3, help="repetitions (interleaved; medians; at least 3)"
    )
    parser.add_argument("--sizes", default="100K,1M,2M", help="page sizes for part A")
    parser.add_argument("--calls1", type=int, default=4, help="calls per batch at c=1")
    parser.add_argument("--parts", default="lag,peer,ping,memory,kinds,json,cpu")
    args = parser.parse_args()
    if args.reps < 3:
        parser.error("--reps: at least 3 (medians of interleaved repetitions)")
    sizes = [s for s in args.sizes.split(",") if s]
    parts = set(args.parts.split(","))
    pages = {f"{name}.html": article(size) for name, size in SIZES.items()}
    pages["2M.txt"] = text_file(SIZES["2M"])
    print(
        f"webresearch bench/concurrency.py: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print("pages: " + ", ".join(f"{n} = {len(b):,} bytes" for n, b in pages.items()))
    with tempfile.TemporaryDirectory() as tmp, loopback_server(pages) as base:
        if "lag" in parts:
            await part_lag(base, sizes, args.reps, args.calls1, tmp)
        if "peer" in parts:
            await part_peer(base, "1M", args.reps, args.calls1, tmp)
        if "ping" in parts:
            await part_ping(base, "1M", args.reps, tmp)
        if "memory" in parts:
            await part_memory(base, args.reps, tmp)
        if "kinds" in parts:
            await part_kinds(args.reps)
        if "json" in parts:
            part_json(args.reps)
        if "cpu" in parts:
            await part_cpu(base, "1M", args.reps, args.calls1, tmp)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
