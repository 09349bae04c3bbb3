"""The webresearch tools as LangChain tools (``pip install -e '.[langchain]'`` in the
webresearch checkout).

    from webresearch import Settings, Toolkit
    from webresearch.integrations.langchain import langchain_tools

    async with Toolkit(Settings.load()) as toolkit:
        tools = langchain_tools(toolkit)
        agent = create_agent(model, tools)          # langchain 1.x
        await agent.ainvoke({"messages": [...]})

Each tool is a ``StructuredTool`` with the constant name, description and JSON schema of the
webresearch tool, run through :meth:`Toolkit.call` (SSRF guard, journal, limits): async
(``ainvoke``), because the Toolkit is. ``response_format="content_and_artifact"``: the model
gets the content as LangChain's standard content blocks — one ``text`` block, then one
``image`` block (``base64`` + ``mime_type``) per picture, the form LangChain's multimodal
tool messages carry to every provider — and the app gets the whole
:class:`~webresearch.ToolResult` as the message's ``artifact`` (metadata, provenance). A
failed call is a normal result: its text (``error[code]: …``) goes to the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webresearch import RunContext, Toolkit, ToolResult, ToolSpec

if TYPE_CHECKING:
    from langchain_core.messages.content import ImageContentBlock, TextContentBlock
    from langchain_core.tools import StructuredTool

__all__ = ["content_blocks", "langchain_tools"]


def content_blocks(result: ToolResult) -> list[TextContentBlock | ImageContentBlock]:
    """``result`` as LangChain standard content blocks: the text, then each image (base64)."""
    from langchain_core.messages.content import create_image_block, create_text_block

    blocks: list[TextContentBlock | ImageContentBlock] = [create_text_block(result.text)]
    for image in result.images:
        blocks.append(create_image_block(base64=image.base64(), mime_type=image.mime))
    return blocks


def langchain_tools(toolkit: Toolkit, *, run: RunContext | None = None) -> list[StructuredTool]:
    """One LangChain tool per webresearch tool offered to ``run``.

    Args:
        toolkit: an open Toolkit (it must outlive the tools).
        run: the run context every call uses (default: a fresh open run; pass
            ``RunContext(can_see_images=False)`` for a model without vision — image tools
            then return text).

    Raises:
        ImportError: ``langchain-core`` is not installed.
    """
    run = run or RunContext()
    return [_tool(toolkit, spec, run) for spec in toolkit.tools(run)]


def _tool(toolkit: Toolkit, spec: ToolSpec, run: RunContext) -> StructuredTool:
    from langchain_core.tools import StructuredTool

    async def call(
        **arguments: object,
    ) -> tuple[list[TextContentBlock | ImageContentBlock], ToolResult]:
        result = await toolkit.call(spec.name, arguments, run=run)
        return content_blocks(result), result

    return StructuredTool.from_function(
        coroutine=call,
        name=spec.name,
        description=spec.description,
        args_schema=dict(spec.input_schema),
        response_format="content_and_artifact",
    )
