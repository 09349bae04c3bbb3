"""The browser tool (SPEC §1.4): one tool, an ``action`` argument, a session per run.

Per call: validate the action's arguments → limiter (``browser``, 60 per minute) → idle
sessions of ANY run are closed → the run's session (``run.browser_session`` or the run id,
plus the model's ``session`` name) → the action, bounded by the action timeout → journal
``browser.action`` (with its risk), ``browser.blocked`` for refused requests,
``browser.dialog`` for answered dialogs.

Page text is untrusted: every text that carries page content starts with web_fetch's
untrusted-data notice. ``content`` runs the rendered DOM through the same extraction and
output format as web_fetch (:func:`~webresearch.tools.web_fetch.format_document`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from ..browser.backend import playwright_available
from ..browser.base import BlockedRequest, DialogRecord
from ..browser.launch_args import chromium_problem, find_lightpanda
from ..browser.manager import BrowserManager
from ..browser.page import PlaywrightSession
from ..browser.page_values import to_json
from ..browser.sessions import session_key
from ..browser.snapshot import render_snapshot
from ..errors import BrowserError, InvalidArguments, Timeout
from ..redact import redact_text, redact_url
from ..types import ImageBlock, ToolResult
from .base import CallContext, ToolEntry, Unavailable
from .service_shots import ServiceShooter, configured_shooter
from .services import Services
from .specs import BROWSER
from .web_fetch import EMPTY_HTML_NOTE, UNTRUSTED_NOTICE, format_document

__all__ = [
    "BROWSER_EMPTY_NOTE",
    "MAX_SCREENSHOT_TILES",
    "BrowserTool",
    "action_risk",
    "backend_unavailable_reason",
    "build",
    "manager_for",
    "page_renderer",
    "readiness_note",
]

#: Actions that change the outside world (SPEC §3: risk ``medium``).
MEDIUM_RISK = frozenset({"click", "fill", "press", "evaluate"})
#: Most viewport tiles of a full-page screenshot (SPEC §1.4: "a few").
MAX_SCREENSHOT_TILES = 4
#: Seconds an action may run past ``browser_action_timeout_s`` (the library's own timeouts
#: fire first; this bounds what they do not cover: a page script that never returns).
ACTION_GRACE_S = 1.0
#: Characters of an evaluate result shown to the model.
EVALUATE_MAX_CHARS = 16_000
#: Body of ``content`` when the rendered page has no readable text (web_fetch's note points
#: to the browser tool; this IS the browser tool).
BROWSER_EMPTY_NOTE = (
    "[the page shows no readable text yet: it may still be drawing itself, or show its content "
    "as images or a canvas. Use wait (a selector, or ms), then content again; or snapshot or "
    "screenshot to see what it shows]"
)

_managers: weakref.WeakKeyDictionary[Services, BrowserManager] = weakref.WeakKeyDictionary()


def action_risk(arguments: dict[str, Any]) -> Literal["low", "medium"]:
    """``medium`` for click/fill/press/evaluate, else ``low``."""
    return "medium" if arguments.get("action") in MEDIUM_RISK else "low"


def backend_unavailable_reason(services: Services) -> str | None:
    """Why no browser backend can run in this process, or ``None`` when one can."""
    settings = services.settings
    if not playwright_available():
        return "Playwright is not installed (pip install 'webresearch[browser]')"
    kind = settings.browser_backend
    if kind == "chromium":
        return chromium_problem(settings.chromium_path)
    if kind == "lightpanda" and find_lightpanda() is None:
        return "Lightpanda is not installed (pip install 'webresearch[browser]')"
    if kind == "cdp" and settings.browser_cdp_url is None:
        return "browser_backend is cdp but browser_cdp_url is not set"
    return None


def manager_for(services: Services) -> BrowserManager:
    """The one browser manager of ``services`` (created on first use, closed with them)."""
    manager = _managers.get(services)
    if manager is None:
        manager = BrowserManager(
            services.settings, services.guard, clock=services.clock, connector=services.connector
        )
        _managers[services] = manager
        services.on_close(manager.aclose)
    return manager


def page_renderer(
    services: Services,
) -> Callable[[str], Awaitable[tuple[str, str, str]]] | None:
    """web_fetch's renderer (``render: auto``): the process's browser, or ``None`` when
    rendering is off or no backend can run."""
    if services.settings.render == "never" or backend_unavailable_reason(services) is not None:
        return None
    return manager_for(services).render


def build(services: Services) -> ToolEntry | Unavailable:
    """The browser tool entry, or why it cannot be offered (no Playwright / no backend)."""
    reason = backend_unavailable_reason(services)
    if reason is not None:
        return Unavailable("browser", reason)
    tool = BrowserTool(services, manager_for(services), configured_shooter(services))
    return ToolEntry(spec=BROWSER, run=tool, risk=action_risk)


def _need(arguments: dict[str, Any], action: str) -> None:
    def missing(what: str) -> InvalidArguments:
        return InvalidArguments(
            f"browser action {action} needs {what}",
            hint=f"call browser with action={action} and {what}",
        )

    if action == "open" and not arguments.get("url"):
        raise missing("url")
    if action in ("click", "fill") and not (arguments.get("selector") or arguments.get("ref")):
        raise missing("a selector or a ref")
    if action == "fill" and "text" not in arguments:
        raise missing("text")
    if action == "press" and not arguments.get("key"):
        raise missing("key")
    if action == "evaluate" and not arguments.get("expression"):
        raise missing("expression")
    if action == "wait" and not (
        arguments.get("selector") or arguments.get("ref") or arguments.get("ms") is not None
    ):
        raise missing("a selector, a ref or ms")


#: (blocked requests, dialogs, notes) drained from a session after an action.
Drained = tuple[list[BlockedRequest], list[DialogRecord], list[str]]


def _article(word: str) -> str:
    """``an`` before a vowel (an alert, an unknown…), else ``a`` (a confirm, a prompt)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _with_notes(result: ToolResult, drained: Drained) -> ToolResult:
    """Append what happened besides the action (dialogs, refusals, closed popups)."""
    blocked, dialogs, notes = drained
    extra = list(notes)
    for dialog in dialogs:
        extra.append(
            f"{_article(dialog.type)} {dialog.type} dialog was {dialog.answer}: {dialog.message!r}"
        )
    navs = [b for b in blocked if b.navigation]
    if navs:
        message = navs[-1].message  # "refused: a navigation to …" (browser.policy wording)
        extra.append(message if "navigation" in message else f"a navigation was {message}")
    others = len(blocked) - len(navs)
    if others:
        extra.append(f"{others} request(s) of the page were refused by policy")
    if not extra:
        return result
    text = result.text + "\n\n" + "\n".join(f"note: {redact_text(e)}" for e in extra)
    return ToolResult(text=text, images=result.images, meta=result.meta, error=result.error)


