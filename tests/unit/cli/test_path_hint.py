"""``webresearch fetch PATH`` that cannot be read: the next step fits what was typed."""

from __future__ import annotations

import pytest

from webresearch.cli.fetch import path_hint


@pytest.mark.parametrize(
    ("target", "exc", "expected"),
    [
        ("example.org/page", FileNotFoundError(2, "x"), "https://example.org/page"),
        ("docs.python.org", FileNotFoundError(2, "x"), "https://docs.python.org"),
        ("missing.html", FileNotFoundError(2, "x"), "check the file's path"),
        ("/no/dir/file.html", FileNotFoundError(2, "x"), "check the file's path"),
        ("./site", IsADirectoryError(21, "x"), "not the directory"),
        ("locked.html", PermissionError(13, "x"), "can be read"),
    ],
)
def test_the_hint_fits_the_target(target: str, exc: OSError, expected: str) -> None:
    assert expected in path_hint(target, exc)
