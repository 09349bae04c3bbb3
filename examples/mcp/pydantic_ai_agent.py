"""pydantic-ai agent with the webresearch tools over MCP (stdio).

    OPENAI_API_KEY=sk-… python examples/mcp/pydantic_ai_agent.py --model gpt-4.1-mini "…"

Needs: ``pip install '/path/to/webresearch[mcp]' 'pydantic-ai-slim[mcp,openai]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex

from fastmcp.client.transports import StdioTransport
from openai import AsyncOpenAI
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

#: Seconds the server may take to start and to answer (it loads its tools at start).
STARTUP_S = 60


async def ask(prompt: str, *, model: str, base_url: str | None, server: str) -> str:
    command, *args = shlex.split(server)
    transport = StdioTransport(command=command, args=args, env=dict(os.environ))
    web = MCPToolset(transport, init_timeout=STARTUP_S)  # `webresearch mcp`
    client = AsyncOpenAI(base_url=base_url, api_key=os.environ.get("OPENAI_API_KEY"))
    provider = OpenAIProvider(openai_client=client)
    agent = Agent(OpenAIChatModel(model, provider=provider), toolsets=[web])
    async with client, agent:
        result = await agent.run(prompt)
    return result.output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("prompt")
    parser.add_argument("--model", required=True)
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible API base")
    parser.add_argument("--server", default="webresearch mcp", help="MCP server command")
    args = parser.parse_args()
    print(
        asyncio.run(ask(args.prompt, model=args.model, base_url=args.base_url, server=args.server))
    )


if __name__ == "__main__":
    main()
