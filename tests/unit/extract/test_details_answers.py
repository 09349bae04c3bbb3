"""A closed ``<details>`` answer whose script marks it ``aria-hidden`` is read with its
question (kept_hidden.closed_details_marked_hidden)."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.html import extract_html
from webresearch.extract.kept_hidden import closed_details_marked_hidden

INTRO = (
    "<p>We service every kind of bicycle in our workshop by the station, from a child's "
    "first bike to a touring bike that has crossed a continent, and we do it well.</p>"
)
ANSWERS = (
    (
        "How long does a repair take?",
        "Most repairs are finished within three working days of the bicycle reaching our "
        "workshop, and we call you as soon as it is ready.",
    ),
    (
        "Do you repair electric bikes?",
        "Yes: our mechanics are trained on the motors and batteries of the common brands, "
        "and we order spare parts for the others.",
    ),
    (
        "Can I pay in instalments?",
        "You can split the price of a repair over three monthly payments at no extra cost "
        "when it comes to more than one hundred pounds.",
    ),
)


def page() -> str:
    faq = "".join(
        f"<div class='entry'><details aria-expanded='false'><summary><h4>{q}</h4>"
        "<span class='icon' aria-hidden='true'></span></summary>"
        f"<div class='content' aria-hidden='true'><p>{a}</p></div></details></div>"
        for q, a in ANSWERS
    )
    return (
        "<html><head><title>Repairs</title></head><body><header><nav><a href='/'>Home</a>"
        f"</nav></header><main><h1>Repairs</h1>{INTRO * 4}<h2>Repair FAQs</h2>{faq}</main>"
        "<footer><p>Station Cycles</p></footer></body></html>"
    )


def test_every_answer_of_a_details_faq_marked_aria_hidden_is_kept() -> None:
    result = extract_html(page(), "https://cycles.example/repairs")
    for question, answer in ANSWERS:
        assert question in result.markdown
        assert answer in result.markdown
    assert result.hidden_chars_kept > 0  # closed <details> content, counted as such


def test_only_closed_details_content_with_text_is_listed() -> None:
    body = etree.fromstring(
        "<body><details><summary aria-hidden='true'>Q?</summary>"
        "<div aria-hidden='true'><p aria-hidden='true'>An answer.</p></div>"
        "<span aria-hidden='true'> </span></details>"
        "<details open=''><summary>R?</summary><div aria-hidden='true'>Open.</div></details>"
        "<div aria-hidden='true'>Outside.</div></body>"
    )
    assert ["".join(el.itertext()) for el in closed_details_marked_hidden(body)] == ["An answer."]
