"""Process-wide services shared by every tool: one explicit object, no module globals.

Built once per :class:`~webresearch.tools.registry.Toolkit` from the settings: the SSRF
guard and guarded client, the redactor, the journal, the limiter, the scope store, named
caches, cool-downs; created on first use: the browser (one per process, shared by the
browser tool, browser_open, page_screenshot and web_fetch's renderer) and the screenshot
service. Shared backends (SQLite, Redis, PostgreSQL) are chosen here by URL.

The redactor knows every secret of the settings and of every installed provider's options
(:attr:`Services.options_catalog`), whether or not the provider is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import httpcore2
from pydantic import SecretStr

from ..access import AccessPolicy, DomainPolicy, RobotsChecker
from ..access.robots_rules import with_product_token
from ..addresses import AddressPolicy
from ..backends.state import (
    FailOpenCache,
    FailOpenCooldowns,
    MemoryState,
    StateBackend,
    file_path,
    open_state,
)
from ..config import ProviderOptions, Settings
from ..errors import ConfigurationError
from ..net.client import GuardedClient
from ..net.guard import SSRFGuard
from ..net.http_status import WallClock, utc_now
from ..net.proxy import outbound_connector
from ..net.resolver import Resolver
from ..readers import registry as readers_registry
from ..readers.base import ReaderContext, ScreenshotService
from ..redact import Redactor
from ..runtime.cache import Cache
from ..runtime.cooldowns import CooldownStore
from ..runtime.cpu_pool import CPUPool, usable_cores
from ..runtime.journal import Journal, MemoryJournal
from ..runtime.limits import Limiter
from ..runtime.scope import ScopeStore
from ..search import registry as search_registry

if TYPE_CHECKING:
    from ..browser.manager import BrowserManager

log = logging.getLogger("webresearch")

__all__ = ["CPU_PRELOAD", "Registries", "Services", "default_journal_path", "open_journal"]

#: What the CPU workers' forkserver imports once (tools/cpu_preload.py: the functions tools
#: run in the pool, warmed up), so every worker forks warm.
CPU_PRELOAD = ("webresearch.tools.cpu_preload",)

#: Origins whose robots.txt the ``robots`` cache keeps (entries of at most 500 KiB).
ROBOTS_CACHE_SIZE = 128


@dataclass(frozen=True, slots=True)
class Registries:
    """Where providers are found by id (default: the process-wide registries, which hold the
    built-ins and every plugin installed through entry points; tests pass their own).

    Attributes:
        search: search providers (``search_provider``).
        readers: page readers (``reader``).
        screenshots: screenshot services (``screenshot_service``).
    """

    search: search_registry.ProviderRegistry = field(
        default_factory=lambda: search_registry.REGISTRY
    )
    readers: readers_registry.ReaderRegistry = field(
        default_factory=lambda: readers_registry.READERS
    )
    screenshots: readers_registry.ScreenshotRegistry = field(
        default_factory=lambda: readers_registry.SCREENSHOTS
    )

    def options_catalog(self) -> dict[str, type[ProviderOptions]]:
        """Every registered provider's options model, by id. A service used by several tools
        (Firecrawl: search, reader, screenshots) has one model."""
        catalog = dict(self.search.options_catalog())
        declared = [
            *((cls.id, cls.options_model) for cls in self.readers.classes()),
            *((cls.id, cls.options_model) for cls in self.screenshots.classes()),
        ]
        for ident, model in declared:
            if catalog.setdefault(ident, model) is not model:
                log.warning("providers with id %r declare different options models", ident)
        return catalog


def default_journal_path(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/webresearch/journal.sqlite3`` (default ``~/.local/state``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "webresearch" / "journal.sqlite3"


def open_journal(
    url: str | SecretStr | None,
    *,
    connect_timeout_s: float = 2.0,
    timeout_s: float = 2.0,
) -> Journal:
    """Open the journal sink named by ``url`` (see ``Settings.journal_url``).

    Args:
        url: ``sqlite:///path``, ``jsonl:///path``, ``memory://``, ``postgresql://…``, or
            ``None`` for the default SQLite file (a secret: never logged or shown).
        connect_timeout_s: seconds to connect to PostgreSQL.
        timeout_s: seconds one PostgreSQL statement may take.

    Raises:
        ConfigurationError: unknown scheme.
        StorageError: the sink cannot be opened.
    """
    if isinstance(url, SecretStr):
        url = url.get_secret_value()
    if url is None or url == "":
        from ..backends.sqlite_journal import SQLiteJournal

        return SQLiteJournal(default_journal_path())
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme == "memory":
        return MemoryJournal()
    if scheme == "sqlite":
        from ..backends.sqlite_journal import SQLiteJournal

        return SQLiteJournal(file_path(rest))
    if scheme == "jsonl":
        from ..backends.jsonl_journal import JSONLinesJournal

        return JSONLinesJournal(file_path(rest))
    if scheme in ("postgres", "postgresql"):
        try:
            from ..backends.postgres_journal import PostgresJournal
        except ImportError:
            raise ConfigurationError(
                "journal_url is postgresql://… but PostgreSQL support is not installed "
                "(pip install -e '.[postgres]' in the webresearch checkout)"
            ) from None
        return PostgresJournal(url, connect_timeout_s=connect_timeout_s, timeout_s=timeout_s)
    raise ConfigurationError(
        "journal_url must start with sqlite://, jsonl://, memory:// or postgresql://"
    )


class Services:
    """Everything tools share in one process.

    Args:
        settings: configuration.
        resolver: DNS seam of the SSRF guard.
        connector: TCP seam of the guarded transport.
        ssl_context: TLS settings for model-chosen URLs.
        journal: a journal sink (default from ``settings.journal_url``).
        state: the shared-state backend (default from ``settings.state_url``).
        limiter: a limiter (default: the state backend's).
        scopes: a scope store (default: the state backend's).
        clock: monotonic seconds (in-process limits, caches, scopes; shared backends use
            a clock every process agrees on).
        now: wall-clock time (provenance timestamps, Retry-After dates).
        registries: where providers are found (default: the process-wide registries).
        cpu: a CPU worker pool to share (default: one sized by ``settings.cpu_workers``,
            owned and closed by these services).

    Raises:
        ConfigurationError: an option of an installed provider is invalid, or a backend URL.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        resolver: Resolver | None = None,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
        journal: Journal | None = None,
        state: StateBackend | None = None,
        limiter: Limiter | None = None,
        scopes: ScopeStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        now: WallClock = utc_now,
        registries: Registries | None = None,
        cpu: CPUPool | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.now = now
        self.registries = registries or Registries()
        #: every installed provider's options model, by id (secrets, unknown names).
        self.options_catalog = self.registries.options_catalog()
        for line in settings.unknown_names(self.options_catalog):
            log.warning("%s", line)
        for line in settings.deprecation_warnings():
            log.warning("%s", line)
        proxy = settings.outbound_proxy  # checked addresses are dialled through it (net/proxy)
        proxy_url = proxy.get_secret_value() if proxy is not None else None
        connector = outbound_connector(proxy_url, connector, ssl_context)
        #: the TCP seam of the guarded transport (``None``: real sockets); the browser's
        #: guarded proxy dials checked addresses through it too.
        self.connector = connector
        self.redact = Redactor(settings.secret_values(self.options_catalog))
        self.policy = AddressPolicy(
            allow_private=settings.allow_private, allowed_networks=settings.allowed_networks
        )
        for line in self.policy.broad_exemptions():
            log.warning("%s", line)
        self.guard = SSRFGuard(self.policy, resolver=resolver)
        self.client = GuardedClient(
            self.guard,
            connector=connector,
            user_agent=with_product_token(settings.user_agent, settings.robots_product_token),
            connect_timeout_s=settings.connect_timeout_s,
            request_timeout_s=settings.request_timeout_s,
            max_redirects=settings.max_redirects,
            download_cap_bytes=settings.download_cap_bytes,
            ssl_context=ssl_context,
        )
        self.state: StateBackend = (
            state
            if state is not None
            else open_state(
                settings.state_url,
                prefix=settings.redis_prefix,
                connect_timeout_s=settings.storage_connect_timeout_s,
                timeout_s=settings.storage_timeout_s,
                clock=clock,
            )
        )
        self.journal: Journal = (
            journal
            if journal is not None
            else open_journal(
                settings.journal_url,
                connect_timeout_s=settings.storage_connect_timeout_s,
                timeout_s=settings.storage_timeout_s,
            )
        )
        self.limiter: Limiter = limiter if limiter is not None else self.state.limiter
        self.scopes: ScopeStore = scopes if scopes is not None else self.state.scopes
        #: cool-downs of failed search providers (a shared backend's errors change nothing)
        self.cooldowns: CooldownStore = (
            self.state.cooldowns
            if isinstance(self.state, MemoryState)
            else FailOpenCooldowns(self.state.cooldowns)
        )
        self._caches: dict[str, Cache] = {}
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._browser: BrowserManager | None = None
        self._screenshots: tuple[ScreenshotService | None] | None = None
        #: conversion, PDF text and image preparation run here, off the event loop; its
        #: workers start on the first job (runtime/cpu_pool.py).
        self.cpu = cpu or CPUPool(
            usable_cores() if settings.cpu_workers is None else settings.cpu_workers,
            settings.cpu_max_in_flight,
            preload=CPU_PRELOAD,
        )
        self._owns_cpu = cpu is None
        #: the per-URL gates of every tool that takes a URL: domain policy, robots.txt.
        self.access = self._access_policy()

    def _access_policy(self) -> AccessPolicy:
        settings = self.settings
        domains = DomainPolicy.from_settings(settings.allowed_domains, settings.blocked_domains)
        if settings.robots == "ignore":
            return AccessPolicy(domains)
        robots = RobotsChecker(
            self.client,
            self.cache("robots", maxsize=ROBOTS_CACHE_SIZE, ttl_s=settings.robots_cache_ttl_s),
            product_token=settings.robots_product_token,
            ttl_s=settings.robots_cache_ttl_s,
            now=self.now,
            hop_gate=domains.hop_gate,
        )
        return AccessPolicy(domains, robots)

    def reader_context(self) -> ReaderContext:
        """What a page reader or screenshot service is built from."""
        return ReaderContext(
            self.settings, self.guard, self.client, self.now, self.cpu, self.access
        )

    @property
    def browser(self) -> BrowserManager:
        """The process's browser manager (created on first use, closed with the services).

        Creating it starts nothing: the backend starts at the first action.
        """
        if self._browser is None:
            from ..browser.manager import BrowserManager

            self._browser = BrowserManager(
                self.settings,
                self.guard,
                clock=self.clock,
                connector=self.connector,
                access=self.access,
            )
            self.on_close(self._browser.aclose)
        return self._browser

    def screenshot_service(self) -> ScreenshotService | None:
        """The screenshot service ``settings.screenshot_service`` names (created on first
        use, closed with the services), or ``None`` when none is chosen.

        Raises:
            ConfigurationError: the chosen service is unknown or its configuration is
                missing (raised again at every call: nothing is kept).
        """
        if self._screenshots is None:
            service = readers_registry.create_screenshot_service(
                self.reader_context(), registry=self.registries.screenshots
            )
            self._screenshots = (service,)
            if service is not None:
                self.on_close(service.aclose)
        return self._screenshots[0]

    def cache(self, name: str, *, maxsize: int, ttl_s: float) -> Cache:
        """The named cache (created on first use; one per name per process).

        With a shared state backend every process using the same name shares the entries;
        its storage errors are cache misses (:class:`~webresearch.backends.state.FailOpenCache`).
        """
        if name not in self._caches:
            cache = self.state.cache(name, maxsize=maxsize, ttl_s=ttl_s)
            self._caches[name] = (
                cache if isinstance(self.state, MemoryState) else FailOpenCache(cache, name)
            )
        return self._caches[name]

    def on_close(self, closer: Callable[[], Awaitable[None]]) -> None:
        """Run ``closer`` when the services close (browsers, provider clients …)."""
        self._closers.append(closer)

    async def aclose(self) -> None:
        """Close every resource, last registered first.

        A cancellation that comes while the registered closers run (Ctrl-C as a command
        ends) waits until they are done, then goes on: cut in the middle, a browser's
        processes and its profile directory were left behind (one in about 20 signals sent
        during the close). The shared client, journal, state and CPU pool close after them
        as before (a worker still starting when its pool is stopped exits quietly:
        ``runtime.cpu_forkserver``).
        """
        closing = asyncio.ensure_future(self._run_closers())
        try:
            await asyncio.shield(closing)
        except asyncio.CancelledError:
            await closing
            raise
        await self.client.aclose()
        await self.journal.aclose()
        await self.state.aclose()
        if self._owns_cpu:
            await self.cpu.aclose()

    async def _run_closers(self) -> None:
        for closer in reversed(self._closers):
            with contextlib.suppress(Exception):  # closing must go on
                await closer()

    def describe(self) -> dict[str, str]:
        """Which backends are in use (no secrets)."""
        return {
            "journal": type(self.journal).__name__,
            "state": self.state.name,
            "limiter": type(self.limiter).__name__,
            "scopes": type(self.scopes).__name__,
            "cpu": f"{self.cpu.workers} worker processes" if self.cpu.workers else "in-process",
        }
