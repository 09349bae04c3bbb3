"""Settings of the MCP server face (SPEC §4)."""

from __future__ import annotations

from pydantic import Field, SecretStr

from .defaults import DEFAULT_MCP_APPROVAL_TIMEOUT_S
from .section import Section

__all__ = ["McpSettings"]


class McpSettings(Section):
    """The MCP server: its HTTP bearer token and how long an approval question waits."""

    mcp_token: SecretStr | None = Field(
        None,
        description=(
            "Bearer token the MCP HTTP transport requires (WEBRESEARCH_MCP_TOKEN); "
            "a secret: never printed or logged."
        ),
    )
    mcp_approval_timeout_s: float = Field(
        DEFAULT_MCP_APPROVAL_TIMEOUT_S,
        gt=0,
        description="Seconds to wait for the person to answer a supervised call's MCP elicitation.",
    )
