"""The CPU worker pool with real worker processes: lazy start and reuse, time budgets that
stop a job that never ends, a worker killed mid-job, cancellation, back-pressure, errors
and results that come back unchanged, and the in-process mode."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import os
import pickle
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.support import cpu_jobs
from tests.unit.extract.pdfs import make_pdf
from webresearch.errors import (
    HTTPStatusError,
    InternalError,
    RateLimited,
    Timeout,
    UnsupportedContent,
)
from webresearch.extract.dispatch import convert
from webresearch.runtime.cpu_pool import LARGE_BYTES, THREADED_HASH_BYTES, CPUPool
from webresearch.tools.services import CPU_PRELOAD

#: Upper bound for waiting on another process (a marker file, a worker's exit): generous,
#: because the 2 shared cores may be busy; tests never assert how fast anything is.
WAIT_S = 60.0


@pytest.fixture
async def pool() -> AsyncIterator[CPUPool]:
    cpu = CPUPool(2, preload=CPU_PRELOAD)
    try:
        yield cpu
    finally:
        await cpu.aclose()


async def pid_in(marker: Path) -> int:
    """The pid a job wrote to ``marker`` (waits for the job to start)."""
    deadline = time.monotonic() + WAIT_S
    while not (marker.exists() and marker.read_text()):
        assert time.monotonic() < deadline, "the job never started"
        await asyncio.sleep(0.01)
    return int(marker.read_text())


async def wait_gone(pid: int) -> None:
    """Waits until process ``pid`` has exited (the pool reaps its workers)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1]
        except FileNotFoundError:
            return  # exited and reaped
        if state.startswith(("Z", "X")):
            return  # exited; waiting to be reaped
        assert time.monotonic() < deadline, f"worker {pid} is still alive"
        await asyncio.sleep(0.02)


async def test_workers_start_on_the_first_job_and_are_reused(pool: CPUPool) -> None:
    assert not pool.started
    pids = set()
    for i in range(6):
        value, pid = await pool.run(cpu_jobs.echo_pid, f"job {i}")
        assert value == f"job {i}"
        pids.add(pid)
    assert pool.started
    assert os.getpid() not in pids
    assert len(pids) <= 2  # two workers serve every job
    assert pool.describe()["jobs"] == 6


async def test_workers_fork_from_a_warmed_up_forkserver(pool: CPUPool) -> None:
    # tools/cpu_preload.py converted a page in the forkserver: extraction's lazy imports
    # are done before a worker's first job.
    assert await pool.run(cpu_jobs.loaded, "webresearch.tools.cpu_preload")
    assert await pool.run(cpu_jobs.loaded, "lxml.html")


async def test_workers_run_as_batch_work_at_the_same_niceness(pool: CPUPool) -> None:
    nice, policy = await pool.run(cpu_jobs.scheduling)
    assert nice == os.getpriority(os.PRIO_PROCESS, 0)
    assert policy == os.SCHED_BATCH


async def test_a_job_that_never_ends_is_stopped_by_its_budget_and_the_next_job_runs(
    pool: CPUPool, tmp_path: Path
) -> None:
    await pool.start()
    marker = tmp_path / "spin"
    with pytest.raises(Timeout) as caught:
        await pool.run(cpu_jobs.spin_forever, str(marker), timeout_s=1.0, what="converting X")
    assert caught.value.code == "timeout"
    # Says what budget ran out, not "(0.998 s were left)" (a reviewer could not tell what
    # was left of what).
    assert caught.value.message == (
        "converting X was stopped after 1 s: the call's time budget ran out before it finished"
    )
    assert caught.value.hint is not None and "try another source" in caught.value.hint
    hung = await pid_in(marker)
    await wait_gone(hung)  # the worker was stopped, not left computing
    value, pid = await pool.run(cpu_jobs.echo_pid, "after", timeout_s=WAIT_S)
    assert value == "after" and pid != hung
    assert pool.describe()["timeouts"] == 1


