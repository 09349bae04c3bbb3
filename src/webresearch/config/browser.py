"""Settings of the browser tool and browser_open (SPEC §1.4; its domain policy is every
tool's now: :mod:`.access`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator, model_validator

from .defaults import (
    DEFAULT_BROWSER_ACTION_TIMEOUT_S,
    DEFAULT_BROWSER_IDLE_S,
    DEFAULT_BROWSER_MAX_SESSIONS,
    DEFAULT_BROWSER_MAX_TIMEOUT_S,
    DEFAULT_BROWSER_READY_TIMEOUT_S,
    DEFAULT_BROWSER_SNAPSHOT_MAX_BYTES,
    DEFAULT_BROWSER_VIEWPORT,
)
from .section import Section
from .urls import cdp_url

__all__ = ["BrowserSettings"]


class BrowserSettings(Section):
    """The browser backend, its sessions, its request policy and its limits."""

    browser_backend: Literal["chromium", "lightpanda", "cdp", "none"] = Field(
        "chromium",
        description="chromium (launched locally), lightpanda (launched locally), cdp "
        "(browser_cdp_url; the default when browser_cdp_url is set) or none (no browser).",
    )
    browser_cdp_url: SecretStr | None = Field(
        None,
        description="CDP endpoint for browser_backend=cdp: http(s)://host:port or ws(s)://… (may hold a token).",
    )
    chromium_path: str | None = Field(
        None, description="Chromium binary; default: Debian chromium, then a Playwright one."
    )
    browser_action_timeout_s: float = Field(DEFAULT_BROWSER_ACTION_TIMEOUT_S, gt=0)
    browser_ready_timeout_s: float = Field(DEFAULT_BROWSER_READY_TIMEOUT_S, gt=0)
    browser_max_sessions: int = Field(DEFAULT_BROWSER_MAX_SESSIONS, ge=1)
    browser_idle_s: float = Field(DEFAULT_BROWSER_IDLE_S, gt=0)
    browser_dialog_policy: Literal["dismiss", "accept"] = Field(
        "dismiss", description="How JavaScript dialogs are answered (each is journaled)."
    )
    browser_viewport: str = Field(
        DEFAULT_BROWSER_VIEWPORT,
        # at most 9999 a side: Chromium never finished starting with a 20000x20000 window
        # (the start hung past every timeout; 10000x10000 and 3840x2160 work)
        pattern=r"^[1-9][0-9]{1,3}x[1-9][0-9]{1,3}$",
        description="WIDTHxHEIGHT in CSS px, each 10 to 9999.",
    )
    browser_snapshot_max_bytes: int = Field(DEFAULT_BROWSER_SNAPSHOT_MAX_BYTES, ge=1024)
    browser_screenshot_fallback_url: SecretStr | None = Field(
        None,
        description="CDP endpoint of a pixel-capable browser for screenshots when the backend draws none.",
    )
    browser_max_timeout_s: float = Field(
        DEFAULT_BROWSER_MAX_TIMEOUT_S, gt=0, description="Ceiling of a browser call's timeout_ms."
    )
    browser_persist_sessions: bool = Field(
        False,
        description="Keep a named browser session's cookies and local storage in the run's "
        "workspace (.webresearch/browser-sessions/NAME.json) and load them when the name "
        "is used again.",
    )

    @model_validator(mode="before")
    @classmethod
    def _cdp_url_chooses_the_cdp_backend(cls, data: Any) -> Any:
        """A configured CDP endpoint is used: ``browser_cdp_url`` without an explicit
        ``browser_backend`` means ``cdp`` (never a silently launched local browser)."""
        if isinstance(data, dict) and data.get("browser_cdp_url") and "browser_backend" not in data:
            return {**data, "browser_backend": "cdp"}
        return data

    @field_validator("browser_cdp_url", "browser_screenshot_fallback_url")
    @classmethod
    def _check_cdp_url(cls, value: SecretStr | None) -> SecretStr | None:
        # In the forms operators paste (issue 21); the message never repeats the value.
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(cdp_url(value.get_secret_value()))
