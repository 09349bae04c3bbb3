"""Anti-bot challenge detection (placeholder; replaced by the extract branch)."""

from __future__ import annotations

from collections.abc import Mapping


def is_challenge_page(status: int, headers: Mapping[str, str], html: str) -> str | None:
    """The kind of challenge page this is, or ``None``."""
    return None
