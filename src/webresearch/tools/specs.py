"""Tool specs: what the model sees of a tool (SPEC §1), and the helpers to declare one.

Names, descriptions and JSON input schemas never depend on configuration, provider or
environment, so they sit in a model's prompt cache; configuration only decides whether a
tool is registered. Each tool declares its spec in its own module; every built-in spec is
listed in :data:`webresearch.tools.catalog.ALL_SPECS`. All specs together stay lean (SPEC §1:
about 4,000 characters; a test measures them with :func:`specs_size`), and a snapshot test
pins every byte of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..types import JSONObject, JSONValue

__all__ = ["URL_PROPERTY", "ToolSpec", "object_schema", "specs_size"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as a model sees it.

    Attributes:
        name: the tool name (stable).
        description: model-facing description (lean).
        input_schema: JSON Schema (draft 2020-12) of the arguments.
        title: human-facing English title (faces may localise it; the model never sees it).
        read_only: no call changes the outside world (MCP ``readOnlyHint``).
        destructive: some call may change or delete what exists (MCP ``destructiveHint``;
            ``False`` for a read-only tool).
        idempotent: calling again with the same arguments has no further effect on the
            outside world (MCP ``idempotentHint``).
        open_world: the tool reaches the open internet (MCP ``openWorldHint``).
        annotations: extra MCP annotations.
        titles: the title in other languages (``{"ru": …, "zh": …}``; for people only).
        aliases: other names models give arguments (``{"value": "text"}``), accepted by the
            validation step (:func:`webresearch.tools.arguments.lenient`); not in the schema,
            so they cost the model nothing.

    The four hints are required, keyword-only and have no defaults: every tool states them
    (MCP's defaults assume a destructive, non-idempotent, open-world tool, and some client
    scans refuse tools that leave any unset). A tool with several actions states what its
    most far-reaching action may do. Hints and titles are annotations for clients and
    people, not model-facing text: :func:`specs_size` does not count them.
    """

    name: str
    description: str
    input_schema: JSONObject
    title: str
    read_only: bool = field(kw_only=True)
    destructive: bool = field(kw_only=True)
    idempotent: bool = field(kw_only=True)
    open_world: bool = field(kw_only=True)
    annotations: dict[str, JSONValue] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def to_dict(self) -> JSONObject:
        """``{"name", "description", "input_schema"}``: the model-facing part."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        }

    def hints(self) -> dict[str, bool]:
        """The four MCP behaviour hints, by their MCP names (``readOnlyHint`` …)."""
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


def object_schema(properties: JSONObject, required: list[str]) -> JSONObject:
    """A strict object schema: these properties, these required, nothing else."""
    return {
        "type": "object",
        "properties": properties,
        "required": list[JSONValue](required),
        "additionalProperties": False,
    }


#: The ``url`` property of every tool that takes one.
URL_PROPERTY: JSONObject = {"type": "string", "description": "Absolute http(s) URL."}


def specs_size(specs: Iterable[ToolSpec]) -> int:
    """Characters the model pays for: every spec's name, description and schema as JSON with
    the standard separators (``", "``, ``": "``), which is how many clients forward them."""
    return sum(len(json.dumps(s.to_dict(), ensure_ascii=False)) for s in specs)
