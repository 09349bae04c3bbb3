"""Names used as keys of a table setting must be names that exist: a tool of the approval
policy (``{"web_serch": "deny"}`` would deny nothing: the tool stays allowed) and a search
provider or page reader of the prices (``{"brvae": 0.5}`` would leave every call free, so
a spending limit never applies). A misspelt key fails open, so it is refused at start,
naming the closest valid name (:func:`difflib.get_close_matches`).

The valid names are known only when the toolkit is built (search providers, page readers
and screenshot services may come from plugins): the composition layer calls
:func:`unknown_key_error` with them. Pure: names in, an error (or ``None``) out.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from ..errors import ConfigurationError
from .defaults import FIX_SETTING

__all__ = ["unknown_key_error"]


def unknown_key_error(
    tables: Mapping[str, tuple[str, Iterable[str], Iterable[str]]], where: Mapping[str, str]
) -> ConfigurationError | None:
    """The error naming every key of a table setting that is no valid name, else ``None``.

    Args:
        tables: setting name (``approval``) → (what a key names: ``tool``; the keys given;
            the valid names).
        where: setting name → where it was given (``WEBRESEARCH_APPROVAL``, ``approval in
            /etc/w.toml``).

    Returns:
        e.g. ``invalid setting WEBRESEARCH_APPROVAL: 'web_serch' is no tool (did you mean
        'web_search'?; valid: fetch_image, web_fetch, web_search)``.
    """
    problems = []
    for setting, (kind, keys, valid_names) in tables.items():
        valid = sorted(set(valid_names))
        for key in keys:
            if key in valid:
                continue
            # a name in another case is the closest of all (``WEB_FETCH``: names are lowercase)
            same = [name for name in valid if name.casefold() == key.casefold()]
            close = same or difflib.get_close_matches(key.casefold(), valid, n=1)
            hint = f"did you mean {close[0]!r}?; " if close else ""
            shown = key if len(key) <= 60 else key[:57] + "..."
            problems.append(
                f"{where.get(setting, setting)}: {shown!r} is no {kind} "
                f"({hint}valid: {', '.join(valid) or 'none installed'})"
            )
    if not problems:
        return None
    return ConfigurationError("invalid setting " + "; ".join(problems), hint=FIX_SETTING)
