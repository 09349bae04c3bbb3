"""Shop pages: one product or a category of products, and the shop widgets that are not
content. Pure functions over lxml trees.

A product page's content is the product's name, price, description and specification
table (issue 13); a shop renders around it widgets an article extractor — and the
second opinion filling its gaps — takes for text. Measured on the development part of
WCXB (53 product pages, ground truth: the product block without the widgets):

* **user reviews** (:func:`review_items`): the individual reviews under a product (name,
  date, stars, text) are not its content; the rating summary ("4.6 out of 5, 44,754
  ratings") is, and stays. A review is an element declared as one (microdata
  ``itemprop="review"``, ``itemtype=…/Review``) or one of at least two sibling blocks of
  the same tag and class whose class, id or ``data-hook`` names a review (``review-card``,
  ``…__review``), each with :data:`MIN_REVIEW_CHARS` letters and digits or more: +0.023
  on dev product pages (IKEA, Amazon, Etsy, Steam: hundreds of words each), one page whose
  ground truth keeps its reviews loses 0.13;
* **recommendation sections** (:func:`recommendation_sections`): a section headed
  "Similar items", "People who viewed this item also viewed", "You may also like",
  "Related products", "Frequently bought together", "Recently viewed"… — the heading
  and the block it opens (its ancestors as long as the heading is their first text, no
  other ``<h1>`` is inside and they hold under :data:`MAX_SECTION_SHARE` of the page's
  text): +0.001 on dev product pages (trafilatura already drops most of them). The share
  counts visible text only (:func:`~webresearch.extract.page_noise.visible_text_size`): a
  carousel whose every card carries a closed "why am I seeing this ad" dialog is no larger
  for a reader than its titles and prices (+0.003 on dev product pages, one eBay page
  0.05 → 0.22; the other pages and the collection pages unchanged);
* **tooltips** (:func:`tooltips`): an element whose first ``role`` is ``tooltip`` (WAI-ARIA:
  the text a pointer or focus shows over a control) — "Your order should arrive by this
  date if you buy today", "Buyers are responsible for return shipping costs", "Import
  fees: customs may apply…", "All reviews are from verified buyers…". On the WCXB dev
  shop pages, the 7 tooltips in our output hold no ground-truth text (Etsy 0.76 → 0.79,
  eBay seller page 0.56 → 0.71); on article pages a tooltip may define a term of the text, so only here;
* **screen-reader copies** (:func:`assistive_copies`): an element for screen readers only
  (:data:`~webresearch.extract.assistive_text.ASSISTIVE_CLASS`, or eBay's ``clipped``)
  that repeats the visible text of its parent word for word — ``<span>Seller's other
  items<span class="clipped">Seller's other items</span></span>``, a price or a condition
  read twice ("UsedUsed"). WCXB dev product pages 0.679 → 0.683 (three eBay pages up,
  0.29 → 0.39 and 0.67 → 0.78; two down by at most 0.002), collection pages unchanged;
* **menus** (:func:`link_menus`): a ``<nav>`` of links only, short ("Home Garden Cart
  (0)" kept above the product's name by trafilatura);
* all five only on **shop pages** (:func:`is_shop_page`): a declared product (schema.org
  ``Product``/``ProductGroup`` in JSON-LD, ``og:type`` product or item, microdata
  ``itemtype=…/Product``) or a product's address (:func:`is_product_address`). Elsewhere
  a "review" class names an article (a review site's own review) or a business's reviews
  on a directory page (a declared ``AggregateRating`` alone is no shop: −0.07 on such a
  dev article page).

**One product or a category** (:func:`product_grid`): a shop's category page may live at
a product-like address (``/products/bike``, ``/products/shop/…``); the page shows a grid
of product cards — at least :data:`MIN_GRID_CARDS` sibling blocks of the same tag and
class, each with a link and a price, holding :data:`MIN_GRID_SHARE` of the region's
text. On the dev part no product page has such a grid (at most 9 cards, or 14 cards
holding 5 % of the text) and 13 of 49 collection pages do.
"""

from __future__ import annotations

import re
from collections import defaultdict

from lxml import etree

from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.assistive_text import ASSISTIVE_CLASS
from webresearch.extract.page_noise import visible_text_size
from webresearch.extract.tree import outermost, remove_keep_tail

__all__ = [
    "MAX_SECTION_SHARE",
    "MIN_GRID_CARDS",
    "MIN_GRID_SHARE",
    "MIN_REVIEW_CHARS",
    "assistive_copies",
    "drop_shop_widgets",
    "is_product_address",
    "is_shop_page",
    "link_menus",
    "product_grid",
    "recommendation_sections",
    "review_items",
    "tooltips",
]

