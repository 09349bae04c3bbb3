"""Process-wide services shared by every tool: one explicit object, no module globals.

Built once per :class:`~webresearch.tools.registry.Toolkit` from the settings: the SSRF
guard and guarded client, the redactor, the journal, the limiter, the scope store, named
caches. Shared backends (SQLite, Redis, PostgreSQL) are chosen here by URL.
"""

from __future__ import annotations

import contextlib
import os
import ssl
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpcore2
from pydantic import SecretStr

from ..backends.state import FailOpenCache, MemoryState, StateBackend, file_path, open_state
from ..config import Settings
from ..errors import ConfigurationError
from ..net.addresses import AddressPolicy
from ..net.client import GuardedClient
from ..net.guard import SSRFGuard
from ..net.proxy import outbound_connector
from ..net.resolver import Resolver
from ..redact import Redactor
from ..runtime.cache import Cache
from ..runtime.journal import Journal, MemoryJournal
from ..runtime.limits import Limiter
from ..runtime.scope import ScopeStore

__all__ = ["Services", "default_journal_path", "open_journal"]


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
                "(pip install 'webresearch[postgres]')"
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
        now: wall-clock time (provenance timestamps).
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
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.now = now
        proxy = settings.outbound_proxy  # checked addresses are dialled through it (net/proxy)
        proxy_url = proxy.get_secret_value() if proxy is not None else None
        connector = outbound_connector(proxy_url, connector, ssl_context)
        #: the TCP seam of the guarded transport (``None``: real sockets); the browser's
        #: guarded proxy dials checked addresses through it too.
        self.connector = connector
        self.redact = Redactor(settings.secret_values())
        self.policy = AddressPolicy(
            allow_private=settings.allow_private, allowed_networks=settings.allowed_networks
        )
        self.guard = SSRFGuard(self.policy, resolver=resolver)
        self.client = GuardedClient(
            self.guard,
            connector=connector,
            user_agent=settings.user_agent,
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
        self._caches: dict[str, Cache] = {}
        self._closers: list[Callable[[], Awaitable[None]]] = []

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
        """Close every resource, last registered first."""
        for closer in reversed(self._closers):
            with contextlib.suppress(Exception):  # closing must go on
                await closer()
        await self.client.aclose()
        await self.journal.aclose()
        await self.state.aclose()

    def describe(self) -> dict[str, Any]:
        """Which backends are in use (no secrets)."""
        return {
            "journal": type(self.journal).__name__,
            "state": self.state.name,
            "limiter": type(self.limiter).__name__,
            "scopes": type(self.scopes).__name__,
        }
