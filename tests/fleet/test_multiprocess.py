"""Multi-process proofs: one limit, one cache and one journal shared by separate worker processes.

Eight worker processes (``tests/fleet/worker.py``, each with its own Toolkit and its own
connections) fire 100 concurrent ``web_search`` calls each, released together, against one
limit of 30 per minute: exactly 30 of the 800 calls are admitted, every round, on Redis and
on SQLite. A page fetched by one worker is served to the others from the shared cache. A
worker killed with SIGKILL the moment a call returns has already journaled it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.fleet_servers import PostgresServer, RedisServer
from tests.support.http_server import LocalServer, Route

from .conftest import fresh_database, open_sink

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 8
CALLS_PER_WORKER = 100
LIMIT = 30
ROUNDS = 4


def worker_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    return {k: v for k, v in env.items() if not k.startswith("WEBRESEARCH_")}


class Worker:
    """One worker process speaking JSON lines."""

    def __init__(self) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fleet.worker"],
            cwd=ROOT,
            env=worker_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
        )

    def send(self, obj: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(timeout=10)
            self.stderr.seek(0)
            raise AssertionError(
                f"worker exited with {self.proc.returncode}: "
                + self.stderr.read().decode(errors="replace")[-3000:]
            )
        data: dict[str, Any] = json.loads(line)
        return data

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send({"op": "quit"})
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                # The worker may have exited with our last line still buffered: a broken
                # pipe on close is expected then, and the file must still be released.
                with contextlib.suppress(OSError):
                    stream.close()
        self.stderr.close()


@pytest.fixture(scope="module")
def workers() -> Iterator[list[Worker]]:
    """Eight worker processes, started once for this module."""
    pool: list[Worker] = []
    try:
        pool = [Worker() for _ in range(WORKERS)]
        yield pool
    finally:
        for worker in pool:
            if worker.proc.poll() is None:
                with contextlib.suppress(OSError):
                    worker.send({"op": "quit"})  # all at once; close() then waits for each
        for worker in pool:
            worker.close()


def limit_round(workers: list[Worker], settings: dict[str, Any]) -> list[dict[str, Any]]:
    """All workers build their Toolkit, then all fire at once; returns each worker's counts."""
    for worker in workers:
        worker.send({"op": "limit", "settings": settings, "calls": CALLS_PER_WORKER})
    for worker in workers:
        assert worker.receive() == {"ready": True}
    for worker in workers:
        worker.send("go")
    return [worker.receive() for worker in workers]


def _limit_settings(state_url: str, prefix: str = "webresearch:") -> dict[str, Any]:
    return {
        "state_url": state_url,
        "redis_prefix": prefix,
        "journal_url": "memory://",
        "search_rate_limit": LIMIT,
        "rate_window_s": 60.0,
        # Exactness is the point here, not speed: 800 decisions from 8 processes on 2 shared
        # cores can wait longer than the default 2 s for the backend (a `storage` error is a
        # correct fail-closed answer, but not what this test measures).
        "storage_timeout_s": 20.0,
    }


def assert_exact(results: list[dict[str, Any]]) -> None:
    admitted = sum(r["ok"] for r in results)
    assert admitted == LIMIT, f"admitted {admitted} of {WORKERS * CALLS_PER_WORKER}: {results}"
    for r in results:
        if r["ok"] < CALLS_PER_WORKER:
            assert r["codes"] == ["rate_limited"]  # refused by the limit, not by a failure
            assert all(0 < s <= 60 for s in r["retry_after"])


def test_redis_limit_holds_exactly_across_eight_processes(
    workers: list[Worker], redis_server: RedisServer
) -> None:
    for _ in range(ROUNDS):
        prefix = f"mp-{uuid.uuid4().hex[:8]}:"  # a fresh limiter each round
        assert_exact(limit_round(workers, _limit_settings(redis_server.url, prefix)))


def test_sqlite_limit_holds_exactly_across_eight_processes(
    workers: list[Worker], tmp_path: Path
) -> None:
    for round_no in range(ROUNDS):
        url = f"sqlite:///{tmp_path}/state-{round_no}.sqlite3"
        assert_exact(limit_round(workers, _limit_settings(url)))


