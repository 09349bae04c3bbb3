"""The MCP server over a Toolkit (stdio and streamable HTTP)."""
