"""A product's declared name and price (JSON-LD, microdata: :func:`~webresearch.extract.
page_type.product_facts`) written first when the markdown does not say them. Pure function."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.markdown import element_to_markdown

__all__ = ["with_declared_facts"]


def with_declared_facts(markdown: str, facts: list[str]) -> str:
    """``markdown`` with the ``facts`` it does not say (in its first 2,000 characters) as
    paragraphs before it; ``markdown`` itself when it says them all."""
    said = normalise(markdown[:2000])
    # a price shown with its sign ("$129.99") says the declared "Price: 129.99 USD" too
    missing = [f for f in facts if _fact_said(f) not in said]
    if not missing:
        return markdown
    # the facts are page text (JSON-LD strings): written by the same walk as the rest, so
    # "<img onerror=…>" or "*50% off*" in a declared name stays text, never markup
    block = etree.Element("div")
    for fact in missing:
        etree.SubElement(block, "p").text = fact
    return element_to_markdown(block, "") + "\n\n" + markdown


def _fact_said(fact: str) -> str:
    """What the markdown must hold to say ``fact``: a price's amount, a name whole."""
    if fact.startswith("Price: "):
        return normalise(fact.removeprefix("Price: ").split(" ")[0])
    return normalise(fact)
