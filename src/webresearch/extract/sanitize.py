"""Characters that must not reach a model or a terminal as page text. Pure.

Bidirectional *override* and *isolate* controls (U+202A–U+202E, U+2066–U+2069) reorder how
text is displayed without changing what it says: they are the tool of "Trojan Source"
attacks (CVE-2021-42574) and of instructions hidden from the person reading a transcript.
Ordinary right-to-left text does not need them (the marks U+200E/U+200F are kept).
"""

from __future__ import annotations

__all__ = ["BIDI_CONTROLS", "strip_bidi_controls"]

#: Embedding, override and isolate controls removed from page text.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_TABLE = {ord(c): None for c in BIDI_CONTROLS}


def strip_bidi_controls(text: str) -> str:
    """``text`` without bidirectional embedding/override/isolate controls."""
    return text.translate(_TABLE) if any(c in text for c in BIDI_CONTROLS) else text
