"""The per-call callback behind progress lines and the ``-vv`` trace."""

from __future__ import annotations

import asyncio
import logging

import pytest

from webresearch.call_sink import CallSink


def test_emit_reaches_the_callback_only_inside_the_block() -> None:
    sink: CallSink[[str]] = CallSink("test_sink", "test")
    seen: list[str] = []
    sink.emit("before")
    assert not sink.active()
    with sink.receiving(seen.append):
        assert sink.active()
        sink.emit("inside")
        with sink.receiving(None):  # None keeps the callback in force
            sink.emit("still")
    sink.emit("after")
    assert seen == ["inside", "still"]


def test_a_failing_callback_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    sink: CallSink[[str, dict[str, object]]] = CallSink("test_sink", "trace")

    def broken(step: str, facts: dict[str, object]) -> None:
        raise RuntimeError(step)

    with caplog.at_level(logging.ERROR, "webresearch"), sink.receiving(broken):
        sink.emit("hop", {"ms": 1})
    assert "trace callback failed" in caplog.text


def test_concurrent_calls_keep_their_own_callbacks() -> None:
    sink: CallSink[[str]] = CallSink("test_sink", "test")
    got: dict[str, list[str]] = {"a": [], "b": []}

    async def call(name: str) -> None:
        with sink.receiving(got[name].append):
            await asyncio.sleep(0)
            sink.emit(name)
            await asyncio.gather(asyncio.create_task(child(name)))

    async def child(name: str) -> None:  # a task the call starts inherits its callback
        await asyncio.sleep(0)
        sink.emit(f"{name}-child")

    async def both() -> None:
        await asyncio.gather(call("a"), call("b"))

    asyncio.run(both())
    assert got == {"a": ["a", "a-child"], "b": ["b", "b-child"]}
