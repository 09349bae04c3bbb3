"""Regression: a control character inside a tag must not leave a tag for a second pass.

Hypothesis found ``"<\\x1f?>"``: the first normalisation removed the control character
after stripping tags, leaving ``"<?>"``, which a second normalisation then stripped, so
normalising twice differed from normalising once.
"""

from __future__ import annotations

import pytest

from webresearch.search.normalize import clean_text


@pytest.mark.parametrize(
    "raw",
    [
        "<\x1f?>",
        "a<\x00b>c",
        "<\x7fscript>x</script>",
        "&lt;\x1f?&gt;",
        "<&#x1f;?>",
        "x<\u202e/b>y",
    ],
)
def test_cleaning_is_idempotent_around_control_characters(raw: str) -> None:
    once = clean_text(raw, 500)
    assert clean_text(once, 500) == once
    assert "\x1f" not in once and "\x00" not in once
