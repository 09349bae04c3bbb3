"""Lines removed from a page's markdown leave one blank line between the blocks around them,
never a run of blank lines (new-user review n-15: a stray blank line under the title where
the lines after it were removed), on texts of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.markdown_tidy import join_kept_lines
from webresearch.extract.meta_lines import drop_meta_lines


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        # two meta lines in a row under the title
        (
            "# Night ferries\n\n6 min read\n\nIn this article\n\nThe ferry leaves at nine.",
            "# Night ferries\n\nThe ferry leaves at nine.",
        ),
        # meta lines first and last: no blank line left at either end
        (
            "6 min read\n\nThe ferry leaves at nine.\n\nAdvertisement",
            "The ferry leaves at nine.",
        ),
    ],
)
def test_removed_meta_lines_leave_one_blank_line(markdown: str, expected: str) -> None:
    assert drop_meta_lines(markdown) == expected


def test_only_blank_lines_beside_a_removal_are_collapsed() -> None:
    lines = ["# T", "", "x", "", "", "y", "", "```", "a", "", "", "b", "```"]
    assert join_kept_lines(lines, {2}) == "# T\n\ny\n\n```\na\n\n\nb\n```"
    assert join_kept_lines(lines, set()) == "\n".join(lines)
    assert join_kept_lines(["a", "gone", "b"], {1}) == "a\nb"


def test_blank_lines_before_a_removal_are_collapsed_too() -> None:
    # two blank lines before the removed line survived (review, session 16)
    assert join_kept_lines(["a", "", "", "DROP", "", "b"], {3}) == "a\n\nb"
    assert join_kept_lines(["a", "", "", "DROP", "b"], {3}) == "a\n\nb"
    assert join_kept_lines(["", "", "DROP", "b"], {2}) == "b"
