"""The pure rules behind an action's report of where it led (browser/page_settle.py,
tools/browser_reading.py; new-user test, session 17)."""

from __future__ import annotations

from webresearch.browser.page_settle import pending_work
from webresearch.tools.browser_reading import (
    SAME_DOCUMENT_NOTE,
    STALE_REFS_NOTE,
    navigation_note,
)


def test_work_the_action_set_off_is_pending_work() -> None:
    # each look: pending timeouts of at most FOLLOW_TIMER_MS plus unanswered fetch/XHR calls
    assert pending_work(0, 1) is True  # a timer it set, or a fetch it sent
    assert pending_work(1, 2) is True
    assert pending_work(1, 1) is False  # a poll loop swapping a fetch for a timer (r-18a)
    assert pending_work(2, 1) is False
    assert pending_work(None, 1) is None  # no activity record
    assert pending_work(1, None) is None


def test_refs_are_stale_only_when_another_document_loaded() -> None:
    a, b = "http://127.0.0.1:8000/app", "http://127.0.0.1:8000/app/fares"
    assert navigation_note(a, b, "L1", "L1") == SAME_DOCUMENT_NOTE  # history.pushState
    assert navigation_note(a, a, "L1", "L2") == STALE_REFS_NOTE  # a reload of the same URL
    assert navigation_note(a, b, "L1", "L2") == STALE_REFS_NOTE
    assert navigation_note(a, a, "L1", "L1") is None
    assert navigation_note(a, b, "", "") == STALE_REFS_NOTE  # no ids: the URL decides
    assert navigation_note(a, a, "", "L2") is None