#: A day's spending limit and the price of one call: exactly 37 calls fit.
SPENDING_LIMIT = 0.37
PRICE = 0.01


def spend_round(workers: list[Worker], settings: dict[str, Any]) -> list[dict[str, Any]]:
    """Every worker fires CALLS_PER_WORKER paid calls at once; each worker's counts."""
    for worker in workers:
        worker.send(
            {"op": "spend", "settings": settings, "calls": CALLS_PER_WORKER, "price": PRICE}
        )
    for worker in workers:
        assert worker.receive() == {"ready": True}
    for worker in workers:
        worker.send("go")
    return [worker.receive() for worker in workers]


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_a_days_spending_limit_is_exact_across_processes(
    workers: list[Worker], backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # Two processes (the case), 200 concurrent paid calls, one limit: exactly 37
    # admitted, 0.37 spent, the rest refused by the spending limit (nothing else).
    if backend == "sqlite":
        url, prefix = f"sqlite:///{tmp_path}/spend.sqlite3", "webresearch:"
    else:
        url, prefix = request.getfixturevalue("redis_server").url, f"sp-{uuid.uuid4().hex[:8]}:"
    settings = {
        **_limit_settings(url, prefix),
        "search_rate_limit": None,
        "spending_limit": SPENDING_LIMIT,
        "spending_window_s": 86400.0,
    }
    results = spend_round(workers[:2], settings)
    assert sum(r["ok"] for r in results) == round(SPENDING_LIMIT / PRICE), results
    for r in results:
        assert r["spent"] == pytest.approx(SPENDING_LIMIT, abs=1e-9)
        if r["ok"] < CALLS_PER_WORKER:
            assert r["codes"] == ["budget_exceeded"] and r["refusals"] == ["spending_limit"]


@pytest.mark.parametrize("backend", ["redis", "sqlite"])
def test_a_page_cached_by_one_process_serves_the_others(
    backend: str, workers: list[Worker], request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    if backend == "redis":
        server: RedisServer = request.getfixturevalue("redis_server")
        state = {"state_url": server.url, "redis_prefix": f"cache-{uuid.uuid4().hex[:8]}:"}
    else:
        state = {"state_url": f"sqlite:///{tmp_path}/state.sqlite3"}
    settings = {**state, "journal_url": "memory://", "allowed_networks": ["127.0.0.0/8"]}
    page = b"<html><head><title>Shared</title></head><body><h1>Fleet</h1><p>Once.</p></body></html>"
    routes: dict[str, Route | Any] = {
        "/page": Route(200, [("Content-Type", "text/html; charset=utf-8")], page)
    }
    with LocalServer(routes) as site:
        url = f"{site.base}/page"
        answers = []
        for worker in workers:
            worker.send({"op": "fetch", "settings": settings, "url": url})
            answers.append(worker.receive())
        assert all(a["ok"] for a in answers), answers
        assert [a["cached"] for a in answers] == [False] + [True] * (WORKERS - 1)
        assert "Fleet" in answers[-1]["text"]
        assert site.count("/page") == 1  # fetched once for the whole fleet


@pytest.mark.parametrize("backend", ["postgres", "sqlite", "jsonl"])
async def test_a_worker_killed_right_after_a_call_lost_no_event(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    if backend == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        async with fresh_database(server) as url:
            await _kill_after_call_and_read(url)
    else:
        await _kill_after_call_and_read(f"{backend}:///{tmp_path}/journal.{backend}")


async def _kill_after_call_and_read(journal_url: str) -> None:
    run_id = f"crash-{uuid.uuid4().hex[:8]}"
    worker = Worker()
    try:
        worker.send(
            {"op": "call_then_die", "settings": {"journal_url": journal_url}, "run_id": run_id}
        )
        assert worker.proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        worker.close()
    sink = open_sink(journal_url)  # read from this (another) process
    try:
        events = await sink.query(run_id=run_id)
    finally:
        await sink.aclose()
    assert [e.kind for e in events] == ["tool.started", "approval.auto_granted", "tool.completed"]
    assert events[-1].outcome == "ok"
    assert events[-1].output == "results for before the crash"
