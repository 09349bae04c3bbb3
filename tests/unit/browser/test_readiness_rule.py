"""When a loaded page is ready to read (issue 15: on evidence, not a fixed silence), and the
app-shell rule that keeps ``open`` waiting for a page to draw itself (review issue 1)."""

from __future__ import annotations

import pytest

from webresearch.browser.page_scripts import SHORT_TIMER_MS
from webresearch.browser.readiness import (
    GRACE_S,
    QUIET_S,
    RELAX_S,
    Activity,
    is_empty_shell,
    is_settled,
    parse_activity,
)


@pytest.mark.parametrize(
    ("scripts", "text", "shell"),
    [
        (1, "", True),
        (3, "\n  Loading…  \n", True),
        (1, "Please wait", True),
        (0, "", False),  # nothing could fill it later
        (1, None, False),  # shows images, frames or form controls
        (1, "A page with a real sentence of text in it.", False),
        (2, "x" * 21, False),
    ],
)
def test_is_empty_shell(scripts: int, text: str | None, shell: bool) -> None:
    assert is_empty_shell(scripts, text) is shell


def _page(**changes: object) -> Activity:
    """A loaded page with scripts, nothing pending, calm for a second."""
    values: dict[str, object] = {
        "loaded": True,
        "title": "t",
        "scripts": 2,
        "fetches": 0,
        "timers": 0,
        "intervals": 0,
        "quiet_s": 1.0,
        "shell": False,
    }
    values.update(changes)
    return Activity(**values)  # type: ignore[arg-type]


def _settled(activity: Activity, pending: bool = False, net: float = 1.0, t: float = 0.0) -> bool:
    return is_settled(activity, requests_pending=pending, network_quiet_s=net, settling_s=t)


def test_a_page_without_scripts_is_ready_at_once() -> None:
    # Nothing can change it after its load event: no silence is waited for.
    assert _settled(_page(scripts=0, quiet_s=0.0, fetches=None, timers=None), net=0.0)
    assert not _settled(_page(scripts=0), pending=True)  # an image still loading


def test_a_page_whose_scripts_are_done_is_ready_after_a_short_calm() -> None:
    assert _settled(_page(quiet_s=GRACE_S), net=GRACE_S)
    assert not _settled(_page(quiet_s=GRACE_S / 2), net=GRACE_S)  # still drawing
    assert not _settled(_page(quiet_s=GRACE_S), net=GRACE_S / 2)  # a response just came


def test_a_pending_fetch_holds_a_page_until_the_silence_rule() -> None:
    assert not _settled(_page(fetches=1, quiet_s=QUIET_S / 2), net=QUIET_S)
    # Work that never ends (a poll every 100 ms) falls back to Playwright's networkidle
    # silence: network and content quiet for QUIET_S, or either after RELAX_S.
    assert _settled(_page(fetches=1, quiet_s=QUIET_S), net=QUIET_S)
    assert not _settled(_page(fetches=1, quiet_s=0.0), net=QUIET_S, t=RELAX_S / 2)
    assert _settled(_page(fetches=1, quiet_s=0.0), net=QUIET_S, t=RELAX_S)


def test_a_pending_short_timer_holds_a_page_until_it_could_have_fired() -> None:
    # A page with text and a 700 ms timer that draws more: the networkidle silence alone
    # (0.5 s) read it before the timer fired.
    timer_s = SHORT_TIMER_MS / 1000
    assert not _settled(_page(timers=1, quiet_s=QUIET_S), net=QUIET_S)
    assert not _settled(_page(timers=1, quiet_s=timer_s * 0.9), net=timer_s)
    # Calm for longer than any counted timer: the pending one is a chain set again.
    assert _settled(_page(timers=1, quiet_s=timer_s), net=timer_s)
    assert _settled(_page(timers=1, quiet_s=0.0), net=QUIET_S, t=RELAX_S)


def test_a_running_short_interval_is_work_that_never_ends() -> None:
    # A clock ticking every 100 ms: never "done", only the silence rule can settle it.
    assert not _settled(_page(intervals=1, quiet_s=GRACE_S), net=1.0)
    assert _settled(_page(intervals=1, quiet_s=QUIET_S), net=QUIET_S)


def test_unknown_counts_never_count_as_nothing_pending() -> None:
    # A backend that skipped the page guard script: only the silence rule applies.
    page = _page(fetches=None, timers=None, intervals=None, quiet_s=GRACE_S)
    assert not _settled(page, net=GRACE_S)
    assert _settled(_page(fetches=None, timers=None, intervals=None, quiet_s=QUIET_S), net=QUIET_S)


def test_an_empty_app_shell_without_a_script_failure_is_never_settled() -> None:
    assert not _settled(_page(shell=True, quiet_s=60.0), net=60.0, t=60.0)
    assert not _settled(_page(shell=True, quiet_s=60.0, errors=0), net=60.0, t=60.0)
    assert not _settled(_page(shell=True, quiet_s=60.0, errors=None), net=60.0, t=60.0)


def test_a_broken_app_shell_with_nothing_pending_is_settled() -> None:
    # Before: a shell whose script threw (or did not load) was waited for until the whole
    # readiness budget (15 s) ran out, though nothing could draw it any more.
    broken = _page(shell=True, errors=1, quiet_s=QUIET_S)
    assert _settled(broken, net=QUIET_S, t=RELAX_S)
    # A longer timer may still draw it despite the failure (a third-party script that did
    # not load): not before RELAX_S after the load.
    assert not _settled(broken, net=QUIET_S, t=RELAX_S / 2)
    # Anything still pending may yet draw it: it keeps waiting.
    assert not _settled(broken, pending=True, net=0.0, t=RELAX_S)
    assert not _settled(broken, net=QUIET_S / 2, t=RELAX_S)
    assert not _settled(_page(shell=True, errors=1, quiet_s=QUIET_S / 2), net=QUIET_S, t=RELAX_S)
    for pending in ({"timers": 1}, {"fetches": 1}, {"intervals": 1}, {"timers": None}):
        page = _page(shell=True, errors=1, quiet_s=QUIET_S, **pending)
        assert not _settled(page, net=1.0, t=RELAX_S)


def test_the_probe_answer_is_parsed() -> None:
    activity = parse_activity(["complete", "T", 3, 1, None, 2, 250.0, "Loading…"])
    assert activity == Activity(True, "T", 3, 1, None, 2, 0.25, True)
    assert parse_activity(["interactive", "", 0, 0, 0, 0, -1, None]).loaded is False
    assert parse_activity(["complete", "", 0, 0, 0, 0, 0, None, "about:blank"]).url == (
        "about:blank"
    )
    assert parse_activity(["complete", "", 1, 0, 0, 0, 0, "", "https://a.example/", 2]).errors == 2
    assert parse_activity(["complete", "", 1, 0, 0, 0, 0, "", "", None]).errors is None
    with pytest.raises((ValueError, TypeError, IndexError)):
        parse_activity(["complete"])
