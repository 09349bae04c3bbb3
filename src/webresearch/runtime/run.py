"""The run context: who is calling and what one agent run may do (SPEC §1.5, §3)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "ApprovalMode",
    "ApprovalRequest",
    "Approver",
    "FetchScope",
    "RunContext",
]

#: Per-tool approval policy: ``allow`` (auto-approved, journaled), ``supervised`` (the run's
#: approver decides each call), ``deny`` (the tool is not registered).
ApprovalMode = Literal["allow", "supervised", "deny"]

#: Who may choose the URL for web_fetch / fetch_image / browser open (SPEC §1.5).
FetchScope = Literal["open", "search_results", "user_links"]


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What a supervised call asks the approver.

    Attributes:
        run_id: the run.
        tool: tool name.
        arguments: the call's arguments (URL secrets already redacted).
        risk: ``low`` (reads) or ``medium`` (browser actions that change the outside world).
        summary: one human-readable line, e.g. ``web_fetch https://example.org``.
    """

    run_id: str
    tool: str
    arguments: Mapping[str, Any]
    risk: Literal["low", "medium"]
    summary: str


#: ``approver(request)`` → ``True`` to allow the call; anything else denies it (only the
#: boolean ``True`` approves: a truthy ``"no"`` or ``1`` is a denial, like an MCP answer
#: that is not accept + true). An async function is awaited; a plain function returning a
#: bool is accepted too and called on the event loop (so it must answer at once: a prompt
#: that waits for a person belongs in an async approver). An approver that raises denies.
Approver = Callable[[ApprovalRequest], Awaitable[bool] | bool]


@dataclass(frozen=True, slots=True)
class RunContext:
    """Per-run capabilities and identity.

    Attributes:
        run_id: identifies the agent run in the journal (a random id by default).
        network_access: web tools and the browser are registered only when True.
        workspace: directory view_image may read; ``None`` disables view_image.
        fetch_scope: ``open`` (any public URL), ``search_results`` (only URLs of this run's
            latest web_search) or ``user_links`` (only URLs in the person's own messages).
        conversation_id: groups runs for the ``user_links`` view limit (default: run_id).
        user_messages: the person's own messages (``user_links`` scope reads URLs from them;
            never the agent's or tool output).
        approval: tool name → approval mode; tools not listed use ``default_approval``.
        default_approval: approval mode for tools not in ``approval``.
        approver: decides supervised calls (see :data:`Approver`); a supervised call
            without one is denied.
        approval_timeout_s: seconds a supervised call waits for the approver (``None``: the
            settings' ``mcp_approval_timeout_s``, 300 s by default); no answer in time is a
            denial, so an approver that hangs never hangs the call.
        budget: most the run may spend on paid calls (price units of the settings), or
            ``None`` for no limit. Unlike a count limit, 0 is a real budget (free calls
            only): reading it as "no limit" could spend money nobody allowed.
        can_see_images: False for a model without vision: image tools then return text.
        browser_session: name of the browser session (default: one per run).
    """

    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    network_access: bool = True
    workspace: Path | None = None
    fetch_scope: FetchScope = "open"
    conversation_id: str | None = None
    user_messages: tuple[str, ...] = ()
    approval: Mapping[str, ApprovalMode] = field(default_factory=lambda: MappingProxyType({}))
    default_approval: ApprovalMode = "allow"
    approver: Approver | None = None
    approval_timeout_s: float | None = None
    budget: float | None = None
    can_see_images: bool = True
    browser_session: str | None = None

    def __post_init__(self) -> None:
        budget = self.budget
        if budget is not None and not budget >= 0:  # negative or NaN
            raise ValueError("RunContext budget must be 0 or more (None: no limit)")
        timeout = self.approval_timeout_s
        if timeout is not None and not timeout > 0:  # zero, negative or NaN
            raise ValueError("RunContext approval_timeout_s must be more than 0 seconds")
        if self.approver is not None and not callable(self.approver):
            raise TypeError("RunContext approver must be a function of an ApprovalRequest")

    @property
    def conversation(self) -> str:
        """The conversation key for per-conversation limits."""
        return self.conversation_id or self.run_id