async def _journal_events(drained: Drained, ctx: CallContext) -> None:
    blocked, dialogs, _notes = drained
    for record in blocked[:20]:
        await ctx.event(
            "browser.blocked",
            url=record.url,
            code=record.code,
            reason=record.message,
            resource_type=record.resource_type,
            navigation=record.navigation,
        )
    if len(blocked) > 20:
        await ctx.event("browser.blocked", more=len(blocked) - 20)
    for dialog in dialogs:
        await ctx.event(
            "browser.dialog", type=dialog.type, message=dialog.message, answer=dialog.answer
        )


def readiness_note(ready: bool, settled: bool, budget_s: float) -> str | None:
    """The note for a page that was not ready (no load event) or not settled (still busy)
    when the readiness budget ran out, else ``None``."""
    if not ready:
        return f"note: the page had not finished loading after {budget_s:g} s"
    if not settled:
        return (
            f"note: the page was still changing after {budget_s:g} s; its content may be "
            "incomplete (wait for a selector, then read it again)"
        )
    return None


def _page_header(url: str, title: str) -> list[str]:
    return [UNTRUSTED_NOTICE, f"url: {redact_url(url)}", f"title: {redact_text(title)}"]


def extract_page(html: str, url: str) -> tuple[str, str, str, str | None]:
    """Rendered HTML → (title, markdown, extractor, fallback) with web_fetch's extraction."""
    from ..extract.html import extract_html

    result = extract_html(html, url)
    return result.title, result.markdown, result.extractor, result.fallback


