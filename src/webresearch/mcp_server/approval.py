"""Supervised calls asked of the person through MCP elicitation (SPEC §3 "Approval policy").

When a tool's approval mode is ``supervised``, the Toolkit awaits the run's approver with an
:class:`~webresearch.ApprovalRequest`. Over MCP the approver asks the person with a form
elicitation: "Allow this <risk>-risk call? <summary>" and one required boolean ``approve``.
The call runs only when the person *accepts* the form with ``approve: true``; a decline, a
cancel, a timeout (``Settings.mcp_approval_timeout_s``), a client without form elicitation,
or any failure to ask denies it (``approval_denied``), so silence never approves.

The two protocol eras ask differently:

* up to 2025-11-25 the server sends ``elicitation/create`` to the client mid-call, on the
  request's back-channel (:func:`back_channel_approver`);
* from 2026-07-28 a server may not send requests: the call answers ``input_required`` with
  the question embedded, and the client retries with the person's answer.
  :class:`PendingApprovals` keeps the suspended call in this process between the two rounds
  (the retry's ``requestState`` names it; the SDK's :class:`RequestStateBoundary` seals that
  state and binds it to the same tool and arguments), so the Toolkit asks exactly once and
  journals exactly what was decided.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from webresearch import ApprovalDenied, ApprovalRequest, ToolResult

__all__ = [
    "APPROVAL_INPUT_KEY",
    "PendingApprovals",
    "back_channel_approver",
    "granted",
    "question",
    "supports_form_elicitation",
]

log = logging.getLogger("webresearch.mcp")

#: Key of the approval question in an ``input_required`` result and its answer on retry.
APPROVAL_INPUT_KEY = "webresearch/approval"

#: The form: one required boolean; the call runs only on ``accept`` with ``approve: true``.
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {
            "type": "boolean",
            "title": "Allow this call",
            "description": "Run this tool call now.",
            "default": False,
        }
    },
    "required": ["approve"],
}

Approver = Callable[[ApprovalRequest], Awaitable[bool]]


def supports_form_elicitation(capabilities: types.ClientCapabilities | None) -> bool:
    """Whether the client declared form elicitation (a bare ``elicitation: {}`` counts)."""
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def question(request: ApprovalRequest) -> types.ElicitRequestFormParams:
    """The form shown to the person for ``request`` (its summary is already redacted)."""
    return types.ElicitRequestFormParams(
        message=f"Allow this {request.risk}-risk call? {request.summary}",
        requested_schema=dict(_SCHEMA),
    )


def granted(answer: types.ElicitResult | None) -> bool:
    """True only for an accepted form whose ``approve`` is exactly ``true``."""
    return (
        answer is not None
        and answer.action == "accept"
        and answer.content is not None
        and answer.content.get("approve") is True
    )


def back_channel_approver(
    session: ServerSession, request_id: types.RequestId | None, timeout_s: float
) -> Approver:
    """An approver that asks over the request's back-channel (protocol ≤ 2025-11-25).

    Args:
        session: the request's server session.
        request_id: the ``tools/call`` request id (the question rides its stream).
        timeout_s: seconds to wait for the person before denying.
    """

    async def approve(request: ApprovalRequest) -> bool:
        if not supports_form_elicitation(session.client_capabilities) or not (
            session.can_send_request
        ):
            return False
        form = question(request)
        try:
            answer = await asyncio.wait_for(
                session.elicit_form(form.message, form.requested_schema, request_id), timeout_s
            )
        except (TimeoutError, MCPError, ValidationError) as exc:
            log.info("approval question not answered (%s)", type(exc).__name__)
            return False
        return granted(answer)

    return approve


@dataclass(eq=False)
class _Pending:
    id: str
    asked: asyncio.Future[ApprovalRequest]
    answer: asyncio.Future[bool]
    task: asyncio.Task[ToolResult] | None = field(default=None)


class PendingApprovals:
    """Supervised calls suspended between the two rounds of an ``input_required`` exchange.

    Args:
        timeout_s: seconds a suspended call waits for the client's retry before it is
            denied (and journaled as denied by the Toolkit).
    """

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._pending: dict[str, _Pending] = {}

    def __len__(self) -> int:
        return len(self._pending)

    async def start(
        self,
        call: Callable[[Approver], Awaitable[ToolResult]],
        capabilities: types.ClientCapabilities | None,
    ) -> ToolResult | types.InputRequiredResult:
        """Run ``call(approver)``; if it asks for approval, suspend it and return the question.

        Returns:
            the call's result when it needed no approval (or could not ask: a client
            without form elicitation is denied at once), else an ``input_required`` result
            whose ``request_state`` names the suspended call.
        """
        loop = asyncio.get_running_loop()
        pending = _Pending(uuid.uuid4().hex, loop.create_future(), loop.create_future())
        can_ask = supports_form_elicitation(capabilities)

        async def approve(request: ApprovalRequest) -> bool:
            if not can_ask:
                return False
            self._pending[pending.id] = pending
            pending.asked.set_result(request)
            try:
                return await asyncio.wait_for(asyncio.shield(pending.answer), self.timeout_s)
            except TimeoutError:
                log.info("approval question expired without an answer")
                return False
            finally:
                self._pending.pop(pending.id, None)

        task = asyncio.create_task(_run(call, approve))
        pending.task = task
        waiters: set[asyncio.Future[Any]] = {task, pending.asked}
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            if not pending.asked.done():
                task.cancel()  # the client gave up on a call that was not waiting for anyone
            raise
        if not pending.asked.done():
            return task.result()
        request = pending.asked.result()
        return types.InputRequiredResult(
            input_requests={APPROVAL_INPUT_KEY: types.ElicitRequest(params=question(request))},
            request_state=pending.id,
        )

    async def resume(self, state: str, responses: Mapping[str, Any] | None) -> ToolResult:
        """Give the person's answer to the suspended call named by ``state``; its result.

        A missing or unknown answer denies. An unknown ``state`` (expired, or already
        answered once) gives an ``approval_denied`` result without running anything.
        """
        pending = self._pending.get(state)
        if pending is None or pending.task is None:
            return ToolResult.failure(
                ApprovalDenied(
                    "this approval question expired or was already answered",
                    hint="call the tool again to be asked again",
                )
            )
        answer = (responses or {}).get(APPROVAL_INPUT_KEY)
        decision = granted(answer) if isinstance(answer, types.ElicitResult) else False
        if not pending.answer.done():
            pending.answer.set_result(decision)
        return await asyncio.shield(pending.task)

    async def aclose(self) -> None:
        """Cancel every suspended call (the server is shutting down)."""
        tasks = [p.task for p in self._pending.values() if p.task is not None]
        self._pending.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _run(call: Callable[[Approver], Awaitable[ToolResult]], approve: Approver) -> ToolResult:
    return await call(approve)
