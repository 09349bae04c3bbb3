"""Counts written in words for people and models: "1 character", "2 characters". Pure.

Every count a tool, the browser or the command line writes before a noun goes through
:func:`count`, so a single one is never "1 characters" (new-user test, session 17).
"""

from __future__ import annotations

__all__ = ["count"]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in its singular for exactly one, else its plural.

    Args:
        n: how many (any integer; 0 and negatives take the plural, as English does).
        noun: the singular ("character", "interactive element").
        plural: the plural when it is not ``noun + "s"`` ("matches", "entries").

    Returns:
        e.g. ``"1 character"``, ``"0 characters"``, ``"3 entries"``.
    """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
