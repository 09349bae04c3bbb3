"""One browser session: an isolated context with one tab, and every action on it (SPEC §1.4).

The page, context and CDP session objects come from :mod:`.backend` (Playwright); this module
only calls their methods and never imports the library, so errors are recognised by class
name (:func:`.page_errors.map_error`).

State kept per session: the document stamp counter and secret token for snapshot refs, the
refusals and dialogs since the last action (the tool journals them: the interceptor's and the
guarded proxy's), notes (closed popups, blocked navigations), the requests in flight (for
readiness).

Readiness (``open``, ``back``, ``forward``; the same for web_fetch's render): the load event,
then the page must *settle* — no request started or finished and no DOM content change for
:data:`QUIET_S`; after :data:`RELAX_S` of settling either silence alone is enough (pages that
poll or animate forever) — all within the readiness budget (``browser_ready_timeout_s``,
15 s). Requests pending longer than :data:`LONG_REQUEST_S` (long polls, streams) stop
counting. A quiet page that is still an empty app shell (scripts, almost no text:
:mod:`.readiness`) keeps waiting for its DOM to change. So a page that renders after a fetch
or a timer, however quiet before it, is read after it rendered.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
from collections.abc import Callable
from typing import Any, Literal

from ..errors import (
    BlockedAddress,
    BrowserError,
    InvalidArguments,
    StaleRef,
    Timeout,
    UnsupportedContent,
    WebResearchError,
)
from ..redact import redact_url
from .base import (
    BlockedRequest,
    Capabilities,
    DialogRecord,
    NavResult,
    SessionConfig,
    SnapshotData,
)
from .intercept import Interceptor
from .page_errors import is_library_error, map_error
from .page_scripts import DOM_QUIET_JS, PAGE_GUARD_JS
from .page_values import EVALUATE_MAX_VALUES, json_safe
from .proxy import ProxyRefusal
from .readiness import SHELL_PROBE_JS, is_empty_shell
from .responses import file_type as file_type_of
from .responses import refused_by_proxy
from .snapshot import COLLECT_JS, MAX_NODES, RESOLVE_JS, parse_ref

__all__ = ["PlaywrightSession", "SessionConfig"]

#: Seconds an element given by selector is waited for before "no element matches".
ELEMENT_WAIT_S = 5.0
#: Most child frames whose HTML ``content`` includes.
MAX_FRAMES = 5
#: Seconds without network activity AND without DOM content changes that mean "rendered"
#: (the silence Playwright's ``networkidle`` waits for).
QUIET_S = 0.5
#: Seconds of settling after which either silence alone is enough.
RELAX_S = 3.0
#: Seconds after which a pending request stops counting as activity (long polls, streams).
LONG_REQUEST_S = 5.0
#: Seconds between two looks at a settling page.
SETTLE_POLL_S = 0.1
#: Seconds an interrupt of a running page script may take.
INTERRUPT_WAIT_S = 1.0

#: The library's "Page.evaluateHandle: " prefix of page exceptions.
_API_PREFIX = re.compile(r"^(?:Error: )?Page\.\w+: ")


class PlaywrightSession:
    """One tab in its own browser context (see the module docstring).

    Args:
        key: the session table key.
        config: per-session settings.
        capabilities: what the backend can do.
        context: the browser context.
        page: the tab.
        cdp: a CDP session on the tab.
        own_browser: the connection owned by this session (one context per connection).
        token: secret stamp of this session's snapshot state in pages.
        on_close: called once when the session closes.
    """

    def __init__(
        self,
        *,
        key: str,
        config: SessionConfig,
        capabilities: Capabilities,
        context: Any,
        page: Any,
        cdp: Any,
        own_browser: Any,
        token: str,
        on_close: Callable[[PlaywrightSession], None],
    ) -> None:
        self.key = key
        self.config = config
        self.capabilities = capabilities
        self.context = context
        self.page = page
        self.cdp = cdp
        self.own_browser = own_browser
        self.token = token
        self.interceptor: Interceptor | None = None
        self._on_close = on_close
        self._doc_counter = 0
        self._main_frame: str | None = None
        self._blocked: list[BlockedRequest] = []
        self._nav_refusals: list[WebResearchError] = []
        self._conn_refusals: list[WebResearchError] = []
        self._inflight: dict[Any, float] = {}
        self._net_activity = 0.0
        self._unattributed: list[tuple[str | None, BlockedRequest, WebResearchError]] = []
        self._dialogs: list[DialogRecord] = []
        self._notes: list[str] = []
        self._closed = False
        #: (redacted URL, refusal) of the tab's last refused navigation (error-page check).
        self._refused_nav: tuple[str, WebResearchError] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # --- set-up and events ----------------------------------------------------------------
    async def prepare(self) -> None:
        """Install dialog and popup handlers, the page guard script and timeouts."""
        ms = self.config.action_timeout_s * 1000
        self.context.set_default_timeout(ms)
        self.context.set_default_navigation_timeout(ms)
        self.page.on("dialog", self._on_dialog)
        self.page.on("request", self._on_request)
        self.page.on("requestfinished", self._on_request_done)
        self.page.on("requestfailed", self._on_request_done)
        self.context.on("page", self._on_popup)
        with contextlib.suppress(Exception):
            await self.context.add_init_script(PAGE_GUARD_JS)

    async def target_id(self) -> str | None:
        """The tab's CDP target id (== its top frame id in Chromium)."""
        try:
            info = await self.cdp.send("Target.getTargetInfo")
            self._main_frame = str(info["targetInfo"]["targetId"])
        except Exception:
            return None
        return self._main_frame

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    def _on_request(self, request: Any) -> None:
        now = self._now()
        self._inflight[request] = now
        self._net_activity = now

    def _on_request_done(self, request: Any) -> None:
        self._inflight.pop(request, None)
        self._net_activity = self._now()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_dialog(self, dialog: Any) -> None:
        kind = str(getattr(dialog, "type", "alert"))
        message = str(getattr(dialog, "message", ""))[:200]
        if self.capabilities.handles_dialogs:
            self._dialogs.append(DialogRecord(kind, message, "answered by the backend"))
            return
        # Dismissing beforeunload would cancel the navigation the model asked for.
        accept = kind == "beforeunload" or self.config.dialog_policy == "accept"
        self._dialogs.append(DialogRecord(kind, message, "accepted" if accept else "dismissed"))

        async def answer() -> None:
            with contextlib.suppress(Exception):
                await (dialog.accept() if accept else dialog.dismiss())

        self._spawn(answer())

    def _on_popup(self, page: Any) -> None:
        if page is self.page:
            return
        url = redact_url(str(getattr(page, "url", "")))[:200]
        self._notes.append(
            f"the page tried to open a new window ({url}); it was closed — this session has "
            "one tab: use open(url) to go there"
        )

        async def close() -> None:
            with contextlib.suppress(Exception):
                await page.close()

        self._spawn(close())

    def record_blocked(
        self,
        frame_id: str | None,
        record: BlockedRequest,
        error: WebResearchError,
        *,
        main_frame: bool = False,
    ) -> None:
        """A refused request of this session (called by the interceptor)."""
        top = main_frame or self._main_frame is None or frame_id == self._main_frame
        record = BlockedRequest(
            record.url, record.code, record.message, record.resource_type, record.navigation and top
        )
        self._blocked.append(record)
        if record.navigation:
            self._nav_refusals.append(error)
            self._refused_nav = (record.url, error)

    def record_connection_refused(self, refusal: ProxyRefusal) -> None:
        """A connection of this session's context that the guarded proxy refused (a worker's
        WebSocket, a request the interceptor did not see); called by the backend."""
        self._blocked.append(
            BlockedRequest(
                url=refusal.target,
                code=refusal.error.code,
                message=refusal.error.message,
                resource_type="Connection",
                navigation=False,
            )
        )
        self._conn_refusals.append(refusal.error)
        del self._conn_refusals[:-50]

    def record_unattributed(
        self, frame_id: str | None, record: BlockedRequest, error: WebResearchError
    ) -> None:
        """A refused request of some frame not known to be ours (claimed at drain time)."""
        self._unattributed.append((frame_id, record, error))
        del self._unattributed[:-50]

    async def drain_events(self) -> tuple[list[BlockedRequest], list[DialogRecord], list[str]]:
        """Refusals (including those of this tab's iframes), dialogs and notes since the
        last drain."""
        if self._unattributed:
            frames = await self._frame_ids()
            for frame_id, record, _error in self._unattributed:
                if frame_id in frames:
                    self._blocked.append(
                        BlockedRequest(
                            record.url, record.code, record.message, record.resource_type, False
                        )
                    )
            self._unattributed.clear()
        blocked, dialogs, notes = self._blocked, self._dialogs, self._notes
        self._blocked, self._dialogs, self._notes = [], [], []
        return blocked, dialogs, notes

    async def _frame_ids(self) -> set[str]:
        try:
            tree = await self.cdp.send("Page.getFrameTree")
        except Exception:
            return set()
        out: set[str] = set()
        stack = [tree.get("frameTree", {})]
        while stack:
            node = stack.pop()
            frame = node.get("frame") or {}
            if frame.get("id"):
                out.add(str(frame["id"]))
            stack.extend(node.get("childFrames") or [])
        return out

    # --- state ----------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        """False once the tab, its context or the browser is gone."""
        if self._closed:
            return False
        try:
            return not bool(self.page.is_closed())
        except Exception:
            return False

    async def location(self) -> tuple[str, str]:
        """``(url, title)`` of the current page (no title for the browser's error page: it
        names the refused host)."""
        if self.error_page() is not None:
            return str(self.page.url), ""
        title = ""
        with contextlib.suppress(Exception):
            title = str(await self.page.evaluate("document.title"))
        return str(self.page.url), title

    def error_page(self) -> BrowserError | None:
        """The error to raise when the tab shows no page of a site but the browser's error
        page after a refused or failed navigation (Chromium: ``chrome-error://…``; a
        backend that stays at the refused URL: that URL), else ``None``."""
        url = str(self.page.url)
        refused = self._refused_nav
        at_refused = refused is not None and redact_url(url)[:300] == refused[0]
        if not (url.startswith("chrome-error:") or at_refused):
            return None
        if refused is not None:
            why = f"its last navigation was refused ({refused[1].message})"
        else:
            why = "its last navigation failed"
        return BrowserError(
            f"this tab shows no page, only the browser's error page: {why}",
            hint="open another URL, or go back to the previous page",
            error_page=True,
        )

    async def interrupt(self) -> bool:
        """Stop the JavaScript running in the tab (an endless loop an action timed out on),
        so the session stays usable; at most :data:`INTERRUPT_WAIT_S`, never raises.

        Returns:
            False when the browser did not answer (a single-threaded backend such as
            Lightpanda is then hung as a whole).
        """
        try:
            await asyncio.wait_for(self.cdp.send("Runtime.terminateExecution"), INTERRUPT_WAIT_S)
        except Exception:
            return False
        return True

    async def aclose(self) -> None:
        """Close the tab, its context and an owned connection. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._on_close(self)
        if self.interceptor is not None:
            await self.interceptor.aclose()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.context.close(), 5)
        if self.own_browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.own_browser.close(), 5)

    # --- navigation -----------------------------------------------------------------------
    def _refusal_since(self, mark: tuple[int, int]) -> WebResearchError | None:
        """The latest refusal recorded since ``mark``: the interceptor's navigation refusals
        first, then the guarded proxy's connection refusals."""
        nav = self._nav_refusals[mark[0] :]
        if nav:
            return nav[-1]
        conn = self._conn_refusals[mark[1] :]
        return conn[-1] if conn else None

    def _mark(self) -> tuple[int, int]:
        return len(self._nav_refusals), len(self._conn_refusals)

    async def open(self, url: str) -> NavResult:
        """Navigate, then wait until the page is ready (see the module docstring).

        Raises:
            BlockedAddress, BlockedDomain: the navigation or one of its redirect hops was
                refused by the request policy or the guarded proxy.
            UnsupportedContent: the URL is a file download.
            NetworkError, Timeout, BrowserError: the navigation failed.
        """
        mark = self._mark()
        self._net_activity = self._now()
        try:
            response = await self.page.goto(
                url, wait_until="commit", timeout=self.config.action_timeout_s * 1000
            )
        except Exception as exc:
            refusal = self._refusal_since(mark)
            if refusal is not None:
                raise refusal from None
            raise map_error(exc, "opening the page", self.config) from None
        refusal = self._refusal_since(mark)
        if refusal is not None and (response is None or refused_by_proxy(response)):
            raise refusal
        if response is not None and refused_by_proxy(response):
            raise BlockedAddress("opening the page was refused by the browser's guarded proxy")
        file_type = file_type_of(response)
        if file_type is not None:
            raise UnsupportedContent(
                f"opening the page failed: the URL is a file ({file_type}), not a page the "
                "browser can show",
                hint="read it with web_fetch (text, PDF) or fetch_image (a picture)",
                content_type=file_type,
            )
        ready, settled = await self._wait_ready()
        current, title = await self.location()
        status = None
        with contextlib.suppress(Exception):
            status = int(response.status) if response is not None else None
        return NavResult(current, title, status, ready, settled)

    async def _wait_ready(self) -> tuple[bool, bool]:
        """(the load event fired, the page settled), both within the readiness budget."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.ready_timeout_s
        loaded = False
        # A page restored from the back/forward cache fires no new load event.
        with contextlib.suppress(Exception):
            loaded = await self.page.evaluate("document.readyState") == "complete"
        if not loaded:
            try:
                await self.page.wait_for_load_state(
                    "load", timeout=self.config.ready_timeout_s * 1000
                )
            except Exception:
                return False, False
        return True, await self._settle(deadline)

    def _network_quiet_for(self, now: float) -> float:
        """Seconds since the last request started or finished (0 while one is pending;
        requests pending longer than :data:`LONG_REQUEST_S` do not count)."""
        if any(now - started < LONG_REQUEST_S for started in self._inflight.values()):
            return 0.0
        for request, started in list(self._inflight.items()):
            if now - started > 10 * LONG_REQUEST_S:
                del self._inflight[request]
        return now - self._net_activity

    async def _dom_quiet_for(self) -> float:
        """Seconds since the top document's content last changed (0 when unknown)."""
        try:
            return float(await self.page.evaluate(DOM_QUIET_JS)) / 1000
        except Exception:
            return 0.0

    async def _settle(self, deadline: float) -> bool:
        """Wait until the page is quiet (see the module docstring) or ``deadline`` (loop
        time) passes; True when it settled."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            now = loop.time()
            network = self._network_quiet_for(now) >= QUIET_S
            dom = await self._dom_quiet_for() >= QUIET_S
            quiet = (network and dom) or (now - start >= RELAX_S and (network or dom))
            if quiet and not await self._empty_shell():
                return True
            if now >= deadline:
                # An app shell quiet until the end: it settled, it just shows no text.
                return quiet
            await asyncio.sleep(min(SETTLE_POLL_S, max(0.0, deadline - now)))

    async def _empty_shell(self) -> bool:
        """True while the quiet page is an app shell that has not rendered (see
        :mod:`.readiness`); False when it has text, has no script, or cannot be asked."""
        try:
            scripts, text = await self.page.evaluate(SHELL_PROBE_JS)
            return is_empty_shell(int(scripts), None if text is None else str(text))
        except Exception:
            return False

    async def history(self, step: Literal[-1, 1]) -> NavResult | None:
        """Go back (-1) or forward (1); ``None`` when there is no such entry."""
        before = str(self.page.url)
        mark = self._mark()
        self._net_activity = self._now()
        try:
            go = self.page.go_back if step < 0 else self.page.go_forward
            response = await go(wait_until="commit", timeout=self.config.action_timeout_s * 1000)
        except Exception as exc:
            refusal = self._refusal_since(mark)
            if refusal is not None:
                raise refusal from None
            raise map_error(
                exc, "going back" if step < 0 else "going forward", self.config
            ) from None
        if response is None and str(self.page.url) == before:
            return None
        ready, settled = await self._wait_ready()
        current, title = await self.location()
        return NavResult(current, title, None, ready, settled)

    # --- elements -------------------------------------------------------------------------
    async def _element(self, selector: str | None, ref: str | None) -> Any:
        """The element for a ref (checked against the document stamp) or a selector.

        Raises:
            StaleRef: the ref belongs to an earlier document or its element is gone.
            InvalidArguments: neither given, or a malformed ref.
            BrowserError: no element matches the selector.
        """
        if ref:
            parsed = parse_ref(ref)
            if parsed is None:
                raise InvalidArguments(
                    f"{ref!r} is not an element ref (refs look like d1e5)",
                    hint="take a snapshot and use one of its [ref=…] values",
                )
            doc, _n = parsed
            element, why = await self._resolve_ref(doc, ref.strip())
            if element is None:
                if why == "detached":
                    raise StaleRef(
                        f"stale ref {ref}: that element is no longer on the page — take a new snapshot",
                        hint="take a new snapshot",
                    )
                if why == "unknown":
                    raise StaleRef(
                        f"unknown ref {ref} for this page — take a new snapshot",
                        hint="take a new snapshot",
                    )
                raise StaleRef(
                    f"stale ref {ref}: the page has changed since that snapshot — take a new snapshot",
                    hint="take a new snapshot",
                )
            return element
        if not selector:
            raise InvalidArguments("give a selector or a ref", hint="take a snapshot to get refs")
        locator = self.page.locator(selector).first
        try:
            await locator.wait_for(state="attached", timeout=ELEMENT_WAIT_S * 1000)
        except Exception as exc:
            if is_library_error(exc, "TimeoutError"):
                raise BrowserError(
                    f"no element matches {selector!r}",
                    hint="take a snapshot to see the page's elements and their refs",
                ) from None
            raise map_error(exc, f"finding {selector!r}", self.config) from None
        return locator

    async def _resolve_ref(self, doc: int, ref: str) -> tuple[Any, str]:
        """(element handle, "") or (None, why); an element inside a same-origin iframe is
        resolved in its own frame, so actions scroll and click it there."""
        why = "stale"
        for index, frame in enumerate(list(self.page.frames)[: MAX_FRAMES * 4]):
            try:
                handle = await frame.evaluate_handle(
                    RESOLVE_JS, {"token": self.token, "doc": doc, "ref": ref}
                )
            except Exception:
                continue
            element = handle.as_element()
            if element is not None:
                return element, ""
            answer = str(await handle.json_value())
            if index == 0:
                why = answer
            if answer != "elsewhere":
                if index == 0:
                    return None, answer
                continue
        return None, why

    async def click(self, selector: str | None, ref: str | None) -> str:
        """Scroll into view and click the element's centre."""
        element = await self._element(selector, ref)
        try:
            await element.click(timeout=self.config.action_timeout_s * 1000)
        except Exception as exc:
            raise map_error(exc, "click", self.config) from None
        await asyncio.sleep(0)  # let navigation/dialog events land
        return "clicked"

    async def fill(self, selector: str | None, ref: str | None, text: str) -> str:
        """Focus, clear and insert ``text`` with real input events."""
        element = await self._element(selector, ref)
        try:
            await element.fill(text, timeout=self.config.action_timeout_s * 1000)
        except Exception as exc:
            raise map_error(exc, "fill", self.config) from None
        return f"filled {len(text)} characters"

    async def press(self, key: str) -> str:
        """Press ``key`` in the focused element."""
        try:
            await self.page.keyboard.press(key)
        except Exception as exc:
            raise map_error(exc, f"pressing {key!r}", self.config) from None
        return f"pressed {key}"

    async def evaluate(self, expression: str) -> tuple[bool, Any]:
        """Run JavaScript; promises are awaited. A page exception is a value, not an error.

        The library turns cyclic values into cyclic Python structures and another window
        into a graph of its properties; :func:`json_safe` makes any of them plain JSON.
        """
        try:
            value = await self.page.evaluate(expression)
        except Exception as exc:
            mapped = map_error(exc, "evaluate", self.config)
            if isinstance(mapped, Timeout) or mapped.details.get("session_lost"):
                raise mapped from None
            text = _API_PREFIX.sub("", str(exc), count=1)
            lines = [ln for ln in text.splitlines() if not ln.strip().startswith("at ")]
            return False, " ".join(lines)[:500]
        return True, json_safe(value, EVALUATE_MAX_VALUES)

    async def scroll(
        self, direction: str | None, amount: int | None, selector: str | None, ref: str | None
    ) -> str:
        """Scroll the page by ``amount`` px (default: one viewport) or an element into view."""
        if selector or ref:
            element = await self._element(selector, ref)
            try:
                await element.scroll_into_view_if_needed(
                    timeout=self.config.action_timeout_s * 1000
                )
            except Exception as exc:
                raise map_error(exc, "scroll", self.config) from None
        else:
            width, height = self.config.viewport
            step = amount or (height if direction in (None, "up", "down") else width)
            dx, dy = {"up": (0, -step), "down": (0, step), "left": (-step, 0), "right": (step, 0)}[
                direction or "down"
            ]
            await self.page.evaluate("([dx, dy]) => window.scrollBy(dx, dy)", [dx, dy])
        pos = await self.page.evaluate(
            "() => [Math.round(window.scrollX), Math.round(window.scrollY), "
            "Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)]"
        )
        return f"scroll position x={pos[0]} y={pos[1]} of page height {pos[2]} px"

    async def wait(self, selector: str | None, ref: str | None, ms: int | None) -> str:
        """Wait for an element to be visible, or ``ms`` milliseconds (bounded by the action timeout)."""
        limit_ms = self.config.action_timeout_s * 1000
        if selector:
            try:
                await self.page.locator(selector).first.wait_for(
                    state="visible", timeout=min(ms or limit_ms, limit_ms)
                )
            except Exception as exc:
                if is_library_error(exc, "TimeoutError"):
                    raise Timeout(
                        f"no visible element matched {selector!r} in time",
                        hint="take a snapshot to see what the page shows",
                    ) from None
                raise map_error(exc, "wait", self.config) from None
            return f"{selector} is visible"
        if ref:
            await self._element(None, ref)
            return f"{ref} is on the page"
        delay = min(float(ms or 0), limit_ms) / 1000
        await asyncio.sleep(delay)
        return f"waited {delay * 1000:.0f} ms"

    # --- reading --------------------------------------------------------------------------
    async def html(self) -> tuple[str, str, str, list[tuple[str, str]]]:
        """The rendered DOM of the tab and of up to :data:`MAX_FRAMES` http(s) child frames."""
        try:
            body = str(await self.page.content())
        except Exception as exc:
            raise map_error(exc, "reading the page", self.config) from None
        url, title = await self.location()
        frames: list[tuple[str, str]] = []
        for frame in list(self.page.frames)[1:]:
            if len(frames) >= MAX_FRAMES:
                break
            furl = str(frame.url)
            if not furl.startswith(("http://", "https://")):
                continue
            with contextlib.suppress(Exception):
                frames.append((furl, str(await frame.content())))
        return url, title, body, frames

    async def snapshot(self) -> SnapshotData:
        """Collect the snapshot; a new document gets the next document stamp."""
        candidate = self._doc_counter + 1
        try:
            data = await self.page.evaluate(
                COLLECT_JS, {"token": self.token, "doc": candidate, "max": MAX_NODES}
            )
        except Exception as exc:
            raise map_error(exc, "snapshot", self.config) from None
        doc = int(data.get("doc", candidate))
        if doc == candidate:
            self._doc_counter = candidate
        return SnapshotData(
            doc=str(doc),
            url=str(data.get("url", "")),
            title=str(data.get("title", "")),
            nodes=list(data.get("nodes") or []),
        )

    async def screenshot(self, full_page: bool, max_tiles: int) -> tuple[list[bytes], int]:
        """PNG tiles of the viewport's size, top to bottom (one tile unless ``full_page``)."""
        width, height = self.config.viewport
        try:
            page_height = int(
                await self.page.evaluate(
                    "() => Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)"
                )
            )
            if not full_page:
                return [await self.page.screenshot(type="png")], page_height
            tiles = []
            count = max(1, min(max_tiles, math.ceil(page_height / height)))
            for i in range(count):
                top = i * height
                tile_height = max(1, min(height, page_height - top))
                tiles.append(
                    await self.page.screenshot(
                        type="png",
                        full_page=True,
                        clip={"x": 0, "y": top, "width": width, "height": tile_height},
                    )
                )
            return tiles, page_height
        except WebResearchError:
            raise
        except Exception as exc:
            raise map_error(exc, "screenshot", self.config) from None

    async def cookies(self) -> list[dict[str, Any]]:
        """The context's cookies (to carry a session to a screenshot fallback backend)."""
        with contextlib.suppress(Exception):
            return list(await self.context.cookies())
        return []

    async def add_cookies(self, cookies: list[dict[str, Any]]) -> None:
        """Add cookies to this session's context."""
        if cookies:
            with contextlib.suppress(Exception):
                await self.context.add_cookies(cookies)
