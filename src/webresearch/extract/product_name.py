"""Which ``<h1>`` names a product page's product. Pure functions.

A shop's page often has more than one ``<h1>``: the product's name, and the heading of a
panel the page's scripts open — a phone's menu drawer ("Menu"), an empty quick-view
dialog. :func:`product_h1` reads the one that names the page: the only ``<h1>`` with text
outside navigation, header, footer, sidebars and forms
(:func:`~webresearch.extract.rescue.in_boilerplate`), else the only one of those whose
text is part of the page's ``<title>`` ("Patagonia Men's Nano Puff Jacket | Shop" for an
``<h1>`` "Men's Nano Puff Jacket"; a drawer's "Menu" is not), compared by letters and
digits (:func:`~webresearch.extract.align.normalise`).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.rescue import in_boilerplate

__all__ = ["main_photo_name", "product_h1"]


def product_h1(body: etree._Element) -> etree._Element | None:
    """The ``<h1>`` naming the page (module docstring), or ``None`` when none or several
    qualify.

    Args:
        body: the page's ``<body>`` (its document's ``<head>`` holds the ``<title>``).
    """
    named = [
        (h, text)
        for h in body.iter("h1")
        if (text := normalise("".join(h.itertext()))) and not in_boilerplate(h, body)
    ]
    if len(named) == 1:
        return named[0][0]
    if not named:
        return None
    head = body.getparent()
    title = head.find("head/title") if head is not None else None
    said = normalise("".join(title.itertext())) if title is not None else ""
    if not said:
        return None
    chosen = [h for h, text in named if text in said]
    return chosen[0] if len(chosen) == 1 else None


def main_photo_name(body: etree._Element, facts: list[str]) -> str:
    """The product's name as its main photo's alt text would say it (normalised), for
    :func:`~webresearch.extract.content_images.drop_noise_images`: the declared name
    (``facts``, :func:`~webresearch.extract.page_type.product_facts`), else the text of
    :func:`product_h1`; empty when the page names no product."""
    declared = [f for f in facts if not f.startswith("Price: ")]
    if declared:
        return normalise(declared[0])
    h1 = product_h1(body)
    return normalise("".join(h1.itertext())) if h1 is not None else ""
