"""When a tool can be offered: per-run gates, and what a process must have (Pillow, a
browser backend). Shared by the tools that need the same thing, so no tool asks another."""

from __future__ import annotations

import importlib.util

from ..runtime.run import RunContext
from .base import Gate
from .services import Services

__all__ = [
    "BROWSER_OFF",
    "backend_unavailable_reason",
    "browser_off",
    "image_gate",
    "pillow_missing",
    "pixel_browser_unavailable_reason",
    "workspace_gate",
]


def workspace_gate(run: RunContext) -> str | None:
    """The run must have a workspace."""
    return None if run.workspace is not None else "the run has no workspace"


def image_gate(*, needs_network: bool, needs_workspace: bool) -> Gate:
    """The gate of an image tool: a model that can see images, plus network access or a
    workspace as the tool needs."""

    def gate(run: RunContext) -> str | None:
        if not run.can_see_images:
            return "the model cannot see images"
        if needs_network and not run.network_access:
            return "the run has no network access"
        if needs_workspace and run.workspace is None:
            return "the run has no workspace"
        return None

    return gate


def pillow_missing() -> str | None:
    """Why images cannot be prepared in this process, or ``None`` when Pillow is there."""
    if importlib.util.find_spec("PIL") is None:
        return "Pillow is not installed (pip install -e '.[images]' in the webresearch checkout)"
    return None


#: Why the browser tools are missing when the operator turned the browser off.
BROWSER_OFF = "the browser is turned off (browser_backend = none)"


def browser_off(services: Services) -> bool:
    """The operator turned the browser off (``browser_backend = none``): the browser tools
    are not registered (quietly: nothing is missing) and web_fetch never renders."""
    return services.settings.browser_backend == "none"


def backend_unavailable_reason(services: Services) -> str | None:
    """Why no browser backend can run in this process, or ``None`` when one can."""
    from ..browser.backend import playwright_available
    from ..browser.launch_args import chromium_problem, find_lightpanda

    settings = services.settings
    if browser_off(services):
        return BROWSER_OFF
    if not playwright_available():
        return (
            "Playwright is not installed (pip install -e '.[browser]' in the webresearch checkout)"
        )
    kind = settings.browser_backend
    if kind == "chromium":
        return chromium_problem(settings.chromium_path)
    if kind == "lightpanda" and find_lightpanda() is None:
        return (
            "Lightpanda is not installed "
            "(pip install -e '.[lightpanda]' in the webresearch checkout)"
        )
    if kind == "cdp" and settings.browser_cdp_url is None:
        return "browser_backend is cdp but browser_cdp_url is not set"
    return None


def pixel_browser_unavailable_reason(services: Services) -> str | None:
    """Why the browser cannot draw real pictures (page_screenshot), or ``None`` when it can."""
    reason = backend_unavailable_reason(services)
    if reason is not None:
        return reason
    settings = services.settings
    if (
        settings.browser_backend == "lightpanda"
        and settings.browser_screenshot_fallback_url is None
    ):
        return "the lightpanda backend draws no real screenshots"
    return None
