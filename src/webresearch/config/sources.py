"""Where setting values come from: the TOML file, ``WEBRESEARCH_*`` variables, arguments.

Pure functions over already-read data (the file is read by :func:`read_toml`). Names are
flat: ``browser_action_timeout_s``, ``brave_api_key``. In the file:

* a top-level key is a name (``allow_private = true``);
* a table that groups settings flattens with ``_``: ``[search] provider = "searxng"`` is
  ``search_provider``;
* a table inside ``[search]``, ``[reader]`` or ``[screenshot]`` that groups no settings is a
  provider's own table: ``[search.brave] api_key = "…"``, ``[reader.firecrawl]``; so is a
  top-level table named after a provider (``[brave]``);
* a table that is the value of a dict setting stays a dict (``[prices] brave = 0.005``);
* ``[reader] provider = "…"`` and ``[screenshot] provider = "…"`` spell ``reader`` and
  ``screenshot_service`` (TOML cannot hold ``reader = "…"`` next to ``[reader.firecrawl]``).

Values for names that are not settings are kept, with their source and rank (argument >
environment > file), for providers' options models (:mod:`.options`) to claim.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError
from .defaults import ENV_PREFIX

__all__ = [
    "FILE_ALIASES",
    "LIST_FORMS",
    "PROVIDER_SECTIONS",
    "Given",
    "OptionSources",
    "env_name",
    "env_value",
    "read_toml",
    "walk_toml",
]

#: File tables whose sub-tables are providers' own tables (``[search.brave]``).
PROVIDER_SECTIONS = ("search", "reader", "screenshot")
#: File spellings of settings whose own name is taken by a table of providers' tables:
#: ``[reader] provider = "firecrawl"`` next to ``[reader.firecrawl]`` (TOML cannot have
#: ``reader = "firecrawl"`` and a ``[reader.firecrawl]`` table in one file).
FILE_ALIASES = {"reader_provider": "reader", "screenshot_provider": "screenshot_service"}
#: Ranks of sources: a higher rank wins.
FILE, ENVIRONMENT, ARGUMENT = 0, 1, 2


def env_name(name: str) -> str:
    """The environment variable of a flat name: ``brave_api_key`` → ``WEBRESEARCH_BRAVE_API_KEY``."""
    return f"{ENV_PREFIX}{name.upper()}"


@dataclass(frozen=True, slots=True)
class Given:
    """One value given for a name.

    Attributes:
        value: as given (text from the environment, any TOML value, any argument).
        source: where, for messages: ``WEBRESEARCH_X``, ``x in /etc/w.toml``,
            ``[search.brave] api_key in /etc/w.toml`` or ``x`` (an argument).
        rank: 0 file, 1 environment, 2 argument (a higher rank wins).
    """

    value: object
    source: str
    rank: int

    @property
    def from_environment(self) -> bool:
        """Text to be parsed by the receiving field's type (lists, JSON objects)."""
        return self.rank == ENVIRONMENT


