"""What the closing-section and meta-line passes must leave alone (review r-12 faults 4 and
5): an article's own "Comments" section, API "Responses", a byline's intro, sentences that
mention a credit or an agency."""

from __future__ import annotations

import pytest

from webresearch.extract.closing_sections import drop_author_bios, drop_comment_sections
from webresearch.extract.meta_lines import drop_meta_lines

BODY = "\n\n".join(
    f"Paragraph {i} of the article tells the reader how the harbour cranes are kept in order "
    "through the winter storms."
    for i in range(6)
)


def test_an_articles_prose_section_called_comments_stays() -> None:
    section = (
        "## Comments\n\nGood comments say why the code does something, not what it does; a "
        "comment that repeats the code goes stale the first time someone edits the line "
        "below it, and readers then trust neither. Write the reason, the constraint, the "
        "link to the ticket, and keep each comment next to the code it explains so both "
        "change together."
    )
    text = f"# Writing good code comments\n\n{BODY}\n\n{section}\n\n## Summary\n\nKeep them short."
    assert drop_comment_sections(text) == text


def test_responses_of_an_api_and_a_survey_stay() -> None:
    api = f"{BODY}\n\n## Responses\n\n| Code | Meaning |\n|---|---|\n| 200 | OK |\n| 404 | Gone |"
    assert drop_comment_sections(api) == api
    survey = f"{BODY}\n\nResponses\n\nSixty per cent of the crews said the night shift is safer."
    assert drop_comment_sections(survey) == survey


def test_readers_comments_still_go() -> None:
    comments = (
        "## 3 Comments\n\nJane says:\n\nMarch 3, 2024 at 9:14 am\n\nGreat piece on the cranes, "
        "thanks for writing it.\n\nReply\n\nTom says:\n\nMarch 4, 2024 at 7:02 pm\n\nMy father "
        "drove one of these for thirty years and never once saw the brakes fail.\n\nReply"
    )
    assert drop_comment_sections(f"{BODY}\n\n{comments}") == BODY
    form = "## Leave a reply\n\nYour email address will not be published.\n\nName\n\nEmail"
    assert drop_comment_sections(f"{BODY}\n\n{form}") == BODY


def test_a_bold_byline_takes_only_the_name_with_it() -> None:
    text = (
        "# The verdict on the new novel\n\n**Written by**\n\nJane Doe\n\nThe novel opens on "
        "a harbour at night, and it never lets the reader forget the sea.\n\n## The verdict"
        "\n\nRead it."
    )
    out = drop_author_bios(text)
    assert "The novel opens on a harbour" in out
    assert "Jane Doe" not in out


@pytest.mark.parametrize(
    "line",
    [
        "Credits: 4 ECTS",
        "Credit: money a bank lends you, to be paid back with interest.",
        "She spent ten years as a correspondent for Reuters.",
        "Photo: the bridge collapsed after the storm hit the town.",
        "Image by the author, who drew it on a napkin.",
    ],
)
def test_a_sentence_about_credit_or_an_agency_stays(line: str) -> None:
    text = f"{BODY}\n\n{line}\n\nThe end."
    assert drop_meta_lines(text) == text


@pytest.mark.parametrize(
    "line",
    [
        "Photo: Jane Doe",
        "Courtesy of the artist",
        "DGLimages via Getty Images",
        "courtesy of gcmap",
    ],
)
def test_credit_lines_still_go(line: str) -> None:
    assert drop_meta_lines(f"{BODY}\n\n{line}\n\nThe end.") == f"{BODY}\n\nThe end."


def test_a_short_prose_section_with_one_form_word_stays() -> None:
    """review n-12b: "required" alone made a short "## Comments" section the comment form."""
    section = (
        "## Comments\n\nComments rot when code changes and they do not.\n\n"
        "A short comment is required above every public function."
    )
    text = f"{BODY}\n\n{section}\n\n## More\n\nThe end."
    assert drop_comment_sections(text) == text
