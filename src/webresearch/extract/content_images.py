"""Which images of the main content are content, and their addresses shortened. Pure functions.

A model reads every ``![alt](url)`` we output: logos, icons, avatars, spinners, tracking
pixels and product-grid thumbnails cost tokens and say nothing. An image is kept only when
all of these hold (issue 13, "content images only"):

1. it has a usable address (not a ``data:`` URI or a spacer; :func:`~webresearch.extract.urls.image_source`);
2. it is not declared tiny (``width`` or ``height`` ≤ :data:`MIN_IMAGE_PX`);
3. no class, id, address or alt text names it a logo, icon, avatar, spinner, badge, emoji,
   tracking pixel or placeholder, and its alt text does not say what kind of picture it is
   rather than what it shows (:data:`_DECLARED_NOISE`: "Headshot of Jane Doe", "Port
   Authority logo", "Icon of an anchor", "CTA to download the guide", "… featured image",
   a name followed by "image" alone: "Harbour News image") — unless it stands in running
   text (a paragraph that says something besides the image: "our partner's logo, shown
   here"). WCXB dev (article): 23 images on 13 pages, all author photos, logos, icons,
   call-to-action banners or a CMS's "<name> Image";
4. it says something: an alt text (or title) of at least :data:`MIN_ALT_WORDS` words, or a
   ``<figcaption>`` in its ``<figure>``;
5. its alt text does not only repeat the text around it (a product card's name, a linked
   headline, the caption) or the page's title (a post's header image: the alt text is a
   part of the title of two words or more, or the whole title with at most
   :data:`MAX_TITLE_EXTRA_WORDS` words more, "… featured image", "… | Site"; with the
   declared-kind rule of 3, WCXB dev: article 0.9532 → 0.9534, 17 pages up, one down by
   0.002 (testimonial headshots whose names the ground truth holds), service 0.8252 →
   0.8261 (9 up, one down by 0.0004), product 0.6887 → 0.6890, collection 0.7182 →
   0.7207, the other types and Zyte dev unchanged) or the block right before or after it
   (every word of the alt text is there: the heading over it, "Figure 2." under it;
   :func:`_repeats_neighbours`; WCXB dev: 18 images on 10 article pages, all up, and one
   page up each of product (+0.011), listing, documentation; none down), and it is not the thumbnail of a link to another page (a card
   of a listing or of "related stories"), nor a card's picture beside the card's link:
   the smallest block holding the image and a link to another page is one of at least
   :data:`MIN_GRID_CARDS` sibling blocks of the same tag and class (a shop's grid of
   product cards, each a title link, a price and a photo whose alt text names the
   product again in other words). The cards are found on the page before pruning: the
   main content may keep a card's picture and drop its link. A card holds at most
   :data:`MAX_CARD_IMAGES` images and fewer than :data:`MAX_CARD_CHARS` letters and
   digits (without that bound a forum post's screenshot and a documentation figure went).
   WCXB dev (webresearch alone): collection 0.7003 → 0.7032 (a shop's category grid
   0.79 → 0.94: 75 product photos named again), article +0.0002, service +0.0001, the
   other types unchanged; down: one service page −0.013, one collection page −0.006, one
   product page −0.003 (of the 160 images dropped on dev pages, 9 have an alt text the
   ground truth holds: short category names such as "Mac Parts", which the card's link
   says too, and one article's chart title);
6. its address appears once on the page (a repeated image is decoration), and no image
   before it has the same alt text (a gallery's thumbnails and other sizes);
7. inside a ``<button>`` (a lightbox trigger around a figure is content) it is not a
   control's: declared at most :data:`MAX_PICKER_IMAGE_PX` wide or high, an SVG drawing
   or an alt text saying "icon" (a play/pause button, a country flag), or in a button
   whose class or title names a swatch, thumbnail, colour or variant (WCXB dev: a shop's
   colour swatches, 50 px, came out as ten images); a flag — its address in a ``flags``
   folder or named ``flag-…``, or an alt text that is only a flag's label ("German flag",
   "Flag of France"; review: "A man waving a rainbow flag" in a lightbox is a photo) — or
   any image in a button
   whose class, title or ``aria-label`` names a locale or language, is a language
   picker's (review: "German flag" in a locale button came out as a content image).

Kept image addresses lose their tracking query parameters (``utm_*``, ``fbclid``…).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from lxml import etree

from webresearch.extract.align import normalise, text_size_exceeds
from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.image_neighbours import repeats_reading_neighbours
from webresearch.extract.tree import remove_keep_tail
from webresearch.extract.urls import image_source

__all__ = [
    "MAX_CARD_CHARS",
    "MAX_CARD_IMAGES",
    "MAX_NEIGHBOUR_CHARS",
    "MAX_PICKER_IMAGE_PX",
    "MAX_TITLE_EXTRA_WORDS",
    "MIN_ALT_WORDS",
    "MIN_GRID_CARDS",
    "MIN_IMAGE_PX",
    "card_pictures",
    "drop_noise_images",
    "image_counts",
    "strip_tracking_query",
]

#: An image declared this many pixels wide or high, or fewer, is an icon or a pixel.
MIN_IMAGE_PX = 48
#: An alt text needs this many words to describe content.
MIN_ALT_WORDS = 2
#: A block beside an image longer than this many characters is text of its own, not the
#: image's heading or caption: its words are not looked at (rule 5).
MAX_NEIGHBOUR_CHARS = 1000
#: An alt text that is the page's title and at most this many words more only repeats it.
MAX_TITLE_EXTRA_WORDS = 2
#: An image this many pixels wide or high, or fewer, inside a button is a picker's swatch.
MAX_PICKER_IMAGE_PX = 100
#: A card is one of at least this many sibling blocks of one tag and class.
MIN_GRID_CARDS = 3
#: Blocks a card can be (a paragraph with an image and a link is running text).
_CARD_TAGS = frozenset({"div", "li", "article", "section"})
#: How far up from an image its card's link is looked for …
_CARD_DEPTH = 6
#: … and how many wrappers, each the only one of its kind, may stand around the card.
_CARD_WRAPPERS = 2
#: A card holds at most this many images (its photo, another angle shown on hover) …
MAX_CARD_IMAGES = 3
#: … and fewer letters and digits than this: a name, a price, a line (a forum post or a
#: documentation section beside its siblings is longer).
MAX_CARD_CHARS = 350
_CARD_STOP = frozenset({"body", "main", "html", "figure"})

_NOISE_NAME = CaselessPattern(
    r"logo|icon|avatar|gravatar|spinner|loader|loading|sprite|badge|emoji|emoticon|smiley|"
    r"pixel|tracking|tracker|beacon|placeholder|spacer|blank\.|favicon|profile-?pic|userpic|"
    r"rating|stars?[-_]|social|share|flag[-_]|arrow|btn|button|banner|advert|\bads?\b"
)
#: An alt text saying what kind of picture it is, not what it shows: it starts with the
#: kind ("Headshot of …", "Icon of …", "Logo for …", "CTA to …") or ends with it ("… logo",
#: "… featured image"), or is a name of at most three words and "image" ("Sanity Image").
_DECLARED_NOISE = re.compile(
    r"\W*(?:head\s?shot|avatar|icon|logo|cta|author\s+(?:photo|image|picture))\b.*"
    r"|.*\b(?:logo|icon|head\s?shot|avatar|featured\s+image)\W*"
    r"|\W*(?!(?:.*\s)?(?:satellite|mri|x-?ray|ct|ultrasound|microscop[ey]|thermal|infrared|"
    r"radar|telescope|radiograph|scan)\s+image)[^\W_]+(?:\s+[^\W_]+){0,2}\s+image\W*",
    re.I,
)
_PICKER_NAME = CaselessPattern(r"swatch|thumb|colou?r|variant")
_ICON_WORD = re.compile(r"\bicons?\b", re.I)
_FLAG_PATH = re.compile(r"/flags?/|flags?[-_][^/]*$")
#: An alt text that is only a flag's label: "German flag", "United Kingdom flag", "Flag of
#: France", "Flag of the Netherlands" — not a photo's description that mentions a flag.
_FLAG_ALT = re.compile(
    r"\s*(?:(?:[^\W\d_][\w.'-]*\s+){0,2}flag|flag\s+of(?:\s+the)?(?:\s+[^\W\d_][\w.'-]*){1,2})\W*",
    re.I,
)
_LOCALE_NAME = re.compile(r"(?<![a-z])(?:locales?|languages?|lang)(?![a-z])", re.I)
_WORD = re.compile(r"[^\W_]+")
#: An alt text that is a file name or a slug ("milano-week-2018_03", "IMG 1234.jpg").
_SLUG = re.compile(r"\w[-_]\w+[-_]\w|\.(?:jpe?g|png|gif|webp|avif)\b", re.I)
#: … or a camera's or a CMS's numbered name, no word after it ("Photo 3", "IMG_1234",
#: "DSC01234", "image-12", "Img (3)_11zon"). Review: "Photo 3 of the bridge at dusk, seen
#: from the river" describes its picture.
_CAMERA_NAME = re.compile(r"(?:img|dsc[nf]?|image|photo|pic|picture)[\W_]*\d+\S*", re.I)
_TRACKING_PARAMS = re.compile(
    r"utm_[a-z]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_[a-z]+|_ga|_gl|igshid|yclid|"
    r"ref_?src|cmpid|s_cid|ncid|trk|tracking(?:_?id)?",
    re.I,
)
_IMAGE_FILE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?)$")
_CONTEXT_TAGS = frozenset(
    {"a", "figure", "li", "td", "th", "p", "h1", "h2", "h3", "h4", "h5", "h6"}
)


def strip_tracking_query(url: str) -> str:
    """``url`` without its tracking query parameters (``utm_*``, ``fbclid``, ``gclid``…).

    Other parameters (an image CDN's width or format) stay, in their order; a URL that does
    not parse is returned unchanged.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if not _TRACKING_PARAMS.fullmatch(k)]
    if len(kept) == len(pairs):
        return url
    return urlunsplit(parts._replace(query=urlencode(kept, safe="/:,;@")))


