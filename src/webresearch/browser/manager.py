"""The process-wide browser: one backend, the session table, the screenshot fallback.

The backend starts lazily at the first action (and again if it died: its sessions are then
lost, and the next action says so). Sessions follow SPEC §1.4 through
:class:`~.sessions.SessionTable`: at most ``browser_max_sessions``; idle ones closed at the
next call of any session. ``render`` opens a throw-away session for web_fetch's
``render: auto`` (SPEC §1.1).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpcore2

from .. import progress
from ..access import AccessPolicy, DomainPolicy
from ..config import Settings
from ..errors import BrowserError
from ..net.guard import SSRFGuard
from .backend import BackendConfig, PlaywrightBackend
from .base import SessionConfig
from .page import PlaywrightSession, StateKeeper
from .page_errors import best_effort
from .policy import RequestPolicy
from .sessions import SessionTable

__all__ = ["BrowserManager", "parse_viewport"]

log = logging.getLogger("webresearch.browser")

#: Renders for web_fetch running at once.
MAX_RENDERS = 2
#: Seconds a browser start may always take, whatever the call's budget: a first open took
#: 4.5-7.7 s, start included, on 2 cores at load 10-18 (measured, session 9), so a call with
#: a budget of a second or two still gets a browser; a hung start is abandoned at the larger
#: of this and the call's budget.
MIN_START_S = 12.0


def parse_viewport(value: str) -> tuple[int, int]:
    """``"1280x800"`` → ``(1280, 800)`` (CSS px)."""
    width, _, height = value.lower().partition("x")
    return int(width), int(height)


class BrowserManager:
    """Owns the backend and the sessions of one process.

    Args:
        settings: configuration (the ``browser_*`` block).
        guard: the SSRF guard (its resolver and address policy judge every request).
        clock: monotonic seconds (idle expiry).
        connector: the TCP seam the browser's guarded proxy dials checked addresses with
            (the guarded transport's: ``Services.connector``; ``None``: real sockets).
        access: every tool's per-URL gates (``Services.access``): its domain policy judges
            every request, its robots.txt check the model's navigations; default: the
            settings' domain policy and no robots.txt.
    """

    def __init__(
        self,
        settings: Settings,
        guard: SSRFGuard,
        *,
        clock: Callable[[], float],
        connector: httpcore2.AsyncNetworkBackend | None = None,
        access: AccessPolicy | None = None,
    ) -> None:
        self.settings = settings
        if access is None:
            domains = DomainPolicy.from_settings(settings.allowed_domains, settings.blocked_domains)
            access = AccessPolicy(domains)
        self.access = access
        self.policy = RequestPolicy(
            guard, access.domains, clock=clock, navigation_gate=self._check_robots
        )
        self.session_config = SessionConfig(
            viewport=parse_viewport(settings.browser_viewport),
            action_timeout_s=settings.browser_action_timeout_s,
            ready_timeout_s=settings.browser_ready_timeout_s,
            dialog_policy=settings.browser_dialog_policy,
        )
        cdp_url = settings.browser_cdp_url
        self.config = BackendConfig(
            kind=settings.browser_backend,
            session=self.session_config,
            chromium_path=settings.chromium_path,
            cdp_url=cdp_url.get_secret_value() if cdp_url is not None else None,
            max_sessions=settings.browser_max_sessions,
            connector=connector,
            connect_timeout_s=settings.connect_timeout_s,
        )
        self.table: SessionTable[PlaywrightSession] = SessionTable(
            settings.browser_max_sessions, settings.browser_idle_s, clock
        )
        self._backend: PlaywrightBackend | None = None
        self._fallback: PlaywrightBackend | None = None
        self._lock = asyncio.Lock()
        self._renders = asyncio.Semaphore(MAX_RENDERS)
        self._closed = False
        #: the running browser was ended because it stopped answering (reset by a new start):
        #: its sessions' pages are gone for that reason, not a crash.
        self.ended_hung = False

    @property
    def running(self) -> bool:
        """A backend is up (the next session needs no start)."""
        return self._backend is not None and self._backend.alive

    def has_session(self, key: str) -> bool:
        """A session for ``key`` is open."""
        return self.table.get(key) is not None

    def keeps_state(self, key: str) -> bool:
        """The open session for ``key`` saves its storage state when it closes."""
        session = self.table.get(key)
        return session is not None and session.keeper is not None

    async def _check_robots(self, url: str) -> None:
        """robots.txt for a navigation the model asked for — never asked of the browser's
        own ports (DevTools, the guarded proxy's listeners), whatever the host: the guarded
        proxy refuses those (``blocked_address``), and nothing else may reach them."""
        try:
            port = urlsplit(url).port
        except ValueError:
            port = None
        own: set[int] = set()
        for backend in (self._backend, self._fallback):
            if backend is not None and backend.proxy is not None:
                own.update(backend.proxy.excluded_ports)
        if port is not None and port in own:
            return
        await self.access.check_robots(url)

    async def backend(self, start_timeout_s: float | None = None) -> PlaywrightBackend:
        """The running backend (started, or restarted after a crash, on demand; the start
        is reported with :func:`webresearch.progress.report`).

        Args:
            start_timeout_s: seconds a start may take (the call's time budget, at least
                :data:`MIN_START_S`; ``None``: the steps' own bounds). A start that runs out
                of it is abandoned and its browser ended (:meth:`PlaywrightBackend.start`).

        Raises:
            ConfigurationError, BrowserError: it cannot be started.
            Timeout: the start did not finish within ``start_timeout_s``.
        """
        async with self._lock:
            if self._closed:
                raise BrowserError("the browser has been shut down")
            if self._backend is not None and not self._backend.alive:
                log.warning("the browser backend died; restarting it")
                old, self._backend = self._backend, None
                for _key, session in self.table.drain():
                    with best_effort():
                        await session.aclose()
                await old.aclose()
            if self._backend is None:
                self.ended_hung = False
                bound = None if start_timeout_s is None else max(start_timeout_s, MIN_START_S)
                self._backend = await PlaywrightBackend.start(self.config, self.policy, bound)
            return self._backend

    async def fallback_backend(self) -> PlaywrightBackend | None:
        """The pixel-capable backend for screenshots (``browser_screenshot_fallback_url``),
        or ``None`` when none is configured."""
        url = self.settings.browser_screenshot_fallback_url
        if url is None:
            return None
        async with self._lock:
            if self._fallback is not None and not self._fallback.alive:
                await self._fallback.aclose()
                self._fallback = None
            if self._fallback is None:
                config = BackendConfig(
                    kind="cdp", session=self.session_config, cdp_url=url.get_secret_value()
                )
                self._fallback = await PlaywrightBackend.start(config, self.policy)
            return self._fallback

    async def expire(self) -> list[str]:
        """Close sessions idle for ``browser_idle_s``; returns their keys."""
        expired = self.table.expire()
        for _key, session in expired:
            with best_effort():
                await session.aclose()
        return [key for key, _ in expired]

    async def session(
        self,
        key: str,
        *,
        create: bool,
        storage_state: dict[str, Any] | None = None,
        keeper: StateKeeper | None = None,
        start_timeout_s: float | None = None,
    ) -> tuple[PlaywrightSession | None, bool]:
        """The session for ``key``, created when ``create`` and missing.

        Args:
            key: the session table key.
            create: create the session when there is none.
            storage_state: a new session starts with these cookies and local storage.
            keeper: a new session hands its storage state to it when it closes.
            start_timeout_s: seconds starting the browser may take (see :meth:`backend`).

        Returns:
            (the session or ``None``, whether an earlier session for ``key`` was lost — its
            tab or browser crashed).

        Raises:
            BrowserError: too many sessions, or the backend failed.
            Timeout: starting the browser did not finish within ``start_timeout_s``.
        """
        lost = False
        session = self.table.get(key)
        if session is not None and not (
            session.alive and self._backend is not None and self._backend.alive
        ):
            self.table.pop(key)
            with best_effort():
                await session.aclose()
            session, lost = None, True
        if session is None and create:
            self.table.reserve(key)
            try:
                backend = await self.backend(start_timeout_s)
                session = await backend.new_session(key, storage_state)
            except BaseException:
                self.table.release(key)
                raise
            session.keeper = keeper
            self.table.add(key, session)
        return session, lost

    async def kill_hung_backend(self) -> bool:
        """End the launched browser after it stopped answering (a page script that never
        returns in a single-threaded backend); the next action starts a new one.

        Returns:
            True when a browser process was ended.
        """
        backend = self._backend
        if backend is None:
            return False
        log.warning("the browser backend stopped answering; ending it")
        self.ended_hung = await backend.kill()
        return self.ended_hung

    async def close_session(self, key: str) -> bool:
        """Close the session for ``key``; False when there was none."""
        session = self.table.pop(key)
        if session is None:
            return False
        await session.aclose()
        return True

    async def render(self, url: str) -> tuple[str, str, str]:
        """Render ``url`` in a throw-away session (web_fetch ``render: auto``), with the
        same readiness as the browser tool's ``open`` (load, then network and DOM quiet).

        Args:
            url: the page.

        Returns:
            (final URL, title, rendered HTML).

        Raises:
            BlockedAddress, BlockedDomain, RobotsDisallowed, NetworkError, Timeout, BrowserError.
        """
        await self.policy.check_navigation(url)
        progress.report("rendering the page in a browser")
        async with self._renders:
            backend = await self.backend(self.settings.browser_action_timeout_s)
            session = await backend.new_session("render")
            try:
                await session.open(url)
                final, title, html, _frames, _mime = await session.html()
                return final, title, html
            finally:
                await session.aclose()

    def pids(self) -> list[int]:
        """Pids of the launched browser's process group (benchmarks, tests)."""
        return self._backend.pids() if self._backend is not None else []

    async def aclose(self) -> None:
        """Close every session and the backends. Idempotent."""
        async with self._lock:
            self._closed = True
            for _key, session in self.table.drain():
                with best_effort():
                    await session.aclose()
            for backend in (self._fallback, self._backend):
                if backend is not None:
                    await backend.aclose()
            self._backend = self._fallback = None
