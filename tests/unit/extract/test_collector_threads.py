"""The collector pause of a conversion (extract/collector.py) is no state shared between
conversions: a conversion in another thread never turns the process's collector on or off,
so it can neither end the main thread's pause early nor leave the collector off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from webresearch.extract.collector import collector_paused
from webresearch.extract.html import extract_html

PAGE = (
    "<html><head><title>Tides</title></head><body><main><h1>Tides</h1>"
    "<p>High water at the harbour mouth is at 06:12 and 18:40 today.</p></main></body></html>"
)


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.enable()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_a_conversion_in_a_thread_does_not_end_the_main_threads_pause() -> None:
    """Thread T starts its page first, the main thread second, T ends first: before, T
    (which found the collector on) turned it back on inside the main thread's page."""
    inside, main_inside, leave = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with collector_paused():
            seen.append(gc.isenabled())
            inside.set()
            main_inside.wait(5)
        leave.set()

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(5)
    with collector_paused():
        main_inside.set()
        assert leave.wait(5)
        assert not gc.isenabled()  # the main thread's page: still no collection
    thread.join(5)
    assert gc.isenabled()  # as it was found
    assert seen == [True]  # the thread's conversion left the switch alone


def test_two_threads_converting_at_once_leave_the_collector_as_found() -> None:
    start = threading.Barrier(2)
    outs: list[str] = []

    def convert() -> None:
        start.wait(5)
        for _ in range(5):
            outs.append(extract_html(PAGE, "https://harbour.example/tides").markdown)

    threads = [threading.Thread(target=convert) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(outs) == 10 and all("06:12" in out for out in outs)
    assert gc.isenabled()


def test_the_main_thread_pauses_and_restores() -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer pause holds
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()  # turned off by the program: stays off