def image_counts(
    page: etree._Element, images: Sequence[etree._Element] | None = None
) -> Counter[str]:
    """How often each image address occurs on the page, as written (``src``, else
    ``data-src``); count before anything is removed. ``images``: the page's ``<img>``
    elements when the caller has listed them (``None``: read here)."""
    return Counter(_written_source(img) for img in (page.iter("img") if images is None else images))


def _written_source(img: etree._Element) -> str:
    return (img.get("src") or img.get("data-src") or "").strip()


def card_pictures(
    page: etree._Element, images: Sequence[etree._Element] | None = None
) -> frozenset[etree._Element]:
    """The images of ``page`` that are a grid card's picture beside its link (module
    docstring, rule 5); look before anything is removed (the card's link may go).
    ``images``: the page's ``<img>`` elements when the caller has listed them (``None``:
    read here)."""
    sizes: dict[etree._Element, bool] = {}  # cards share ancestors: each measured once
    linked: dict[etree._Element, bool] = {}
    kinds: dict[etree._Element, Counter[tuple[str, str]]] = {}  # a grid's children, counted once
    pages: dict[etree._Element, bool] = {}  # each link tested once, not once per ancestor
    return frozenset(
        img
        for img in (page.iter("img") if images is None else images)
        if _card_picture(img, sizes, linked, kinds, pages)
    )


