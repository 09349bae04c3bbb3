"""The pure rules behind an action's report of where it led (browser/page_settle.py,
tools/browser_reading.py; new-user test, session 17)."""

from __future__ import annotations

from webresearch.browser.page_settle import pending_work
from webresearch.browser.readiness import Activity
from webresearch.tools.browser_reading import (
    SAME_DOCUMENT_NOTE,
    STALE_REFS_NOTE,
    navigation_note,
)


def activity(timers: int | None, fetches: int | None) -> Activity:
    return Activity(True, "Harbour", 1, fetches, timers, 0, 1.0, False)


def test_work_the_action_set_off_is_pending_work() -> None:
    assert pending_work(activity(0, 0), activity(1, 0)) is True  # a timer it set
    assert pending_work(activity(1, 0), activity(1, 1)) is True  # a fetch it sent
    assert pending_work(activity(1, 0), activity(1, 0)) is False  # a page's own timer chain
    assert pending_work(activity(2, 1), activity(1, 0)) is False
    assert pending_work(activity(None, None), activity(1, 0)) is None  # no activity record
    assert pending_work(None, activity(1, 0)) is None


def test_refs_are_stale_only_when_another_document_loaded() -> None:
    a, b = "http://127.0.0.1:8000/app", "http://127.0.0.1:8000/app/fares"
    assert navigation_note(a, b, "L1", "L1") == SAME_DOCUMENT_NOTE  # history.pushState
    assert navigation_note(a, a, "L1", "L2") == STALE_REFS_NOTE  # a reload of the same URL
    assert navigation_note(a, b, "L1", "L2") == STALE_REFS_NOTE
    assert navigation_note(a, a, "L1", "L1") is None
    assert navigation_note(a, b, "", "") == STALE_REFS_NOTE  # no ids: the URL decides
    assert navigation_note(a, a, "", "L2") is None
