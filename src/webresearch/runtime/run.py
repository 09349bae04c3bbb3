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


#: ``await approver(request)`` → True to allow the call, False to deny it.
Approver = Callable[[ApprovalRequest], Awaitable[bool]]


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
        approver: decides supervised calls; a supervised call without one is denied.
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
    budget: float | None = None
    can_see_images: bool = True
    browser_session: str | None = None

    def __post_init__(self) -> None:
        budget = self.budget
        if budget is not None and not budget >= 0:  # negative or NaN
            raise ValueError("RunContext budget must be 0 or more (None: no limit)")

    @property
    def conversation(self) -> str:
        """The conversation key for per-conversation limits."""
        return self.conversation_id or self.run_id
