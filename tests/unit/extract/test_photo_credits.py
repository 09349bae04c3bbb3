"""A photo credit line under a picture ("Photo: … / Shutterstock", "… via Getty Images") is
left out; a caption that describes the picture stays."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.photo_credits import CREDIT_LINE

STORY = (
    "<p>The ferry between the two islands now runs every forty minutes in summer, and the "
    "harbour office sells a day ticket that also covers the bus to the lighthouse.</p>"
    "<p>Locals recommend the early boat: the light on the cliffs is best before nine and the "
    "cafe on the quay opens as the first passengers arrive.</p>"
)


def page(figure: str) -> str:
    return (
        "<html><head><title>Island ferry</title></head><body><main><article>"
        f"<h1>Island ferry timetable</h1>{STORY}{figure}{STORY.replace('ferry', 'boat')}"
        "</article></main></body></html>"
    )


@pytest.mark.parametrize(
    "credit",
    [
        "Photo: Marta Ruiz / Shutterstock",
        "Lena Holm via Getty Images",
        "Image: © Piet Smit/Adobe Stock",
        "Photo by Jane Doe",
    ],
)
def test_a_credit_line_under_a_picture_is_left_out(credit: str) -> None:
    figure = f"<img src='http://127.0.0.1/quay.jpg' alt='The quay at dawn'><p>{credit}</p>"
    markdown = extract_html(page(figure), "http://127.0.0.1/ferry").markdown
    assert "forty minutes" in markdown
    assert credit.split()[-1] not in markdown


def test_a_caption_ending_with_its_credit_stays() -> None:
    caption = "Passengers boarding the early boat at the quay. Photo: Marta Ruiz"
    assert not CREDIT_LINE.fullmatch(caption)
    figure = f"<figure><img src='http://127.0.0.1/quay.jpg' alt=''><figcaption>{caption}</figcaption></figure>"
    assert "Passengers boarding" in extract_html(page(figure), "http://127.0.0.1/ferry").markdown


def test_sentences_about_images_are_no_credit() -> None:
    assert not CREDIT_LINE.fullmatch("Images help readers scan a long page.")
    assert not CREDIT_LINE.fullmatch("Photographers often work with stock agencies.")
