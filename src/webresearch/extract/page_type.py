"""Pages whose content is a set of repeated items (listings, collections). Pure functions.

An article extractor keeps running text and drops link-heavy blocks, which is right for an
article and wrong for a listing, a shop category or a service overview: there the repeated
item blocks (title, link, one line each) *are* the content (issue 13, "page-type-aware
extraction"). The evidence used, measured on the development part of the corpora:

* the page does not declare itself an article, a product or a forum post (``og:type``,
  schema.org ``@type`` in JSON-LD: :func:`declared_types`), and its address is not a
  product page's (Amazon ``/dp/…``, Steam ``/app/…``, ``/product/…``: a product page's
  ``<main>`` holds its recommendations too) — unless the landmark shows a category's grid
  of product cards (:func:`webresearch.extract.product.product_grid`: a shop's category
  at ``/products/bike`` is a collection);
* the page has a ``<main>`` landmark (``<main>`` or ``role="main"``) with at least
  :data:`MIN_LANDMARK_CHARS` letters and digits;
* the article extractor kept less than :data:`MAX_KEPT_SHARE` of the landmark's text;
* at least :data:`MIN_LINK_SHARE` of the landmark's text is link text (item titles).

Then the landmark, without navigation, sidebars and forms, is the content.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import lxml.html
from lxml import etree

from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.product import is_product_address, product_grid

__all__ = [
    "ARTICLE_TYPES",
    "MAX_KEPT_SHARE",
    "MIN_LANDMARK_CHARS",
    "MIN_LINK_SHARE",
    "SINGLE_ITEM_TYPES",
    "declared_types",
    "item_page_landmark",
    "looks_like_forum",
    "main_landmark",
    "product_facts",
]

#: Declared types (schema.org ``@type``, ``og:type``) of an article.
ARTICLE_TYPES = frozenset(
    {
        "article", "newsarticle", "blogposting", "techarticle", "scholarlyarticle", "report",
        "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
    }
)  # fmt: skip
#: Declared types (schema.org ``@type``, ``og:type``) of a page about one thing.
SINGLE_ITEM_TYPES = ARTICLE_TYPES | {
    "product", "productgroup", "og:product", "discussionforumposting", "qapage", "recipe",
}  # fmt: skip
_FORUM_TYPES = frozenset({"discussionforumposting", "qapage"})
#: A forum's host names it in a whole label or a dash-separated part of one (``forum.``,
#: ``forums.``, ``boards.``, ``bbs.``, ``discuss.``, ``community.``, ``my-forum.``), or ends a
#: label with ``forum(s)`` / ``community`` (``avforums.com``, ``steamcommunity.com``); a
#: substring does not count (``dashboard.``, ``keyboard.``, ``motherboard.``, ``focalboard``).
_FORUM_URL = re.compile(
    r"^https?://(?:[^/]*[.-])?(?:[a-z0-9]*(?:forums?|community)|communities|"
    r"discuss(?:ions?)?|bbs|boards?)[.-][^/]*/|/(?:t|d|threads?|topics?|"
    r"forums?|discussions?|questions|comments)/[^/?#]+|viewtopic\.php|showthread\.php|"
    r"/index\.php\?/topic/",
    re.I,
)
_FORUM_SOFTWARE = re.compile(
    r"discourse|phpbb|vbulletin|xenforo|invision|flarum|vanilla|nodebb|mybb|simple machines|"
    r"smf|discuz|burning board",
    re.I,
)
_LD_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')

#: The landmark must hold at least this many letters and digits.
MIN_LANDMARK_CHARS = 200
#: The article extractor kept less than this share of the landmark's text …
MAX_KEPT_SHARE = 0.5
#: … and at least this share of the landmark's text is link text.
MIN_LINK_SHARE = 0.2


def main_landmark(body: etree._Element) -> etree._Element | None:
    """The page's first ``<main>`` or ``role="main"`` element, or ``None``."""
    for el in body.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag == "main" or (el.get("role") or "").lower() == "main":
            return el
    return None


def declared_types(
    doc: etree._Element, scripts: Sequence[etree._Element] | None = None
) -> frozenset[str]:
    """Lower-cased schema.org ``@type`` values of the page's JSON-LD and its ``og:type``
    (``scripts``: the page's ``<script>`` elements when the caller has listed them)."""
    found: set[str] = set()
    for script in doc.iter("script") if scripts is None else scripts:
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        for value in _LD_TYPE.findall(script.text or ""):
            found.update(t.lower() for t in re.findall(r'"([^"]+)"', value))
    for meta in doc.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            value = (meta.get("content") or "").strip().lower()
            if value:
                found.add(value if value != "product" else "og:product")
    return frozenset(found)