@dataclass(frozen=True, slots=True)
class OptionSources:
    """Values given for names that are not core settings: providers' options, or typos.

    Attributes:
        flat: name → the highest-ranked value (``brave_api_key`` from any source).
        tables: provider id → option → value, from the file's provider tables.
    """

    flat: Mapping[str, Given] = field(default_factory=dict)
    tables: Mapping[str, Mapping[str, Given]] = field(default_factory=dict)

    def with_flat(self, values: Iterable[tuple[str, Given]]) -> OptionSources:
        """A copy with more flat values (a higher or equal rank replaces a lower one)."""
        flat = dict(self.flat)
        for name, given in values:
            known = flat.get(name)
            if known is None or given.rank >= known.rank:
                flat[name] = given
        return OptionSources(flat, self.tables)

    def given(self, provider_id: str, option: str) -> Given | None:
        """The value of one provider option: the highest rank of ``[<section>.<id>] option``
        and the flat ``<id>_<option>`` (on a tie, the table)."""
        candidates = [
            g
            for g in (
                self.tables.get(provider_id, {}).get(option),
                self.flat.get(f"{provider_id}_{option}"),
            )
            if g is not None
        ]
        return max(candidates, key=lambda g: g.rank) if candidates else None


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed file.

    Raises:
        ConfigurationError: unreadable or not valid TOML (names the file).
    """
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh, parse_float=_number)
    except OSError as exc:
        raise ConfigurationError(f"cannot read config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(f"config file {path} is not valid TOML: {exc}") from None
    except ValueError:  # int() of a whole number over 4300 digits (Python's own limit)
        raise ConfigurationError(
            f"config file {path} holds a whole number of over 4300 digits; no setting takes one"
        ) from None


def walk_toml(
    data: Mapping[str, Any], where: str, fields: Mapping[str, Any]
) -> tuple[dict[str, Given], dict[str, dict[str, Given]]]:
    """Flatten a parsed file (see the module docstring).

    Args:
        data: the parsed TOML document.
        where: the file's name, for sources.
        fields: the core settings' annotations by name (a dict setting keeps its table).

    Returns:
        (flat name → value, provider id → option → value).
    """
    flat: dict[str, Given] = {}
    tables: dict[str, dict[str, Given]] = {}
    groups = {name.rsplit("_", i)[0] for name in fields for i in range(1, name.count("_") + 1)}

    def provider_table(provider: str, table: Mapping[str, Any], label: str) -> None:
        options = tables.setdefault(_name(provider), {})
        for key, value in table.items():
            options[_name(key)] = Given(value, f"[{label}] {key} in {where}", FILE)

    def walk(prefix: str, table: Mapping[str, Any], label: str) -> None:
        for key, value in table.items():
            name = _name(f"{prefix}_{key}" if prefix else key)
            name = FILE_ALIASES.get(name, name)
            if not isinstance(value, dict) or _is_dict_field(fields.get(name)):
                flat[name] = Given(value, f"{name} in {where}", FILE)
            elif name in groups:
                walk(name, value, f"{label}.{key}" if label else key)
            elif prefix in PROVIDER_SECTIONS or not prefix:
                provider_table(key, value, f"{label}.{key}" if label else key)
            else:
                flat[name] = Given(value, f"{name} in {where}", FILE)

    walk("", data, "")
    return flat, tables


def env_value(raw: str, annotation: Any) -> Any:
    """An environment text for a field: for tuple fields a comma-separated list or a JSON
    list of texts (``a.example, b.example`` or ``["a.example", "b.example"]``; a text that
    lists nothing, ``""``, is given as it is, for the field to read), JSON for
    dict fields, the text itself otherwise (the field's validation converts it).

    A text in brackets that is no JSON list and quotes nothing is split at commas as ever
    (``[::1]:8000,[::1]``: IPv6 hosts); the items' own validation then refuses what they
    cannot be (``[1,2`` gives the domains ``[1`` and ``2``, which the domain check refuses).

    Raises:
        ValueError: a JSON list that is not valid JSON but quotes its items
            (``["a.example", "b``) or holds something other than texts; the message never
            repeats the value, the caller names the variable.
    """
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(annotation) if m is not type(None)]
        return env_value(raw, members[0]) if len(members) == 1 else raw
    if origin is tuple or (isinstance(annotation, type) and issubclass(annotation, tuple)):
        text = raw.strip()
        if text.startswith("["):
            items = _json_list(text)
            if items is not None:
                return items
        items = [p.strip() for p in raw.split(",") if p.strip()]
        # nothing listed (``X=``, ``X=" , "``): the text as it is, for the field to say
        # what an empty value means (an allow list: an error, see AccessSettings)
        return items or raw
    if origin is dict:
        try:
            return json.loads(raw, parse_float=_number, parse_int=_whole, parse_constant=_number)
        except json.JSONDecodeError as exc:
            # The message never repeats the value: a table of headers holds secrets.
            raise ValueError(
                f'must be a JSON object, e.g. {{"name": 1}}; this is not valid JSON: {_json_fault(exc)}'
            ) from None
    return raw


class _WrittenNumber(float):
    """A number no 64-bit float holds (``1e400`` reads as infinity, IEEE 754) or one of
    JSON's ``Infinity`` / ``NaN``, which quotes itself as written: a setting's error then
    says ``'1e400' (too large …)``, not ``'inf'`` (session 10 review)."""

    written: str

    def __new__(cls, text: str) -> _WrittenNumber:
        number = super().__new__(cls, text)
        number.written = text
        return number

    def __repr__(self) -> str:
        return self.written

    __str__ = __repr__


def _number(text: str) -> float:
    """A JSON or TOML number's text as a float; one that is not finite keeps its text."""
    number = float(text)
    return number if math.isfinite(number) else _WrittenNumber(text)


def _whole(text: str) -> int | float:
    """A JSON whole number's text as an int; one beyond any float (over 308 digits, which
    Python's ``int()`` also refuses past 4300) keeps its text as :func:`_number` does."""
    return int(text) if len(text.lstrip("-")) <= 308 else _WrittenNumber(text)


def _json_fault(exc: json.JSONDecodeError) -> str:
    """What is wrong where, without the text: ``a line break inside a quoted text
    (character 12; JSON writes it as \\n)``, ``expecting ',' delimiter (character 9)``."""
    where = f"character {exc.pos + 1}"
    if exc.msg.startswith("Invalid control character"):
        ch = exc.doc[exc.pos] if exc.pos < len(exc.doc) else ""
        if ch in ("\r", "\n"):
            escape = "\\r" if ch == "\r" else "\\n"
            return f"a line break inside a quoted text ({where}; JSON writes it as {escape})"
        return (
            f"the control character U+{ord(ch or chr(0)):04X} inside a quoted text ({where}; "
            "JSON writes it as a \\u escape)"
        )
    if exc.pos >= len(exc.doc):
        return f"it ends early ({exc.msg[0].lower()}{exc.msg[1:]})"
    reason = exc.msg.removesuffix(" starting at").removesuffix(" at")
    return f"{reason[0].lower()}{reason[1:]} ({where})"


#: The two forms of a list in an environment variable, for the error of a malformed one.
LIST_FORMS = 'comma-separated (a.example, b.example) or JSON (["a.example", "b.example"])'
#: A JSON list as typed: its first or last item quoted (``["a``, ``'a'``, ``b"]``).
_QUOTED = re.compile(r"""^\[\s*["']|["']\s*\]$""")


def _json_list(text: str) -> list[str] | None:
    """The items of ``text`` as a JSON list of texts; ``None`` when it is no JSON and
    quotes nothing (to be split at commas).

    Raises:
        ValueError: JSON that is no list of texts, or a quoted list that is not valid JSON.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        if not _QUOTED.search(text):
            return None
        where = (
            "it ends before the list is closed"
            if exc.pos >= len(text)
            else f"at character {exc.pos + 1}"
        )
        raise ValueError(
            f"looks like a JSON list but is not valid JSON ({where}); lists are {LIST_FORMS}"
        ) from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"is not a list of texts; lists are {LIST_FORMS}")
    return value


def _is_dict_field(annotation: Any) -> bool:
    return typing.get_origin(annotation) is dict


def _name(key: str) -> str:
    return key.replace("-", "_").lower()
