"""LlamaIndex with the webresearch tools over MCP (stdio).

    python examples/mcp/llamaindex_agent.py https://example.org

The MCP tool spec turns every webresearch tool into a LlamaIndex ``FunctionTool``; hand them
to any agent (``FunctionAgent(tools=tools, llm=your_llm)``). This script calls ``web_fetch``
through one of them and prints the page.

Needs: ``pip install '/path/to/webresearch[mcp]' llama-index-tools-mcp``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex

from llama_index.core.tools import FunctionTool
from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

#: Seconds the server may take to start and to answer (it loads its tools at start).
STARTUP_S = 60


async def web_tools(server: str = "webresearch mcp") -> list[FunctionTool]:
    """The webresearch tools as LlamaIndex tools (``server``: the MCP server command)."""
    command, *args = shlex.split(server)
    tools: list[FunctionTool] = await McpToolSpec(
        client=BasicMCPClient(command, args=args, env=dict(os.environ), timeout=STARTUP_S)
    ).to_tool_list_async()
    return tools


async def fetch(url: str, *, server: str) -> str:
    tools = {tool.metadata.name: tool for tool in await web_tools(server)}
    output = await tools["web_fetch"].acall(url=url)
    return str(output.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("--server", default="webresearch mcp", help="MCP server command")
    args = parser.parse_args()
    print(asyncio.run(fetch(args.url, server=args.server)))


if __name__ == "__main__":
    main()
