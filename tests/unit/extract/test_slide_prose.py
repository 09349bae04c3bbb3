"""A listicle's items set as "slide" blocks inside an article are kept with it."""

from __future__ import annotations

from webresearch.extract.html import extract_html

INTRO = (
    "<p>Choosing a tent for a first trip into the hills is harder than it looks, because "
    "every shop claims its own model is the lightest, the driest and the quickest to pitch.</p>"
    "<p>We slept in a dozen of them over a wet autumn on the moors, and these are the ones "
    "we would carry again, from the cheapest to the most generous.</p>"
    "<p>Each tent was pitched by someone who had never seen it before, timed with a stopwatch, "
    "and then left out for a week of weather before we packed it wet and weighed it again.</p>"
    "<p>Prices are what we paid in October; most of these tents go on sale in spring, when the "
    "shops clear last year's colours to make room for the new ones.</p>"
)
OUTRO = (
    "<p>Whichever tent you pick, pitch it once in the garden before the trip: the first "
    "night on a hillside is no place to learn which pole goes where.</p>"
)


def slide(number: int, name: str, review: str) -> str:
    return (
        f"<section id='slide-{number}'><div class='listicle-slides'>"
        f"<span>{number}</span><h2>{name}</h2>"
        f"<figure><img src='/img/{number}.jpg' alt='{name} pitched on a hillside'></figure>"
        f"<p>{review}</p><p><strong>Weight:</strong> {number + 1}.2 kg</p></div></section>"
    )


SLIDES = slide(
    1,
    "Fellwalker Two",
    "The Fellwalker Two went up in four minutes in a crosswind and stayed bone dry through "
    "two nights of rain, although its porch is too small for muddy boots. Two adults fit with their packs inside, "
    "and the inner tent clips out to dry separately.",
) + slide(
    2,
    "Ridgeback Lite",
    "The Ridgeback Lite is the one to buy if every gram counts: it packs to the size of a "
    "water bottle, and its single pole still held firm in a gale on the tops. The price is the catch: it costs twice as much "
    "as the Fellwalker, and the spare pegs are sold separately.",
)


def page(body: str) -> str:
    return (
        "<html><head><title>The best tents for beginners</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/gear'>Gear</a></nav>"
        f"<main><article><h1>The best tents for beginners</h1>{body}</article></main>"
        "<footer><p>Outdoor Notes</p></footer></body></html>"
    )


def test_listicle_items_set_as_slides_are_kept() -> None:
    markdown = extract_html(page(INTRO + SLIDES + OUTRO), "https://gear.example/tents").markdown
    assert "stayed bone dry through two nights of rain" in markdown
    assert "packs to the size of a water bottle" in markdown
    assert "## Fellwalker Two" in markdown
    assert "pitch it once in the garden" in markdown


def test_a_carousel_of_customer_testimonials_stays_out() -> None:
    quotes = "".join(
        f"<div class='testimonial-card swiper-slide'><p>{text}</p><p>{who}</p></div>"
        for text, who in (
            (
                "Our whole club switched to these tents last season and nobody has woken up "
                "in a puddle since, which has never happened before on our autumn meets.",
                "Sam, club secretary",
            ),
            (
                "The customer service team replaced a bent pole within two days and even "
                "sent a spare, so we could go on with the trip we had planned for months.",
                "Alex, walker",
            ),
        )
    )
    markdown = extract_html(page(INTRO + quotes + OUTRO), "https://gear.example/tents").markdown
    assert "nobody has woken up in a puddle" not in markdown
    assert "replaced a bent pole" not in markdown


def test_a_carousel_of_short_captions_stays_out() -> None:
    gallery = "".join(
        f"<div class='slide'><img src='/g/{i}.jpg' alt=''><p>Camp {i} at dusk</p></div>"
        for i in range(1, 9)
    )
    markdown = extract_html(page(INTRO + gallery + OUTRO), "https://gear.example/tents").markdown
    assert "Camp 3 at dusk" not in markdown


def test_a_section_of_testimonials_in_a_slider_is_kept() -> None:
    quotes = "".join(
        f"<div class='swiper-slide'><div class='testimonial'><p>{text}</p>"
        f"<cite>{who}</cite></div></div>"
        for text, who in (
            (
                "Our whole club switched to these tents last season and nobody has woken up "
                "in a puddle since, which has never happened before on our autumn meets. The "
                "porch swallows four rucksacks and the boots of everyone who carried them, "
                "and it still packs small enough for the youngest walker to carry.",
                "Sam, club secretary",
            ),
            (
                "The customer service team replaced a bent pole within two days and even "
                "sent a spare, so we could go on with the trip we had planned for months. We "
                "will be buying the bigger model for the family holiday next summer, when "
                "the children are finally old enough to sleep in a tent of their own.",
                "Alex, walker",
            ),
        )
    )
    section = (
        "<h2>What our walkers say</h2>"
        f"<div class='testimonials-carousel'><div class='swiper-wrapper'>{quotes}</div></div>"
    )
    markdown = extract_html(page(INTRO + section + OUTRO), "https://gear.example/tents").markdown
    assert "nobody has woken up in a puddle" in markdown
    assert "replaced a bent pole" in markdown
    assert "Sam, club secretary" in markdown
    assert "pitch it once in the garden" in markdown
