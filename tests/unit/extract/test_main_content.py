"""Main content placed back on the original page: alignment, rescues, duplicates."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from webresearch.extract import main_content
from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.html import extract_html
from webresearch.extract.main_content import find_main_content
from webresearch.extract.parse import parse_html

URL = "https://shop.example.org/seating/mesh"

PARAGRAPHS = "".join(
    f"<p>Paragraph {i} explains how mesh office chairs support the back during long working "
    f"days at a desk, and what to check before buying one.</p>"
    for i in range(6)
)
MENU = (
    "<ul class='menu'><li><a href='/a'><i>Task Chairs</i></a></li>"
    "<li><a href='/m'><i>Mesh Style Chairs</i></a></li><li><a href='/s'><i>Stools</i></a></li></ul>"
)


def page(body: str, title: str = "Seating catalogue") -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body>{body}</body></html>"


def test_normalise_keeps_letters_and_digits_only() -> None:
    assert normalise("Grüße, 2 × “Köln”!\n") == "grüße2köln"


def test_page_text_counts_hidden_text_not_scripts() -> None:
    doc = parse_html(
        page("<p>ab</p><div hidden>cd</div><script>efgh</script><noscript>ij</noscript>")
    )
    assert page_text_size(doc.find("body")) == 6


def test_find_main_content_reports_kept_and_page_sizes() -> None:
    main = find_main_content(parse_html(page(MENU + "<h1>Mesh Style Chairs</h1>" + PARAGRAPHS)))
    assert main is not None and main.aligned
    assert 0 < main.kept_chars <= main.page_chars


def test_a_menu_item_repeating_the_heading_does_not_replace_it() -> None:
    body = (
        MENU
        + "<div class='crumbs'>Home / Seating</div><article><h1>Mesh Style Chairs</h1>"
        + PARAGRAPHS
        + "</article>"
    )
    markdown = extract_html(page(body), URL).markdown
    assert markdown.startswith("# Mesh Style Chairs\n\nParagraph 0")
    assert "[Mesh Style Chairs]" not in markdown


def test_a_hidden_duplicate_of_a_paragraph_is_not_output_twice() -> None:
    duplicate = (
        "<div class='mobile-only' style='display:none'>"
        + PARAGRAPHS[: PARAGRAPHS.index("</p>") + 4]
        + "</div>"
    )
    markdown = extract_html(page("<article>" + PARAGRAPHS + "</article>" + duplicate), URL).markdown
    assert markdown.count("Paragraph 0 explains") == 1


def test_headings_introducing_kept_text_are_rescued() -> None:
    body = (
        "<article>" + PARAGRAPHS + "<h2>Meal plan</h2><h3>Meal 1</h3><p>Eat every 2–3 hours</p>"
        "<p>1 scoop shake, 1 cup strawberries, 8 oz. almond milk</p>"
        "<h3>Meal 2</h3><p>Tomato cucumber salad with feta and balsamic vinegar</p>"
        + PARAGRAPHS.replace("Paragraph", "Note")
        + "</article>"
    )
    markdown = extract_html(page(body), URL).markdown
    assert "### Meal 1\n\nEat every 2–3 hours" in markdown
    assert "### Meal 2\n\nTomato cucumber salad" in markdown


def test_a_partly_kept_data_table_is_kept_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = "".join(
        f"<tr><td>Model {i}</td><td>{100 + i} €</td><td>{i % 3 + 1} years</td></tr>"
        for i in range(12)
    )
    table = f"<table><tr><th>Model</th><th>Price</th><th>Warranty</th></tr>{rows}</table>"
    html = page(
        "<article>" + PARAGRAPHS + table + PARAGRAPHS.replace("Paragraph", "Note") + "</article>"
    )
    # trafilatura keeps the prose and only the first half of the rows
    doc = parse_html(html)
    kept_text = " ".join(
        "".join(el.itertext())
        for el in doc.iter("p", "tr")
        if el.tag == "p" or "Model 1" not in "".join(el.itertext())
    )
    monkeypatch.setattr(
        main_content,
        "_trafilatura",
        lambda doc, fast, comments, memo, url="": main_content._Pass(
            lxml_html.Element("div"), [normalise(kept_text)]
        ),
    )
    markdown = extract_html(html, URL).markdown
    lines = [line for line in markdown.splitlines() if re.match(r"\| Model \d+ \|", line)]
    assert len(lines) == 12


def test_content_served_in_noscript_is_used() -> None:
    posts = "".join(
        f"<div class='post'><span class='creator'>user{i}</span><div class='post-body'><p>Reply {i}: I bought the "
        f"same telescope last year and the views of Saturn were excellent from my garden.</p></div></div>"
        for i in range(5)
    )
    html = page(
        "<div id='app'></div><noscript><div class='topic'><h1>First telescope?</h1>"
        + posts
        + "</div></noscript>"
    )
    markdown = extract_html(html, "https://forum.example.org/t/1").markdown
    assert "Reply 3: I bought the same telescope" in markdown


def test_a_first_heading_repeating_the_title_with_the_site_name_is_dropped() -> None:
    markdown = extract_html(
        page(
            "<article><h1>Mesh Style Chairs</h1>" + PARAGRAPHS + "</article>",
            title="Mesh Style Chairs | Office Chairs USA",
        ),
        URL,
    ).markdown
    assert markdown.startswith("Paragraph 0")


def test_widget_labels_are_dropped_but_not_inside_code() -> None:
    body = (
        "<article><p>Loading…</p>"
        + PARAGRAPHS
        + "<p>Advertisement</p><pre>Loading</pre>"
        + PARAGRAPHS.replace("Paragraph", "Part")
        + "</article>"
    )
    markdown = extract_html(page(body), URL).markdown
    assert "Loading…" not in markdown and "Advertisement" not in markdown
    assert "```\nLoading\n```" in markdown


def test_a_skip_link_is_a_widget_label_too() -> None:
    """A page whose scripts never drew it holds only its skip link: it has no content."""
    shell = "<a href='#main' class='skip-link'>Skip to main content</a><div id='main'></div>"
    assert extract_html(page(shell), URL).markdown == ""
    body = "<p><a href='#content'>Skip to content</a></p><article>" + PARAGRAPHS + "</article>"
    markdown = extract_html(page(body), URL).markdown
    assert "Skip to" not in markdown and "Paragraph 5" in markdown


@pytest.mark.parametrize(
    "wrap",
    [
        "{h1}{p}",
        "<div class='head'>{h1}</div><div class='content'>{p}</div>",
        "<div class='wrap'>{h1}<div class='byline'>By Ann Lee, 3 May</div>"
        "<div class='text'>{p}</div></div>",
    ],
)
def test_the_pages_own_h1_right_before_the_content_is_kept(wrap: str) -> None:
    """On a page without <main>/<article> trafilatura drops the leading <h1> as the title;
    the heading rescue only looked between the first and last kept text."""
    body = MENU + wrap.format(h1="<h1>Choosing a mesh chair</h1>", p=PARAGRAPHS)
    markdown = extract_html(page(body), URL).markdown
    assert markdown.startswith("# Choosing a mesh chair\n\nParagraph 0"), markdown[:80]


def test_an_h1_far_above_the_content_is_not_pulled_in() -> None:
    far = "<div class='promo'>" + "Seasonal offers on stools and benches. " * 12 + "</div>"
    body = MENU + "<h1>Shop</h1>" + far + "<div class='content'>" + PARAGRAPHS + "</div>"
    markdown = extract_html(page(body), URL).markdown
    assert "# Shop" not in markdown and markdown.startswith("Paragraph 0")


PACK = "".join(
    f"<p>Paragraph {i} explains how the Tern 40 litre pack carries a laptop, a rain shell "
    f"and a day of food on long commutes by bike.</p>"
    for i in range(5)
)


@pytest.mark.parametrize(
    ("block", "kept"),
    [
        (
            "<div class='buy'><span class='price'>$129.00</span> <button>Add to cart</button> "
            "<a href='/sizes'>Size guide</a></div>",
            ("$129.00", "[Size guide](https://shop.example.org/sizes)"),
        ),
        (
            "<div class='spec'><div><a href='/c/1'>Frame: aluminium</a></div>"
            "<div><a href='/c/2'>Weight: 1.2 kg</a></div><div><a href='/c/3'>Volume: 40 litres"
            "</a></div></div>",
            ("Frame: aluminium", "Weight: 1.2 kg", "Volume: 40 litres"),
        ),
    ],
)
def test_the_second_opinion_fills_a_block_trafilatura_dropped_inside_the_content(
    block: str, kept: tuple[str, ...]
) -> None:
    """resiliparse keeps the price line and the spec cards between the paragraphs; the
    navigation and footer outside trafilatura's span stay out."""
    split = PACK.index("<p>Paragraph 3")
    body = (
        "<div class='nav'><a href='/'>Home</a> <a href='/bags'>Bags</a></div><div class='c'>"
        + PACK[:split]
        + block
        + PACK[split:]
        + "</div><div class='foot'>© Tern outdoor gear</div>"
    )
    markdown = extract_html(
        page(body, "Tern 40 pack"), "https://shop.example.org/bags/t40"
    ).markdown
    for text in kept:
        assert text in markdown
    assert markdown.index(kept[0]) < markdown.index("Paragraph 3")
    assert "Home" not in markdown and "Tern outdoor gear" not in markdown


