"""Evaluate results as plain JSON (pure): cycles, windows, NaN and size budgets handled."""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["EVALUATE_MAX_VALUES", "json_safe", "to_json"]

#: Most values (objects, array items, properties) an evaluate result is rendered with.
EVALUATE_MAX_VALUES = 5000


def json_safe(value: Any, max_values: int = EVALUATE_MAX_VALUES) -> Any:
    """An evaluate result as plain JSON data (pure; never fails).

    * a container met again inside itself → ``"[circular]"`` (a value shared by two
      branches is rendered in both);
    * a window (what the library gives for ``window.open(…)``: a mapping whose ``window``
      is itself) → ``"[unserializable: Window]"``;
    * dates, regexps, errors and other objects → their ``str``; NaN and ±Infinity (not JSON)
      → ``"NaN"``, ``"Infinity"``, ``"-Infinity"``;
    * at most ``max_values`` values in all (then ``"[…]"``), at most 64 levels deep.
    """
    budget = [max_values]

    def walk(v: Any, path: set[int], depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0 or depth > 64:
            return "[…]"
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            return (
                v if math.isfinite(v) else ("NaN" if v != v else str(v).replace("inf", "Infinity"))
            )
        if not isinstance(v, (dict, list, tuple)):
            return str(v)
        if id(v) in path:
            return "[circular]"
        if isinstance(v, dict) and v.get("window") is v:
            return "[unserializable: Window]"
        path.add(id(v))
        try:
            if isinstance(v, dict):
                out: dict[str, Any] = {}
                for key, item in v.items():
                    if budget[0] <= 0:
                        out["…"] = "[cut]"
                        break
                    out[str(key)] = walk(item, path, depth + 1)
                return out
            items = []
            for item in v:
                if budget[0] <= 0:
                    items.append("[…]")
                    break
                items.append(walk(item, path, depth + 1))
            return items
        finally:
            path.discard(id(v))

    return walk(value, set(), 0)


def to_json(value: Any, limit: int) -> str:
    """A JSON rendering of an evaluate result, cut to ``limit`` characters.

    Never fails: a value that is still not JSON (a cycle the page-side rendering did not
    see) becomes an ``[unserializable: <type>]`` marker.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):
        text = json.dumps(f"[unserializable: {type(value).__name__}]")
    return text if len(text) <= limit else text[:limit] + " …[cut]"