def looks_like_forum(doc: etree._Element, url: str, declared: frozenset[str]) -> bool:
    """True for a discussion thread: its replies are content, not a comment section.

    Evidence: a thread address (``/t/…``, ``/threads/…``, ``/topic/…``, ``viewtopic``,
    ``showthread``, ``/discussion/…``, ``/comments/…``, ``/questions/…``), a declared
    ``DiscussionForumPosting`` or ``QAPage``, or forum software named in
    ``<meta name="generator">`` (Discourse, phpBB, vBulletin, XenForo, Invision…).

    Args:
        doc: the parsed document.
        url: the page URL.
        declared: :func:`declared_types` of the page.
    """
    if _FORUM_URL.search(url):
        return True
    if declared & _FORUM_TYPES:
        return True
    for meta in doc.iter("meta"):
        if (meta.get("name") or "").lower() == "generator" and _FORUM_SOFTWARE.search(
            meta.get("content") or ""
        ):
            return True
    return False


def item_page_landmark(
    body: etree._Element, kept_chars: int, declared: frozenset[str], url: str = ""
) -> etree._Element | None:
    """The ``<main>`` landmark when the page is an item page (module docstring), else ``None``.

    Args:
        body: the page's ``<body>``, not pruned yet.
        kept_chars: letters and digits the article extractor kept.
        declared: :func:`declared_types` of the page.
        url: the page's address.
    """
    if declared & SINGLE_ITEM_TYPES:
        return None
    landmark = main_landmark(body)
    if landmark is None:
        return None
    total = page_text_size(landmark)
    if total < MIN_LANDMARK_CHARS or kept_chars >= MAX_KEPT_SHARE * total:
        return None
    links = sum(len(normalise("".join(a.itertext()))) for a in landmark.iter("a"))
    if links < MIN_LINK_SHARE * total:
        return None
    if is_product_address(url) and not product_grid(landmark):
        return None  # a product's address, and no category grid says otherwise
    return landmark


def product_facts(
    doc: etree._Element, scripts: Sequence[etree._Element] | None = None
) -> list[str]:
    """A declared product's name and price (schema.org ``Product`` in JSON-LD), as lines.

    A product page's name and price are its content (issue 13), but shops often render them
    in widgets an article extractor drops; the page's own structured data states them.

    Returns:
        ``["<name>", "Price: <amount> <currency>"]`` (either may be missing); empty when the
        page declares no product. ``scripts``: the page's ``<script>`` elements when the
        caller has listed them (``None``: read here).
    """
    for script in doc.iter("script") if scripts is None else scripts:
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        product = _find_product(data, 0)
        if product is None:
            continue
        lines: list[str] = []
        name = product.get("name")
        if isinstance(name, str) and (text := _html_text(name)):
            lines.append(text)
        offers = product.get("offers")
        offer = offers[0] if isinstance(offers, list) and offers else offers
        if isinstance(offer, dict):
            price = offer.get("price") or offer.get("lowPrice")
            currency = offer.get("priceCurrency") or ""
            if isinstance(price, str | int | float) and str(price).strip():
                lines.append(f"Price: {price} {currency}".strip())
        return lines
    return []


def _html_text(value: str) -> str:
    """A JSON-LD string read as the HTML text it often is: shops write ``&amp;``, ``&reg;``,
    ``<wbr>`` or ``<b>`` into their structured data; the text is what a reader sees
    (markup dropped, entities decoded, whitespace collapsed)."""
    if "<" not in value and "&" not in value:
        return " ".join(value.split())
    try:
        fragment = lxml.html.fragment_fromstring(value, create_parent="p")
    except (etree.ParserError, ValueError):
        return " ".join(value.split())
    return " ".join(fragment.text_content().split())


def _find_product(data: object, depth: int) -> dict[str, object] | None:
    """The first JSON-LD object of ``@type`` Product (in ``@graph``, lists, nesting)."""
    if depth > 4:
        return None
    if isinstance(data, list):
        for item in data:
            found = _find_product(item, depth + 1)
            if found is not None:
                return found
        return None
    if not isinstance(data, dict):
        return None
    kind = data.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    if any(isinstance(k, str) and k.lower() in ("product", "productgroup") for k in kinds):
        return data
    graph = data.get("@graph")
    return _find_product(graph, depth + 1) if graph is not None else None
