"""Fixtures of the image tests: the case folders."""

from __future__ import annotations

from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "cases"


@pytest.fixture
def case_bytes() -> dict[str, bytes]:
    """``"24/small.jpg"`` → bytes of the image cases' files (24, 26, 28, 29)."""
    out = {}
    for folder in CASES.glob("2[4689]-image-*"):
        number = folder.name[:2]
        for file in folder.iterdir():
            if file.suffix in (".jpg", ".png", ".gif", ".webp"):
                out[f"{number}/{file.name}"] = file.read_bytes()
    return out
