"""Fresh-user review issue 4: a page script that never returns (``eval (()=>{while(true){}})()``)
held the action for the action timeout + 5 s (53 s by default), left the session hung, and
Chromium processes outlived the closed toolkit by seconds.

Now: the whole action is bounded by ``browser_action_timeout_s`` (+ a short grace), the
script is stopped (Chromium) or the hung browser ended (Lightpanda: single-threaded), and
close returns only when every browser process — those that left the process group
(Chromium's crash handlers) included — is gone.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.browser.conftest import BACKENDS, Sites, browser_settings
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The action timeout of these tests (seconds).
TIMEOUT_S = 2.0
#: How far past the timeout an action may end (ACTION_GRACE_S + an interrupt + a loaded
#: machine).
SLACK_S = 2.5

ENDLESS = "(() => { while (true) {} })()"


def _live(pid: int) -> bool:
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return data[data.rfind(")") + 2 :].split()[0] != "Z"


def _with_marker(marker: str) -> list[int]:
    """Pids whose command line holds ``marker`` (the browser's own profile directory)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    out.append(int(entry))
            except OSError:
                continue
    return out


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_endless_script_is_bounded_and_close_leaves_no_process(
    backend: str, sites: Sites
) -> None:
    toolkit = Toolkit(browser_settings(backend, browser_action_timeout_s=TIMEOUT_S))
    manager = toolkit.services.browser
    run = RunContext()
    try:
        opened = await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run
        )
        assert opened.ok, opened.text
        process = manager._backend._process if manager._backend is not None else None
        assert process is not None
        pids = manager.pids()
        if process.marker:
            pids += _with_marker(process.marker)  # helpers outside the group too
        started = time.monotonic()
        result = await toolkit.call(
            "browser", {"action": "evaluate", "expression": ENDLESS}, run=run
        )
        elapsed = time.monotonic() - started
        assert result.error is not None and result.error.code == "timeout", result.text
        assert elapsed < TIMEOUT_S + SLACK_S, f"the action took {elapsed:.1f} s"
        # The session is usable again (Chromium: the script was stopped), or the hung
        # browser was ended and a new open works (Lightpanda).
        after = await toolkit.call("browser", {"action": "content"}, run=run)
        if backend == "chromium":
            assert after.ok and "plain page" in after.text, after.text
        else:
            assert after.error is not None and "open" in after.text
            again = await toolkit.call(
                "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run
            )
            assert again.ok, again.text
            pids += manager.pids()
    finally:
        await toolkit.aclose()
    assert pids
    assert [p for p in pids if _live(p)] == [], "close returned before the browser was gone"