async def read_rendered(
    session: PlaywrightSession, max_bytes: int, *, empty_note: str | None = None
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The rendered page (and its frames) through web_fetch's extraction and output format.

    Args:
        session: the tab to read.
        max_bytes: the output window (web_fetch's ``fetch_max_bytes``).
        empty_note: replaces web_fetch's empty-page note (whose advice is to use the
            browser) when the caller is already in a browser session.

    Returns:
        (text in SPEC §1.1 format, the document: url/title/text, facts for the metadata:
        extractor, fallback, sha256 of the HTML and the output window).
    """
    url, title, html, frames = await session.html()
    page_title, markdown, extractor, fallback = await asyncio.to_thread(extract_page, html, url)
    parts = [markdown]
    for frame in frames:
        _t, frame_md, _e, _f = await asyncio.to_thread(extract_page, frame.html, frame.url)
        if frame_md.strip():
            parts.append(f"## {frame.heading}\n\n{frame_md}")
    doc: dict[str, Any] = {
        "url": redact_url(url),
        "content_type": "text/html",
        "title": redact_text(title or page_title),
        "text": redact_text("\n\n".join(p for p in parts if p)),
        "markdown": True,
    }
    text, window = format_document(doc, 0, max_bytes)
    if empty_note is not None and not str(doc["text"]).strip():
        text = text.replace(EMPTY_HTML_NOTE, empty_note)
    facts = {
        "extractor": extractor,
        "fallback": fallback,
        "sha256": hashlib.sha256(html.encode("utf-8", "replace")).hexdigest(),
        **window,
    }
    return text, doc, facts


class BrowserTool:
    """Runs browser actions for the Toolkit.

    Args:
        services: the process-wide services.
        manager: the process's browser manager.
    """

    def __init__(
        self,
        services: Services,
        manager: BrowserManager,
        shooter: ServiceShooter | None = None,
    ) -> None:
        self.services = services
        self.manager = manager
        self.settings = services.settings
        #: the screenshot service that draws pages a pixel-less backend cannot (issue 8).
        self.shooter = shooter

    async def _service_screenshot(
        self, url: str, full_page: bool, ctx: CallContext, meta: dict[str, Any]
    ) -> ToolResult:
        """The screenshot service draws the session's URL (one paid request; its own load of
        the page: cookies, typed text and script state are not carried over)."""
        assert self.shooter is not None
        shot = await self.shooter.shoot(url, ctx, full_page=full_page)
        note = (
            "note: drawn by the screenshot service from the same URL (cookies, typed text "
            "and script state are not carried over)"
        )
        return ToolResult(
            text=f"{shot.text}\n{note}",
            images=shot.images,
            meta={**meta, **shot.meta, "rendered_by": "service"},
        )

    async def __call__(self, arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        """Run one browser action (raises the tool's errors; the Toolkit journals them)."""
        action = str(arguments["action"])
        if action == "navigate":
            action = "open"
        _need(arguments, action)
        await ctx.rate_limit("browser")
        run_key = ctx.run.browser_session or ctx.run.run_id
        name = arguments.get("session")
        key = session_key(run_key, name)
        expired = await self.manager.expire()
        if expired:
            await ctx.event("browser.sessions_expired", count=len(expired))
        risk = action_risk({"action": action})
        outcome = "error"
        session: PlaywrightSession | None = None
        drained: Drained | None = None
        try:
            if action == "close":
                closed = await self.manager.close_session(key)
                outcome = "ok"
                return ToolResult(
                    text="browser session closed" if closed else "no browser session was open",
                    meta={"action": "close", "closed": closed},
                )
            if action == "open":
                url = str(arguments["url"])
                await ctx.check_scope(url)
                await self.manager.policy.check_navigation(url)
            session, lost = await self.manager.session(key, create=action == "open")
            if session is None:
                raise BrowserError(
                    "this browser session has no page open"
                    + (" (the browser tab was lost)" if lost else ""),
                    hint="call browser with action=open and a url first",
                )
            try:
                result = await asyncio.wait_for(
                    self._act(action, arguments, session, ctx),
                    self.settings.browser_action_timeout_s + ACTION_GRACE_S,
                )
            except TimeoutError:
                # A script still running in the page (an endless loop) would hang every
                # later action of the session: stop it, or end a browser that is hung.
                hint = "take a snapshot to see the page, or wait for a selector"
                if not await session.interrupt() and await self.manager.kill_hung_backend():
                    hint = "the browser was hung and has been ended: open the page again"
                raise Timeout(
                    f"browser action {action} timed out after "
                    f"{self.settings.browser_action_timeout_s:g} s",
                    hint=hint,
                ) from None
            drained = await session.drain_events()
            outcome = "ok"
            return _with_notes(result, drained)
        finally:
            details: dict[str, Any] = {"action": action, "risk": risk, "outcome": outcome}
            if name:
                details["session"] = name
            if session is not None:
                with contextlib.suppress(Exception):
                    details["url"] = redact_url(str(session.page.url))[:300]
                if drained is None:
                    with contextlib.suppress(Exception):
                        drained = await session.drain_events()
                if drained is not None:
                    await _journal_events(drained, ctx)
            await ctx.event("browser.action", **details)

    async def _act(
        self, action: str, args: dict[str, Any], session: PlaywrightSession, ctx: CallContext
    ) -> ToolResult:
        caps = session.capabilities
        meta: dict[str, Any] = {"action": action, "backend": caps.backend, "trust": "untrusted"}
        if action == "open":
            nav = await session.open(str(args["url"]))
            lines = _page_header(nav.url, nav.title)
            if nav.status is not None:
                lines.append(f"status: {nav.status}")
            note = readiness_note(nav.ready, nav.settled, self.settings.browser_ready_timeout_s)
            if note:
                lines.append(note)
            meta.update(
                url=redact_url(nav.url), status=nav.status, ready=nav.ready, settled=nav.settled
            )
            return await self._result(session, lines, meta)
        if action in ("back", "forward"):
            moved = await session.history(-1 if action == "back" else 1)
            if moved is None:
                url, title = await session.location()
                lines = [f"no {'previous' if action == 'back' else 'next'} page in this tab"]
                lines += _page_header(url, title)[1:]
                return await self._result(session, lines, meta)
            return await self._result(session, _page_header(moved.url, moved.title), meta)
        if action in ("click", "fill", "press", "scroll", "wait"):
            before = str(session.page.url)
            if action == "click":
                note = await session.click(args.get("selector"), args.get("ref"))
            elif action == "fill":
                note = await session.fill(args.get("selector"), args.get("ref"), str(args["text"]))
            elif action == "press":
                note = await session.press(str(args["key"]))
            elif action == "scroll":
                note = await session.scroll(
                    args.get("direction"), args.get("amount"), args.get("selector"), args.get("ref")
                )
            else:
                note = await session.wait(args.get("selector"), args.get("ref"), args.get("ms"))
            url, title = await session.location()
            lines = [note, f"url: {redact_url(url)}", f"title: {redact_text(title)}"]
            if url != before:
                lines.append("note: the page navigated; earlier refs are stale")
            lines.insert(0, UNTRUSTED_NOTICE)
            return await self._result(session, lines, meta)
        if action == "evaluate":
            ok, value = await session.evaluate(str(args["expression"]))
            text = f"value: {to_json(value, EVALUATE_MAX_CHARS)}" if ok else f"exception: {value}"
            meta["exception"] = not ok
            return await self._result(session, [UNTRUSTED_NOTICE, redact_text(text)], meta)
        if action in ("content", "snapshot", "screenshot"):
            # The browser's error page is no page content (it names the refused host).
            error_page = session.error_page()
            if error_page is not None:
                raise error_page
        if action == "content":
            text, doc_meta = await self._content(session)
            meta.update(doc_meta)
            return await self._result(session, [text], meta)
        if action == "snapshot":
            snap = await session.snapshot()
            body, stats = render_snapshot(snap.nodes, self.settings.browser_snapshot_max_bytes)
            lines = _page_header(snap.url, snap.title)
            lines.append(f"refs: d{snap.doc}e… (valid until the page navigates)")
            lines += ["", redact_text(body) if body else "(no visible elements)"]
            meta.update(stats, doc=snap.doc)
            return await self._result(session, lines, meta)
        if action == "screenshot":
            return await self._screenshot(session, bool(args.get("full_page", False)), ctx, meta)
        raise InvalidArguments(f"unknown browser action {action!r}")  # pragma: no cover

    async def _result(
        self,
        session: PlaywrightSession,
        lines: list[str],
        meta: dict[str, Any],
        images: tuple[ImageBlock, ...] = (),
    ) -> ToolResult:
        return ToolResult(text="\n".join(lines), images=images, meta=meta)

    async def _content(self, session: PlaywrightSession) -> tuple[str, dict[str, Any]]:
        text, doc, facts = await read_rendered(
            session, self.settings.fetch_max_bytes, empty_note=BROWSER_EMPTY_NOTE
        )
        return text, {"url": doc["url"], **facts}

    async def _screenshot(
        self, session: PlaywrightSession, full_page: bool, ctx: CallContext, meta: dict[str, Any]
    ) -> ToolResult:
        url, title = await session.location()
        if not ctx.run.can_see_images:
            text, doc_meta = await self._content(session)
            meta.update(doc_meta, screenshot="text_instead", screenshot_reason="model")
            return await self._result(
                session,
                [
                    "note: no screenshot: this model cannot see images; here is the page text "
                    "instead",
                    text,
                ],
                meta,
            )
        source = session
        fallback_session: PlaywrightSession | None = None
        if not session.capabilities.real_screenshots:
            fallback = await self.manager.fallback_backend()
            if fallback is None and self.shooter is not None:
                return await self._service_screenshot(url, full_page, ctx, meta)
            if fallback is None:
                text, doc_meta = await self._content(session)
                meta.update(doc_meta, screenshot="text_instead", screenshot_reason="backend")
                why = (
                    f"note: no screenshot: the {session.capabilities.backend} browser backend "
                    "cannot draw real screenshots (no pixel rendering); here is the page text "
                    "instead"
                )
                return await self._result(session, [why, text], meta)
            fallback_session = await fallback.new_session("screenshot")
            await fallback_session.add_cookies(await session.cookies())
            await fallback_session.open(url)
            source = fallback_session
            meta["rendered_by"] = "fallback"
        try:
            tiles, page_height = await source.screenshot(full_page, MAX_SCREENSHOT_TILES)
        finally:
            if fallback_session is not None:
                await fallback_session.aclose()
        from ..images.prepare import prepare_image, to_block

        blocks = []
        for png in tiles:
            prepared = await asyncio.to_thread(prepare_image, png)
            blocks.append(to_block(prepared))
        width, height = session.config.viewport
        lines = _page_header(url, title)
        covered = min(page_height, len(tiles) * height)
        if full_page:
            lines.append(
                f"screenshot: {len(tiles)} tile(s) of {width}×{height} px, top to bottom, "
                f"covering {covered} of {page_height} px"
            )
            if covered < page_height:
                lines.append(
                    "note: the page is longer; scroll down and take another screenshot to see more"
                )
        else:
            lines.append(
                f"screenshot: the {width}×{height} px viewport (page height {page_height} px)"
            )
        if fallback_session is not None:
            lines.append(
                "note: drawn by the screenshot browser from the same URL and cookies "
                "(typed text and script state are not carried over)"
            )
        meta.update(url=redact_url(url), tiles=len(blocks), page_height=page_height)
        return await self._result(session, lines, meta, tuple(blocks))