def test_the_second_opinion_adds_no_gallery_text_between_paragraphs() -> None:
    split = PACK.index("<p>Paragraph 3")
    gallery = (
        "<div class='photo-box'><span>Image 1 of 23</span> <span>The pack on a city bike in "
        "the rain at dusk, photographed for the catalogue</span></div>"
    )
    body = "<div class='c'>" + PACK[:split] + gallery + PACK[split:] + "</div>"
    markdown = extract_html(
        page(body, "Tern 40 pack"), "https://shop.example.org/bags/t40"
    ).markdown
    assert "Paragraph 4" in markdown
    assert "Image 1 of 23" not in markdown and "city bike in the rain" not in markdown


def test_a_link_list_introduced_by_a_kept_sentence_with_a_colon_is_kept() -> None:
    """trafilatura drops a list made only of links; after "… see:" it ends the sentence."""
    guide = "".join(
        f"<h3>Kind {i}</h3><p>Kind {i} of the storage engine keeps values in memory and writes "
        f"them to disk in the background, so a restart loses at most a second of writes. "
        f"To read more, see:</p><ul><li><a href='/kind{i}'>Overview of kind {i}</a></li>"
        f"<li><a href='/cmd{i}'>Kind {i} command reference</a></li></ul>"
        for i in range(5)
    )
    menu = "<ul><li><a href='/a'>Home</a></li><li><a href='/b'>Blog</a></li></ul>"
    body = f"<nav>{menu}</nav><main><h1>Storage kinds</h1>{guide}<p>{'Closing words. ' * 20}</p></main>"
    markdown = extract_html(page(body, "Storage kinds"), "https://docs.example.org/kinds").markdown
    for i in range(5):
        assert f"[Overview of kind {i}](https://docs.example.org/kind{i})" in markdown
    assert "Blog" not in markdown


