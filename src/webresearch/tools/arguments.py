"""Tool arguments: the one validation step, and typed readers for the validated values.

A model's arguments are checked once, against the tool's constant JSON schema (the schema
the model sees is the rule; draft 2020-12), by :class:`ArgumentValidator`. Before the check:

1. :func:`json_shape` makes sure the arguments are JSON at all (a library caller may pass
   anything): an object with string keys, nested at most :data:`MAX_DEPTH` deep, holding
   only JSON values and valid Unicode text (no lone surrogate: ``"\\ud800"`` is valid JSON
   text, and a non-UTF-8 command-line byte becomes one); anything else is
   ``invalid_arguments``, never an exception;
2. :func:`lenient` converts the forms models actually send for a schema's scalar types,
   once, so every tool gets them: a whole number as text (``"300"``) or as ``300.0`` for an
   ``integer``, ``"true"``/``"false"`` for a ``boolean``, and a spec's argument aliases
   (:attr:`ToolSpec.aliases`, which cost no schema characters). ``"3.5"``, ``"12px"`` and
   out-of-range numbers stay what they are, so the schema refuses them naming the field.

The tool's typed arguments object is then built from the valid JSON object with the readers
below (:func:`text`, :func:`integer` …), which only narrow types; a tool adds there the rules
a schema cannot say (a query that is only spaces).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InvalidArguments
from ..types import JSONObject, JSONValue
from ..url_text import clean_url
from .specs import ToolSpec

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError

__all__ = [
    "MAX_DEPTH",
    "MAX_PROBLEM_CHARS",
    "ArgumentValidator",
    "JSONShape",
    "PathArgs",
    "UrlArgs",
    "boolean",
    "integer",
    "json_shape",
    "lenient",
    "optional_integer",
    "optional_text",
    "text",
    "url_text",
]

#: Problems named in one invalid-arguments message.
MAX_PROBLEMS = 3
#: Characters of one problem in that message (a schema message quotes the value it refuses,
#: which may be megabytes long).
MAX_PROBLEM_CHARS = 200
#: Deepest nesting of containers in a call's arguments (every tool's are flat).
MAX_DEPTH = 32
#: Largest integer magnitude taken as an argument (bits); a larger one cannot be printed
#: (Python refuses to format integers over 4,300 digits) and means nothing to any tool.
MAX_INT_BITS = 64

#: A whole number as a model writes it in text: ``"300"``, ``" -2 "``, ``"300.0"`` (ASCII
#: digits only; at most 18 of them, so it is exact and fits every integer field).
_WHOLE_NUMBER = re.compile(r"\s*([+-]?[0-9]{1,18})(?:\.0*)?\s*", re.ASCII)
_BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True, slots=True)
class JSONShape:
    """A call's arguments as plain JSON.

    Attributes:
        value: the arguments with every part that is not JSON replaced by a short marker
            (``"<set>"``), so they can always be hashed, shown and journaled; equal to
            the arguments when they are JSON.
        problem: why the arguments are not a JSON object, or ``None`` when they are.
    """

    value: JSONValue
    problem: str | None


def json_shape(arguments: object) -> JSONShape:
    """``arguments`` as plain JSON, and what is wrong with them (see :class:`JSONShape`).

    Never raises: any object, however nested or odd (keys that are not strings, sets,
    integers too large to print, recursion), gives a shape.
    """
    problems: list[str] = []

    def refuse(where: str, what: str) -> None:
        problem = f"{where}: {what}" if where else what
        if len(problems) < MAX_PROBLEMS and problem not in problems:
            problems.append(problem)

    def walk(value: object, depth: int, where: str) -> JSONValue:
        if isinstance(value, str):
            if not _is_unicode(value):
                refuse(where, "not valid Unicode text (it holds a lone surrogate)")
            return value
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            if value.bit_length() > MAX_INT_BITS:
                refuse(where, "the integer is out of range")
                return "<integer>"
            return int(value)
        if isinstance(value, float):
            return float(value)
        if depth >= MAX_DEPTH and isinstance(value, (Mapping, list, tuple)):
            refuse(where, f"nested more than {MAX_DEPTH} levels deep")
            return "<nested>"
        if isinstance(value, Mapping):
            out: dict[str, JSONValue] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    refuse(where, "object keys must be strings")
                    key = f"<{type(key).__name__} key>"
                elif not _is_unicode(key):
                    refuse(where, "a name is not valid Unicode text (it holds a lone surrogate)")
                name = key if len(key) <= 40 else key[:39] + "…"
                out[key] = walk(item, depth + 1, f"{where}.{name}" if where else name)
            return out
        if isinstance(value, (list, tuple)):
            return [walk(item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value)]
        refuse(where, f"a {type(value).__name__} is not a JSON value")
        return f"<{type(value).__name__}>"

    try:
        shaped = walk(arguments, 0, "")
    except Exception:  # a foreign container that fails when read
        return JSONShape({}, "the arguments could not be read as JSON")
    if not isinstance(shaped, dict) and not problems:
        problems.append("must be a JSON object")
    return JSONShape(shaped, "; ".join(problems) if problems else None)


def _is_unicode(text: str) -> bool:
    """False for text with a lone surrogate (valid in JSON text as ``"\\ud800"``, and what
    Python makes of a non-UTF-8 command-line byte), which no tool can send anywhere."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _as_integer(value: JSONValue) -> JSONValue:
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        if abs(value) < 2**MAX_INT_BITS:
            return int(value)
    elif isinstance(value, str):
        match = _WHOLE_NUMBER.fullmatch(value)
        if match:
            return int(match.group(1))
    return value


