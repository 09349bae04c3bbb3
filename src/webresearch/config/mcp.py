"""Settings of the MCP server face (SPEC §4)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator

from .defaults import (
    DEFAULT_MCP_APPROVAL_TIMEOUT_S,
    DEFAULT_MCP_MAX_SESSIONS,
    DEFAULT_MCP_PROGRESS_INTERVAL_S,
    DEFAULT_MCP_SESSION_IDLE_S,
    MAX_PRICE_UNITS,
)
from .section import Section, comma_list

__all__ = ["McpSettings"]


class McpSettings(Section):
    """The MCP server: its HTTP bearer token and allowed names, how long an approval question
    waits, the run policy of its sessions, sessions' limits and progress notifications."""

    mcp_token: SecretStr | None = Field(
        None,
        description=(
            "Bearer token the MCP HTTP transport requires (WEBRESEARCH_MCP_TOKEN); "
            "a secret: never printed or logged."
        ),
    )
    mcp_allowed_hosts: tuple[str, ...] = Field(
        (),
        description=(
            "More NAME[:PORT] authorities MCP HTTP clients may name in Host/Origin (the bind "
            "address with its port is always accepted; PORT * means any port), e.g. "
            "mcp.example.org,127.0.0.1:*. Others get 421/403 (DNS-rebinding protection)."
        ),
    )
    mcp_approval_timeout_s: float = Field(
        DEFAULT_MCP_APPROVAL_TIMEOUT_S,
        gt=0,
        description="Seconds to wait for the person to answer a supervised call's MCP elicitation.",
    )

    # --- run policy of every MCP session, HTTP sessions, progress (issue 16) ---
    mcp_fetch_scope: Literal["open", "search_results"] = Field(
        "open",
        description=(
            "Which URLs a session's calls may open: open (any public URL) or search_results "
            "(only URLs of the session's latest web_search). user_links needs the person's "
            "messages, which an MCP server never sees."
        ),
    )
    mcp_budget: float | None = Field(
        None,
        ge=0,
        le=MAX_PRICE_UNITS,
        description="Most one MCP session may spend on paid calls (price units, 0 to 1e9); None: no limit.",
    )
    mcp_max_sessions: int = Field(
        DEFAULT_MCP_MAX_SESSIONS,
        ge=1,
        description="Streamable-HTTP sessions open at once; one more gets HTTP 503.",
    )
    mcp_session_idle_s: float = Field(
        DEFAULT_MCP_SESSION_IDLE_S,
        gt=0,
        description="Seconds an HTTP session may stay without a request before it is closed.",
    )
    mcp_progress_interval_s: float = Field(
        DEFAULT_MCP_PROGRESS_INTERVAL_S,
        gt=0,
        le=5,
        description="Seconds between progress notifications while a call runs (at most 5).",
    )

    @field_validator("mcp_allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: Any) -> Any:
        return comma_list(value)
