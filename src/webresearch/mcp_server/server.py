"""The MCP server over a Toolkit: the official SDK's low-level ``Server`` with two handlers.

``tools/list`` serves exactly the tools the Toolkit registers for the session's run (constant
names, descriptions and schemas, plus titles and annotations); ``tools/call`` runs
:meth:`webresearch.Toolkit.call` and converts the result (text, images, ``isError``).

One :class:`~webresearch.RunContext` per MCP session: network access on, the workspace given
at start-up, the server's run policy (fetch scope and budget: ``mcp_fetch_scope``,
``mcp_budget``), and a run id derived from the session, so the journal groups a session's
calls. A streamable-HTTP session is named by its ``Mcp-Session-Id`` (the run id is a hash of
it, never the id itself, which works like a credential); a stdio server serves one session
per process, and 2026-07-28 clients over HTTP (stateless, no session) share the server's
run id (and so its budget).

The ``instructions`` the client gets at the handshake are :meth:`Toolkit.instructions` for a
session's run: constant for the configuration.

A call runs in a task of its own: when the client cancels it (``notifications/cancelled``),
that task is cancelled once and given :data:`CANCEL_GRACE_S` to stop the work and release
what it holds (the browser stops loading and closes a one-shot tab, a download is dropped,
the journal records ``cancelled``) — the SDK's cancel scope would otherwise cancel every
``await`` of that cleanup again. While it runs, a :class:`~.progress.ProgressPump` sends
progress notifications when the client asked for them.

At the first web_search call, when no search provider is set and web_search falls back to
ddgs (the keyless default: the query goes to public search engines), the server says so
once on stderr, through its log (a warning of ``webresearch.mcp``; text or JSON as the
command's logs are) — the line ``webresearch search`` says before a search. The protocol's
own log messages are not used: 2026-07-28 deprecates them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import uuid
from pathlib import Path
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp_types.version import is_version_at_least

from webresearch import (
    ConfigurationError,
    RunContext,
    Toolkit,
    ToolResult,
    ToolUnavailable,
    __version__,
)
from webresearch.config.search_notice import default_provider_notice

from .approval import Approver, PendingApprovals, back_channel_approver
from .convert import call_result, mcp_tool
from .progress import ProgressPump

__all__ = ["CANCEL_GRACE_S", "SERVER_NAME", "WebResearchServer"]

log = logging.getLogger("webresearch.mcp")

SERVER_NAME = "webresearch"
#: Seconds a cancelled call may take to stop its work and release it.
CANCEL_GRACE_S = 10.0
#: Seconds given to the answers of calls stopped at shutdown to reach their clients.
ANSWER_FLUSH_S = 0.2
#: Fetch scopes an MCP session may run in (``user_links`` needs the person's own messages,
#: which an MCP server never sees).
McpScope = Literal["open", "search_results"]
#: First protocol revision without server-to-client requests (elicitation rides
#: ``input_required`` results instead).
_INPUT_REQUIRED_VERSION = "2026-07-28"
_SESSION_HEADER = "mcp-session-id"
#: Seconds a sealed ``requestState`` stays valid after its question expires.
_STATE_GRACE_S = 60.0


class WebResearchServer:
    """Serves one Toolkit over MCP.

    Args:
        toolkit: the tools to serve (the caller owns and closes it).
        workspace: directory ``view_image`` may read (``None``: no workspace).
        approval_timeout_s: seconds to wait for a person's approval (default:
            ``toolkit.settings.mcp_approval_timeout_s``).
        fetch_scope: which URLs a session may open (default ``mcp_fetch_scope``).
        budget: most one session may spend on paid calls (default ``mcp_budget``; price
            units; ``None``: no limit).
        progress_interval_s: longest time between two progress notifications of a call
            (default ``mcp_progress_interval_s``).

    Raises:
        ConfigurationError: ``fetch_scope`` is ``user_links`` (an MCP server never sees the
            person's messages, so every URL would be refused).

    Attributes:
        server: the SDK's low-level ``Server`` (run it over stdio or streamable HTTP).
        run_id: the run id of calls that come without a session (stdio, stateless HTTP).
        instructions: what the client is told about the tools at the handshake.
    """

    def __init__(
        self,
        toolkit: Toolkit,
        *,
        workspace: Path | None = None,
        approval_timeout_s: float | None = None,
        fetch_scope: str | None = None,
        budget: float | None = None,
        progress_interval_s: float | None = None,
    ) -> None:
        settings = toolkit.settings
        self.toolkit = toolkit
        self.workspace = workspace
        self.fetch_scope = _mcp_scope(fetch_scope or settings.mcp_fetch_scope)
        self.budget = budget if budget is not None else settings.mcp_budget
        self.progress_interval_s = progress_interval_s or settings.mcp_progress_interval_s
        timeout = approval_timeout_s or settings.mcp_approval_timeout_s
        self.approval_timeout_s = timeout
        self.pending = PendingApprovals(timeout)
        self.run_id = f"mcp-{uuid.uuid4().hex[:12]}"
        self._calls: set[asyncio.Future[Any]] = set()
        self._handlers = 0  # tools/call handlers that have not returned yet
        self._stopping = False
        self._search_noticed = False  # the default-provider line was considered (once)
        self.instructions = toolkit.instructions(self._run(self.run_id))
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=__version__,
            title="webresearch",
            instructions=self.instructions,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        # Seals the 2026-07-28 ``requestState`` and binds it to the same tool and arguments.
        # It outlives the question by a grace period, so a late answer gets a clear
        # "expired" result instead of a protocol error.
        state_ttl_s = timeout + _STATE_GRACE_S
        self.server.middleware.append(
            RequestStateBoundary(
                RequestStateSecurity.ephemeral(ttl=state_ttl_s), default_audience=SERVER_NAME
            )
        )

    async def stop_calls(self, grace_s: float = CANCEL_GRACE_S) -> None:
        """The server is stopping: cancel every running call and wait (at most ``grace_s``)
        until each has released what it holds and answered its client with
        ``error[tool_unavailable]`` ("the server is shutting down") — before the sessions
        close, so no request is left without an answer. Calls that start later are
        refused the same way."""
        self._stopping = True
        running = set(self._calls)
        if not running:
            return
        for task in running:
            task.cancel()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace_s
        while self._handlers and loop.time() < deadline:
            await asyncio.sleep(0.01)
        # The SDK writes a handler's answer after it returns: give the writes a moment
        # to reach the clients' streams before the sessions close.
        await asyncio.sleep(ANSWER_FLUSH_S)

    async def aclose(self) -> None:
        """Cancel calls still waiting for an approval."""
        await self.pending.aclose()

    def run_for(self, ctx: ServerRequestContext[Any, Any]) -> RunContext:
        """The session's run: network on, the workspace, the server's fetch scope and
        budget, a run id derived from the session."""
        return self._run(self._run_id(ctx))

    def _run(self, run_id: str) -> RunContext:
        return RunContext(
            run_id=run_id,
            network_access=True,
            workspace=self.workspace,
            fetch_scope=self.fetch_scope,
            budget=self.budget,
        )

    def _run_id(self, ctx: ServerRequestContext[Any, Any]) -> str:
        headers = getattr(ctx.request, "headers", None)
        session_id = headers.get(_SESSION_HEADER) if headers is not None else None
        if not session_id:
            return self.run_id
        return "mcp-" + hashlib.sha256(str(session_id).encode()).hexdigest()[:12]

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[mcp_tool(s) for s in self.toolkit.tools(self.run_for(ctx))]
        )

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        self._handlers += 1
        try:
            return await self._run_call(ctx, params)
        finally:
            self._handlers -= 1

    async def _run_call(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if self._stopping:
            return call_result(ToolResult.failure(_shutting_down()))
        pump = None
        if (ctx.meta or {}).get("progress_token") is not None:

            async def send(elapsed_s: float, message: str) -> None:
                await ctx.session.report_progress(elapsed_s, None, message)

            pump = ProgressPump(send, self.progress_interval_s)
        # Its own task: a cancel is delivered once, and the cleanup's awaits then run.
        work = asyncio.ensure_future(self._answer(ctx, params, pump))
        self._calls.add(work)
        work.add_done_callback(self._calls.discard)
        pumping = asyncio.ensure_future(pump.run()) if pump is not None else None
        try:
            return await asyncio.shield(work)
        except BaseException:
            work.cancel()
            with anyio.CancelScope(shield=True):
                await asyncio.wait([work], timeout=CANCEL_GRACE_S)
            current = asyncio.current_task()
            if self._stopping and current is not None and not current.cancelling():
                # Stopped by stop_calls, not by the client: answer it.
                return call_result(ToolResult.failure(_shutting_down()))
            raise
        finally:
            if pumping is not None:
                pumping.cancel()
                with anyio.CancelScope(shield=True), contextlib.suppress(asyncio.CancelledError):
                    await pumping

    async def _answer(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        pump: ProgressPump | None,
    ) -> types.CallToolResult | types.InputRequiredResult:
        run = self.run_for(ctx)
        arguments = dict(params.arguments or {})
        report = pump.report if pump is not None else None
        if params.name == "web_search":
            self._notice_default_provider()

        async def call(approver: Approver) -> ToolResult:
            # the server's own wait (back channel or input-required) words the denial: the
            # call-level bound is one second later, only a backstop
            supervised = dataclasses.replace(
                run, approver=approver, approval_timeout_s=self.approval_timeout_s + 1
            )
            return await self.toolkit.call(params.name, arguments, run=supervised, progress=report)

        if not is_version_at_least(ctx.protocol_version, _INPUT_REQUIRED_VERSION):
            approver = back_channel_approver(ctx.session, ctx.request_id, self.approval_timeout_s)
            return call_result(await call(approver))
        if params.request_state is not None:
            return call_result(
                await self.pending.resume(params.request_state, params.input_responses)
            )
        outcome = await self.pending.start(call, ctx.session.client_capabilities)
        if isinstance(outcome, types.InputRequiredResult):
            return outcome
        return call_result(outcome)

    def _notice_default_provider(self) -> None:
        """Once per server, at the first web_search call and before it runs: the
        default-provider line on stderr (a warning) when nothing chose a provider."""
        if self._search_noticed:
            return
        self._search_noticed = True
        notice = default_provider_notice(self.toolkit.settings)
        if notice is not None:
            log.warning("%s", notice)


def _mcp_scope(scope: str) -> McpScope:
    """``open`` or ``search_results``; ``user_links`` is refused with the reason."""
    if scope == "open":
        return "open"
    if scope == "search_results":
        return "search_results"
    if scope == "user_links":
        raise ConfigurationError(
            "the user_links fetch scope needs the person's own messages, which an MCP server "
            "never sees (every URL would be refused); use search_results or open"
        )
    raise ConfigurationError(f"unknown fetch scope {scope!r}: use open or search_results")


def _shutting_down() -> ToolUnavailable:
    return ToolUnavailable(
        "the MCP server is shutting down; the call was stopped",
        hint="call again once the server is back",
        retryable=True,
        refusal="gate",
    )
