"""Python's cyclic garbage collector paused while one page is extracted on the main thread.

An extraction allocates millions of container objects, among them one lxml proxy per
element each pass reads (proxies are tracked by the collector), and holds many for the
whole page (:func:`~webresearch.extract.tree.held_elements`, the attribute rows, the text
segments). Allocations trigger collections: on the Zyte and WCXB pages about seven a page,
among them a full collection of the whole process's heap every few pages, 3.4 ms a page in
all (trafilatura's own extraction: 1.0 ms). Nothing an extraction builds needs the
collector: its objects form no reference cycles that outlive it and are freed by reference
counting when the page is done; the next allocations after it trigger a collection as
before. Measured: our median CPU time a page −2 % (114 pages, interleaved in one process,
min of 2), the same output.

The collector's switch is one for the whole process, so a pause is decided per conversion
by the thread it runs on, with nothing shared between conversions: only a conversion on the
process's main thread pauses it — the CPU pool's worker processes run their jobs there
(pebble, as ``concurrent.futures``), and so does an event loop on the main thread for the
small rendered pages it converts itself (``tools/browser_reading``: ``browse``, a server's
browser tool) —, and the main thread's pauses cannot overlap one another (each ends before
the next begins, or nests inside it), so each leaves the switch as it found it. A
conversion in another thread leaves the switch alone: a pool without worker processes
(``cpu_workers=0``, as the CLI's one-shot ``fetch`` uses) converts in a daemon thread
(``runtime/cpu_pool``, ``tools/local_page``), and so do a library user's threads; those
conversions run with the collector on (the ~2 % above). Before, two conversions in two
threads each turned the collector off and on, and the first to end turned it back on while
the other was still inside its page (review: process-wide state). A collector that the
program turned off stays off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """On the main thread: turn the cyclic garbage collector off inside the block, back on
    after it if it was on. On any other thread: nothing (module docstring)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
