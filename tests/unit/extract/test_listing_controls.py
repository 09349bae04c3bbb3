"""A listing's sort and filter controls and result count (extract/listing_controls.py), on
small pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract import listing_controls as lc
from webresearch.extract.html import extract_html
from webresearch.extract.listing_controls import listing_controls

URL = "https://tea.example.org/collections/green-teas"


def card(n: int) -> str:
    return (
        f"<li class='card'><a href='/products/tea-{n}'><h3>Green tea blend {n}</h3></a>"
        f"<p>A mild green tea from the hills, picked in spring, batch {n}.</p>"
        f"<p class='price'>${n + 4}.50</p></li>"
    )


def page(toolbar: str, body: str = "") -> str:
    return (
        "<!DOCTYPE html><html><head><title>Green teas</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/teas'>Teas</a></nav></header>"
        "<main><h1>Green teas</h1><p>Our green teas come from small farms; each is picked "
        "by hand and dried the same day, so the leaves keep their colour and taste.</p>"
        f"{toolbar}<ul class='grid'>{''.join(card(n) for n in range(8))}</ul>{body}</main>"
        "<footer><p>© 2024 Tea House</p></footer></body></html>"
    )


def md(html: str) -> str:
    return extract_html(html, URL).markdown


def test_a_listings_sort_filter_and_count_labels_are_left_out() -> None:
    out = md(
        page(
            "<div class='toolbar'><p class='count'>Showing 1–8 of 29 results</p>"
            "<button class='filter-toggle'><span>Filters</span></button>"
            "<label for='order'>Sort by:</label><select id='order'><option>Featured</option>"
            "</select><span>Sort: Best Match</span><div><span>48 products</span></div></div>"
        )
    )
    assert "Green tea blend 7" in out
    for label in ("Filters", "Sort by", "Best Match", "48 products"):
        assert label not in out
    # one page of many: the count tells the reader the page is partial (review, session 17)
    assert "Showing 1–8 of 29 results" in out


def test_a_count_of_one_page_of_many_stays_with_the_controls_gone() -> None:
    out = md(
        page(
            "<div class='toolbar'><p class='count'>Showing 8 of 36 products</p>"
            "<label for='order'>Sort by:</label><select id='order'><option>Featured</option>"
            "</select><span class='result-count'>1–8 of 36 items</span>"
            "<span class='result-count'>36 items</span><p class='count'>Showing 8 of 8 results</p>"
            "</div>"
        )
    )
    assert "Showing 8 of 36 products" in out
    assert "1–8 of 36 items" in out
    assert "Sort by" not in out
    assert "\n36 items\n" not in "\n" + out + "\n"  # a bare count stays out
    assert "8 of 8" not in out  # the whole set: nothing partial to say


def test_a_cards_action_buttons_are_left_out() -> None:
    actions = (
        "<div class='actions'><span class='btn'>Quick view</span> "
        "<span class='btn'>Add to cart</span></div>"
    )
    out = md(page("", "").replace("</p></li>", "</p>" + actions + "</li>"))
    assert "Green tea blend 7" in out
    for label in ("Quick view", "Add to cart"):
        assert label not in out


def test_one_word_actions_are_read_on_a_control_only() -> None:
    body = lxml_html.fromstring(
        "<div><p>Compare</p><label>Compare</label><a href='/wishlist/add'>+ Wishlist</a>"
        "</div><button>Quick Shop 5 colors</button><p>Add to cart</p></div>"
    )
    found = [" ".join(el.itertext()) for el in listing_controls(body)]
    assert found == ["Compare", "+ Wishlist", "Quick Shop 5 colors"]


def test_words_of_a_sentence_and_headings_of_a_section_stay() -> None:
    out = md(
        page(
            "",
            "<h2>Filters</h2><p>Each <a href='/filter'>filter</a> of our kettles is steel; "
            "to sort the leaves, use the <a href='/sieve'>Sort</a> sieve.</p>"
            "<p>The <code>Filter</code> class reads the list.</p><h3>Filter</h3>"
            "<p>Our water filter holds 12 items of charcoal.</p><p>Compare</p>",
        )
    )
    for text in ("## Filters", "### Filter", "sieve", "`Filter` class", "12 items", "Compare"):
        assert text in out


def test_a_bare_word_is_a_control_only_on_a_control() -> None:
    body = lxml_html.fromstring(
        "<div><p>Sort</p><div class='facet-bar'><span>Filter</span></div>"
        "<a href='?view=grid'>View:</a><p>12 items</p><p class='result-count'>48 items</p>"
        "<p>1 to 1.9</p><p>12 of 40 items</p></div>"
    )
    found = [" ".join(el.itertext()) for el in listing_controls(body)]
    assert found == ["Filter", "View:", "48 items"]  # "12 of 40 items": one page of many


def test_counts_actions_and_headings_in_text_are_not_controls() -> None:
    # Review r-14: a player's "312 matches", a numbered step "Add to cart" and a docs
    # section "## Sort and filter" were removed on any page.
    out = md(
        page(
            "",
            "<h2>Career record</h2><ul><li>312 matches</li><li>145 goals</li></ul>"
            "<h2>Sort and filter</h2><p>The table sorts by any column you click twice.</p>"
            "<h3>Filter by</h3><p>Type in the box above a column to narrow it.</p>"
            "<ol><li>Choose options</li><li>Add to cart</li><li>Pay at the checkout</li></ol>"
            "<p>12 articles</p><p>Save for later</p>",
        )
    )
    for text in (
        "312 matches",
        "## Sort and filter",
        "### Filter by",
        "1. Choose options",
        "2. Add to cart",
        "12 articles",
        "Save for later",
    ):
        assert text in out, text


def test_a_filters_drop_down_names_are_controls() -> None:
    # review, session 15: "Material" above a shop's grid (its <select> is never written)
    body = lxml_html.fromstring(
        "<div><div class='collection-filters'><div class='group'><div class='field'>"
        "<label for='material'>Material</label><select id='material'><option>Any</option>"
        "</select></div><label>Glaze <select><option>Any</option></select></label></div></div>"
        # a checkbox's label is a choice the reader sees; a text box's, a label of no
        # field, one in a sentence, a drop-down's outside a filter block stay too
        "<div class='facets'><label><input type='checkbox'> Cast iron (4)</label>"
        "<label for='q'>Search</label><input id='q'><label>Oak</label>"
        "<p>Pick <label for='size'>a size</label> first</p><select id='size'></select></div>"
        "<form class='product-form'><label for='colour'>Colour</label><select id='colour'>"
        "</select></form></div>"
    )
    found = [(el.text or "").strip() for el in listing_controls(body)]
    assert found == ["Material", "Glaze"]


def test_a_grids_load_more_control_is_listed() -> None:
    tree = lxml_html.fromstring(
        page(
            "<div class='buttons'><a class='button' href='/teas'>SEE MORE</a></div>",
            "<div class='pager'><button type='button'>Load more</button></div>"
            "<p><a href='/collections/green-teas?page=2'>Show more results ›</a></p>"
            "<p><a href='/collections'>View all</a></p><p><a href='/t'>See all black teas</a></p>",
        )
    )
    labels = sorted(" ".join(el.text_content().split()) for el in listing_controls(tree))
    assert labels == ["Load more", "SEE MORE", "Show more results ›", "View all"]


def test_more_in_prose_a_heading_or_without_a_grid_stays() -> None:
    out = md(
        page(
            "",
            "<h2>See more</h2><p>Our kettles are steel and glass; <a href='/k'>see more</a> "
            "of them in the shop, where each one is described at length.</p>",
        )
    )
    assert "## See more" in out and "see more" in out
    lone = (
        "<!DOCTYPE html><html><head><title>Tea</title></head><body><main><h1>Tea</h1>"
        "<p>Green tea is picked by hand in spring and dried the same day, so the leaves keep "
        "their colour and their taste for a long time after the harvest ends.</p>"
        "<p><a href='/about'>View more</a></p></main></body></html>"
    )
    tree = lxml_html.fromstring(lone)
    assert listing_controls(tree) == []


def test_a_label_holding_its_drop_down_goes_with_it() -> None:
    cards = "".join(
        f"<div class='card'><a href='/p/{n}'><h2>Lamp {n}</h2></a><span>€{n}9.00</span></div>"
        for n in range(1, 5)
    )
    shop = (
        "<html><head><title>Desk lamps – Lumen</title></head><body><main><h1>Desk lamps</h1>"
        "<div class='toolbar'><p>Showing 4 of 20 lamps</p><label>Order by <select>"
        "<option>Featured</option><option>Newest</option></select></label></div>"
        f"<div class='grid'>{cards}</div></main></body></html>"
    )
    markdown = md(shop)
    assert "Order by" not in markdown
    assert "Lamp 4" in markdown


SORT_LINKS = (
    "<a href='?sort=newest'>Newest</a> <a href='?sort=price-asc'>Price</a> "
    "<a href='?orderby=popularity'>Popular</a>"
)


@pytest.mark.parametrize(
    "toolbar",
    [
        # new-user test, session 17: a "Sort by" span before sort links, not a <select>
        f"<div class='results-bar'><span>Sort by</span> {SORT_LINKS}</div>",
        f"<div class='results-bar'><span><i class='icon-sort'></i> Sort by</span> {SORT_LINKS}</div>",
        "<div class='results-bar'>Sort by <ul><li><a href='?sort=newest'>Newest</a></li>"
        "<li><a href='?sort=price'>Price</a></li><li><a href='?sort=rating'>Rating</a></li>"
        "</ul></div>",
        f"<div class='results-bar'><em>Sort by:</em> {SORT_LINKS.replace(' <a', ' | <a')}</div>",
    ],
)
def test_a_sort_label_before_sort_links_leaves_no_orphan_line(toolbar: str) -> None:
    out = md(page(toolbar))
    assert "Green tea blend 7" in out
    assert "Sort by" not in out
    assert "Newest" not in out  # the sort links are controls too: no line of them is left


def test_links_beside_a_sort_word_that_do_not_sort_stay() -> None:
    out = md(
        page(
            "",
            "<div class='guide'><span>Sort by</span> <a href='/guides/green-tea-grades'>grade"
            "</a> <a href='/guides/harvests'>harvest</a></div>"
            "<p>Sort by colour first: <a href='/guides/leaf-colour?sort=1'>the leaf colour "
            "guide</a> shows the shades of a good first flush.</p>",
        )
    )
    assert "[grade](" in out and "[harvest](" in out
    assert "Sort by colour first" in out and "leaf colour guide" in out


def test_a_help_pages_sort_examples_stay() -> None:
    # review r-18a: one "Sort by" and one sort link per list item is an example of a
    # phrase, not a sort bar: the whole list was removed
    out = md(
        "<html><head><title>Help</title></head><body><main><article><h1>Searching the "
        "catalogue</h1><p>The search page of the library catalogue lets readers find books "
        "and order them quickly, by many fields.</p><h2>Sorting results</h2><p>Each result "
        "list can be re-ordered. For example:</p><ul><li><span>Sort by</span> <a href="
        "'https://catalogue.example.org/search?q=ships&amp;sort=year'>year</a></li><li><span>"
        "Sort by</span> <a href='https://catalogue.example.org/search?q=ships&amp;sort=title'>"
        "title</a></li></ul><p>The order is kept while the reader pages through the results "
        "of one search.</p></article></main></body></html>"
    )
    assert "Sort by [year](" in out and "Sort by [title](" in out


def test_each_block_around_sort_links_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # review r-18a: the block around a forum's thread links (each with &order=desc) was
    # walked again for every link (13 s for 3,000 links); now each block is read once
    seen: list[object] = []
    real = lc._outside_links

    def spy(el: object) -> str | None:
        seen.append(el)
        return real(el)

    monkeypatch.setattr(lc, "_outside_links", spy)
    threads = "".join(
        f"<li><a href='/forum/thread?id={n}&amp;order=desc'>Thread title {n}</a></li>"
        for n in range(60)
    )
    bar = "<div>Sort by " + "".join(f"<a href='?sort={n}'>o{n}</a>" for n in range(60)) + "</div>"
    root = lxml_html.fromstring(f"<html><body><div><ul>{threads}</ul>{bar}</div></body></html>")
    found = listing_controls(root.body)
    assert len(seen) == len({id(el) for el in seen})  # no block read twice
    assert len(seen) <= 60 + 3  # the list items, the list, the bar, their block
    assert found == []  # sixty sort links are a listing, not a bar of a handful of orders


def test_a_label_after_an_icon_is_read_only_when_the_icon_is_empty() -> None:
    # review r-18a: a child of the icon with a blank text and a word after it hid that word
    span = lxml_html.fromstring("<span><i class='icon'><b> </b>Menu</i> Sort by</span>")
    assert lc._own_head(span) is None
    empty = lxml_html.fromstring("<span><i class='icon'><b> </b> </i> Sort by</span>")
    assert lc._own_head(empty) == " Sort by"


def test_another_sites_sort_links_in_a_help_page_stay() -> None:
    # new-user test n-18: an API's help page writing "Sort by: price, price descending,
    # creation date" with links to the API lost the whole paragraph as a sort bar
    body = (
        "<html><head><title>Sorting</title></head><body><main><h1>Sorting results</h1><p>The"
        " items endpoint returns twenty items per page of the results it finds.</p><p>Sort by:"
        " <a href='https://api.example/v1/items?sort=price'>price</a>, <a href="
        "'https://api.example/v1/items?sort=-price'>price descending</a>, <a href="
        "'https://api.example/v1/items?sort=created'>creation date</a>.</p><p>Sorting by "
        "several fields at once is not supported by the endpoint.</p></main></body></html>"
    )
    out = extract_html(body, "https://docs.example.org/sorting").markdown
    assert "[creation date](https://api.example/v1/items?sort=created)" in out
    # the same bar on the API's own site re-sorts its list: still a control
    own = extract_html(body, "https://api.example/v1/items").markdown
    assert "creation date" not in own and "Sort by" not in own


def test_the_pages_own_address_names_its_site_not_its_base() -> None:
    # review r-18b: a <base href> on a CDN host made the page's own absolute sort links
    # "another site's", and its sort bar was kept
    bar = (
        "<div><span>Sort by</span> <a href='https://shop.example.org/teas?sort=new'>Newest</a>"
        " <a href='https://shop.example.org/teas?sort=price'>Price</a></div>"
    )
    based = page(bar).replace("<head>", "<head><base href='https://cdn.example.net/'>")
    out = extract_html(based, "https://shop.example.org/teas").markdown
    assert "Green tea blend 7" in out
    assert "Newest" not in out and "Sort by" not in out
