"""A wrong setting's value in our own words: what was expected, what kind of value was given
and an example of a valid one — never pydantic's wording (``Input should be a valid
integer, unable to parse string as an integer``), ``type=`` or URL, and never the value of a
setting that may be secret.

Pure: one item of ``pydantic.ValidationError.errors()`` (and the field it is about) in,
one phrase out; the caller names where the value was given (``WEBRESEARCH_FETCH_MAX_BYTES``,
``fetch_max_bytes in /etc/w.toml``).
"""

from __future__ import annotations

import math
import sys
import typing
import unicodedata
from collections.abc import Mapping
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo

__all__ = ["problem_text"]

#: Pydantic's prefixes of a validator's own message (``ValueError``, ``assert``): the
#: message after them is ours.
_OWN_MESSAGE_PREFIXES = ("Value error, ", "Assertion failed, ")

#: Parts of a setting's name whose value is never repeated in an error (it may be secret).
_SECRET_WORDS = ("key", "secret", "password", "token", "dsn", "url", "auth", "proxy", "header")

#: What a pattern of a setting asks for, in words (the field's ``pattern=``).
_FORMS = {
    r"^[A-Za-z_-]{1,64}$": "1 to 64 letters, '-' or '_'",
    r"^[1-9][0-9]{1,3}x[1-9][0-9]{1,3}$": "WIDTHxHEIGHT in CSS px, each 10 to 9999",
}

#: The spellings of true and false a boolean setting takes (pydantic's, any case).
_BOOLEAN_WORDS = "true or false (also 1/0, yes/no, on/off)"

_WHOLE = ("int_parsing", "int_type", "int_from_float", "int_parsing_size")
_NUMBER = ("float_parsing", "float_type")
_BOOLEAN = ("bool_parsing", "bool_type")
_RANGES = {
    "greater_than_equal": ("ge", "{} or more"),
    "greater_than": ("gt", "above {}"),
    "less_than_equal": ("le", "at most {}"),
    "less_than": ("lt", "below {}"),
}


def problem_text(error: Mapping[str, Any], field: FieldInfo | None = None) -> str:
    """One validation error in our words (see the module docstring).

    Args:
        error: an item of ``ValidationError.errors()``.
        field: the setting's field (its default is the example of a valid value, its type
            tells a secret); ``None`` when unknown.

    Returns:
        ``must be a whole number, e.g. 49152, not text ('abc')``; a validator's own message
        as it is (without pydantic's ``Value error,``); ``'brave' must be a number, e.g.
        0.5, not …`` for an item of a table.
    """
    loc = tuple(error.get("loc") or ())
    item = len(loc) > 1  # a value inside a table (``prices``): its own type, no default
    # Which item of a table, as a prefix: ``'brave' ``; every message about an item has it
    # (a validator's own message lacked it: session 10 review).
    where = (
        ".".join(repr(p) if isinstance(p, str) else f"item {p + 1}" for p in loc[1:]) + " "
        if item
        else ""
    )
    message = str(error.get("msg", "invalid value"))
    for prefix in _OWN_MESSAGE_PREFIXES:
        if message.startswith(prefix):
            return where + message[len(prefix) :]
    kind = str(error.get("type", ""))
    name = str(loc[0]).lower() if loc else ""
    secret = any(w in name for w in _SECRET_WORDS) or _is_secret(field)
    value = error.get("input")
    example = None if item else _example(field)
    expected = _expected(kind, error, example)
    if kind in _NUMBER and _beyond_floats(value):  # ``1`` and 400 zeros in a TOML file
        expected = "must be a finite number, e.g. " + _number(_or(example, 2.5, (int, float)))
        given = _not_finite(value)
    elif expected is not None and kind == "finite_number":
        given = _not_finite(value)
    elif expected is not None and kind == "int_parsing_size" and isinstance(value, str):
        # over 4300 digits (int()'s limit): a whole number all the same
        digits = sum(ch.isdigit() for ch in value)
        given = f"a whole number of {digits} digits (too large for any setting)"
    elif expected is not None and kind in _WHOLE and _not_finite_text(value):
        given = _not_finite(value)  # 'nan', '-1e400' for a whole number: not "text"
    elif expected is None:
        if not message.startswith("Input should be "):
            return where + message
        expected = "must be " + message[len("Input should be ") :]
        given = _shown(value, secret, with_kind=False)
    else:
        given = _shown(value, secret, with_kind=kind not in _RANGES)
    return where + (f"{expected}, not {given}" if given else expected)


def _expected(kind: str, error: Mapping[str, Any], example: object) -> str | None:
    """What a value of this error's kind must be, with an example; ``None`` for a kind
    whose message is reworded from pydantic's (a choice of words: ``'a', 'b' or 'c'``)."""
    ctx = error.get("ctx") or {}
    if kind in _WHOLE:
        return f"must be a whole number, e.g. {_number(_or(example, 10, int))}"
    if kind in _NUMBER:
        return f"must be a number, e.g. {_number(_or(example, 2.5, (int, float)))}"
    if kind == "finite_number":
        whole = isinstance(example, int) and not isinstance(example, bool)
        return f"must be a finite {'whole ' if whole else ''}number, e.g. " + _number(
            _or(example, 2.5, (int, float))
        )
    if kind in _BOOLEAN:
        return f"must be {_BOOLEAN_WORDS}"
    if kind in _RANGES:
        key, words = _RANGES[kind]
        return "must be " + words.format(_number(ctx.get(key)))
    if kind == "string_pattern_mismatch":
        form = _FORMS.get(str(ctx.get("pattern", "")), "in the expected form")
        return f"must be {form}" + (f", e.g. {example}" if isinstance(example, str) else "")
    if kind in ("dict_type", "json_invalid"):
        return 'must be a JSON object, e.g. {"name": 1}'
    if kind in ("string_type",):
        return "must be text"
    if kind in ("tuple_type", "list_type"):
        return (
            'must be a list, e.g. ["example.com", "*.example.org"] (in an environment '
            "variable also comma-separated: example.com,*.example.org)"
        )
    return None


