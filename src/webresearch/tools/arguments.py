"""Tool arguments: the one validation step, and typed readers for the validated values.

A model's arguments are checked once, against the tool's constant JSON schema (the schema
the model sees is the rule; draft 2020-12), by :class:`ArgumentValidator`. The tool's typed
arguments object is then built from the valid JSON object with the readers below
(:func:`text`, :func:`integer` …), which only narrow types; a tool adds there the rules a
schema cannot say (a query that is only spaces). Lenient forms models send (an integer as
``"300"`` or ``300.0``, a boolean as ``"true"``) belong here too: converted once, before
the schema check, so every tool gets them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InvalidArguments
from ..types import JSONObject, JSONValue
from .specs import ToolSpec

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

__all__ = [
    "ArgumentValidator",
    "PathArgs",
    "UrlArgs",
    "boolean",
    "integer",
    "optional_integer",
    "optional_text",
    "text",
]

#: Problems named in one invalid-arguments message.
MAX_PROBLEMS = 3


class ArgumentValidator:
    """Checks a tool's arguments against its spec's schema.

    Args:
        spec: the tool's constant spec.
    """

    def __init__(self, spec: ToolSpec) -> None:
        self.name = spec.name
        self._schema = spec.input_schema
        #: built on the first call (jsonschema is imported then: a Toolkit that only reads
        #: its journal or lists its tools never loads it).
        self._validator: Draft202012Validator | None = None

    def validate(self, arguments: object) -> JSONObject:
        """The arguments when they match the schema.

        Raises:
            InvalidArguments: not a JSON object, or up to three schema problems, each with
                where it is (``max_bytes: 0 is less than the minimum of 1``).
        """
        if not isinstance(arguments, dict):
            raise InvalidArguments(f"{self.name} arguments must be a JSON object")
        if self._validator is None:
            from jsonschema import Draft202012Validator

            self._validator = Draft202012Validator(self._schema)
        errors = sorted(self._validator.iter_errors(arguments), key=lambda e: list(e.path))
        if errors:
            problems = []
            for err in errors[:MAX_PROBLEMS]:
                where = ".".join(str(p) for p in err.path)
                problems.append(f"{where}: {err.message}" if where else err.message)
            raise InvalidArguments(
                f"{self.name} arguments: " + "; ".join(problems),
                hint=f"call {self.name} with arguments matching its schema",
            )
        return arguments


def _wrong(name: str, what: str) -> InvalidArguments:
    return InvalidArguments(f"{name}: must be {what}")


def text(arguments: Mapping[str, JSONValue], name: str) -> str:
    """A required string."""
    value = arguments.get(name)
    if not isinstance(value, str):
        raise _wrong(name, "a string")
    return value


def optional_text(arguments: Mapping[str, JSONValue], name: str) -> str | None:
    """A string, or ``None`` when absent."""
    value = arguments.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _wrong(name, "a string")
    return value


def integer(arguments: Mapping[str, JSONValue], name: str, default: int) -> int:
    """An integer, or ``default`` when absent."""
    value = optional_integer(arguments, name)
    return default if value is None else value


def optional_integer(arguments: Mapping[str, JSONValue], name: str) -> int | None:
    """An integer, or ``None`` when absent (a JSON number without a fraction counts)."""
    value = arguments.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise _wrong(name, "an integer")
    return int(value)


def boolean(arguments: Mapping[str, JSONValue], name: str, default: bool) -> bool:
    """A boolean, or ``default`` when absent."""
    value = arguments.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _wrong(name, "true or false")
    return value


@dataclass(frozen=True, slots=True)
class UrlArgs:
    """The arguments of a tool that takes one URL (fetch_image, page_screenshot, browser_open)."""

    url: str

    @classmethod
    def from_json(cls, arguments: JSONObject) -> UrlArgs:
        """From schema-valid arguments."""
        return cls(text(arguments, "url"))


@dataclass(frozen=True, slots=True)
class PathArgs:
    """The arguments of a tool that takes one workspace path (view_image, image_info)."""

    path: str

    @classmethod
    def from_json(cls, arguments: JSONObject) -> PathArgs:
        """From schema-valid arguments."""
        return cls(text(arguments, "path"))
