"""The Toolkit: the tool set of webresearch for agent runs (SPEC §3, §4).

    toolkit = Toolkit(Settings.load())
    specs = toolkit.tools(run)                       # what the model may call in this run
    result = await toolkit.call("web_fetch", {"url": "https://example.org"}, run=run)

The Toolkit owns the process-wide services (:mod:`.services`), the registered tools
(:mod:`.toolset`) and the call pipeline (:mod:`.pipeline`: gates, validation, approval,
the tool, the journal). Nothing raises out of :meth:`Toolkit.call`: every failure becomes a
failed :class:`~webresearch.types.ToolResult`.
"""

from __future__ import annotations

import logging
import ssl
import time
from collections.abc import Callable, Iterable, Mapping

import httpcore2

from ..config import Settings
from ..errors import WebResearchError
from ..net.resolver import Resolver
from ..progress import ProgressCallback
from ..runtime.journal import Journal
from ..runtime.limits import Limiter
from ..runtime.run import RunContext
from ..runtime.scope import ScopeStore
from ..types import ToolResult
from .base import Tool
from .catalog import Builder, default_builders
from .context import Ledger
from .image_refusals import ImageRefusals
from .instructions import instructions
from .pipeline import USER_LINK_FAILED, CallPipeline
from .services import Services
from .specs import ToolSpec
from .telemetry import CallTelemetry
from .toolset import ToolSet

__all__ = ["USER_LINK_FAILED", "Builder", "Toolkit", "default_builders"]

log = logging.getLogger("webresearch")


def _reason(exc: Exception) -> str:
    """Our error's message (it names no address), else only the exception's type."""
    return exc.message if isinstance(exc, WebResearchError) else type(exc).__name__