def test_a_grid_of_link_cards_inside_the_content_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Overview tiles (a link wrapping a title and a one-line description) between kept
    paragraphs are content; trafilatura reads them as link text and drops them, and the
    second opinion does not always fill them (here it finds nothing)."""
    monkeypatch.setattr(main_content, "_resiliparse_text", lambda html: "")
    cards = "".join(
        f"<a class='tile' href='/tools/{name.lower()}'><div class='head'><span>{name}</span>"
        f"</div><div class='body'><p>{what}</p></div></a>"
        for name, what in (
            ("Sieve", "Separates the flour from the husks before it is weighed."),
            ("Scale", "Weighs each batch to the gram and prints a label for it."),
            ("Kneader", "Mixes the dough at two speeds for a set number of minutes."),
            ("Oven", "Bakes four trays at once with steam in the first ten minutes."),
        )
    )
    body = (
        "<main><h1>Bakery tools</h1>"
        + PARAGRAPHS
        + f"<h2>Tools by step</h2><div class='grid'>{cards}</div>"
        + PARAGRAPHS.replace("Paragraph", "Note")
        + "</main>"
    )
    markdown = extract_html(page(body, "Bakery tools"), "https://docs.example.org/t").markdown
    for text in ("Sieve", "husks before it is weighed", "Oven", "steam in the first ten"):
        assert text in markdown
    assert markdown.index("Sieve") < markdown.index("Note 0")


def test_a_link_list_without_a_lead_in_colon_is_left_to_the_extractor() -> None:
    links = "".join(f"<li><a href='/p{i}'>Another page number {i}</a></li>" for i in range(6))
    body = f"<main><h1>Kinds</h1>{PARAGRAPHS}<p>More pages.</p><ul>{links}</ul>{PARAGRAPHS}</main>"
    markdown = extract_html(page(body, "Kinds"), "https://docs.example.org/k").markdown
    assert "Another page number" not in markdown


def test_a_second_copy_of_a_paragraph_is_dropped_but_not_quotes_or_listed_items() -> None:
    """A shop (here: a product's address) renders a block twice (one copy for phones, one for desktops, a stylesheet
    shows one): the reader sees it once. A quotation and a listing's repeated item stay."""
    care = (
        "<h3>Care</h3><p>Hand wash the mug in warm water and dry it with a soft cloth.</p>"
        "<p>Keep it out of the microwave: the glaze holds a thin line of real gold.</p>"
    )
    body = (
        "<main><h1>Speckled mug</h1>"
        "<div class='care care--mobile'>"
        + care
        + "</div>"
        + PARAGRAPHS
        + "<div class='care care--desktop'>"
        + care
        + "</div>"
        + "<blockquote><p>Hand wash the mug in warm water and dry it with a soft cloth.</p>"
        "</blockquote><h3>In this set</h3>"
        + "<p><a href='/p/1'>Speckled mug in sand, twelve ounces, handmade in Lisbon</a></p>"
        + "<p><a href='/p/1'>Speckled mug in sand, twelve ounces, handmade in Lisbon</a></p>"
        + PARAGRAPHS.replace("Paragraph", "Part")
        + "</main>"
    )
    markdown = extract_html(page(body, title="Speckled mug"), SHOP_URL).markdown
    assert markdown.count("Hand wash the mug") == 2  # once as a paragraph, once quoted
    assert markdown.count("glaze holds a thin line") == 1
    assert "Paragraph 5" in markdown
    assert markdown.count("handmade in Lisbon") == 2
    declared = page(body, title="Speckled mug").replace(
        "</title>", "</title><meta property='og:type' content='article'>"
    )
    assert extract_html(declared, SHOP_URL).markdown.count("glaze holds a thin line") == 2


