"""A bounded pool of worker processes for CPU-heavy pure functions (issue 14).

Page conversion (HTML → markdown, PDF text) is pure Python and image preparation holds the
GIL between Pillow's C calls: on the event loop either freezes every other call, ping and
cancellation for the whole conversion, and a thread cannot run them in parallel or stop
them. Here they run in worker processes::

    pool = CPUPool(workers=2, max_in_flight=2, preload=("webresearch.extract.dispatch",))
    converted = await pool.run(convert, body, content_type, url, timeout_s=12.5,
                               what="converting the page")
    digest = await pool.run_threaded(sha256_hex, body)   # C code that releases the GIL
    await pool.aclose()

Rules:

* **Lazy, reused workers.** Nothing starts until the first job (or :meth:`CPUPool.warm`,
  which a call that will need the workers calls before its download); then ``workers`` processes
  (a `pebble <https://pebble.readthedocs.io>`_ ``ProcessPool``) serve every later job. They
  are forked from a *forkserver* that imports ``preload`` once, so a worker, or its
  replacement, starts warm and never inherits the parent's threads or sockets. Each worker
  is recycled after :data:`TASKS_PER_WORKER` jobs, which bounds what parser caches grow, and
  runs as batch work for the scheduler (``SCHED_BATCH``: it never preempts the event loop's
  process on wake-up, and keeps its fair share of the CPU: no niceness, so conversions do
  not starve, and time out, on a busy machine).
* **Back-pressure.** At most ``max_in_flight`` jobs are handed to the workers; the rest wait
  in arrival order, and the wait counts against their own ``timeout_s``.
* **Time budgets cover the work.** A job that does not finish within ``timeout_s`` (waiting
  included) raises :class:`~webresearch.errors.Timeout`; its worker is killed and replaced.
  A cancelled caller (a client's "Stop") kills the worker the same way.
* **Crashes stay in the worker.** A worker that dies mid-job (a signal, a segfault in a C
  decoder, the OOM killer) fails that job with :class:`~webresearch.errors.InternalError`;
  the pool replaces the worker (or rebuilds itself) and the next job runs.
* **Same results.** The function runs unchanged in the worker and its result or exception
  comes back by pickle (webresearch errors are picklable); ``workers=0`` runs it in-process
  instead — for one-shot commands with nothing else to serve — in a daemon thread that a
  SIGINT or SIGTERM never waits for (:mod:`webresearch.daemon_thread`), and checks the budget before
  (a spent budget runs nothing) and when it returns.

The functions must be importable top-level functions (pickled by reference), and their
arguments and results picklable.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple, Unpack

from ..daemon_thread import in_daemon_thread
from ..errors import InternalError, Timeout

__all__ = ["LARGE_BYTES", "TASKS_PER_WORKER", "THREADED_HASH_BYTES", "CPUPool", "usable_cores"]

log = logging.getLogger("webresearch.cpu")

R = TypeVar("R")
Ts = TypeVarTuple("Ts")

#: Jobs a worker runs before it is replaced by a fresh fork (bounds cache growth in parsers).
TASKS_PER_WORKER = 256

#: Inputs at least this long are worth the hop off the loop (:meth:`CPUPool.run_large`);
#: shorter ones cost less on the loop than the hop does (a 256 KiB JSON answer parses in
#: about 1 ms).
LARGE_BYTES = 256 * 1024

#: Bodies at least this long are hashed in a thread (hashlib releases the GIL); shorter ones
#: inline, where hashing costs less than the hop to a thread.
THREADED_HASH_BYTES = LARGE_BYTES

#: Signals that stop the process (a terminal's Ctrl-C and a service manager's SIGTERM reach
#: the whole process group, the forkserver and the workers included).
_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})

#: The forkserver's last import: it takes SIGTERM again (see the module).
_FORKSERVER_LAST = "webresearch.runtime.cpu_forkserver"

_TIMEOUT_HINT = (
    "the page is too large or complex to convert in time: try another source or a smaller "
    "document"
)


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask; at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


class CPUPool:
    """Runs CPU-heavy pure functions off the event loop, bounded and within time budgets.

    Args:
        workers: worker processes (``0``: run jobs in-process, in a daemon thread).
        max_in_flight: jobs handed to the workers at once (default: ``workers``); the rest
            wait in order.
        preload: modules the forkserver imports once, so workers start warm (e.g. the
            modules of the functions the pool will run).
        start_method: ``forkserver`` (default where available) or ``spawn``.
    """

    def __init__(
        self,
        workers: int,
        max_in_flight: int | None = None,
        *,
        preload: Sequence[str] = (),
        start_method: str | None = None,
    ) -> None:
        if workers < 0:
            raise ValueError("workers must be >= 0")
        self.workers = workers
        self.max_in_flight = max(1, max_in_flight if max_in_flight is not None else workers)
        self.preload = tuple(preload)
        methods = multiprocessing.get_all_start_methods()
        self.start_method = start_method or ("forkserver" if "forkserver" in methods else "spawn")
        self._slots = asyncio.Semaphore(self.max_in_flight)
        self._pool: Any = None  # pebble.ProcessPool, created on the first job
        self._starting: asyncio.Future[None] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._closed = False
        #: counters for ``describe()``: jobs done, timed out, lost with a worker; pool rebuilds.
        self.stats = {"jobs": 0, "timeouts": 0, "crashes": 0, "rebuilds": 0}

    @property
    def in_process(self) -> bool:
        """True when jobs run in this process (``workers == 0``)."""
        return self.workers == 0

    @property
    def started(self) -> bool:
        """True once worker processes exist."""
        return self._pool is not None

    def describe(self) -> dict[str, Any]:
        """Size, state and counters (for ``Services.describe`` and benchmarks)."""
        return {
            "workers": self.workers,
            "max_in_flight": self.max_in_flight,
            "start_method": "in-process" if self.in_process else self.start_method,
            "started": self.started,
            **self.stats,
        }

    # --- jobs -----------------------------------------------------------------------------
    async def run(
        self,
        fn: Callable[[Unpack[Ts]], R],
        *args: *Ts,
        timeout_s: float | None = None,
        what: str = "the conversion",
    ) -> R:
        """``fn(*args)`` in a worker process.

        Args:
            fn: an importable top-level function (pickled by reference).
            *args: its picklable arguments.
            timeout_s: seconds for the whole job, waiting for a slot included (``None``:
                no limit). Non-positive: the budget is already spent.
            what: names the job in error messages ("converting the page").

        Returns:
            what ``fn`` returned.

        Raises:
            whatever ``fn`` raised; Timeout: the budget ran out (the worker was replaced);
            InternalError: the worker died during the job, or the pool is closed.
        """
        if self._closed:
            raise InternalError(f"{what} cannot run: the worker pool is closed")
        started = time.monotonic()
        if timeout_s is not None and timeout_s <= 0:  # spent waiting: nothing starts
            self.stats["timeouts"] += 1
            raise self._timeout(what, timeout_s)
        if self.in_process:
            # in a daemon thread: a stop signal is not kept waiting (webresearch.daemon_thread)
            result = await in_daemon_thread(functools.partial(fn, *args), name="webresearch-convert")
            self._check_budget(started, timeout_s, what)
            self.stats["jobs"] += 1
            return result
        try:
            async with asyncio.timeout(timeout_s):
                async with self._slots:
                    future = await self._schedule(fn, args)
                    outcome: R = await asyncio.wrap_future(future)
        except TimeoutError:
            # Leaving the block cancelled the pebble future: its worker is being replaced.
            self.stats["timeouts"] += 1
            raise self._timeout(what, timeout_s) from None
        except Exception as exc:
            if _is_lost_worker(exc):
                self.stats["crashes"] += 1
                raise self._lost(what, exc) from None
            if isinstance(exc, BrokenExecutor):  # pebble gave up on the whole pool
                self._discard_pool()
                self.stats["crashes"] += 1
                raise self._lost(what, exc) from None
            raise
        self.stats["jobs"] += 1
        return outcome

    async def run_large(
        self,
        size: int,
        fn: Callable[[Unpack[Ts]], R],
        *args: *Ts,
        timeout_s: float | None = None,
        what: str = "the conversion",
    ) -> R:
        """``fn(*args)`` in a worker when its input is large (``size`` ≥ :data:`LARGE_BYTES`
        bytes), else right here on the caller's thread (see :meth:`run` for the rest)."""
        if size < LARGE_BYTES:
            return fn(*args)
        return await self.run(fn, *args, timeout_s=timeout_s, what=what)

    async def run_threaded(self, fn: Callable[[Unpack[Ts]], R], *args: *Ts) -> R:
        """``fn(*args)`` in one of ``max(1, workers)`` threads: for C code that releases the
        GIL (``hashlib`` on large bodies), where a process would only add copying.
        In-process pools call it directly."""
        if self.in_process:
            return fn(*args)
        if self._threads is None:
            self._threads = ThreadPoolExecutor(
                max_workers=max(1, self.workers), thread_name_prefix="webresearch-cpu"
            )
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def sha256_hex(self, data: bytes) -> str:
        """Hex sha256 of ``data``; large bodies (≥ :data:`THREADED_HASH_BYTES`) are hashed in
        a thread so a 2 MiB page never holds the loop."""
        if len(data) < THREADED_HASH_BYTES:
            return _sha256_hex(data)
        return await self.run_threaded(_sha256_hex, data)

    # --- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers now instead of on the first job (a server warming up)."""
        if not self.in_process:
            await self._running_pool()

    def warm(self) -> None:
        """Start the workers in the background, without waiting (a call that will need them
        after its download or navigation calls this first, so the start overlaps that
        wait instead of counting against the job's budget). Nothing when they run already,
        are starting, or the pool is in-process or closed. Call inside a running loop."""
        if self.in_process or self._closed or self._pool is not None or self._starting:
            return
        self._starting = asyncio.ensure_future(self._create_pool())
        self._starting.add_done_callback(self._after_background_start)

    def _after_background_start(self, start: asyncio.Future[None]) -> None:
        """A background start that failed is logged (the next job tries again, and raises)."""
        if start.cancelled():
            return
        error = start.exception()
        if error is not None and not self._closed:
            log.warning("the CPU worker pool did not start: %s", str(error) or repr(error))

    async def aclose(self) -> None:
        """Stop the workers (jobs still running are abandoned) and the threads."""
        self._closed = True
        if self._starting is not None:  # a start in flight stops its own pool (closed)
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()
            await asyncio.to_thread(pool.join)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None

    async def _schedule(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Hand a job to the workers (a pebble future); a pool found broken before the job
        was handed over is rebuilt once (nothing ran yet)."""
        pool = await self._running_pool()
        try:
            return pool.schedule(fn, args=args)
        except RuntimeError:
            self._discard_pool()
            pool = await self._running_pool()
            return pool.schedule(fn, args=args)

    async def _running_pool(self) -> Any:
        if self._pool is None:
            if self._starting is None:
                self._starting = asyncio.ensure_future(self._create_pool())
            # Shielded: a caller whose budget ends meanwhile leaves the start to finish (and
            # the pool to be kept) instead of abandoning half-started workers.
            await asyncio.shield(self._starting)
        return self._pool

    async def _create_pool(self) -> None:
        try:
            # The first fork waits for the forkserver to import ``preload``: off the loop.
            pool = await asyncio.to_thread(self._new_pool)
        finally:
            self._starting = None
        if self._closed:  # closed while starting
            pool.stop()
            await asyncio.to_thread(pool.join)
            raise InternalError("the worker pool is closed")
        self._pool = pool

    def _new_pool(self) -> Any:
        import pebble  # only processes that run jobs in workers pay for it

        context = multiprocessing.get_context(self.start_method)
        if self.start_method == "forkserver":
            from multiprocessing import resource_tracker

            # First, outside the block: starting the tracker unblocks SIGINT and SIGTERM in
            # the calling thread (the stdlib blocks them only around its own spawn).
            resource_tracker.ensure_running()
        with _stop_signals_blocked():
            if self.start_method == "forkserver":
                # Process-wide: applies when this process's forkserver starts (once).
                context.set_forkserver_preload([*self.preload, _FORKSERVER_LAST])
                # Started here, so it inherits the blocked signals (module docstring of
                # _stop_signals_blocked); pebble's own threads may restart it later.
                from multiprocessing import forkserver

                forkserver.ensure_running()
            pool = pebble.ProcessPool(
                max_workers=self.workers,
                max_tasks=TASKS_PER_WORKER,
                initializer=_worker_start,
                context=context,
            )
            try:
                started = pool.active  # starts the workers now, in this thread
            except BaseException:
                _stop_now(pool)  # its queues' semaphores would outlive the process
                raise
        if not started:
            _stop_now(pool)
            raise InternalError("the worker pool did not start")
        return pool

    def _discard_pool(self) -> None:
        """Forget a broken pool; the next job builds a new one. Its remaining workers are
        stopped by a background thread (pebble's ``join`` may wait seconds for them)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            self.stats["rebuilds"] += 1
            pool.stop()
            threading.Thread(target=pool.join, name="webresearch-cpu-reaper", daemon=True).start()
            log.warning("the CPU worker pool broke and will be rebuilt on the next job")

    # --- errors ---------------------------------------------------------------------------
    def _check_budget(self, started: float, timeout_s: float | None, what: str) -> None:
        if timeout_s is not None and time.monotonic() - started > timeout_s:
            self.stats["timeouts"] += 1
            raise self._timeout(what, timeout_s)

    @staticmethod
    def _timeout(what: str, timeout_s: float | None) -> Timeout:
        budget = max(0.0, timeout_s or 0.0)
        if budget <= 0:
            return Timeout(
                f"{what} was not started: the call's time budget was used up before it",
                hint=_TIMEOUT_HINT,
            )
        return Timeout(
            f"{what} was stopped after {budget:.3g} s: the call's time budget ran out "
            "before it finished",
            hint=_TIMEOUT_HINT,
        )

    @staticmethod
    def _lost(what: str, exc: BaseException) -> InternalError:
        log.warning("a CPU worker stopped during %s: %s", what, _describe_loss(exc))
        return InternalError(
            f"{what} failed: its worker process stopped unexpectedly and was replaced",
            hint="retry the call once; if it fails again, the document cannot be processed",
        )


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread meanwhile — and in every process started
    from it: a signal mask is inherited across fork and exec (the stdlib's resource
    tracker starts the same way).

    Why: a Ctrl-C or SIGTERM sent to the whole process group reached the forkserver while
    it imported its preload (1–3 s) and printed its ``KeyboardInterrupt`` traceback over
    the server's one line (or killed it, and the pool start failed). Blocked, the signal
    waits: the forkserver ignores SIGINT once its imports are done (the stdlib's
    ``forkserver.main``) and then takes SIGTERM again, dropping one that came meanwhile
    (:mod:`.cpu_forkserver`); each worker unblocks SIGINT once pebble ignores it
    (:func:`_worker_start`). This process stops the pool itself when it stops.
    """
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _stop_now(pool: Any) -> None:
    """Stop a pool that failed to start, and wait for it."""
    with contextlib.suppress(Exception):
        pool.stop()
        pool.join()


def _worker_start() -> None:
    """In each new worker (pebble's initializer, run after pebble ignores SIGINT and turns
    SIGTERM into a clean exit): take the stop signals again (blocked since the pool's
    start, :func:`_stop_signals_blocked`), and mark the process as CPU-bound batch work
    (``SCHED_BATCH``; no privilege needed; where the policy does not exist (not Linux),
    nothing changes)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _is_lost_worker(exc: BaseException) -> bool:
    from pebble import ProcessExpired

    return isinstance(exc, ProcessExpired)


def _describe_loss(exc: BaseException) -> str:
    code = getattr(exc, "exitcode", None)
    if isinstance(code, int) and code < 0:
        return f"killed by signal {-code}"
    if code is not None:
        return f"exit code {code}"
    return type(exc).__name__
