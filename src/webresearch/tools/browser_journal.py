"""Journaling a browser action: what the page did besides the action (refused requests,
answered dialogs, closed popups) becomes notes for the model and ``browser.blocked`` /
``browser.dialog`` events, and every action ends with one ``browser.action`` event —
whatever happened (:func:`journaled_action`). Shared by the browser tool and browser_open."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass

from ..browser.base import BlockedRequest, DialogRecord
from ..browser.page import PlaywrightSession
from ..redact import redact_text, redact_url
from ..types import JSONValue, ToolResult
from ..wording import count
from .base import CallContext

__all__ = [
    "MAX_BLOCKED_EVENTS",
    "ActionRecord",
    "Drained",
    "journal_events",
    "journaled_action",
    "with_notes",
]

#: (blocked requests, dialogs, notes) drained from a session after an action.
Drained = tuple[list[BlockedRequest], list[DialogRecord], list[str]]
#: ``browser.blocked`` events written per action (the rest are counted in one more event).
MAX_BLOCKED_EVENTS = 20


def _article(word: str) -> str:
    """``an`` before a vowel (an alert, an unknown…), else ``a`` (a confirm, a prompt)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def with_notes(result: ToolResult, drained: Drained) -> ToolResult:
    """``result`` with notes on what happened besides the action (dialogs, refusals,
    closed popups): after its page text, a blank line between; a result of lines only
    (``click``, ``open``: no page text) gets them among its lines — after a blank line they
    read as the next result's (``webresearch browse`` prints a blank line between two
    results; new-user test, session 18: a click's refused navigation)."""
    blocked, dialogs, notes = drained
    extra = list(notes)
    for dialog in dialogs:
        extra.append(
            f"{_article(dialog.type)} {dialog.type} dialog was {dialog.answer}: {dialog.message!r}"
        )
    navs = [b for b in blocked if b.navigation]
    if navs:
        message = navs[-1].message  # "refused: a navigation to …" (browser.policy wording)
        extra.append(message if "navigation" in message else f"a navigation was {message}")
    others = len(blocked) - len(navs)
    if others:
        were = "was" if others == 1 else "were"
        extra.append(f"{count(others, 'request')} of the page {were} refused by policy")
    if not extra:
        return result
    gap = "\n\n" if "\n\n" in result.text else "\n"
    text = result.text + gap + "\n".join(f"note: {redact_text(e)}" for e in extra)
    return ToolResult(text=text, images=result.images, meta=result.meta, error=result.error)


async def journal_events(drained: Drained, ctx: CallContext) -> None:
    """``browser.blocked`` (at most :data:`MAX_BLOCKED_EVENTS`, then a count) and
    ``browser.dialog`` events."""
    blocked, dialogs, _notes = drained
    for record in blocked[:MAX_BLOCKED_EVENTS]:
        await ctx.event(
            "browser.blocked",
            url=record.url,
            code=record.code,
            reason=record.message,
            resource_type=record.resource_type,
            navigation=record.navigation,
        )
    if len(blocked) > MAX_BLOCKED_EVENTS:
        await ctx.event("browser.blocked", more=len(blocked) - MAX_BLOCKED_EVENTS)
    for dialog in dialogs:
        await ctx.event(
            "browser.dialog", type=dialog.type, message=dialog.message, answer=dialog.answer
        )


@dataclass
class ActionRecord:
    """What an action reports to :func:`journaled_action` while it runs.

    Attributes:
        session: the tab it acted on (its URL and events are journaled).
        drained: the tab's events, once drained (else they are drained at the end).
        outcome: ``ok`` once the action succeeded.
    """

    session: PlaywrightSession | None = None
    drained: Drained | None = None
    outcome: str = "error"

    async def succeeded(self, result: ToolResult) -> ToolResult:
        """The action's result with the notes of what the tab did meanwhile (its events
        drained now, journaled at the end); the outcome is ``ok``."""
        assert self.session is not None
        self.drained = await self.session.drain_events()
        self.outcome = "ok"
        return with_notes(result, self.drained)


@contextlib.asynccontextmanager
async def journaled_action(
    ctx: CallContext,
    head: Mapping[str, JSONValue],
    tail: Mapping[str, JSONValue] | None = None,
    *,
    cleanup: Callable[[], Awaitable[object]] | None = None,
) -> AsyncIterator[ActionRecord]:
    """Journal one browser action, whatever happens inside the block.

    At the end: the tab's URL and its events (``browser.blocked``, ``browser.dialog``), then
    ``cleanup()`` (closing a one-shot tab; its errors are ignored), then one
    ``browser.action`` event with ``head``, the outcome, ``tail`` and the URL.

    Args:
        ctx: the call's context.
        head: the event's first details (``action``, ``risk``, ``one_shot``).
        tail: details after the outcome (``session``).
        cleanup: runs after the events are drained, before the closing event.
    """
    record = ActionRecord()
    try:
        yield record
    finally:
        details: dict[str, JSONValue] = {**head, "outcome": record.outcome, **(tail or {})}
        session = record.session
        if session is not None:
            with contextlib.suppress(Exception):
                details["url"] = redact_url(str(session.page.url))[:300]
            if record.drained is None:
                with contextlib.suppress(Exception):
                    record.drained = await session.drain_events()
            if record.drained is not None:
                await journal_events(record.drained, ctx)
        if cleanup is not None:
            with contextlib.suppress(Exception):
                await cleanup()
        await ctx.event("browser.action", **details)
