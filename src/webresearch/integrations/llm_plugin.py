"""A plugin for Simon Willison's ``llm``: the webresearch tools as ``llm`` tools.

    pip install -e '.[llm]'   # in the webresearch checkout: registers the plugin ("llm")
    llm -T web_fetch "What does https://example.org say about itself?"
    llm -T web_search -T web_fetch --td "…"   # --td shows each call

Every tool offered by the default run context (``Settings.load()``: environment and config)
is registered under its own name with its constant description and JSON schema. A call runs
through a Toolkit (SSRF guard, journal, limits) opened for that call — ``llm`` runs each
async tool in a fresh event loop — and returns ``llm.ToolOutput``: the result text, plus the
pictures as attachments for models that take them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import llm

from webresearch import Settings, Toolkit, ToolSpec

if TYPE_CHECKING:
    from llm import ToolOutput

__all__ = ["llm_tools", "register_tools"]


def llm_tools(settings: Settings | None = None) -> list[llm.Tool]:
    """One ``llm.Tool`` per tool the default run is offered under ``settings``.

    Raises:
        ConfigurationError: the settings are invalid.
    """
    settings = settings or Settings.load()
    specs = asyncio.run(_specs(settings))
    return [
        llm.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=dict(spec.input_schema),
            implementation=_implementation(spec.name, settings),
        )
        for spec in specs
    ]


@llm.hookimpl
def register_tools(register: Callable[[llm.Tool], None]) -> None:
    """``llm``'s hook: register every webresearch tool."""
    for tool in llm_tools():
        register(tool)


async def _specs(settings: Settings) -> list[ToolSpec]:
    async with Toolkit(settings) as toolkit:
        return toolkit.tools()


def _implementation(name: str, settings: Settings) -> Callable[..., Awaitable[ToolOutput]]:
    async def call(**arguments: object) -> ToolOutput:
        async with Toolkit(settings) as toolkit:
            result = await toolkit.call(name, arguments)
        attachments = [llm.Attachment(type=i.mime, content=i.data) for i in result.images]
        return llm.ToolOutput(output=result.text, attachments=attachments)

    call.__name__ = name
    return call