SHOP_URL = "https://shop.example.org/products/speckled-mug"


def test_a_repeated_paragraph_off_a_shop_page_is_kept() -> None:
    """A manual whose chapters each end with the same note keeps every copy: only a shop's
    phone and desktop copies are second copies (an outline test's manual lost them)."""
    note = "Restart the service after you change this setting so that it takes effect."
    chapters = "".join(
        f"<h2>Chapter {i}</h2><p>Chapter {i} explains the setting number {i} in detail, "
        f"with its default value and the range it accepts.</p><p>{note}</p>"
        for i in range(4)
    )
    body = f"<main><h1>Manual</h1>{chapters}</main>"
    markdown = extract_html(page(body, title="Manual"), "https://docs.example.org/manual").markdown
    assert markdown.count(note) == 4


WORM_LEAD = "".join(
    f"<p>Lead paragraph {i} tells how a worm bin turns kitchen scraps into compost over a few"
    " weeks, and why the bin should stay moist and dark.</p>"
    for i in range(5)
)
WORM_ANSWERS = "".join(
    f"<details class='expandable'><summary>How do I keep the worms {w}?</summary><p>Worms stay"
    f" {w} when the bedding is shredded cardboard, the bin sits out of the sun and the food is"
    " buried under the bedding instead of left on top; check the bin every week.</p></details>"
    for w in ("healthy", "fed", "cool", "calm", "busy", "warm", "dry", "happy")
)
WORM_MENU = "<nav><ul>" + "".join(f"<li><a href='/t{i}'>Topic {i}</a></li>" for i in range(9))


def test_holes_the_fast_pass_left_in_the_article_are_filled_by_the_full_pass() -> None:
    """trafilatura's fast pass keeps the lead and the closing note (a third of the page:
    confident) but drops the FAQ answers between them (``class="expandable"``); its full
    pass keeps them."""
    body = (
        WORM_MENU
        + "</ul></nav><main><article><h1>Worm bins</h1>"
        + WORM_LEAD
        + "<h2>Your questions answered</h2>"
        + WORM_ANSWERS
        + "<h2>Reuse</h2><p>You may reuse this guide with credit to the garden club.</p>"
        + "</article></main>"
    )
    markdown = extract_html(page(body, "Worm bins"), "https://garden.example.org/worms").markdown
    assert "How do I keep the worms calm?" in markdown
    assert "Worms stay happy when the bedding" in markdown
    assert markdown.index("Lead paragraph 4") < markdown.index("Worms stay healthy")
    assert markdown.index("Worms stay happy") < markdown.index("You may reuse this guide")
    assert "Topic 3" not in markdown


