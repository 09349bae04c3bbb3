"""The browser backend over CDP with Playwright — the ONLY module importing the browser library.

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

Playwright connects with ``connect_over_cdp``; raw CDP sessions cover what it lacks (the
``Fetch`` domain). On connect, :meth:`PlaywrightBackend.start` installs request interception
(browser-wide when the backend allows, else per page) and PROBES the backend
(:mod:`.probe`): a page served by our own interceptor proves interception works; its
screenshot shows whether pixels are real; a ``confirm()`` shows whether we answer dialogs;
a second context/page shows what isolation is possible. A backend on which interception
cannot be verified is refused (we never drive a browser whose requests escape the policy).

Playwright is imported lazily, so a missing optional dependency closes the tool's gate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from dataclasses import dataclass, replace
from typing import Any

from ..errors import BrowserError, ConfigurationError, WebResearchError
from . import launch as launching
from .base import BlockedRequest, Capabilities, SessionConfig
from .discovery import discover, normalize_cdp_url
from .intercept import Interceptor
from .page import PlaywrightSession
from .page_errors import map_error
from .policy import RequestPolicy
from .probe import PROBE_URL, has_probe_box
from .proxy import GuardedProxy, ProxyRefusal

__all__ = ["BackendConfig", "PlaywrightBackend", "playwright_available"]

log = logging.getLogger("webresearch.browser")

#: Seconds for connecting over CDP.
CONNECT_TIMEOUT_S = 20.0
#: Seconds the dialog probe waits for ``confirm()`` to return.
DIALOG_PROBE_TIMEOUT_S = 5.0


def playwright_available() -> bool:
    """True when Playwright for Python can be imported (``pip install webresearch[browser]``)."""
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
    connector: Any = None
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
        self._pw: Any = None
        self._browser: Any = None
        self._ws_url = ""
        self._ws_headers: dict[str, str] = {}
        self._process: launching.LaunchedProcess | None = None
        self._interceptor: Interceptor | None = None
        self._sessions: list[PlaywrightSession] = []
        self._frame_owner: dict[str, PlaywrightSession] = {}
        #: the guarded forward proxy of a launched backend (None for a remote endpoint).
        self.proxy: GuardedProxy | None = None
        self._proxy_owner: dict[str, PlaywrightSession] = {}
        self._closed = False

    # --- lifecycle ------------------------------------------------------------------------
    @classmethod
    async def start(cls, config: BackendConfig, policy: RequestPolicy) -> PlaywrightBackend:
        """Launch or connect, install interception, probe.

        Raises:
            ConfigurationError: the backend is not installed / configured.
            BrowserError: it failed to start, or request interception could not be verified.
        """
        backend = cls(config, policy)
        try:
            await backend._start()
        except BaseException:
            await backend.aclose()
            raise
        return backend

    async def _start(self) -> None:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            raise ConfigurationError(
                "Playwright is not installed (pip install 'webresearch[browser]')"
            ) from None
        # The Playwright driver (a Node process) starts while the browser launches.
        driver = asyncio.ensure_future(async_playwright().start())
        try:
            self._ws_url, product = await self._endpoint()
        finally:
            self._pw = await driver
        self._browser = await self._connect()
        level = "none"
        with contextlib.suppress(Exception):
            cdp = await self._browser.new_browser_cdp_session()
            interceptor = Interceptor(cdp, self.policy, self._on_blocked)
            await interceptor.enable()
            self._interceptor = interceptor
            level = "browser"
        self.capabilities = replace(
            await self._probe(level, product), proxied=self.proxy is not None
        )
        if self.capabilities.interception == "none":
            raise BrowserError(
                f"the {self.name} backend does not support request interception (CDP Fetch "
                "domain), so the domain policy and SSRF rules could not be enforced; refusing "
                "to use it",
                hint="configure a Chromium or Lightpanda backend",
            )
        log.info("browser backend %s ready: %s", self.name, self.capabilities)

    async def _start_proxy(self) -> str:
        """Start the guarded proxy of a launched backend; returns its browser-wide URL."""
        self.proxy = GuardedProxy(
            self.policy,
            connector=self.config.connector,
            connect_timeout_s=self.config.connect_timeout_s,
            on_refused=self._on_proxy_refused,
        )
        return await self.proxy.listen()

    async def _endpoint(self) -> tuple[str, str]:
        kind = self.config.kind
        if kind == "chromium":
            binary = launching.find_chromium(self.config.chromium_path)
            if binary is None:
                raise ConfigurationError(
                    "no Chromium found (apt-get install chromium, or set chromium_path)"
                )
            proxy_url = await self._start_proxy()
            profile = launching.new_profile_dir()
            self._process = await launching.launch(
                launching.chromium_args(
                    binary,
                    user_data_dir=profile,
                    viewport=self.config.session.viewport,
                    no_sandbox=os.geteuid() == 0,
                    proxy_url=proxy_url,
                ),
                temp_dir=profile,
            )
            port, path = await launching.wait_for_devtools_port(profile, self._process)
            assert self.proxy is not None
            self.proxy.exclude_port(port)
            return f"ws://127.0.0.1:{port}{path}", "Chromium"
        if kind == "lightpanda":
            binary = launching.find_lightpanda()
            if binary is None:
                raise ConfigurationError(
                    "Lightpanda is not installed (pip install 'webresearch[browser]')"
                )
            proxy_url = await self._start_proxy()
            port = launching.free_port()
            assert self.proxy is not None
            self.proxy.exclude_port(port)
            self._process = await launching.launch(
                launching.lightpanda_args(
                    binary,
                    port=port,
                    max_connections=self.config.max_sessions + 4,
                    proxy_url=proxy_url,
                ),
                env={"LIGHTPANDA_DISABLE_TELEMETRY": "true"},
            )
            await launching.wait_for_port(port, self._process)
            return f"ws://127.0.0.1:{port}/", "Lightpanda"
        if kind == "cdp":
            if not self.config.cdp_url:
                raise ConfigurationError("browser_backend is cdp but browser_cdp_url is not set")
            endpoint = await discover(normalize_cdp_url(self.config.cdp_url))
            self._ws_headers = endpoint.headers
            return endpoint.ws_url, str(endpoint.version.get("Browser", ""))[:80]
        raise ConfigurationError(f"unknown browser_backend {kind!r}")

    async def _connect(self) -> Any:
        try:
            return await self._pw.chromium.connect_over_cdp(
                self._ws_url, timeout=CONNECT_TIMEOUT_S * 1000, headers=self._ws_headers or None
            )
        except Exception as exc:
            # The URL may carry a token: the message names the backend only.
            raise BrowserError(
                f"could not connect to the {self.name} browser over CDP",
                hint="check that the browser is running",
                retryable=True,
            ) from exc

    async def _probe(self, level: str, product: str) -> Capabilities:
        """Open the probe page and measure what this backend does (see the module doc)."""
        caps = Capabilities(backend=self.name, product=product)
        context = await self._browser.new_context(
            viewport={
                "width": self.config.session.viewport[0],
                "height": self.config.session.viewport[1],
            }
        )
        page_interceptor: Interceptor | None = None
        try:
            page = await context.new_page()
            interceptor = self._interceptor
            if interceptor is None:
                with contextlib.suppress(Exception):
                    cdp = await context.new_cdp_session(page)
                    page_interceptor = Interceptor(cdp, self.policy, lambda *a: None)
                    await page_interceptor.enable()
                    interceptor = page_interceptor
                    level = "page"
            if interceptor is None:
                return caps
            interceptor.serve_probe = True
            try:
                await page.goto(PROBE_URL, wait_until="load", timeout=CONNECT_TIMEOUT_S * 1000)
                loaded = (await page.title()) == "webresearch probe"
            except Exception:
                loaded = False
            finally:
                interceptor.serve_probe = False
            if not loaded:
                return caps
            caps = replace(caps, interception=level)  # type: ignore[arg-type]
            with contextlib.suppress(Exception):
                caps = replace(
                    caps, real_screenshots=has_probe_box(await page.screenshot(type="png"))
                )
            caps = replace(caps, handles_dialogs=await _probe_dialogs(page))
            with contextlib.suppress(Exception):
                extra = await context.new_page()
                await extra.close()
                caps = replace(caps, multi_page=True)
            with contextlib.suppress(Exception):
                other = await self._browser.new_context()
                await other.close()
                caps = replace(caps, multi_context=True)
            return caps
        finally:
            if page_interceptor is not None:
                await page_interceptor.aclose()
            with contextlib.suppress(Exception):
                await context.close()

    @property
    def alive(self) -> bool:
        """False once the browser process or the connection is gone."""
        if self._closed or self._browser is None:
            return False
        if self._process is not None and not self._process.alive:
            return False
        return bool(self._browser.is_connected())

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
        """Close sessions, the connection, the driver and the process group. Idempotent."""
        if self._closed:
            return
        self._closed = True
        for session in list(self._sessions):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.aclose(), 5)
        if self._interceptor is not None:
            await self._interceptor.aclose()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._browser.close(), 5)
        if self._pw is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pw.stop(), 10)
        if self._process is not None:
            await self._process.aclose()
        if self.proxy is not None:
            await self.proxy.aclose()

    # --- sessions -------------------------------------------------------------------------
    async def new_session(self, key: str) -> PlaywrightSession:
        """A new isolated session: its own context (and own connection where the backend
        allows one context per connection) with one tab, interception in place before the
        first navigation.

        Raises:
            BrowserError: the backend refused or is gone.
        """
        if not self.alive:
            raise BrowserError("the browser is not running", retryable=True)
        own_browser = None
        token = secrets.token_hex(8)
        try:
            if self.capabilities.multi_context:
                browser = self._browser
            else:
                own_browser = browser = await self._connect()
            viewport = self.config.session.viewport
            options: dict[str, Any] = {
                "viewport": {"width": viewport[0], "height": viewport[1]},
                "accept_downloads": False,
            }
            if self.proxy is not None and self.config.kind == "chromium":
                # A listener of its own: refusals of this context (its workers included)
                # are reported to this session. Lightpanda 1.0 honours a context proxy only
                # for some requests, so it keeps the process-wide --http-proxy alone.
                options["proxy"] = {"server": await self.proxy.listen(token)}
            context = await browser.new_context(**options)
            page = await context.new_page()
            cdp = await context.new_cdp_session(page)
            session = PlaywrightSession(
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
            if "proxy" in options:
                self._proxy_owner[token] = session
            if self.capabilities.interception == "page":
                interceptor = Interceptor(cdp, self.policy, session.record_blocked)
                await interceptor.enable()
                session.interceptor = interceptor
            else:
                target_id = await session.target_id()
                if target_id:
                    self._frame_owner[target_id] = session
            await session.prepare()
        except BaseException as exc:
            self._proxy_owner.pop(token, None)
            if self.proxy is not None:
                self.proxy.forget(token)
            if own_browser is not None:
                with contextlib.suppress(Exception):
                    await own_browser.close()
            if isinstance(exc, WebResearchError) or not isinstance(exc, Exception):
                raise
            raise map_error(exc, "opening a browser session", self.config.session) from exc
        self._sessions.append(session)
        return session

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
            session.record_connection_refused(refusal)
        else:
            log.debug("the browser proxy refused a connection (%s)", refusal.error.code)

    def _on_blocked(
        self, frame_id: str | None, record: BlockedRequest, error: WebResearchError
    ) -> None:
        """Browser-wide interception: hand the refusal to the session owning the frame."""
        owner = self._frame_owner.get(frame_id or "")
        if owner is not None:
            owner.record_blocked(frame_id, record, error, main_frame=True)
            return
        for session in self._sessions:
            session.record_unattributed(frame_id, record, error)


async def _probe_dialogs(page: Any) -> bool:
    """True when the backend answers dialogs itself: we accept a ``confirm()`` and it still
    returns false (Lightpanda dismisses every dialog on its own)."""

    answering: set[asyncio.Future[None]] = set()

    def accept(dialog: Any) -> None:
        async def answer() -> None:
            with contextlib.suppress(Exception):
                await dialog.accept()

        task = asyncio.ensure_future(answer())
        answering.add(task)
        task.add_done_callback(answering.discard)

    page.on("dialog", accept)
    try:
        result = await asyncio.wait_for(
            page.evaluate("() => confirm('webresearch probe')"), DIALOG_PROBE_TIMEOUT_S
        )
    except Exception:
        return False
    finally:
        page.remove_listener("dialog", accept)
    return result is not True