def drop_noise_images(
    root: etree._Element,
    counts: Counter[str],
    base_url: str,
    cards: frozenset[etree._Element] = frozenset(),
    product: str = "",
    title: str = "",
) -> None:
    """Remove from ``root`` (in place) every image that is not content (module docstring).

    Args:
        root: the element about to be rendered (the pruned body, or a content block).
        counts: :func:`image_counts` of the whole page, taken before any pruning.
        base_url: what relative image addresses resolve against.
        cards: :func:`card_pictures` of the whole page, taken before any pruning.
        product: a product page's product name (normalised letters and digits), else
            empty: the first image whose alt text is that name is the product's main photo,
            content though its alt text repeats the heading beside it (issue 13, point 3).
        title: the page's own title (:func:`~webresearch.extract.title.document_title`),
            else empty: an alt text only repeating it is not content (rule 5).

    Kept images get their ``src`` set to the resolved address without tracking parameters.
    """
    images = list(root.iter("img"))
    if not images:
        return
    seen_alts: set[str] = set()
    texts: dict[etree._Element, str] = {}  # normalised text of ancestors, shared by a grid
    title_words = [w.lower() for w in _WORD.findall(title)]
    for img in images:
        src = image_source(img, base_url)
        written = _written_source(img)
        alt = normalise(img.get("alt") or "")
        if (
            src is None
            or (written and counts[written] > 1)
            or alt in seen_alts
            or img in cards
            or not _is_content(img, src, texts, main_photo := bool(product) and alt == product)
            or (not main_photo and _repeats_title(img, title_words))
        ):
            remove_keep_tail(img)
            continue
        if alt:
            seen_alts.add(alt)  # a gallery's other sizes and angles say the same
        for attr in ("srcset", "data-src", "data-srcset", "data-lazy-src", "data-original"):
            img.attrib.pop(attr, None)
        img.set("src", strip_tracking_query(src))