class Toolkit:
    """The tool set of webresearch for agent runs.

    Args:
        settings: configuration (default: :meth:`Settings.load` from the environment).
        services: prebuilt services (default: built from ``settings`` and the seams below).
        resolver: DNS seam for the SSRF guard (tests inject one).
        connector: TCP seam of the guarded transport (tests inject one).
        ssl_context: TLS settings for model-chosen URLs (tests pass one trusting a local CA).
        journal: journal sink (default from ``settings.journal_url``).
        limiter: limiter backend (default in-process).
        scopes: scope store (default in-process).
        clock: monotonic seconds (limits, caches, scopes, replays).
        builders: the tools to offer (default :func:`default_builders`).

    Raises:
        ConfigurationError: the settings (or an installed provider's options) are invalid.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        services: Services | None = None,
        resolver: Resolver | None = None,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
        journal: Journal | None = None,
        limiter: Limiter | None = None,
        scopes: ScopeStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        builders: Iterable[Builder] | None = None,
    ) -> None:
        if services is None:
            services = Services(
                settings or Settings.load(),
                resolver=resolver,
                connector=connector,
                ssl_context=ssl_context,
                journal=journal,
                limiter=limiter,
                scopes=scopes,
                clock=clock,
            )
        self.services = services
        self.settings = services.settings
        self._tools = ToolSet(services, builders if builders is not None else default_builders())
        self._ledger = Ledger()
        self._telemetry = CallTelemetry()
        self._pipeline = CallPipeline(services, self._tools, self._ledger, self._telemetry)
        self._image_refusals = ImageRefusals(services)

    # --- lifecycle ------------------------------------------------------------------------
    async def aclose(self) -> None:
        """Release connections, browsers and backends."""
        await self.services.aclose()

    async def __aenter__(self) -> Toolkit:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def journal(self) -> Journal:
        """The journal sink (query it for events)."""
        return self.services.journal

    @property
    def image_refusals(self) -> ImageRefusals:
        """(model, provider) pairs that refused pictures and get text for a while, shared
        through the state backend (the adapters' image fallback uses it)."""
        return self._image_refusals

    # --- registration -------------------------------------------------------------------------
    @property
    def unavailable(self) -> dict[str, str]:
        """Tool name → why it is not registered in this process (an optional dependency or
        a misconfiguration; logged once)."""
        return self._tools.unavailable

    @property
    def not_configured(self) -> dict[str, str]:
        """Opt-in tools whose service the settings do not choose (not logged)."""
        return self._tools.not_configured

    def tool(self, name: str) -> Tool | None:
        """The registered tool ``name`` (its declaration: spec, typed arguments, gate, run),
        or ``None``. For programs that drive a tool without the call pipeline (benchmarks
        measuring what the pipeline adds)."""
        return self._tools.get(name)

    def spent_by(self, run_id: str) -> float:
        """What a run has spent so far (price units)."""
        return self._ledger.spent_by(run_id)

    def not_offered(self, run: RunContext | None = None) -> dict[str, str]:
        """Every tool ``run`` is not offered, with why: an optional package or a setting is
        missing, the run's gate closes it (no network access, no workspace, a model that
        cannot see images), or the approval policy denies it. For people (``webresearch
        tools``); a model is never told about tools it cannot use."""
        return self._tools.not_offered(run or RunContext())

    def instructions(self, run: RunContext | None = None) -> str:
        """What a model is told once about the tools ``run`` is offered: when to search and
        when to fetch, the URL rules in force (the SSRF guard, the run's fetch scope) and how
        to continue a cut page. A few lines, constant for a configuration (the MCP server's
        ``instructions``)."""
        run = run or RunContext()
        return instructions([s.name for s in self.tools(run)], self.settings, run.fetch_scope)

    def call_counts(self) -> dict[str, dict[str, int]]:
        """Calls made so far, per tool and outcome: ``{"web_fetch": {"ok": 3,
        "http_status": 1}}`` — an error code for a call that failed or was refused,
        ``cancelled``, else ``ok`` (the same counts go to OpenTelemetry when it is set up)."""
        return self._telemetry.counts()

    async def readiness(self) -> dict[str, bool]:
        """Whether this Toolkit can serve calls: ``{"tools": …, "state": …, "journal": …}``
        — some tool is registered, the state backend and the journal answer (each probe
        bounded by the storage timeouts). For health checks; never raises."""
        checks = {"tools": bool(self.tools(RunContext()))}
        for name, probe in (("state", self.services.state.ping), ("journal", self.journal.ping)):
            try:
                await probe()
            except Exception as exc:  # a probe answers; it never fails the prober
                log.info("readiness: %s is not reachable (%s)", name, _reason(exc))
                checks[name] = False
            else:
                checks[name] = True
        return checks

    def tools(self, run: RunContext | None = None) -> list[ToolSpec]:
        """The constant specs of the tools registered for ``run``, in a stable order.

        Titles are in ``settings.tool_titles_language`` (for people: MCP titles, CLI
        headings); names, descriptions and schemas — what the model sees — never change.
        """
        return self._tools.offered(run or RunContext())

    # --- calls --------------------------------------------------------------------------------
    async def call(
        self,
        name: str,
        arguments: Mapping[str, object] | None = None,
        *,
        run: RunContext | None = None,
        operation_id: str | None = None,
        progress: ProgressCallback | None = None,
    ) -> ToolResult:
        """Execute tool ``name`` with ``arguments`` for ``run``.

        Args:
            name: tool name.
            arguments: the model's arguments (a JSON object).
            run: the run context (default: a fresh open run with network access).
            operation_id: idempotency key; repeating it returns the recorded result and
                writes no new events (default: a fresh id).
            progress: called with a line a person can read each time the call enters a
                long stage ("starting Chromium", "waiting for the page to settle"); it must
                not block (:mod:`webresearch.progress`).

        Returns:
            the result; on failure ``result.error`` holds the error and ``result.text`` its
            model-facing text (redacted).
        """
        return await self._pipeline.call(
            name,
            arguments,
            run or RunContext(),
            operation_id,
            lambda r: [s.name for s in self.tools(r)],
            progress,
        )
