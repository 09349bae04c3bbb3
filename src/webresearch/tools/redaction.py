"""Redaction of what a call shows: arguments, journal details, errors (no secret leaves).

Pure functions over a redactor (:class:`webresearch.redact.Redactor`): URL secrets and every
known secret value are replaced; a value under a key that names a credential (``token``,
``api_key``, ``password`` …) is replaced whole.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import WebResearchError
from ..redact import REDACTED, is_secret_key
from ..types import JSONValue

__all__ = ["redact_json", "redacted_error"]


def redact_json(value: JSONValue, redact: Callable[[str], str]) -> JSONValue:
    """``value`` with every string redacted (tuples become lists, as in JSON)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {
            k: REDACTED
            if is_secret_key(k) and isinstance(v, (str, int, float))
            else redact_json(v, redact)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact_json(v, redact) for v in value]
    return value


def redacted_error(error: WebResearchError, redact: Callable[[str], str]) -> WebResearchError:
    """A copy of ``error`` (same class and attributes) whose message, hint, details and
    ``str()`` are redacted; ``error`` itself is left as it was."""
    copy = type(error).__new__(type(error))
    copy.__dict__.update(error.__dict__)
    copy.message = redact(error.message)
    Exception.__init__(copy, copy.message)  # str(copy) must not keep the unredacted text
    copy.hint = redact(error.hint) if error.hint else error.hint
    details = redact_json(error.details, redact)
    copy.details = details if isinstance(details, dict) else {}
    return copy
