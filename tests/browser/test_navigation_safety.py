"""Acceptance: no navigation or subresource request reaches a private address or a
disallowed domain, redirect hops included — on both backends (SPEC §1.4, §2).

The forbidden servers' own request logs are the evidence: they must see zero requests.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_open_of_a_private_address_is_refused_before_the_browser_sees_it(
    kit: Kit, sites: Sites
) -> None:
    sites.private.reset_log()
    run = RunContext()
    result = await kit.call(run, action="open", url=f"{sites.private.base}/secret")
    assert result.error is not None and result.error.code == "blocked_address"
    assert sites.private.count() == 0


async def test_open_of_a_disallowed_domain_is_refused(kit: Kit, sites: Sites) -> None:
    sites.domain.reset_log()
    result = await kit.call(RunContext(), action="open", url=f"{sites.domain.base}/secret")
    assert result.error is not None and result.error.code == "blocked_domain"
    assert sites.domain.count() == 0


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/to-private", "blocked_address"),
        ("/to-domain", "blocked_domain"),
        ("/chain", "blocked_address"),
    ],
)
async def test_redirect_hops_to_forbidden_targets_are_refused(
    kit: Kit, sites: Sites, path: str, code: str
) -> None:
    sites.private.reset_log()
    sites.domain.reset_log()
    run = RunContext()
    result = await kit.call(run, action="open", url=f"{sites.site.base}{path}")
    assert result.error is not None, result.text
    assert result.error.code == code
    # A redirect target was not chosen by the model: the message does not echo it.
    assert sites.private.base not in result.text and sites.domain.base not in result.text
    assert sites.forbidden_hits() == 0
    assert sites.site.count(path) >= 1, "the allowed first hop was really requested"
    blocked = await kit.journal.query(run_id=run.run_id, kind="browser.blocked")
    assert blocked and blocked[-1].details["code"] == code
    assert blocked[-1].details["navigation"] is True
    await kit.call(run, action="close")


async def test_subresources_of_every_kind_never_reach_forbidden_targets(
    kit: Kit, sites: Sites
) -> None:
    sites.private.reset_log()
    sites.domain.reset_log()
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{sites.site.base}/subresources")
    assert opened.ok, opened.text
    assert (await kit.call(run, action="wait", ms=300)).ok
    content = await kit.call(run, action="content")
    assert content.ok
    assert sites.forbidden_hits() == 0, [r.path for r in sites.private.log + sites.domain.log]
    blocked = await kit.journal.query(run_id=run.run_id, kind="browser.blocked")
    codes = {e.details["code"] for e in blocked}
    assert "blocked_address" in codes and "blocked_domain" in codes
    assert "refused by policy" in opened.text + content.text
    ws = await kit.call(
        run, action="evaluate", expression="document.getElementById('status').dataset.ws"
    )
    assert 'value: "blocked"' in ws.text, "a WebSocket to another host is refused in the page"
    await kit.call(run, action="close")


async def test_clicking_a_link_to_a_forbidden_target_is_refused(kit: Kit, sites: Sites) -> None:
    sites.private.reset_log()
    sites.domain.reset_log()
    run = RunContext()
    for selector in ("#go", "#go2"):
        assert (await kit.call(run, action="open", url=f"{sites.site.base}/jump")).ok
        clicked = await kit.call(run, action="click", selector=selector)
        assert clicked.ok, clicked.text
        waited = await kit.call(run, action="wait", ms=300)
        notes = [
            line
            for line in (clicked.text + "\n" + waited.text).splitlines()
            if line.startswith("note: refused") and "navigation" in line
        ]
        assert notes, clicked.text + waited.text
        assert all(line.count("refused") == 1 for line in notes)  # said once
    assert sites.forbidden_hits() == 0
    blocked = await kit.journal.query(run_id=run.run_id, kind="browser.blocked")
    assert {e.details["code"] for e in blocked} >= {"blocked_address", "blocked_domain"}
    await kit.call(run, action="close")


async def test_a_refused_navigation_is_said_on_the_clicks_own_result(
    kit: Kit, sites: Sites
) -> None:
    """A click whose navigation (at once, or 400 ms later from a timer) is refused says why
    in its own result, among its lines — the refusal read as the next action's when it came
    after a blank line (new-user test, session 18) — and the forbidden servers see nothing."""
    sites.private.reset_log()
    sites.domain.reset_log()
    run = RunContext()
    for selector in ("#go", "#go2", "#late"):
        assert (await kit.call(run, action="open", url=f"{sites.site.base}/jump")).ok
        clicked = await kit.call(run, action="click", selector=selector)
        assert clicked.ok, clicked.text
        lines = clicked.text.split("\n")
        assert lines[1] == "clicked" and "" not in lines, clicked.text  # one block
        notes = [ln for ln in lines if ln.startswith("note: refused") and "navigation" in ln]
        assert len(notes) == 1, clicked.text
    assert sites.forbidden_hits() == 0
    await kit.call(run, action="close")


async def test_a_form_submitted_by_a_key_to_a_forbidden_target_is_refused(
    kit: Kit, sites: Sites
) -> None:
    """A navigation a key press starts (Enter submits the form) passes the same guard as a
    click's: refused, said once, and the forbidden servers see nothing."""
    sites.private.reset_log()
    sites.domain.reset_log()
    run = RunContext()
    for field in ("#q", "#q2"):
        assert (await kit.call(run, action="open", url=f"{sites.site.base}/jump")).ok
        assert (await kit.call(run, action="fill", selector=field, text="x")).ok
        pressed = await kit.call(run, action="press", key="Enter")
        assert pressed.ok, pressed.text
        notes = [
            line
            for line in pressed.text.splitlines()
            if line.startswith("note: refused") and "navigation" in line
        ]
        assert len(notes) == 1, pressed.text
    assert sites.forbidden_hits() == 0
    blocked = await kit.journal.query(run_id=run.run_id, kind="browser.blocked")
    assert {e.details["code"] for e in blocked} >= {"blocked_address", "blocked_domain"}
    await kit.call(run, action="close")