def _as_boolean(value: JSONValue) -> JSONValue:
    if isinstance(value, str):
        return _BOOLEANS.get(value.strip().lower(), value)
    return value


def lenient(arguments: JSONObject, schema: JSONObject, aliases: Mapping[str, str]) -> JSONObject:
    """``arguments`` with the forms models send converted to the schema's types. Pure.

    Args:
        arguments: a JSON object (the model's arguments).
        schema: the tool's input schema (its top-level ``properties`` are looked at).
        aliases: other names of arguments (``{"value": "text"}``); an alias is renamed
            when the real name is not given too.

    Returns:
        a new object: integers given as whole-number text or as a float without fraction
        become integers, ``"true"``/``"false"`` (any case) become booleans; every other
        value is left for the schema to judge.
    """
    properties = schema.get("properties")
    fields = properties if isinstance(properties, dict) else {}
    out: JSONObject = {}
    for name, value in arguments.items():
        real = aliases.get(name, name)
        if real != name and real in arguments:
            real = name  # both given: the schema refuses the alias
        out[real] = value
    for name, value in out.items():
        field = fields.get(name)
        kind = field.get("type") if isinstance(field, dict) else None
        if kind == "integer":
            out[name] = _as_integer(value)
        elif kind == "boolean":
            out[name] = _as_boolean(value)
    return out


class ArgumentValidator:
    """Checks a tool's arguments against its spec's schema.

    Args:
        spec: the tool's constant spec.
        normalize: the tool's own accepted spellings made the schema's, first (an
            action's alias, a field's other name).
    """

    def __init__(self, spec: ToolSpec, normalize: Callable[[object], object] | None = None) -> None:
        self.name = spec.name
        self.schema = spec.input_schema
        self.aliases = spec.aliases
        #: built on the first call (jsonschema is imported then: a Toolkit that only reads
        #: its journal or lists its tools never loads it).
        self._validator: Draft202012Validator | None = None
        self._normalize = normalize

    def validate(self, arguments: object) -> JSONObject:
        """The arguments, in the schema's types, when they match the schema.

        Args:
            arguments: what the caller passed (anything: it is checked first).

        Raises:
            InvalidArguments: not a JSON object (or not JSON), or up to three schema
                problems, each with where it is (``max_bytes: 0 is less than the minimum
                of 1``), after the lenient forms were converted (:func:`lenient`).
        """
        hint = f"call {self.name} with arguments matching its schema"
        shape = json_shape(arguments)
        if shape.problem is not None or not isinstance(shape.value, dict):
            raise InvalidArguments(f"{self.name} arguments: {shape.problem}", hint=hint)
        value: object = shape.value
        if self._normalize is not None:
            value = self._normalize(value)
        if not isinstance(value, dict):
            raise InvalidArguments(f"{self.name} arguments must be a JSON object", hint=hint)
        valid = lenient(value, self.schema, self.aliases)
        if self._validator is None:
            from jsonschema import Draft202012Validator

            self._validator = Draft202012Validator(self.schema)
        errors = sorted(self._validator.iter_errors(valid), key=lambda e: list(e.path))
        if errors:
            problems = []
            for err in errors[:MAX_PROBLEMS]:
                where = ".".join(str(p) for p in err.path)
                problem = f"{where}: {err.message}" if where else err.message
                if len(problem) > MAX_PROBLEM_CHARS:
                    problem = problem[: MAX_PROBLEM_CHARS - 1] + "…"
                problems.append(problem + _meant(err))
            raise InvalidArguments(f"{self.name} arguments: " + "; ".join(problems), hint=hint)
        return valid


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _meant(err: ValidationError) -> str:
    """`` (did you mean 'max_bytes'?)`` after an unexpected argument (``maxBytes``,
    ``max-bytes``, ``max_byte``) that is a spelling of one the schema has: its snake_case
    form (models write camelCase), else the closest name (:func:`difflib.get_close_matches`,
    as the settings' names are suggested); empty for other problems (new-user test 16, L3)."""
    if err.validator != "additionalProperties" or not isinstance(err.instance, dict):
        return ""
    known = err.schema.get("properties") if isinstance(err.schema, dict) else None
    if not isinstance(known, dict):
        return ""
    names = sorted(str(k) for k in known)
    pairs: list[tuple[str, str]] = []  # (the name meant, the name given)
    for key in map(str, err.instance):
        if key in known:
            continue
        snake = _CAMEL.sub("_", key).replace("-", "_").lower()
        close = [snake] if snake in known else difflib.get_close_matches(snake, names, n=1)
        pairs += [(close[0], key[:40])] if close else []
    if len(pairs) == 1:
        return f" (did you mean {pairs[0][0]!r}?)"
    shown = ", ".join(f"{meant!r} for {given!r}" for meant, given in pairs)
    return f" (did you mean {shown}?)" if pairs else ""


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


def url_text(arguments: Mapping[str, JSONValue], name: str) -> str | None:
    """A URL string as a browser reads it (:func:`~webresearch.url_text.clean_url`: outer
    spaces and controls stripped, tabs and newlines removed), or ``None`` when absent."""
    value = optional_text(arguments, name)
    return None if value is None else clean_url(value)


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
        """From schema-valid arguments (the URL cleaned as by :func:`url_text`)."""
        return cls(clean_url(text(arguments, "url")))


@dataclass(frozen=True, slots=True)
class PathArgs:
    """The arguments of a tool that takes one workspace path (image_info)."""

    path: str

    @classmethod
    def from_json(cls, arguments: JSONObject) -> PathArgs:
        """From schema-valid arguments."""
        return cls(text(arguments, "path"))