def _or(example: object, fallback: object, kinds: type | tuple[type, ...]) -> object:
    """``example`` when it is a value of ``kinds`` (not a boolean), else ``fallback``."""
    if isinstance(example, kinds) and not isinstance(example, bool):
        return example
    return fallback


def _number(value: object) -> str:
    """``1``, ``0.5``, ``86400`` (a bound as people write it: ``86400.0`` → ``86400``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _example(field: FieldInfo | None) -> object:
    """A valid value to show: the field's first example, else its default (``None`` when it
    has neither, or the default says nothing: ``None``, empty)."""
    if field is None:
        return None
    if field.examples:
        return field.examples[0]
    default = field.get_default(call_default_factory=False)
    if default is None or default == "" or isinstance(default, (SecretStr, tuple, dict)):
        return None
    return default


def _is_secret(field: FieldInfo | None) -> bool:
    if field is None:
        return False
    return "SecretStr" in str(field.annotation) or any(
        a is SecretStr for a in typing.get_args(field.annotation)
    )


def _shown(value: object, secret: bool, *, with_kind: bool) -> str:
    """How the wrong value is named: its kind (``text``, ``a decimal number``, ``an empty
    value``) and, unless it may be secret, itself: ``text ('abc')``, or ``0`` for a number
    out of range."""
    if not isinstance(value, (str, int, float)):
        return ""
    shown = _quoted(value) if isinstance(value, str) else _spelled(value)
    if not with_kind:  # a number out of range: ``0``, as typed
        if secret:
            return ""
        return value.strip() if isinstance(value, str) and _kind(value) != "text" else shown
    described = _kind(value)
    if secret or described == "an empty value":
        return described
    if described == _OTHER_DIGITS and isinstance(value, str):
        return f"{described} ({shown}; write {_ascii_digits(value.strip())!r})"
    return f"{described} ({shown})"


def _quoted(text: str) -> str:
    """``text`` in quotes, its first 57 characters and ``...`` when longer than 60 (inside
    the quotes: a cut value still ends with its closing quote)."""
    return repr(text[:57] + "..." if len(text) > 60 else text)


def _spelled(value: int | float) -> str:
    """A number or a boolean as a settings file spells it: ``true`` / ``false`` (TOML's
    spelling, not Python's ``True``), ``49152``, ``0.5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: The kind of a number typed in digits other than ASCII's (full-width ``１５``, Arabic-Indic
#: ``١٥``): Python reads them, the settings' parser (pydantic) does not.
_OTHER_DIGITS = "a number in digits other than 0-9"


def _ascii_digits(text: str) -> str:
    """``text`` with each decimal digit of any script as its ASCII digit (``１５`` → ``15``)."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


def _not_finite(value: object) -> str:
    """How a number that is not finite is named (the value of a number setting is never a
    secret): ``infinity ('inf')``, ``'nan' (NaN: not a number)``, or a number too large for a
    64-bit float (``1e400``, ``-1e400``: it overflows to infinity or minus infinity, IEEE
    754)."""
    if isinstance(value, int) and _beyond_floats(value):
        digits = round(value.bit_length() * math.log10(2))
        return f"a whole number of about {digits} digits (too large: beyond about 1.8e308)"
    text = value.strip() if isinstance(value, str) else str(value)
    number = float(value) if isinstance(value, (int, float)) else _float_or_nan(text)
    shown = _quoted(text)
    if math.isnan(number):
        return f"{shown} (NaN: not a number)"
    minus = "minus " if number < 0 else ""
    if text.lower().lstrip("+-") in ("inf", "infinity"):
        return f"{minus}infinity ({shown})"
    if number < 0:  # -1e400: minus infinity, not "too large"
        return f"{shown} (too small: below about -1.8e308 a number reads as minus infinity)"
    return f"{shown} (too large: beyond about 1.8e308 a number reads as infinity)"


def _beyond_floats(value: object) -> bool:
    """A whole number no 64-bit float holds (it would read as infinity)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value.bit_length() > sys.float_info.max_exp
    )


def _not_finite_text(text: object) -> bool:
    """Whether ``text`` is text Python reads as an infinite number or NaN (``nan``,
    ``-1e400``)."""
    if not isinstance(text, str):
        return False
    try:
        return not math.isfinite(float(text))
    except ValueError:
        return False


def _float_or_nan(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def _kind(value: str | int | float) -> str:
    """What kind of value was given: ``an empty value``, ``a whole number``, ``a decimal
    number``, ``a boolean`` or ``text``."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    text = value.strip()
    if not text:
        return "an empty value"
    if not text.isascii():
        converted = _ascii_digits(text)
        return _OTHER_DIGITS if converted != text and _kind(converted) != "text" else "text"
    if text.lstrip("+-").isdigit():
        return "a whole number"
    try:
        number = float(text)
    except ValueError:
        return "text"
    return "a decimal number" if math.isfinite(number) else "text"
