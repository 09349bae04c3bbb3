"""The app-shell rule that keeps ``open`` waiting for a page to draw itself (review issue 1)."""

from __future__ import annotations

import pytest

from webresearch.browser.readiness import is_empty_shell


@pytest.mark.parametrize(
    ("scripts", "text", "shell"),
    [
        (1, "", True),
        (3, "\n  Loading…  \n", True),
        (1, "Please wait", True),
        (0, "", False),  # nothing could fill it later
        (1, None, False),  # shows images, frames or form controls
        (1, "A page with a real sentence of text in it.", False),
        (2, "x" * 21, False),
    ],
)
def test_is_empty_shell(scripts: int, text: str | None, shell: bool) -> None:
    assert is_empty_shell(scripts, text) is shell