def _is_content(
    img: etree._Element, src: str, texts: dict[etree._Element, str], photo: bool = False
) -> bool:
    """Rules 2–5 and 7 of the module docstring; ``photo``: the product's main photo, whose
    alt text may repeat the product's name beside it."""
    button = next(img.iterancestors("button"), None)
    limit = MIN_IMAGE_PX if button is None else MAX_PICKER_IMAGE_PX
    for dim in ("width", "height"):
        value = (img.get(dim) or "").strip().removesuffix("px")
        if value.isdigit() and int(value) <= limit:
            return False
    if button is not None and (
        _PICKER_NAME.search((button.get("class") or "") + " " + (button.get("title") or ""))
        or urlsplit(src).path.lower().endswith(".svg")
        or _ICON_WORD.search(img.get("alt") or "")
        or _language_picker(img, button, urlsplit(src).path.lower())
    ):
        return False
    alt = " ".join((img.get("alt") or img.get("title") or "").split())
    names = " ".join(
        (img.get("class") or "", img.get("id") or "", urlsplit(src).path.rsplit("/", 1)[-1])
    )
    noise = _NOISE_NAME.search(names) or _NOISE_NAME.fullmatch(alt.lower())
    if (noise or _DECLARED_NOISE.fullmatch(alt)) and not _in_running_text(img):
        return False
    if _links_elsewhere(img):
        return False
    caption = _figure_caption(img)
    if caption:
        if _mostly_in(alt, caption):
            img.set("alt", "")  # the caption below says it: no need to say it twice
        return True
    if len(_WORD.findall(alt)) < MIN_ALT_WORDS or _SLUG.search(alt) or _CAMERA_NAME.fullmatch(alt):
        return False
    return photo or not (
        _repeats_context(img, alt, texts)
        or _repeats_neighbours(img, alt)
        or repeats_reading_neighbours(img, alt)  # past more wrappers (image_neighbours.py)
    )


def _repeats_title(img: etree._Element, title: list[str]) -> bool:
    """True when the alt text only repeats the page's title (rule 5): a run of two words
    or more of ``title`` (its words, lower-cased), or all of it and at most
    :data:`MAX_TITLE_EXTRA_WORDS` words more."""
    alt = [w.lower() for w in _WORD.findall(img.get("alt") or "")]
    if len(alt) < 2 or not title:
        return False
    if len(alt) <= len(title):
        return _holds_run(title, alt)
    return len(alt) - len(title) <= MAX_TITLE_EXTRA_WORDS and _holds_run(alt, title)


def _holds_run(words: list[str], run: list[str]) -> bool:
    """True when ``run`` occurs in ``words`` as consecutive words."""
    n = len(run)
    return any(words[i : i + n] == run for i in range(len(words) - n + 1))


def _language_picker(img: etree._Element, button: etree._Element, path: str) -> bool:
    """A flag (by address or alt text), or any image in a locale or language button."""
    if _FLAG_PATH.search(path) or _FLAG_ALT.fullmatch(img.get("alt") or ""):
        return True
    names = " ".join(button.get(a) or "" for a in ("class", "title", "aria-label"))
    return _LOCALE_NAME.search(names) is not None


def _mostly_in(alt: str, caption: str) -> bool:
    words = [w.lower() for w in _WORD.findall(alt)]
    return sum(1 for w in words if w in caption) * 2 >= len(words)


def _in_running_text(img: etree._Element) -> bool:
    """True when the image's paragraph holds a sentence of its own besides the image."""
    parent = img.getparent()
    if parent is None or parent.tag not in ("p", "li", "td", "dd", "blockquote"):
        return False
    return len(_WORD.findall("".join(parent.itertext()))) >= 5


def _links_elsewhere(img: etree._Element) -> bool:
    """True when the image sits in a link to a page (not to the image file itself)."""
    for ancestor in img.iterancestors():
        if ancestor.tag == "a":
            href = (ancestor.get("href") or "").split("?", 1)[0].lower()
            return bool(href) and not _IMAGE_FILE.search(href) and not href.startswith("#")
    return False


