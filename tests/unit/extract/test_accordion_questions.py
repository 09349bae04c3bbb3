"""An FAQ accordion's questions, written into the buttons that open the answers, are kept
with the answers (accordion_questions.py)."""

from __future__ import annotations

import pytest
from lxml import etree

from webresearch.extract.accordion_questions import open_accordion_questions
from webresearch.extract.html import extract_html

ANSWERS = (
    (
        "How long does a repair take?",
        "Most repairs are finished within three working days of the bicycle reaching our "
        "workshop, and we call you as soon as it is ready to be collected.",
    ),
    (
        "Do you repair electric bikes?",
        "Yes: our mechanics are trained on the motors and batteries of the common brands, "
        "and we order spare parts for the others within a week.",
    ),
)


def page() -> str:
    items = "".join(
        f"<div class='faq-item'><button class='faq-toggle' aria-expanded='false' "
        f"aria-controls='faq-{i}'><h3>{question}</h3></button>"
        f"<div id='faq-{i}' class='collapse'><p>{answer}</p></div></div>"
        for i, (question, answer) in enumerate(ANSWERS)
    )
    return (
        "<html><head><title>Bicycle repairs</title></head><body>"
        "<header><nav><button aria-controls='menu'>Menu</button>"
        "<ul id='menu'><li><a href='/'>Home</a></li><li><a href='/shop'>Shop</a></li></ul>"
        "</nav></header><main><h1>Bicycle repairs</h1>"
        "<p>We service every kind of bicycle in our workshop by the station, from a "
        "child's first bike to a touring bike that has crossed a continent.</p>"
        "<p>Bring it in without an appointment, or book a collection from your door on any "
        "weekday morning; a quote comes before any work starts.</p>"
        f"<h2>Frequently asked questions</h2>{items}"
        "<p>Anything else? Call the workshop and a mechanic will answer your question.</p>"
        "</main><footer><p>Station Cycles</p></footer></body></html>"
    )


def test_the_questions_of_an_accordion_stay_with_their_answers() -> None:
    markdown = extract_html(page(), "https://cycles.example/repairs").markdown
    assert "finished within three working days" in markdown
    assert "How long does a repair take?" in markdown
    assert "Do you repair electric bikes?" in markdown
    assert "Menu" not in markdown


def test_a_menu_button_and_a_panel_without_prose_stay_buttons() -> None:
    body = etree.fromstring(
        "<body><header><button aria-controls='m'>What is new?</button></header>"
        "<div id='m'><p>This menu panel holds a long sentence of more than eighty letters "
        "so that only its place in the page header keeps it a button.</p></div>"
        "<button data-target='#t'>Which prices?</button><div id='t'><a href='/a'>A</a></div>"
        "<button data-bs-target='#x'>Missing?</button>"
        "<button aria-controls='y'>Reduce storage spend</button>"
        "<div id='y'><p>A long answer of more than eighty letters and digits that follows a "
        "title, not a question, so the button stays a button.</p></div></body>"
    )
    assert open_accordion_questions(body) == 0
    assert [b.text for b in body.iter("button")] == [
        "What is new?",
        "Which prices?",
        "Missing?",
        "Reduce storage spend",
    ]


def test_questions_set_as_headings_in_buttons_are_kept_without_a_panel() -> None:
    questions = "".join(
        f"<div class='border-b'><button class='w-full'><h3>{q}</h3><svg></svg></button></div>"
        for q in ("Can I extend my rental?", "Is insurance included?", "Do you deliver?")
    )
    html = (
        "<html><head><title>Rentals</title></head><body><main><h1>Gym equipment rental</h1>"
        "<p>We rent treadmills, racks and rowers by the week or the month, delivered and set "
        "up in your home or studio by our own fitters.</p>"
        "<p>Every machine is serviced between rentals and comes with a printed guide to its "
        "settings, so the first session starts on time.</p>"
        f"<h2>Rental FAQ</h2><p>Common questions about our rentals.</p>{questions}"
        "<p>Ready to rent? Ask for a quote and we will answer within a working day.</p>"
        "<button><h3>Subscribe</h3></button></main></body></html>"
    )
    markdown = extract_html(html, "https://gym.example/rental").markdown
    assert "Can I extend my rental?" in markdown
    assert "Do you deliver?" in markdown
    assert "Subscribe" not in markdown


def test_a_question_button_opens_the_panel_right_after_it() -> None:
    """The W3Schools accordion (``<button class="accordion">`` then ``<div class="panel">``)
    and a button alone in a ``role="heading"`` wrapper before its panel (Squarespace)."""
    w3 = "".join(
        f"<button class='accordion'>{q}</button><div class='panel'><p>{a}</p></div>"
        for q, a in ANSWERS
    )
    square = (
        "<ul><li class='accordion-item'><p role='heading' aria-level='3'>"
        "<button aria-expanded='false'><span>Can I pay in instalments?</span>"
        "<div class='icon'></div></button></p><div class='dropdown' role='region'>"
        "<p>You can split the price of a repair over three monthly payments at no extra cost "
        "when it comes to more than one hundred pounds.</p></div></li></ul>"
    )
    html = (
        "<html><head><title>Bicycle repairs</title></head><body><main><h1>Bicycle repairs</h1>"
        "<p>We service every kind of bicycle in our workshop by the station, from a "
        "child's first bike to a touring bike that has crossed a continent.</p>"
        "<p>Bring it in without an appointment, or book a collection from your door on any "
        "weekday morning; a quote comes before any work starts.</p>"
        f"<h2>Frequently asked questions</h2>{w3}{square}"
        "<button class='accordion'>Why not?</button><div class='panel'><a href='/x'>X</a></div>"
        "</main></body></html>"
    )
    markdown = extract_html(html, "https://cycles.example/repairs").markdown
    assert "How long does a repair take?" in markdown
    assert "Do you repair electric bikes?" in markdown
    assert "Can I pay in instalments?" in markdown
    assert "three monthly payments" in markdown
    assert "Why not?" not in markdown


