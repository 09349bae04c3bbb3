"""The browser backend over CDP with Playwright — the ONLY module running the browser library.

Three ways to get a browser, one protocol (Chrome DevTools) to drive it:

* ``chromium``: a locally launched Chromium (Debian ``chromium``, or a Playwright-managed
  one where installed), headless, under :mod:`.launch`'s keeper (own process group, dies
  with us);
* ``lightpanda``: ``lightpanda serve`` from the ``lightpanda`` PyPI package, same keeper;
* ``cdp``: any endpoint by URL (:mod:`.discovery`: ``/json/version``, dialled at the
  configured host).

A launched backend sends EVERY connection through the guarded forward proxy
(:mod:`.proxy`), started here before the browser: Chromium with ``--proxy-server`` (and a
listener of its own per session context, so refusals reach the right session's journal),
Lightpanda with ``--http-proxy``. That proxy is the hard network boundary: the browser never
resolves a target name nor opens a connection to a target itself. A remote ``cdp`` endpoint
cannot be proxied by us (it connects from its own network); only the interception below
applies to it.

Playwright connects with ``connect_over_cdp`` (raw CDP sessions for the ``Fetch`` domain);
:meth:`PlaywrightBackend.start` installs request interception and PROBES the backend
(:mod:`.capabilities`): one whose interception cannot be verified is refused. What it writes
to disk is in one private directory (:mod:`.tempdirs`), removed on close and reaped by the
next start after a crash. Playwright is imported lazily (a missing extra closes the gate).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import httpcore2

from .. import progress
from ..errors import BrowserError, ConfigurationError, WebResearchError
from ..runtime.waiting import wait_within
from . import launch as launching
from .base import BlockedRequest, Capabilities, SessionConfig
from .capabilities import probe_capabilities
from .discovery import discover, normalize_cdp_url
from .intercept import Interceptor
from .launch_args import (
    chromium_args,
    chromium_problem,
    find_chromium,
    find_lightpanda,
    free_port,
    lightpanda_args,
)
from .page import PlaywrightSession
from .page_errors import best_effort, library_errors
from .policy import RequestPolicy
from .proxy import GuardedProxy, ProxyRefusal
from .starting import backend_name, driver_tmpdir, start_timeout
from .tempdirs import RunDir, chromium_temp_root, new_run_dir

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

__all__ = ["BackendConfig", "PlaywrightBackend", "playwright_available"]

log = logging.getLogger("webresearch.browser")

#: Seconds for connecting over CDP.
CONNECT_TIMEOUT_S = 20.0
#: Seconds closing a session, the connection or the driver may take.
CLOSE_WAIT_S = 5.0


def playwright_available() -> bool:
    """True when Playwright for Python can be imported (the ``browser`` extra)."""
    import importlib.util

    return importlib.util.find_spec("playwright") is not None


@dataclass(frozen=True, slots=True)
class BackendConfig:
    """How to get and drive one backend.

    Attributes:
        kind: ``chromium``, ``lightpanda`` or ``cdp``.
        chromium_path: Chromium binary (``None``: auto-detect).
        cdp_url: the endpoint for ``cdp`` (a secret: never logged).
        session: per-session settings (viewport, timeouts, dialog policy).
        max_sessions: sessions the backend must hold (Lightpanda connection limit).
        connector: the TCP seam the guarded proxy dials checked addresses with (the
            guarded transport's; ``None``: real sockets).
        connect_timeout_s: seconds the proxy may take to resolve and connect upstream.
    """

    kind: str
    session: SessionConfig
    chromium_path: str | None = None
    cdp_url: str | None = None
    max_sessions: int = 12
    connector: httpcore2.AsyncNetworkBackend | None = None
    connect_timeout_s: float = 15.0


class PlaywrightBackend:
    """A connected, probed backend. Build with :meth:`start`.

    Args:
        config: how to get the browser.
        policy: the request policy every request is judged by.
    """

    def __init__(self, config: BackendConfig, policy: RequestPolicy) -> None:
        self.config = config
        self.policy = policy
        self.name = config.kind
        self.capabilities = Capabilities(backend=config.kind)
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._ws_url = ""
        self._ws_headers: dict[str, str] = {}
        self._run: RunDir | None = None
        self._process: launching.LaunchedProcess | None = None
        self._interceptor: Interceptor | None = None
        self._sessions: list[PlaywrightSession] = []
        self._frame_owner: dict[str, PlaywrightSession] = {}
        #: the guarded forward proxy of a launched backend (None for a remote endpoint).
        self.proxy: GuardedProxy | None = None
        self._proxy_owner: dict[str, PlaywrightSession] = {}
        #: (token, context, tab) the capability probe left for the first session.
        self._first_tab: tuple[str, BrowserContext, Page] | None = None
        #: what the start is doing now, in words (named when the start runs out of time).
        self.stage = "preparing the start"
        self._closed = False

    # --- lifecycle ------------------------------------------------------------------------
    @classmethod
    async def start(
        cls, config: BackendConfig, policy: RequestPolicy, timeout_s: float | None = None
    ) -> PlaywrightBackend:
        """Launch or connect, install interception, probe — within ``timeout_s`` seconds
        (``None``: only the steps' own bounds). A start that fails, runs out of time or is
        cancelled is abandoned: the launched browser's process group is ended first (a hung
        browser would hold the closing of the connection), then the rest is closed.

        Raises:
            ConfigurationError: the backend is not installed / configured.
            BrowserError: it failed to start, or request interception could not be verified.
            Timeout: the start did not finish within ``timeout_s`` (the message names the
                step that hung).
        """
        backend = cls(config, policy)
        limit = asyncio.timeout(timeout_s)
        try:
            async with limit:
                await backend._start()
        except BaseException:
            if backend._process is not None:
                await backend._process.aclose()
            await backend.aclose()
            if limit.expired():
                raise start_timeout(config.kind, backend.stage, timeout_s or 0.0) from None
            raise
        return backend

    async def _start(self) -> None:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            raise ConfigurationError(
                "Playwright is not installed "
                "(pip install -e '.[browser]' in the webresearch checkout)"
            ) from None
        self._check_installed()
        name = backend_name(self.config.kind)
        progress.report("connecting to the browser" if self.name == "cdp" else f"starting {name}")
        self._run = run = await asyncio.to_thread(new_run_dir)
        # The Playwright driver (a Node process) starts while the browser launches.
        with driver_tmpdir(run.tmp):
            driver = asyncio.ensure_future(async_playwright().start())
            try:
                self._ws_url, product = await self._endpoint(run)
                self.stage = "starting the browser library's driver"
            finally:
                self._pw = await driver
        self.stage = f"connecting to {name} over CDP"
        browser = self._browser = await self._connect()
        with best_effort():
            interceptor = Interceptor(
                await browser.new_browser_cdp_session(), self.policy, self._on_blocked
            )
            await interceptor.enable()
            self._interceptor = interceptor
        self.stage = f"checking that {name} lets us judge every request"
        token = secrets.token_hex(8)
        context = await browser.new_context(**await self._context_options(token))
        caps, tab = await probe_capabilities(
            browser,
            context,
            self._interceptor,
            self.policy,
            Capabilities(backend=self.name, product=product),
        )
        if tab is not None:
            self._first_tab = (token, context, tab)
        else:
            await self._drop_context(token, context)
        self.capabilities = replace(caps, proxied=self.proxy is not None)
        if self.capabilities.interception == "none":
            raise BrowserError(
                f"the {self.name} backend does not support request interception (CDP Fetch "
                "domain), so the domain policy and SSRF rules could not be enforced; refusing "
                "to use it",
                hint="configure a Chromium or Lightpanda backend",
            )
        log.info("browser backend %s ready: %s", self.name, self.capabilities)

    def _check_installed(self) -> None:
        """Raises ConfigurationError when the configured backend cannot be launched."""
        kind = self.config.kind
        problem = None
        if kind == "chromium":
            problem = chromium_problem(self.config.chromium_path)
        elif kind == "lightpanda" and find_lightpanda() is None:
            problem = (
                "Lightpanda is not installed "
                "(pip install -e '.[lightpanda]' in the webresearch checkout)"
            )
        elif kind == "cdp" and not self.config.cdp_url:
            problem = "browser_backend is cdp but browser_cdp_url is not set"
        elif kind not in ("chromium", "lightpanda", "cdp"):
            problem = f"unknown browser_backend {kind!r}"
        if problem is not None:
            raise ConfigurationError(problem)

    async def _start_proxy(self) -> str:
        """Start the guarded proxy of a launched backend; returns its browser-wide URL."""
        self.proxy = GuardedProxy(
            self.policy,
            connector=self.config.connector,
            connect_timeout_s=self.config.connect_timeout_s,
            on_refused=self._on_proxy_refused,
        )
        return await self.proxy.listen()

    async def _endpoint(self, run: RunDir) -> tuple[str, str]:
        """Launch (or discover) the browser; its CDP websocket URL and product name."""
        kind = self.config.kind
        if kind == "chromium":
            binary = find_chromium(self.config.chromium_path)
            assert binary is not None  # _check_installed
            proxy = await self._start_proxy()
            self.stage = "launching Chromium (waiting for its DevTools port)"
            self._process = await launching.launch(
                chromium_args(
                    binary,
                    user_data_dir=str(run.profile),
                    viewport=self.config.session.viewport,
                    no_sandbox=os.geteuid() == 0,
                    proxy_url=proxy,
                ),
                env={"TMPDIR": str(chromium_temp_root(run.root.parent)), **run.xdg_env()},
                marker=str(run.profile),
            )
            port, path = await launching.wait_for_devtools_port(str(run.profile), self._process)
            await asyncio.to_thread(run.note_chromium_temp)
            self._exclude(port)
            return f"ws://127.0.0.1:{port}{path}", "Chromium"
        if kind == "lightpanda":
            binary = find_lightpanda()
            assert binary is not None  # _check_installed
            proxy = await self._start_proxy()
            port = free_port()
            self._exclude(port)
            self.stage = "launching Lightpanda (waiting for it to listen)"
            self._process = await launching.launch(
                lightpanda_args(
                    binary,
                    port=port,
                    max_connections=self.config.max_sessions + 4,
                    proxy_url=proxy,
                ),
                env={"LIGHTPANDA_DISABLE_TELEMETRY": "true", **run.xdg_env()},
            )
            await launching.wait_for_port(port, self._process)
            return f"ws://127.0.0.1:{port}/", "Lightpanda"
        assert self.config.cdp_url  # _check_installed
        self.stage = "asking the remote browser for its CDP address"
        endpoint = await discover(normalize_cdp_url(self.config.cdp_url))
        self._ws_headers = endpoint.headers
        return endpoint.ws_url, str(endpoint.version.get("Browser", ""))[:80]

    def _exclude(self, port: int) -> None:
        """The proxy never connects to the browser's own DevTools port."""
        assert self.proxy is not None
        self.proxy.exclude_port(port)

    async def _connect(self) -> Browser:
        assert self._pw is not None
        try:
            with library_errors("connecting to the browser", self.config.session):
                return await self._pw.chromium.connect_over_cdp(
                    self._ws_url,
                    timeout=CONNECT_TIMEOUT_S * 1000,
                    headers=self._ws_headers or None,
                )
        except WebResearchError:
            # The URL may carry a token: the message names the backend only.
            raise BrowserError(
                f"could not connect to the {self.name} browser over CDP",
                hint="check that the browser is running",
                retryable=True,
            ) from None

    @property
    def alive(self) -> bool:
        """False once the browser process or the connection is gone."""
        if self._closed or self._browser is None:
            return False
        if self._process is not None and not self._process.alive:
            return False
        return self._browser.is_connected()

    def pids(self) -> list[int]:
        """Pids of the launched browser's process group (empty for a remote endpoint)."""
        return self._process.pids() if self._process is not None else []

    async def kill(self) -> bool:
        """End a hung launched browser's process group now (the connections then fail
        fast; :attr:`alive` turns False, so the manager restarts it on next use).

        Returns:
            False for a remote endpoint (no process of ours to end).
        """
        if self._process is None:
            return False
        await self._process.aclose()
        return True

    async def aclose(self) -> None:
        """Closes sessions, connection, driver, then (even if one fails) process, proxy, run dir."""
        if self._closed:
            return
        self._closed = True
        try:
            for session in list(self._sessions):
                with best_effort():
                    await wait_within(session.aclose(), CLOSE_WAIT_S)
            if self._first_tab is not None:
                await self._drop_context(*self._first_tab[:2])
                self._first_tab = None
            if self._interceptor is not None:
                await self._interceptor.aclose()
            if self._browser is not None:
                with best_effort():
                    await wait_within(self._browser.close(), CLOSE_WAIT_S)
            if self._pw is not None:
                with best_effort():
                    await wait_within(self._pw.stop(), 2 * CLOSE_WAIT_S)
        finally:
            if self._process is not None:
                await self._process.aclose()
            if self.proxy is not None:
                await self.proxy.aclose()
            if self._run is not None:
                await asyncio.to_thread(self._run.remove)

    # --- sessions -------------------------------------------------------------------------
    async def new_session(
        self, key: str, storage_state: dict[str, Any] | None = None
    ) -> PlaywrightSession:
        """A new isolated session: its own context (and own connection where the backend
        allows one context per connection) with one tab, interception in place before the
        first navigation; with ``storage_state``, the context starts with those cookies and
        local storage (Playwright's storage state).

        Raises:
            BrowserError: the backend refused or is gone.
        """
        if not self.alive or self._browser is None:
            raise BrowserError("the browser is not running", retryable=True)
        with library_errors("opening a browser session", self.config.session):
            session = await self._open_session(key, storage_state)
            try:
                await self._wire(session)
            except BaseException:
                await session.aclose()
                raise
        self._sessions.append(session)
        return session

    async def _context_options(self, token: str) -> dict[str, Any]:
        """Options of a session's context: the viewport, no downloads, and for Chromium a
        proxy listener of its own (refusals of this context, its workers included, are
        reported to this session; Lightpanda 1.0 honours a context proxy only for some
        requests, so it keeps the process-wide ``--http-proxy`` alone)."""
        viewport = self.config.session.viewport
        options: dict[str, Any] = {
            "viewport": {"width": viewport[0], "height": viewport[1]},
            "accept_downloads": False,
        }
        if self.proxy is not None and self.config.kind == "chromium":
            options["proxy"] = {"server": await self.proxy.listen(token)}
        return options

    async def _drop_context(self, token: str, context: BrowserContext) -> None:
        """Close a context no session took, and its proxy listener."""
        if self.proxy is not None:
            self.proxy.forget(token)
        with best_effort():
            await wait_within(context.close(), CLOSE_WAIT_S)

    async def _open_session(
        self, key: str, storage_state: dict[str, Any] | None
    ) -> PlaywrightSession:
        """The session's connection, context, tab and CDP session (the first session takes
        the tab the capability probe opened, unless it starts from a storage state).
        Nothing is left open when it fails."""
        assert self._browser is not None
        own_browser: Browser | None = None
        context: BrowserContext | None = None
        token = secrets.token_hex(8)
        try:
            if self._first_tab is not None and storage_state is None:
                token, context, page = self._first_tab
                self._first_tab = None
            else:
                if not self.capabilities.multi_context:
                    own_browser = await self._connect()
                browser = own_browser or self._browser
                options = await self._context_options(token)
                if storage_state is not None:
                    options["storage_state"] = storage_state
                context = await browser.new_context(**options)
                page = await context.new_page()
            cdp = await context.new_cdp_session(page)
        except BaseException:
            if context is not None:
                await self._drop_context(token, context)
            elif self.proxy is not None:
                self.proxy.forget(token)
            if own_browser is not None:
                with best_effort():
                    await own_browser.close()
            raise
        return PlaywrightSession(
            key=key,
            config=self.config.session,
            capabilities=self.capabilities,
            context=context,
            page=page,
            cdp=cdp,
            own_browser=own_browser,
            token=token,
            on_close=self._forget,
        )

    async def _wire(self, session: PlaywrightSession) -> None:
        """Route the session's refusals to it and prepare its tab."""
        if self.proxy is not None and self.config.kind == "chromium":
            self._proxy_owner[session.token] = session
        if self.capabilities.interception == "page":
            interceptor = Interceptor(session.cdp, self.policy, session.events.record_blocked)
            await interceptor.enable()
            session.interceptor = interceptor
        else:
            target_id = await session.target_id()
            if target_id:
                self._frame_owner[target_id] = session
        await session.prepare()

    def _forget(self, session: PlaywrightSession) -> None:
        with contextlib.suppress(ValueError):
            self._sessions.remove(session)
        if self._proxy_owner.pop(session.token, None) is not None and self.proxy is not None:
            self.proxy.forget(session.token)
        for frame, owner in list(self._frame_owner.items()):
            if owner is session:
                del self._frame_owner[frame]

    def _on_proxy_refused(self, refusal: ProxyRefusal) -> None:
        """The proxy refused a target: tell the session whose listener it came through
        (the browser-wide listener's refusals belong to no known session: logged only)."""
        session = self._proxy_owner.get(refusal.owner or "")
        if session is not None:
            session.events.record_connection_refused(refusal)
        else:
            log.debug("the browser proxy refused a connection (%s)", refusal.error.code)

    def _on_blocked(
        self, frame_id: str | None, record: BlockedRequest, error: WebResearchError
    ) -> None:
        """Browser-wide interception: hand the refusal to the session owning the frame."""
        owner = self._frame_owner.get(frame_id or "")
        if owner is not None:
            owner.events.record_blocked(frame_id, record, error, main_frame=True)
            return
        for session in self._sessions:
            session.events.record_unattributed(frame_id, record, error)
