"""Tool specs and results in MCP types (pure functions, no I/O).

* a :class:`~webresearch.ToolSpec` becomes an MCP ``Tool`` with the constant name,
  description and input schema, the human ``title``, and annotations (``title`` and all
  four hints — ``readOnlyHint``, ``destructiveHint``, ``idempotentHint``, ``openWorldHint``
  — always explicit, plus any MCP annotation the spec names itself);
* a :class:`~webresearch.ToolResult` becomes a ``CallToolResult``: a ``TextContent`` with the
  model-facing text, one ``ImageContent`` (base64, ``mimeType``) per image, and
  ``isError: true`` for a failed call, whose text is the error's ``error[code]: …`` line.
  A tool failure is never a protocol error: the model reads it and can act on it
  (STYLE 10; MCP "handling errors").
"""

from __future__ import annotations

import copy

import mcp_types as types

from webresearch import ToolResult, ToolSpec

__all__ = ["call_result", "mcp_tool"]


def mcp_tool(spec: ToolSpec) -> types.Tool:
    """The MCP ``Tool`` for ``spec`` (the input schema is a copy of the constant one)."""
    annotations = types.ToolAnnotations.model_validate(
        {"title": spec.title, **spec.hints(), **spec.annotations}
    )
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=copy.deepcopy(spec.input_schema),
        annotations=annotations,
    )


def call_result(result: ToolResult) -> types.CallToolResult:
    """The MCP ``CallToolResult`` for one Toolkit result (text, then every image)."""
    content: list[types.ContentBlock] = []
    if result.text or not result.images:
        content.append(types.TextContent(text=result.text))
    content.extend(
        types.ImageContent(data=image.base64(), mime_type=image.mime) for image in result.images
    )
    return types.CallToolResult(content=content, is_error=not result.ok)
