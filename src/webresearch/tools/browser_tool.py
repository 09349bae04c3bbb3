"""The browser tool (SPEC §1.4): one tool, an ``action`` argument, a session per run.

Per call (the arguments already checked against the action's needs, :mod:`.browser_actions`):
limiter (``browser``, 60 per minute) → idle sessions of ANY run are closed → the run's
session (``run.browser_session`` or the run id, plus the model's ``session`` name; a kept
session starts from its saved state, :mod:`webresearch.browser.session_files`) → the action,
bounded by the call's ``timeout_ms`` (at most ``browser_max_timeout_s``) or the action
timeout → journal ``browser.action`` (with its risk), ``browser.blocked`` for refused
requests, ``browser.dialog`` for answered dialogs (:func:`~.browser_journal.journaled_action`).
Starting the browser and loading a page are reported to the caller
(:func:`webresearch.progress.report`, in the browser layer).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ..browser.page import StateKeeper
from ..browser.session_files import (
    check_session_name,
    load_session_state,
    save_session_state,
)
from ..browser.sessions import session_key
from ..config import Settings
from ..errors import BrowserError, Timeout
from ..runtime.waiting import wait_in_task
from ..types import JSONValue, ToolResult
from .base import CallContext, ToolEntry, Unavailable
from .browser_actions import ACTIONS_BY_NAME, BROWSER, BrowserArgs, Tab, normalize_arguments
from .browser_journal import journaled_action
from .browser_screenshot import TabScreenshots
from .gates import backend_unavailable_reason, browser_off
from .limits import browser_limit
from .service_shots import ServiceShooter, configured_shooter
from .services import Services

__all__ = ["ACTION_GRACE_S", "BrowserTool", "build", "call_timeout"]

#: What a timed-out action says when the browser did not answer and was ended.
HUNG = (
    "the browser stopped answering (a script in the page never returned), so it was ended "
    "with this session's page"
)
HUNG_HINT = "open the page again (action=open): a new browser starts"
#: What the next action of a session says after that.
HUNG_LOST = "this browser session's page is gone: the browser stopped answering and was ended"

#: Seconds an action may run past ``browser_action_timeout_s`` (the library's own timeouts
#: fire first; this bounds what they do not cover: a page script that never returns).
ACTION_GRACE_S = 1.0


def call_timeout(settings: Settings, timeout_ms: int | None) -> tuple[float, str | None]:
    """A browser call's time budget (seconds): its ``timeout_ms``, at most
    ``browser_max_timeout_s`` (then with a note saying so), else the action timeout."""
    if timeout_ms is None:
        return settings.browser_action_timeout_s, None
    ceiling = settings.browser_max_timeout_s
    if timeout_ms / 1000 <= ceiling:
        return timeout_ms / 1000, None
    return ceiling, f"note: timeout_ms was capped at {ceiling * 1000:.0f} (the operator's ceiling)"


class BrowserTool:
    """Runs browser actions for the Toolkit.

    Args:
        services: the process-wide services (the browser is ``services.browser``).
        shooter: the screenshot service that draws pages a pixel-less backend cannot.
    """

    def __init__(self, services: Services, shooter: ServiceShooter | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.screenshots = TabScreenshots(services, shooter)

    async def __call__(self, args: BrowserArgs, ctx: CallContext) -> ToolResult:
        """Run one browser action (raises the tool's errors; the Toolkit journals them)."""
        action = ACTIONS_BY_NAME[args.action]
        manager = self.services.browser
        await ctx.rate_limit()
        key = session_key(ctx.run.browser_session or ctx.run.run_id, args.session)
        expired = await manager.expire()
        if expired:
            await ctx.event("browser.sessions_expired", count=len(expired))
        head: dict[str, JSONValue] = {"action": action.name, "risk": action.risk}
        tail: dict[str, JSONValue] = {"session": args.session} if args.session else {}
        async with journaled_action(ctx, head, tail) as record:
            if action.run is None:  # close
                kept = manager.keeps_state(key)
                closed = await manager.close_session(key)
                record.outcome = "ok"
                text = "browser session closed" if closed else "no browser session was open"
                if kept:
                    text += " (its cookies and local storage are kept in the workspace)"
                return ToolResult(text, meta={"action": "close", "closed": closed, "kept": kept})
            if action.opens_url:
                await ctx.check_scope(str(args.url))
                await manager.policy.check_navigation(str(args.url))
            state, keeper = await self._kept(args, ctx, key)
            timeout_s, note = call_timeout(self.settings, args.timeout_ms)
            session, lost = await manager.session(
                key,
                create=action.opens_url,
                storage_state=state,
                keeper=keeper,
                start_timeout_s=timeout_s,  # a hung start must not hold the call past it
            )
            if session is None:
                if lost and manager.ended_hung:
                    raise BrowserError(HUNG_LOST, hint=HUNG_HINT)
                raise BrowserError(
                    "this browser session has no page open"
                    + (" (the browser tab was lost)" if lost else ""),
                    hint="call browser with action=open and a url first",
                )
            record.session = session
            if action.reads_page:
                # The browser's error page is no page content (it names the refused host).
                error_page = session.error_page()
                if error_page is not None:
                    raise error_page
            meta: dict[str, object] = {
                "action": action.name,
                "backend": session.capabilities.backend,
                "trust": "untrusted",
            }
            if state is not None:
                meta["restored"] = True
            tab = Tab(session, ctx, self.settings, self.screenshots, meta, self.services.cpu)
            try:
                with session.limits(timeout_s if args.timeout_ms is not None else None):
                    result = await wait_in_task(
                        action.run(tab, args), timeout_s + ACTION_GRACE_S
                    )
            except asyncio.CancelledError:
                # The caller gave up (an MCP client's cancel): stop the tab's loading and
                # script so the session is free for the next action, then let it propagate.
                await session.stop()
                raise
            except TimeoutError:
                # A script still running in the page (an endless loop) would hang every
                # later action of the session: stop it, or end a browser that is hung.
                message = f"browser action {action.name} timed out after {timeout_s:g} s"
                if not await session.interrupt() and await manager.kill_hung_backend():
                    raise Timeout(f"{message}: {HUNG}", hint=HUNG_HINT) from None
                raise Timeout(
                    message, hint="take a snapshot to see the page, or wait for a selector"
                ) from None
            except Timeout as timed_out:
                # The library's own bound fired first: a click (fill, press…) waits for its
                # event's handler, which may still be running (an endless loop) and would
                # hang the next action. Stop it if the tab is busy, as above.
                if not await session.interrupt(if_busy=True) and await manager.kill_hung_backend():
                    raise Timeout(f"{timed_out.message}: {HUNG}", hint=HUNG_HINT) from None
                raise
            if note is not None:
                result = ToolResult(f"{result.text}\n{note}", result.images, result.meta)
            return await record.succeeded(result)

    async def _kept(
        self, args: BrowserArgs, ctx: CallContext, key: str
    ) -> tuple[dict[str, Any] | None, StateKeeper | None]:
        """For a named session about to be opened where sessions are kept
        (``browser_persist_sessions`` and a workspace): its saved state (``None``: none
        yet) and what saves it when it closes. ``(None, None)`` otherwise.

        Raises:
            InvalidArguments: the name cannot name a file.
            BrowserError: the saved state cannot be read safely.
        """
        workspace = ctx.run.workspace
        name = args.session
        if (
            not self.settings.browser_persist_sessions
            or workspace is None
            or name is None
            or not ACTIONS_BY_NAME[args.action].opens_url
            or self.services.browser.has_session(key)
        ):
            return None, None
        check_session_name(name)
        root = Path(workspace)
        state = await asyncio.to_thread(load_session_state, root, name)

        async def keep(state: dict[str, Any]) -> None:
            await asyncio.to_thread(save_session_state, root, name, state)

        return state, keep


def build(services: Services) -> ToolEntry[BrowserArgs] | Unavailable:
    """The browser tool, or why it cannot be offered (no Playwright / no backend)."""
    reason = backend_unavailable_reason(services)
    if reason is not None:
        return Unavailable("browser", reason, quiet=browser_off(services))
    return ToolEntry(
        spec=BROWSER,
        arguments=BrowserArgs.from_json,
        run=BrowserTool(services, configured_shooter(services)),
        risk=lambda args: ACTIONS_BY_NAME[args.action].risk,
        rate_limit=browser_limit(services.settings),
        normalize=normalize_arguments,
    )