async def test_a_worker_killed_mid_job_fails_that_job_clearly_and_the_pool_recovers(
    pool: CPUPool, tmp_path: Path
) -> None:
    marker = tmp_path / "victim"
    job = asyncio.create_task(
        pool.run(cpu_jobs.spin_forever, str(marker), what="converting https://example.org/")
    )
    victim = await pid_in(marker)
    os.kill(victim, signal.SIGKILL)
    with pytest.raises(InternalError) as caught:
        await asyncio.wait_for(job, WAIT_S)
    assert caught.value.code == "internal"
    assert caught.value.message == (
        "converting https://example.org/ failed: its worker process stopped unexpectedly "
        "and was replaced"
    )
    results = await asyncio.gather(*(pool.run(cpu_jobs.echo_pid, str(i)) for i in range(4)))
    assert [value for value, _pid in results] == ["0", "1", "2", "3"]
    assert victim not in {pid for _value, pid in results}
    assert pool.describe()["crashes"] == 1


async def test_an_idle_worker_that_dies_does_not_stop_later_jobs(pool: CPUPool) -> None:
    _value, idle = await pool.run(cpu_jobs.echo_pid, "first")
    os.kill(idle, signal.SIGKILL)  # pebble then declares its whole pool broken
    await wait_gone(idle)
    await asyncio.sleep(0.5)  # pebble's manager looks every 0.1 s
    results = [await pool.run(cpu_jobs.echo_pid, str(i), timeout_s=WAIT_S) for i in range(3)]
    assert [value for value, _pid in results] == ["0", "1", "2"]
    assert idle not in {pid for _value, pid in results}
    assert pool.describe()["rebuilds"] in (0, 1)  # 1 with pebble 5: it gives up the pool


async def test_cancelling_the_caller_stops_the_worker(pool: CPUPool, tmp_path: Path) -> None:
    marker = tmp_path / "cancelled"
    job = asyncio.create_task(pool.run(cpu_jobs.spin_forever, str(marker)))
    pid = await pid_in(marker)
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    await wait_gone(pid)
    assert (await pool.run(cpu_jobs.echo_pid, "next"))[0] == "next"


async def test_waiting_for_a_slot_counts_against_the_callers_own_budget(tmp_path: Path) -> None:
    cpu = CPUPool(1, max_in_flight=1, preload=CPU_PRELOAD)
    try:
        busy = asyncio.create_task(
            cpu.run(cpu_jobs.spin_forever, str(tmp_path / "busy"), timeout_s=WAIT_S)
        )
        await pid_in(tmp_path / "busy")  # the only slot is taken
        waiter = tmp_path / "waiter"
        with pytest.raises(Timeout):
            await cpu.run(cpu_jobs.mark_and_return, str(waiter), 1, timeout_s=0.3)
        assert not waiter.exists()  # it never reached a worker
        busy.cancel()
        with pytest.raises(asyncio.CancelledError):
            await busy
        assert await cpu.run(cpu_jobs.mark_and_return, str(waiter), 2, timeout_s=WAIT_S) == 2
    finally:
        await cpu.aclose()


async def test_a_spent_budget_fails_before_anything_starts(pool: CPUPool, tmp_path: Path) -> None:
    marker = tmp_path / "never"
    with pytest.raises(Timeout):
        await pool.run(cpu_jobs.mark_and_return, str(marker), 1, timeout_s=0.0)
    assert not marker.exists() and not pool.started


async def test_errors_of_the_job_come_back_as_themselves(pool: CPUPool) -> None:
    png = b"\x89PNG\r\n\x1a\n"
    with pytest.raises(UnsupportedContent) as caught:
        await pool.run(convert, png + b"\0" * 64, "text/html", "https://example.org/x.png")
    in_process = pytest.raises(UnsupportedContent)
    with in_process as expected:
        convert(png + b"\0" * 64, "text/html", "https://example.org/x.png")
    assert caught.value.to_dict() == expected.value.to_dict()
    assert caught.value.details == {"mime": "image/png"}