#: A shop's menu of links holds fewer letters and digits than this (not a product list).
MAX_MENU_CHARS = 300
#: A review block holds at least this many letters and digits (a sentence, not a star
#: histogram's "5 stars 84%" row).
MIN_REVIEW_CHARS = 40
#: A recommendation section holds less than this share of the page's text.
MAX_SECTION_SHARE = 0.4
#: A category grid has at least this many product cards …
MIN_GRID_CARDS = 10
#: … holding at least this share of the region's letters and digits.
MIN_GRID_SHARE = 0.3

#: Addresses of one product's page (Amazon ``/dp/<ASIN>``, Steam ``/app/<id>``, shops'
#: ``/product/…``, ``/products/…``, ``/p/…``, ``/item/…``, eBay ``/itm/…``, Walmart ``/ip/…``).
_PRODUCT_URL = re.compile(
    r"/(?:dp|gp/product)/[A-Z0-9]{10}(?:[/?#]|$)|/app/\d+(?:[/?#]|$)|"
    r"/(?:products?|p|item|itm|ip)/[^/?#]+",
    re.I,
)
_SHOP_TYPES = frozenset({"product", "productgroup", "og:product"})
_PRODUCT_ITEMTYPES = etree.XPath("//@itemtype[contains(., 'roduct')]")
_OG_SHOP = re.compile(r"(?:^|:)(?:product|item)$")
_REVIEW_NAME = re.compile(r"(?<!pre)(?<!over)(?<!inter)review(?!er)", re.I)
_REVIEW_ATTRS = ("class", "id", "data-hook", "data-testid")
#: Candidates only (a cheap filter before the regular expressions): "eview" matches both
#: "review" and "Review".
_REVIEW_CANDIDATES = etree.XPath(
    "(.//@class | .//@id | .//@itemprop | .//@itemtype | .//@data-hook | .//@data-testid)"
    "[contains(., 'eview')]/.."
)
#: Candidates for :func:`assistive_copies` (a cheap filter before the regular expression).
_CLASSES = etree.XPath(
    ".//@class[contains(., 'sr-') or contains(., 'isually') or contains(., 'creen') "
    "or contains(., 'clipped')]"
)
_SR_ONLY = re.compile(rf"{ASSISTIVE_CLASS.pattern}|clipped", re.I)
#: Every ``role`` attribute: reading them is 7x cheaper than an element test in XPath.
_ROLES = etree.XPath(".//@role")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SECTION_STOP = frozenset({"body", "main", "html", "article"})
_RECOMMENDATION = re.compile(
    r"\W*(?:"
    r"(?:(?:people|customers|shoppers|others) (?:who (?:viewed|bought) this (?:item|product) )?"
    r"also (?:viewed|bought|liked|like))|"
    r"you (?:may|might) also (?:like|love|be interested in)|"
    r"(?:explore )?(?:similar|related) (?:items|products)|"
    r"products related to this item|compare with similar items|"
    r"recommended (?:for you|products|items)|recently viewed(?: items| products)?|"
    r"frequently bought together|(?:often )?bought together|complete the look|"
    r"more from (?:this|the) (?:seller|shop|brand|store)|seller'?s other items|"
    r"sponsored (?:products|items)|featured products"
    r")\W*",
    re.I,
)
_PRICE = re.compile(
    r"(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CAD|AUD)\b)\s?\d|"
    r"\d(?:[\d.,\s]*\d)?\s?(?:€|£|\b(?:EUR|USD|GBP|kr|zł)\b)"
)


def is_product_address(url: str) -> bool:
    """True when ``url`` has the shape of one product's page (``/dp/…``, ``/products/…``)."""
    return bool(_PRODUCT_URL.search(url))


def is_shop_page(doc: etree._Element, url: str, declared: frozenset[str]) -> bool:
    """True when the page declares a product or has a product's address.

    Args:
        doc: the parsed document.
        url: the page's address.
        declared: schema.org ``@type`` values and ``og:type`` of the page, lower-cased
            (:func:`webresearch.extract.page_type.declared_types`).
    """
    if declared & _SHOP_TYPES or any(_OG_SHOP.search(t) for t in declared):
        return True
    if is_product_address(url):
        return True
    return any(
        str(kind).rstrip("/").lower().endswith("/product") for kind in _PRODUCT_ITEMTYPES(doc)
    )


def drop_shop_widgets(body: etree._Element) -> int:
    """Remove user reviews and recommendation sections (module docstring), in place.

    Call on a shop page (:func:`is_shop_page`) before the main content is chosen.

    Returns:
        how many blocks were removed.
    """
    doomed = outermost(
        review_items(body) + recommendation_sections(body) + tooltips(body)
        + assistive_copies(body) + link_menus(body)
    )  # fmt: skip
    for el in doomed:
        remove_keep_tail(el)
    return len(doomed)


