"""The browser seam: what a backend can do and what one session tab offers (SPEC §1.4).

Backends differ (Chromium renders real pixels; Lightpanda starts in milliseconds but draws
text-only pictures, allows one context and one page per connection, and answers dialogs
itself), so a backend is PROBED when it connects and the result is a :class:`Capabilities`
record the tool consults instead of guessing from the backend's name.

:class:`Backend` and :class:`Session` are protocols; the only implementation lives in
:mod:`.backend` (the one module that imports the browser library).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "Backend",
    "BlockedRequest",
    "Capabilities",
    "DialogRecord",
    "NavResult",
    "Session",
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
    """

    url: str
    title: str
    status: int | None = None
    ready: bool = True
    settled: bool = True


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


class Session(Protocol):
    """One isolated tab (its own browser context): cookies and JS state persist until close."""

    key: str

    @property
    def alive(self) -> bool:
        """False once the tab, its context or the browser is gone."""
        ...

    async def open(self, url: str) -> NavResult:
        """Navigate and wait for load (readiness budget). Raises the policy refusal."""
        ...

    async def click(self, selector: str | None, ref: str | None) -> str:
        """Scroll into view and click the element's centre; returns a short note."""
        ...

    async def fill(self, selector: str | None, ref: str | None, text: str) -> str:
        """Focus, clear and type ``text`` with real input events."""
        ...

    async def press(self, key: str) -> str:
        """Press one keyboard key in the focused element."""
        ...

    async def evaluate(self, expression: str) -> tuple[bool, Any]:
        """Run JavaScript (promises awaited): ``(True, value)`` or ``(False, exception text)``."""
        ...

    async def html(self) -> tuple[str, str, str, list[tuple[str, str]]]:
        """``(url, title, rendered HTML, [(frame url, frame HTML), …])``."""
        ...

    async def snapshot(self) -> SnapshotData:
        """Collect the accessibility snapshot and stamp fresh refs for this document."""
        ...

    async def screenshot(self, full_page: bool, max_tiles: int) -> tuple[list[bytes], int]:
        """PNG bytes per viewport-sized tile, and the page height (px)."""
        ...

    async def scroll(
        self, direction: str | None, amount: int | None, selector: str | None, ref: str | None
    ) -> str:
        """Scroll the page or bring an element into view; returns the new position."""
        ...

    async def wait(self, selector: str | None, ref: str | None, ms: int | None) -> str:
        """Wait for an element or a time (bounded by the action timeout)."""
        ...

    async def history(self, step: Literal[-1, 1]) -> NavResult | None:
        """Go back (-1) or forward (1); ``None`` when there is no such history entry."""
        ...

    async def location(self) -> tuple[str, str]:
        """``(url, title)`` of the current page."""
        ...

    def drain_events(self) -> tuple[list[BlockedRequest], list[DialogRecord], list[str]]:
        """Blocked requests, dialogs and notes (closed popups …) since the last drain."""
        ...

    async def aclose(self) -> None:
        """Close the tab and its context (idempotent)."""
        ...


class Backend(Protocol):
    """A connected browser backend."""

    name: str
    capabilities: Capabilities

    @property
    def alive(self) -> bool:
        """False once the browser process or connection is gone."""
        ...

    async def new_session(self, key: str) -> Session:
        """A new isolated session (a context and one tab)."""
        ...

    def pids(self) -> list[int]:
        """Pids of the launched browser's process group (empty for a remote endpoint)."""
        ...

    async def aclose(self) -> None:
        """Close every session, the connection and a launched process group (idempotent)."""
        ...


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """Per-session settings.

    Attributes:
        viewport: (width, height) in CSS px.
        action_timeout_s: bound of every action (seconds).
        ready_timeout_s: how long a navigation waits for the load event (seconds).
        dialog_policy: ``dismiss`` or ``accept``.
    """

    viewport: tuple[int, int] = (1280, 800)
    action_timeout_s: float = 45.0
    ready_timeout_s: float = 15.0
    dialog_policy: str = "dismiss"