def _card_picture(
    img: etree._Element,
    sizes: dict[etree._Element, bool],
    linked: dict[etree._Element, bool],
    kinds: dict[etree._Element, Counter[tuple[str, str]]],
    pages: dict[etree._Element, bool],
) -> bool:
    """True when the smallest block holding ``img`` and a link to another page is, or is
    the only child of its kind in, a card of a grid (module docstring, rule 5). ``sizes``
    and ``linked`` cache whether an element holds too much text for a card and whether it
    holds a page link; ``kinds``, how many children of each ``(tag, class)`` an element has
    (a grid of n cards is counted once, not once per card); ``pages``, whether an ``<a>``
    is a page link."""
    node = img.getparent()
    for _ in range(_CARD_DEPTH):
        if node is None or node.tag in _CARD_STOP:
            return False
        has_link = linked.get(node)
        if has_link is None:
            has_link = linked[node] = any(
                pages[a] if a in pages else pages.setdefault(a, _is_page_link(a))
                for a in node.iter("a")
            )
        if has_link:
            break
        node = node.getparent()
    else:
        return False
    for _ in range(_CARD_WRAPPERS + 1):  # a card's inner box, then the card
        parent = node.getparent()
        if parent is None or node.tag in _CARD_STOP or node.tag not in _CARD_TAGS:
            return False
        too_long = sizes.get(node)
        if too_long is None:
            too_long = sizes[node] = _holds_at_least(node, MAX_CARD_CHARS)
        if too_long or sum(1 for _ in node.iter("img")) > MAX_CARD_IMAGES:
            return False  # a block of several cards, a post, a section
        counted = kinds.get(parent)
        if counted is None:
            counted = kinds[parent] = Counter((c.tag, c.get("class") or "") for c in parent)
        peers = counted[(node.tag, node.get("class") or "")]
        if peers >= MIN_GRID_CARDS:
            return True
        if peers > 1:
            return False
        node = parent
    return False


def _holds_at_least(node: etree._Element, letters: int) -> bool:
    """True when the text under ``node`` holds ``letters`` letters and digits or more (as
    :func:`~webresearch.extract.align.page_text_size` counts; stops reading there), for
    ``letters`` of 1 or more."""
    return text_size_exceeds(node, letters - 1)


def _is_page_link(a: etree._Element) -> bool:
    """A link with text to another page (not to an image file or an anchor)."""
    href = (a.get("href") or "").split("?", 1)[0].lower()
    if not href or href.startswith("#") or _IMAGE_FILE.search(href):
        return False
    return bool(_WORD.search("".join(a.itertext())))


def _figure_caption(img: etree._Element) -> str:
    for ancestor in img.iterancestors():
        if ancestor.tag == "figure":
            for caption in ancestor.iter("figcaption"):
                return normalise("".join(caption.itertext()))
            return ""
    return ""


def _repeats_context(img: etree._Element, alt: str, texts: dict[etree._Element, str]) -> bool:
    """True when the alt text only repeats text near the image (card title, caption).

    ``texts`` caches the normalised text of the ancestors looked at (removing an image
    does not change an element's text)."""
    wanted = normalise(alt)
    if not wanted:
        return False
    node = img.getparent()
    for _ in range(4):
        if node is None:
            return False
        if isinstance(node.tag, str) and node.tag in _CONTEXT_TAGS | {"div", "span"}:
            text = texts.get(node)
            if text is None:
                text = texts[node] = normalise("".join(t for t in node.itertext() if t))
            if wanted in text:
                return True
        node = node.getparent()
    return False


def _repeats_neighbours(img: etree._Element, alt: str) -> bool:
    """True when every word of the alt text is in the block right before or right after
    the image's own block (the heading over it, the caption or name under it: rule 5).

    The image's block is its lowest ancestor (at most four levels up, not past a
    ``<body>``, ``<main>``, ``<article>`` or ``<figure>``) with a sibling that holds text;
    a sibling longer than :data:`MAX_NEIGHBOUR_CHARS` is not read."""
    words = {w.lower() for w in _WORD.findall(alt)}
    if not words:
        return False
    node = img
    for _ in range(4):
        if _text_sibling(node, True) is not None or _text_sibling(node, False) is not None:
            break
        parent = node.getparent()
        if parent is None or parent.tag in _CARD_STOP or parent.tag == "article":
            return False
        node = parent
    near: set[str] = set()
    for before in (True, False):
        sibling = _text_sibling(node, before)
        if sibling is not None:
            text = "".join(sibling.itertext())
            if len(text) <= MAX_NEIGHBOUR_CHARS:
                near.update(w.lower() for w in _WORD.findall(text))
    return words <= near


def _text_sibling(node: etree._Element, before: bool) -> etree._Element | None:
    """The nearest element sibling of ``node`` on that side holding text, else ``None``."""
    sibling = node.getprevious() if before else node.getnext()
    while sibling is not None:
        if isinstance(sibling.tag, str) and "".join(sibling.itertext()).strip():
            return sibling
        sibling = sibling.getprevious() if before else sibling.getnext()
    return None