def test_every_error_survives_pickling_with_its_attributes() -> None:
    for error in (
        HTTPStatusError("gone", status=410, retry_after=3.0),
        RateLimited("slow down", retry_after=2.0),
        UnsupportedContent("no", hint="use fetch_image", mime="image/png"),
    ):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert copy.to_dict() == error.to_dict() and vars(copy) == vars(error)
        assert str(copy) == str(error)


def corpus_bodies() -> list[tuple[str, bytes, str]]:
    """(name, body, content type) of real pages and documents in the fixtures."""
    out = []
    for path in sorted((FIXTURES / "corpus-sample").rglob("*.html.gz")):
        out.append((path.name, gzip.decompress(path.read_bytes()), "text/html"))
    pdf = make_pdf([["A memo", "with two lines"], ["and a second page"]], title="Memo")
    out.append(("memo.pdf", pdf, "application/octet-stream"))
    out.append(("data.json", b'{"a": [1, 2, {"b": "\\u00e9"}]}', "application/json"))
    return out


async def test_results_are_identical_in_process_and_pooled(pool: CPUPool) -> None:
    bodies = corpus_bodies()
    assert len(bodies) >= 10
    pooled = await asyncio.gather(
        *(
            pool.run(convert, body, ctype, f"https://example.org/{name}")
            for name, body, ctype in bodies
        )
    )
    inline = CPUPool(0)
    for (name, body, ctype), got in zip(bodies, pooled, strict=True):
        expected = await inline.run(convert, body, ctype, f"https://example.org/{name}")
        assert got == expected, name


async def test_in_process_mode_runs_on_the_callers_thread_and_checks_the_budget(
    tmp_path: Path,
) -> None:
    cpu = CPUPool(0)
    assert (await cpu.run(cpu_jobs.echo_pid, "here"))[1] == os.getpid()
    with pytest.raises(Timeout):
        await cpu.run(time.sleep, 0.05, timeout_s=0.01)
    marker = tmp_path / "never"  # a budget spent before the job: it does not run at all
    with pytest.raises(Timeout):
        await cpu.run(cpu_jobs.mark_and_return, str(marker), 1, timeout_s=0.0)
    assert not marker.exists()
    assert not cpu.started and cpu.describe()["start_method"] == "in-process"


async def test_a_closed_pool_refuses_jobs() -> None:
    cpu = CPUPool(1)
    await cpu.aclose()
    with pytest.raises(InternalError, match="pool is closed"):
        await cpu.run(cpu_jobs.echo_pid, "late")


@pytest.mark.parametrize("size", [10, THREADED_HASH_BYTES + 1])
async def test_sha256_matches_hashlib_inline_and_threaded(pool: CPUPool, size: int) -> None:
    data = os.urandom(size)
    assert await pool.sha256_hex(data) == hashlib.sha256(data).hexdigest()


async def test_run_large_hops_to_a_worker_only_for_large_inputs(pool: CPUPool) -> None:
    small = await pool.run_large(LARGE_BYTES - 1, cpu_jobs.echo_pid, "small")
    assert small == ("small", os.getpid()) and not pool.started
    large = await pool.run_large(LARGE_BYTES, cpu_jobs.echo_pid, "large")
    assert large[0] == "large" and large[1] != os.getpid()


async def test_warm_starts_the_workers_in_the_background(pool: CPUPool) -> None:
    pool.warm()  # returns at once; the start goes on while the caller downloads
    deadline = time.monotonic() + WAIT_S
    while not pool.started:
        assert time.monotonic() < deadline, "the workers never started"
        await asyncio.sleep(0.02)
    value, pid = await pool.run(cpu_jobs.echo_pid, "warm")
    assert value == "warm" and pid != os.getpid()
    in_process = CPUPool(0)
    in_process.warm()
    assert not in_process.started


async def test_closing_during_a_warm_start_keeps_no_workers() -> None:
    cpu = CPUPool(1, preload=CPU_PRELOAD)
    cpu.warm()
    await cpu.aclose()  # waits for the start, which stops the pool it made
    assert not cpu.started
    with pytest.raises(InternalError, match="pool is closed"):
        await cpu.run(cpu_jobs.echo_pid, "late")
