"""OpenAI Agents SDK agent with the webresearch tools over MCP (stdio).

    OPENAI_API_KEY=sk-… python examples/mcp/openai_agents.py --model gpt-4.1-mini "…"

Needs: ``pip install '/path/to/webresearch[mcp]' openai-agents``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStdio
from openai import AsyncOpenAI

#: Seconds the server may take to start and to answer (it loads its tools at start).
STARTUP_S = 60


async def ask(prompt: str, *, model: str, base_url: str | None, server: str) -> str:
    set_tracing_disabled(True)  # traces would go to OpenAI's servers
    command, *args = shlex.split(server)
    client = AsyncOpenAI(base_url=base_url, api_key=os.environ.get("OPENAI_API_KEY"))
    async with (
        client,
        MCPServerStdio(
            params={"command": command, "args": args, "env": dict(os.environ)},
            client_session_timeout_seconds=STARTUP_S,
        ) as web,
    ):
        agent = Agent(
            name="researcher",
            instructions="Answer from pages you read with the web tools; cite URLs.",
            model=OpenAIChatCompletionsModel(model=model, openai_client=client),
            mcp_servers=[web],
        )
        result = await Runner.run(agent, prompt)
    return str(result.final_output)


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
