"""Boxes and link runs that are an article's own content stay (new-user test n-17).

A declared article (``og:type`` article, which most blogs and news sites carry) holds boxes
shaped like calls to action — a heading, a sentence and a button — that are content: a
recipe's ingredients with a print button, a tip with a link, a study to download, a
consultation deadline. It also holds runs of links that are its content: the steps of a
guide each on its own page, the documents of a report. Two rules tried on 2026-12-03
removed them by shape alone and were taken back (a shape alone does not tell a promotion
from content).
"""

from __future__ import annotations

from webresearch.extract.html import extract_html

PROSE = (
    "<p>The council spent the autumn measuring the river banks, counting the trees along the "
    "old towpath and asking residents which paths they walk every day of the week.</p>"
    "<p>Its report, published this month, weighs three plans against each other and sets out "
    "what each would cost the town over the next ten years of upkeep and repairs.</p>"
    "<p>The largest plan turns the old freight yard into a park with walking paths, a boat "
    "launch and a playground; the smallest only repairs the towpath and its bridges.</p>"
    "<p>Residents who came to the meetings mostly asked for the paths to be lit at night and "
    "for the boat launch to stay free for the rowing club and the school.</p>"
)


def page(body: str) -> str:
    return (
        '<html><head><title>Plan</title><meta property="og:type" content="article"></head>'
        f"<body><article><h1>The river plan</h1>{PROSE}{body}</article></body></html>"
    )


def test_a_box_of_ingredients_with_a_print_button_stays() -> None:
    body = (
        '<div class="recipe-card"><h2>Ingredients</h2><ul><li>250 g red lentils</li>'
        "<li>1 onion</li><li>2 carrots</li></ul>"
        '<button class="btn">Print recipe</button></div>'
        "<h2>Method</h2><p>Soften the onion, add the lentils and carrots, cover with water "
        "and simmer for twenty minutes until soft.</p>"
    )
    markdown = extract_html(page(body), "https://news.example/plan").markdown
    assert "250 g red lentils" in markdown
    assert "Ingredients" in markdown


def test_a_box_with_a_deadline_and_a_button_stays() -> None:
    body = (
        '<div class="box"><h3>Have your say</h3><p>Comments on the plan are open until '
        '15 January 2027 at the town hall or online.</p><a class="button" href="/consultation">Submit a comment</a></div>'
        "<p>The final decision is due in the spring, after the comments have been read.</p>"
    )
    markdown = extract_html(page(body), "https://news.example/plan").markdown
    assert "open until 15 January 2027" in markdown


def test_the_steps_of_a_guide_linked_one_by_one_stay() -> None:
    body = (
        "<h2>The steps</h2><p>Each step has its own page with a map and a list of the tools "
        "needed; do them in order.</p>"
        '<p><a href="/guides/plan/measure">Step 1: Measure the plot and mark its corners</a></p>'
        '<p><a href="/guides/plan/dig">Step 2: Dig the beds and lay the drains</a></p>'
        '<p><a href="/guides/plan/plant">Step 3: Plant the trees along the path</a></p>'
        '<p><a href="/guides/plan/water">Step 4: Water them weekly until autumn</a></p>'
        "<h2>What it costs</h2><p>The whole plan costs about four million over ten years, "
        "most of it in the first two.</p>"
    )
    markdown = extract_html(page(body), "https://news.example/guides/plan/").markdown
    assert "Step 1: Measure the plot and mark its corners" in markdown
    assert "Step 4: Water them weekly until autumn" in markdown
