"""webresearch.progress: a call's progress lines reach its own caller, nobody else's."""

from __future__ import annotations

import asyncio
import logging

import pytest

from webresearch import progress


def test_outside_a_call_reporting_does_nothing() -> None:
    progress.report("starting Chromium")  # no callback in force: no error, no effect


async def test_lines_reach_the_callback_of_their_own_call_and_its_tasks() -> None:
    first: list[str] = []
    second: list[str] = []

    async def call(lines: list[str], name: str) -> None:
        with progress.reporting(lines.append):
            progress.report(f"{name} starts")
            await asyncio.sleep(0)  # the other call runs in between
            await asyncio.create_task(_stage(f"{name} in a task"))
            progress.report(f"{name} ends")
        progress.report("after the block")

    await asyncio.gather(call(first, "one"), call(second, "two"))
    assert first == ["one starts", "one in a task", "one ends"]
    assert second == ["two starts", "two in a task", "two ends"]


async def _stage(line: str) -> None:
    progress.report(line)


def test_none_keeps_the_callback_in_force() -> None:
    lines: list[str] = []
    with progress.reporting(lines.append), progress.reporting(None):
        progress.report("still reported")
    assert lines == ["still reported"]


def test_a_failing_callback_is_logged_never_raised(caplog: pytest.LogCaptureFixture) -> None:
    def broken(line: str) -> None:
        raise ValueError("sink is gone")

    with caplog.at_level(logging.ERROR, "webresearch"), progress.reporting(broken):
        progress.report("loading the page")
    assert "progress callback failed" in caplog.text