def link_menus(root: etree._Element) -> list[etree._Element]:
    """The shop's menus: each ``<nav>`` (or ``role="navigation"``) whose text is all link
    text, under :data:`MAX_MENU_CHARS` letters and digits, and linking no part of the
    page itself (a guide's table of contents stays) — "Home Garden Cart (0)" above a
    product (review r-11, fault 7)."""
    found: list[etree._Element] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or not (
            el.tag == "nav" or (el.get("role") or "").lower() == "navigation"
        ):
            continue
        anchors = list(el.iter("a"))
        if any(len(h := (a.get("href") or "").strip()) > 1 and h[0] == "#" for a in anchors):
            continue  # the page's own table of contents, not the shop's menu
        chars = page_text_size(el)
        links = sum(page_text_size(a) for a in anchors)
        if 0 < chars < MAX_MENU_CHARS and links >= chars:
            found.append(el)
    return found


def review_items(root: etree._Element) -> list[etree._Element]:
    """The individual user reviews under ``root`` (module docstring), outermost first."""
    found: list[etree._Element] = []
    groups: dict[tuple[etree._Element, str, str], list[etree._Element]] = defaultdict(list)
    for el in _REVIEW_CANDIDATES(root):
        itemprop = (el.get("itemprop") or "").lower()
        if itemprop in ("review", "reviews") or (el.get("itemtype") or "").lower().rstrip(
            "/"
        ).endswith("/review"):
            found.append(el)
            continue
        names = " ".join(el.get(a) or "" for a in _REVIEW_ATTRS)
        parent = el.getparent()
        if parent is not None and _REVIEW_NAME.search(names):
            groups[(parent, el.tag, el.get("class") or "")].append(el)
    for items in groups.values():
        if len(items) >= 2:
            found.extend(el for el in items if page_text_size(el) >= MIN_REVIEW_CHARS)
    return outermost(found)


def recommendation_sections(root: etree._Element) -> list[etree._Element]:
    """The sections headed "Similar items", "You may also like"… (module docstring)."""
    total = 0
    found: list[etree._Element] = []
    for heading in root.iter(*_HEADINGS):
        text = " ".join("".join(heading.itertext()).split())
        if text and len(text) <= 80 and _RECOMMENDATION.fullmatch(text):
            total = total or visible_text_size(root)
            found.append(_section_of(heading, total))
    return outermost(found)


def tooltips(root: etree._Element) -> list[etree._Element]:
    """The tooltips under ``root``: elements whose first ``role`` token is ``tooltip``
    (module docstring), outermost first."""
    return outermost(
        [role.getparent() for role in _ROLES(root) if str(role).split()[:1] == ["tooltip"]]
    )


def assistive_copies(root: etree._Element) -> list[etree._Element]:
    """The screen-reader-only elements under ``root`` whose letters and digits are those of
    the rest of their parent's text (module docstring), outermost first."""
    found: list[etree._Element] = []
    for value in _CLASSES(root):
        el = value.getparent()
        parent = el.getparent()
        if parent is None or not any(_SR_ONLY.fullmatch(token) for token in str(value).split()):
            continue
        own = normalise("".join(el.itertext()))
        if own and normalise(_text_without(parent, el)) == own:
            found.append(el)
    return outermost(found)


def _text_without(parent: etree._Element, skip: etree._Element) -> str:
    """The text of ``parent`` without ``skip``'s (its tail stays)."""
    parts = [parent.text or ""]
    for child in parent:
        if child is not skip:
            parts.append("".join(child.itertext()) if isinstance(child.tag, str) else "")
        parts.append(child.tail or "")
    return "".join(parts)


def product_grid(root: etree._Element) -> bool:
    """True when ``root`` shows a category's grid of product cards (module docstring)."""
    total = page_text_size(root)
    if not total:
        return False
    for el in root.iter():
        if not isinstance(el.tag, str) or len(el) < MIN_GRID_CARDS:
            continue
        groups: dict[tuple[str, str], list[etree._Element]] = defaultdict(list)
        for child in el:
            if isinstance(child.tag, str):
                groups[(child.tag, child.get("class") or "")].append(child)
        for items in groups.values():
            if len(items) < MIN_GRID_CARDS:
                continue
            cards = [c for c in items if _is_card(c)]
            if (
                len(cards) >= MIN_GRID_CARDS
                and sum(page_text_size(c) for c in cards) >= MIN_GRID_SHARE * total
            ):
                return True
    return False


def _is_card(el: etree._Element) -> bool:
    """A product card: a link and a price."""
    if el.tag != "a" and el.find(".//a") is None:
        return False
    return bool(_PRICE.search(" ".join(el.itertext())))


def _section_of(heading: etree._Element, total: int) -> etree._Element:
    """The largest block that ``heading`` opens: climb while it is the block's first text."""
    block = heading
    while True:
        parent = block.getparent()
        if parent is None or not isinstance(parent.tag, str) or parent.tag in _SECTION_STOP:
            return block
        if normalise(parent.text or "") or any(
            page_text_size(s) or normalise(s.tail or "") for s in block.itersiblings(preceding=True)
        ):
            return block  # text before the heading: the parent is more than this section
        if any(h is not heading for h in parent.iter("h1")):
            return block
        if visible_text_size(parent) >= MAX_SECTION_SHARE * total:
            return block
        block = parent
