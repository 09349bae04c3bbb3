"""Settings of the MCP server face (SPEC §4)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, SecretStr, field_validator

from .defaults import DEFAULT_MCP_APPROVAL_TIMEOUT_S
from .section import Section, comma_list

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

    @field_validator("mcp_allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: Any) -> Any:
        return comma_list(value)