def test_a_question_button_inside_a_heading_whose_closed_panel_is_empty() -> None:
    """WAI-ARIA's accordion as Radix renders it: ``<h3><button aria-controls>`` over a panel
    left empty until it opens."""
    items = "".join(
        f"<div data-state='closed'><h3><button aria-controls='r{i}' aria-expanded='false'>"
        f"{q}</button></h3><div id='r{i}' role='region' hidden=''></div></div>"
        for i, (q, _) in enumerate(ANSWERS)
    )
    body = etree.fromstring(
        f"<body><main><h2>Questions</h2>{items}"
        "<h3><button aria-controls='t'>Why not?</button></h3>"
        "<div id='t'><a href='/x'>A link, not an answer</a></div></main></body>"
    )
    assert open_accordion_questions(body) == 2
    assert [b.text for b in body.iter("button")] == ["Why not?"]


def test_a_page_without_buttons_has_no_accordion_question() -> None:
    # headings and panels but no <button>: nothing to rename
    body = etree.fromstring(
        "<body><div class='faq'><h3>Is it open on Sundays?</h3><div aria-expanded='false'>"
        "<p>Yes.</p></div></div></body>"
    )
    assert open_accordion_questions(body) == 0
    assert body.find(".//h3") is not None


def test_a_question_button_deep_in_the_page_is_still_renamed() -> None:
    body = etree.fromstring(
        "<body><main><section><div><button aria-controls='p1'><h3>Is it open on Sundays?"
        "</h3></button><div id='p1'><p>Yes: from ten in the morning until four in the "
        "afternoon, every Sunday of the year but Christmas, and on public holidays.</p>"
        "</div></div></section></main>"
        "</body>"
    )
    assert open_accordion_questions(body) == 1
    assert body.find(".//button") is None


def test_a_bootstrap_accordion_with_short_answers_keeps_its_questions() -> None:
    # a framework accordion's button names its panel: a one-line answer is enough (new-user
    # test, session 16: short answers came out with no question)
    items = "".join(
        f"<div class='accordion-item'><h2 class='accordion-header'>"
        f"<button class='accordion-button' data-bs-target='#c{i}'>{q}</button></h2>"
        f"<div id='c{i}' class='accordion-collapse collapse'>"
        f"<div class='accordion-body'>{a}</div></div></div>"
        for i, (q, a) in enumerate(
            [
                ("Can I bring my dog on the ferry?", "Yes, on a lead, on the open deck."),
                ("When does the last boat leave?", "At 22:10 on weekdays, 23:40 on Fridays."),
            ]
        )
    )
    html = (
        "<html><head><title>Ferry questions</title></head><body><main>"
        "<h1>Ferry questions</h1><p>What travellers ask us most often about the island "
        f"ferry, its timetable and what you may take on board.</p>"
        f"<div class='accordion'>{items}</div></main></body></html>"
    )
    out = extract_html(html, "https://ferry.example/faq").markdown
    assert "Can I bring my dog on the ferry?" in out
    assert "When does the last boat leave?" in out
    assert out.index("dog on the ferry?") < out.index("on a lead") < out.index("last boat")


def test_a_help_button_opening_a_form_or_links_stays_a_button() -> None:
    body = etree.fromstring(
        "<body><button aria-controls='chat'>Need help?</button>"
        "<div id='chat'><label>Your message to our team</label><textarea></textarea></div>"
        "<button aria-controls='more'>Looking for more?</button>"
        "<div id='more'><a href='/a'>All our guides and tutorials</a></div></body>"
    )
    assert open_accordion_questions(body) == 0


PROSE = (
    "The harbour was built in 1820 by local fishermen who needed a safe place to land their "
    "boats in the winter storms, and the town grew quickly around it afterwards."
)


@pytest.mark.parametrize(
    "button",
    [
        "<button type='button'>Need help?</button>",
        "<div><button class='btn'>Want the full story?</button></div>",
        "<button class='toggle-theme'>Prefer dark mode?</button>",
        "<button onclick='share()'>Enjoying this article?</button>",
        "<button>&amp;nbsp;</button>",
    ],
)
def test_a_page_button_before_a_paragraph_is_no_accordion_question(button: str) -> None:
    """Review r-16b M1/L2: a button ending in "?" (or ";", no question mark) before the next
    paragraph, with nothing marking the two as an accordion, stays a control."""
    html = (
        "<html><head><title>Harbour history</title></head><body><main><article>"
        f"<h1>Harbour history</h1><p>{PROSE}</p>{button}<p>{PROSE} Later came the ferry.</p>"
        f"<p>{PROSE} Then the railway.</p></article></main></body></html>"
    )
    markdown = extract_html(html, "https://harbour.example/history").markdown
    for label in ("Need help", "full story", "dark mode", "Enjoying", "nbsp"):
        assert label not in markdown, markdown
    assert "Later came the ferry" in markdown


def test_a_greek_question_button_before_its_panel_is_read() -> None:
    """U+037E, the Greek question mark (NFC would turn it into ";" in source code)."""
    body = etree.fromstring(
        "<body><main><button class='accordion'>Πότε ανοίγει το λιμάνι\u037e</button>"
        f"<div class='panel'><p>{PROSE}</p></div></main></body>"
    )
    assert open_accordion_questions(body) == 1
