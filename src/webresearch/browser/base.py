"""The browser's records: what a backend can do, and what a session's actions return
(SPEC §1.4). Pure data.

Backends differ (Chromium renders real pixels; Lightpanda starts in milliseconds but draws
text-only pictures, allows one context and one page per connection, and answers dialogs
itself), so a backend is PROBED when it connects and the result is a :class:`Capabilities`
record the tool consults instead of guessing from the backend's name.

There is one backend implementation (:mod:`.backend`, the one module that runs the browser
library) and one session class (:class:`~.page.PlaywrightSession`); the tools use them
directly, so no protocol stands in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..redact import redact_url

__all__ = [
    "BlockedRequest",
    "Capabilities",
    "DialogRecord",
    "FrameDocument",
    "NavResult",
    "SessionConfig",
    "SnapshotData",
]

#: Where request interception is installed: on the browser target (every tab, popup,
#: iframe and worker of the browser), on the session's page target, or nowhere.
InterceptionLevel = Literal["browser", "page", "none"]


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a connected backend proved it can do (probed, not assumed).

    Attributes:
        backend: ``chromium``, ``lightpanda`` or ``cdp``.
        product: the browser's own product string (``/json/version`` ``Browser``).
        real_screenshots: a probe page with a coloured box came back with that box's pixels
            (Lightpanda's pictures are a text-only rendering: False).
        multi_page: a context holds more than one page.
        multi_context: one connection holds several browser contexts (else each session
            needs its own connection).
        handles_dialogs: the backend answers JavaScript dialogs itself (our policy cannot).
        interception: where the ``Fetch`` domain was verified to pause requests.
        proxied: every connection of the browser goes through our guarded forward proxy
            (a launched Chromium or Lightpanda); False for a remote CDP endpoint.
    """

    backend: str
    product: str = ""
    real_screenshots: bool = False
    multi_page: bool = False
    multi_context: bool = False
    handles_dialogs: bool = False
    interception: InterceptionLevel = "none"
    proxied: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly view (for result metadata and the journal)."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class NavResult:
    """Where a navigation ended.

    Attributes:
        url: the final URL (after redirects).
        title: the page title.
        status: HTTP status of the main document, when known.
        ready: the load event fired within the readiness budget.
        settled: after load, the network and the DOM fell quiet within the same budget
            (False: the page was still busy; its content may be incomplete).
        ready_budget_s: the readiness budget this navigation had (seconds).
        unreached: the status is the guarded proxy's own 502 (the site could not be
            reached), not the site's answer.
    """

    url: str
    title: str
    status: int | None = None
    ready: bool = True
    settled: bool = True
    ready_budget_s: float = 15.0
    unreached: bool = False


@dataclass(frozen=True, slots=True)
class BlockedRequest:
    """A request the policy refused (journaled as ``browser.blocked``).

    Attributes:
        url: the request URL (already redacted).
        code: the refusal code (``blocked_address``, ``blocked_domain``, ``network``…).
        message: the refusal message (never an address the name resolved to).
        resource_type: CDP resource type (``Document``, ``Image``, ``Script``…).
        navigation: the request was a document load of the session's top frame.
    """

    url: str
    code: str
    message: str
    resource_type: str
    navigation: bool


@dataclass(frozen=True, slots=True)
class DialogRecord:
    """A JavaScript dialog and how it was answered (journaled as ``browser.dialog``).

    Attributes:
        type: ``alert``, ``confirm``, ``prompt`` or ``beforeunload``.
        message: the dialog text (truncated to 200 characters).
        answer: ``accepted``, ``dismissed`` or ``answered by the backend``.
    """

    type: str
    message: str
    answer: str


@dataclass(frozen=True, slots=True)
class SnapshotData:
    """Raw snapshot collected in the page (rendered by :mod:`.snapshot`).

    Attributes:
        doc: the document stamp the refs belong to.
        url: the page URL.
        title: the page title.
        nodes: collected nodes (dicts: ``role``, ``name``, ``ref``, ``depth`` …).
    """

    doc: str
    url: str
    title: str
    nodes: Sequence[dict[str, Any]] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class FrameDocument:
    """A child frame's rendered document (``content`` reads it after the page's own).

    Attributes:
        url: the frame's own URL; for an inline frame, the page's URL (its relative links
            resolve there).
        html: the frame's rendered DOM.
        inline: the frame has no URL of its own: a ``srcdoc`` frame, or an empty frame a
            script wrote its document into (``about:srcdoc``, ``about:blank``).
    """

    url: str
    html: str
    inline: bool = False

    @property
    def heading(self) -> str:
        """How the frame is labelled in ``content``: ``Frame: <url>`` or ``Frame (inline)``."""
        return "Frame (inline)" if self.inline else f"Frame: {redact_url(self.url)}"


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """Per-session settings.

    Attributes:
        viewport: (width, height) in CSS px.
        action_timeout_s: bound of every action (seconds).
        ready_timeout_s: how long a navigation waits for the load event and for the page
            to settle (seconds; never past the action's own bound).
        dialog_policy: ``dismiss`` or ``accept``.
    """

    viewport: tuple[int, int] = (1280, 800)
    action_timeout_s: float = 45.0
    ready_timeout_s: float = 15.0
    dialog_policy: str = "dismiss"