def test_the_full_pass_fills_no_item_cards_into_the_holes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names and prices of item cards between two paragraphs are not prose: the full
    pass's filling is refused, the fast pass's choice stands."""
    lead = "".join(
        f"<p>Intro paragraph {i} describes the season's range of rain jackets, how they are"
        " tested on the hills and what each fabric is good for.</p>"
        for i in range(5)
    )
    cards = "".join(
        f"<div class='card'><a href='/j{i}'>Jacket {i}</a><span>Price {40 + i} €</span>"
        f"<span>{i + 2} colours</span></div>"
        for i in range(40)
    )
    outro = "<p>Every jacket is repaired for free for five years by our workshop in town.</p>"
    html = page(f"<div class='shop'>{lead}<div class='grid'>{cards}</div>{outro}</div>")
    doc = parse_html(html)

    def texts(tags: tuple[str, ...]) -> str:
        return normalise(" ".join(t for el in doc.iter(*tags) for t in el.itertext()))

    fast_text = texts(("p",))
    full_text = texts(("p", "a", "span"))
    monkeypatch.setattr(
        main_content,
        "_trafilatura",
        lambda doc, fast, comments, memo, url="": main_content._Pass(
            lxml_html.Element("div"),
            [fast_text if fast else full_text],
        ),
    )
    main = find_main_content(parse_html(html))
    assert main is not None and main.aligned
    assert len(fast_text) < main.page_chars - len(fast_text)  # the holes: larger than the text
    assert main.kept_chars == len(fast_text)


@pytest.mark.parametrize("wrap", ["{}", "<div class='content'>{}</div>"])
def test_a_short_plain_list_between_kept_paragraphs_is_kept(wrap: str) -> None:
    """Paragraphs directly in <body>: trafilatura's loose-text recovery keeps paragraphs
    but no lists (precision mode), so a list between two of them was lost."""
    body = (
        "<p>Before the hike up the ridge, check that your rucksack holds each of these items "
        "and nothing heavier.</p><ul><li>Water bottle</li><li>Rain jacket</li>"
        "<li>Head torch</li></ul><p>Rangers at the gate turn back walkers who are missing "
        "any of them, whatever the forecast says.</p>"
    )
    markdown = extract_html(page(wrap.format(body), "Ridge hike"), "http://x.test/").markdown
    assert "- Water bottle\n- Rain jacket\n- Head torch" in markdown
    assert markdown.index("nothing heavier") < markdown.index("Water bottle")
    assert markdown.index("Head torch") < markdown.index("Rangers at the gate")


def test_a_link_list_between_loose_paragraphs_stays_out() -> None:
    body = (
        "<p>Before the hike up the ridge, check that your rucksack holds each of these items "
        "and nothing heavier.</p><ul><li><a href='/a'>Home</a></li><li><a href='/b'>Trails</a>"
        "</li></ul><p>Rangers at the gate turn back walkers who are missing any of them, "
        "whatever the forecast says.</p>"
    )
    markdown = extract_html(page(body, "Ridge hike"), "http://x.test/").markdown
    assert "Trails" not in markdown


@pytest.mark.parametrize(
    ("block", "asked"),
    [
        # only a gallery's text is left out inside the span: nothing the opinion could add
        ("<div class='photo-box'><span>The pack on a city bike in the rain</span></div>", False),
        ("<div class='specs'><span>Weight 1.2 kg</span> <span>Volume 40 l</span></div>", True),
    ],
)
def test_the_second_opinion_is_asked_only_when_it_could_fill_something(
    monkeypatch: pytest.MonkeyPatch, block: str, asked: bool
) -> None:
    """resiliparse parses the page again (a few ms): not when every text left out between
    trafilatura's first and last kept text lies in a figure, caption or gallery."""
    calls: list[str] = []

    def opinion(html: str) -> str:
        calls.append(html)
        return ""

    monkeypatch.setattr(main_content, "_resiliparse_text", opinion)
    split = PACK.index("<p>Paragraph 3")
    body = "<div class='c'>" + PACK[:split] + block + PACK[split:] + "</div>"
    html = page(body, "Tern 40 pack")
    main = find_main_content(parse_html(html), html=html)
    assert main is not None and main.kept_chars > 0
    assert bool(calls) == asked
