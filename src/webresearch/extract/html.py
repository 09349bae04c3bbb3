"""HTML → a title and markdown for a model (SPEC §1.1). Pure functions.

The fallback chain:

1. **main-content**: trafilatura decides what the article is
   (:mod:`webresearch.extract.main_content`), the original markup of that part is converted
   (:mod:`webresearch.extract.markdown`);
2. **whole-page**: when no main content is found, or when it keeps less than
   :data:`MIN_KEPT_SHARE` of the page's text (visible and hidden) and little in absolute
   terms — an app shell whose article sits in a hidden server-rendered container must not
   come back as "Loading…" —, the whole ``<body>`` is converted without navigation, page
   header and footer, and scripts;
3. **plain-text**: the text of the page, whitespace-collapsed, when conversion yields nothing.

A frameset page is read through its ``<noframes>`` content, then named a frameset with its
frames' links unless that content links them all; with no ``<noframes>`` content, it is
only named so (:mod:`webresearch.extract.frames`).

On a shop page, second copies of paragraphs are left out
(:mod:`webresearch.extract.markdown_tidy`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree

from webresearch.extract.accordion_questions import open_accordion_questions
from webresearch.extract.ad_sections import drop_ad_sections
from webresearch.extract.admonitions import bold_admonition_titles
from webresearch.extract.align import page_text_size
from webresearch.extract.api_item_chrome import api_item_chrome
from webresearch.extract.appshell import looks_like_app_shell
from webresearch.extract.article_end import drop_after_article
from webresearch.extract.article_extras import drop_promo_paragraphs, drop_teaser_sections
from webresearch.extract.author_cards import author_cards
from webresearch.extract.card_badges import card_badges
from webresearch.extract.closed_popups import closed_popups
from webresearch.extract.closing_sections import drop_author_bios, drop_comment_sections
from webresearch.extract.code_labels import drop_code_labels
from webresearch.extract.collector import collector_paused
from webresearch.extract.consent import consent_banners
from webresearch.extract.content_images import card_pictures, drop_noise_images, image_counts
from webresearch.extract.declared_facts import with_declared_facts
from webresearch.extract.dialogs import closed_dialogs
from webresearch.extract.flex_items import flex_classes, space_flex_items
from webresearch.extract.formulas import show_formulas, tex_scripts
from webresearch.extract.forum import post_bodies
from webresearch.extract.forum_chrome import drop_forum_chrome
from webresearch.extract.forum_posts import mark_thread
from webresearch.extract.frames import (
    frames_markdown,
    frameset_of,
    open_noframes,
    with_frame_list,
)
from webresearch.extract.hub_cards import open_hub_cards
from webresearch.extract.kept_hidden import (
    closed_details,
    closed_details_marked_hidden,
    drawn_invisibly,
    faded_blocks,
    hidden_runs,
    pieces_in_output,
    rendered_pieces,
)
from webresearch.extract.link_lists import site_of
from webresearch.extract.listing_controls import listing_controls
from webresearch.extract.main_content import find_main_content
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.markdown_tidy import UI_LABEL, tidy_below_title, tidy_markdown
from webresearch.extract.marquee import collapse_marquees
from webresearch.extract.meta_lines import drop_meta_lines
from webresearch.extract.mojibake import repair_mojibake
from webresearch.extract.offscreen_text import offscreen_classes, offscreen_text
from webresearch.extract.overflow_styles import unhide_overflow_styles
from webresearch.extract.page_chrome import (
    banner_heading,
    drop_kept_chrome,
    remove_page_chrome,
    restore_heading,
)
from webresearch.extract.page_noise import (
    drop_inert,
    drop_teasers,
    headings_left_empty,
    hidden_verdicts,
    popup_menus,
    remove_elements,
    rest_is_boilerplate,
)
from webresearch.extract.page_sheets import read_sheets
from webresearch.extract.page_toc import drop_page_toc
from webresearch.extract.page_type import (
    ARTICLE_TYPES,
    declared_types,
    item_page_landmark,
    looks_like_forum,
    product_facts,
)
from webresearch.extract.page_widgets import page_widgets
from webresearch.extract.parse import parse_html
from webresearch.extract.paywall import may_hold_paywall, paywall_boxes, premium_classes
from webresearch.extract.placeholders import placeholder_blocks
from webresearch.extract.plain_text import plain_text
from webresearch.extract.product import drop_shop_widgets, is_shop_page
from webresearch.extract.product_name import main_photo_name
from webresearch.extract.responsive_copies import desktop_hidden_classes, responsive_copies
from webresearch.extract.same_colour import same_colour_blocks, same_colour_classes
from webresearch.extract.scan_index import read_attributes
from webresearch.extract.shortcodes import strip_shortcodes
from webresearch.extract.signup import signup_boxes, signup_forms
from webresearch.extract.style_rules import stylesheet_hidden
from webresearch.extract.title import document_title
from webresearch.extract.tree import held_elements, outermost, remove_keep_tail
from webresearch.extract.urls import document_base_url

__all__ = [
    "MAX_FALLBACK_KEPT_CHARS",
    "MIN_KEPT_SHARE",
    "HtmlExtraction",
    "document_title",
    "extract_html",
    "html_to_markdown",
    "looks_like_app_shell",
]

Extractor = Literal["main-content", "whole-page", "plain-text"]

#: Main content keeping less than this share of the page's text (visible and hidden) …
MIN_KEPT_SHARE = 0.05
#: … and fewer letters and digits than this means the extractor missed the article: the
#: whole page is converted instead. (A long article on a page with an even longer comment
#: thread or product grid is a real article and stays.)
MAX_FALLBACK_KEPT_CHARS = 1000

#: The note of a page trafilatura kept whole (``MainContent.whole_body``): converted as a
#: whole page is, from its markup, without its menus, banner, footer and controls.
_NO_MAIN = "no main content found: the page's text kept whole"


@dataclass(frozen=True, slots=True)
class HtmlExtraction:
    """The result of converting one HTML page.

    Attributes:
        title: the page title, whitespace-collapsed (empty when the page has none).
        markdown: the converted body text (markdown).
        extractor: which step of the fallback chain produced ``markdown``.
        fallback: why a fallback step was taken, e.g. ``"main content kept 4% of the page
            text"``; ``None`` when main-content extraction was used.
        hidden_chars_kept: letters and digits of text the page hides that are in
            ``markdown`` (a closed tab or accordion panel, an app shell's hidden content:
            :mod:`webresearch.extract.kept_hidden`); 0 when none.
        invisible_chars_kept: how many of ``hidden_chars_kept`` the page draws so that no
            visitor sees them — in the colour of its background, transparent, zero-sized or
            clipped to nothing (:mod:`webresearch.extract.same_colour`,
            :func:`~webresearch.extract.kept_hidden.drawn_invisibly`), or moved off the screen
            for screen readers (:mod:`webresearch.extract.offscreen_text`) — rather than in a
            closed panel or a block its scripts show later (an ``opacity: 0`` fade-in start);
            0 when none.
    """

    title: str
    markdown: str
    extractor: Extractor
    fallback: str | None
    hidden_chars_kept: int = 0
    invisible_chars_kept: int = 0


def html_to_markdown(html: str, url: str) -> tuple[str, str]:
    """Convert an HTML page to ``(title, markdown)`` — the public one-call form.

    Args:
        html: the decoded page (any size; broken or deeply nested markup is fine).
        url: the final URL of the page; links and images are made absolute against it (or
            against the page's ``<base href>``).

    Returns:
        the title (may be empty) and the markdown of the main content, following the
        fallback chain of :func:`extract_html`.
    """
    result = extract_html(html, url)
    return result.title, result.markdown


def extract_html(html: str, url: str, scripted: bool = False) -> HtmlExtraction:
    """Convert an HTML page to markdown through the fallback chain (module docstring).

    Args:
        html: the decoded page text.
        url: the final URL of the page (absolute), used to resolve relative links.
        scripted: the markup is a browser's DOM after the page's scripts ran; its
            ``<noscript>`` elements are then left out, as a browser with scripting on does
            not show them (HTML Standard, "the noscript element"). A static page keeps
            them: a crawler-facing copy of the content may sit there.

    Returns:
        title, markdown, the extractor used and the reason for a fallback. Never raises for
        bad markup, nor for a ``url`` that does not parse (``http://[bad/x``) or encode as
        UTF-8 (a lone surrogate): the page is read without it — links resolve against the
        page's ``<base href>`` alone, and a link that cannot be made absolute keeps its text
        without its target.
    """
    url = url if _parses(url) else ""  # a bad base must not fail the extraction (review)
    html = repair_mojibake(html)  # UTF-8 read as Latin-1 once too often (mojibake.py)
    with collector_paused():  # no cyclic garbage collection inside a page (collector.py)
        doc = parse_html(html)
        held = held_elements(doc)  # one Python object per element for every pass (tree.py)
        try:
            return _extract(doc, html, url, scripted)
        finally:
            held.clear()


def _parses(url: str) -> bool:
    """Whether ``url`` splits as a URL with a valid port (``urlsplit`` raises ``ValueError``
    for ``http://[bad/x``, ``.port`` for ``http://x.org:99999/``) and encodes as UTF-8 (a
    lone surrogate, ``http://\\udcff.org/``, raised ``UnicodeEncodeError`` when links were
    counted)."""
    try:
        url.encode("utf-8")
        _ = urlsplit(url).port
    except ValueError:
        return False
    return True


def _extract(doc: etree._Element, html: str, url: str, scripted: bool) -> HtmlExtraction:
    """:func:`extract_html` over the parsed page ``doc`` (changed in place)."""
    if scripted:
        for noscript in list(doc.iter("noscript")):
            remove_keep_tail(noscript)
    title = document_title(doc, url)
    base = document_base_url(doc, url)
    scripts = list(doc.iter("script"))  # one walk for the three readers of the scripts
    declared = declared_types(doc, scripts)
    facts = product_facts(doc, scripts)
    tex_scripts(doc, scripts)  # MathJax 2's TeX in scripts: read before scripts are dropped
    premium = premium_classes(scripts)  # the paid part a paywall's JSON-LD names (paywall.py)
    sheets = read_sheets(doc.iter("style"))  # read once for the readers below (page_sheets.py)
    # a builder's copies of a block for other screen sizes (responsive_copies.py)
    copies = responsive_copies(doc, desktop_hidden_classes(doc, sheets))
    if copies:  # a style inside a copy goes with it: the styles listed again
        remove_elements(copies)
        sheets = read_sheets(doc.iter("style"), sheets)
    styled = stylesheet_hidden(doc, sheets)  # `.gone{display:none}`: read before styles go
    away = offscreen_classes(doc, sheets)  # `.sr-only{position:absolute;left:-9999px}`: likewise
    tint = same_colour_classes(doc, sheets)  # `.x{color:#fff;background:#fff}`: likewise
    flex = flex_classes(sheets)  # `.meta{display:flex}`: its items apart (flex_items.py)
    drop_inert(doc)
    show_formulas(doc)  # MathML hidden for assistive technology is the formula
    body = doc.find("body")
    if body is None:  # pragma: no cover - parse_html always adds one
        return HtmlExtraction(title, "", "plain-text", "no body")
    strip_shortcodes(body, html)  # "[vc_row …]" a switched-off page builder left (shortcodes.py)
    frameset = frameset_of(body)
    if frameset is not None and not open_noframes(doc, body):
        markdown = frames_markdown(frameset, base)
        return HtmlExtraction(title, markdown, "whole-page", "a frameset page without <noframes>")
    served = html if frameset is None else None  # noframes content: not the served page
    pieces: list[str] = []  # the text of the hidden blocks kept that is written
    unseen: list[str] = []  # … of those of them drawn invisibly (same_colour.py, …)
    styles = (styled, away, tint, flex)
    result = _convert(
        doc, served, url, base, title, declared, facts, premium, styles, pieces, unseen
    )
    kept = pieces_in_output(pieces, result.markdown)
    invisible = min(kept, pieces_in_output(unseen, result.markdown))
    result = replace(result, hidden_chars_kept=kept, invisible_chars_kept=invisible)
    if frameset is None:
        return result
    return replace(result, markdown=with_frame_list(result.markdown, frameset, base))


def _convert(
    doc: etree._Element,
    html: str | None,
    url: str,
    base: str,
    title: str,
    declared: frozenset[str],
    facts: list[str],
    premium: frozenset[str],
    styles: tuple[frozenset[etree._Element], frozenset[str], frozenset[str], frozenset[str]] = (
        frozenset(),
        frozenset(),
        frozenset(),
        frozenset(),
    ),
    hidden_text: list[str] | None = None,
    invisible_text: list[str] | None = None,
) -> HtmlExtraction:
    """Steps 1-3 of the fallback chain over ``doc`` (module docstring).

    Args:
        doc: the parsed page, its inert parts dropped (changed in place).
        html: the served markup, for trafilatura's second opinion; ``None`` when the body
            is not the served page (a frameset's ``<noframes>`` content).
        url: the page's final URL; ``base``: what its links resolve against.
        title: the page title.
        declared: the page's declared schema.org types.
        facts: the product's declared name and price lines.
        premium: the classes of the paid part a paywall's JSON-LD names (paywall.py).
        styles: the elements the page's ``<style>`` rules hide (style_rules.py) and the
            classes they move off the screen (offscreen_text.py), paint in the colour of
            their background (same_colour.py) and make flex containers (flex_items.py).
        hidden_text: filled with the text of the hidden blocks kept that is in the tree
            written as the output (kept_hidden.py); ``invisible_text``: likewise for the
            blocks drawn invisibly or off the screen (``HtmlExtraction.invisible_chars_kept``).
    """
    body = doc.find("body")
    if body is None:  # pragma: no cover - checked by the caller
        return HtmlExtraction(title, "", "plain-text", "no body")
    fallback: str | None = None
    pictures = list(doc.iter("img"))  # one walk for the two readers below
    images = image_counts(doc, pictures)
    cards = card_pictures(doc, pictures)  # before pruning: a card's link may go, its picture stay
    open_hub_cards(body, url)  # a hub's cards to its sub-pages read as links (hub_cards.py)
    # "In this article": links to the headings that follow (an article's, page_toc.py)
    drop_page_toc(doc, url if declared & ARTICLE_TYPES else "", base)
    drop_code_labels(doc)  # "js" over a ```js block (code_labels.py)
    shop = is_shop_page(doc, url, declared)
    if shop:
        drop_shop_widgets(body)  # user reviews, "similar items": never a product's content
    photo = main_photo_name(body, facts) if shop else ""  # its main photo is content
    # The second opinion (main_content, step 4) fills gaps on pages other than declared
    # articles: there trafilatura is at its best, and the second parse would cost time.
    article = bool(declared & ARTICLE_TYPES)
    # a shop prints blocks twice (phone and desktop copies); elsewhere a repeat is meant
    keep_repeats = article or not shop
    opinion = None if article else html
    # a thread by its address or declarations, else by its posts alone (forum_posts.py);
    # one known by its address without microdata posts has them found by structure too
    forum = looks_like_forum(doc, url, declared)
    if not (forum and post_bodies(body)):
        forum = mark_thread(body, article) or forum
    if forum:  # members' signatures, "Quote"/"Reply" buttons (forum_chrome.py)
        drop_forum_chrome(body)
    attributes = read_attributes(body)  # one walk for the scans below (scan_index.py)
    unhide_overflow_styles(body, attributes)  # trafilatura drops style="overflow:hidden" boxes
    open_accordion_questions(body)  # an FAQ's questions written into <button>s
    # a shop's scripts show blocks its classes hide (stock notices, a variant's labels)
    hidden, kept = hidden_verdicts(
        doc,
        None,
        utility_classes=not shop,
        attributes=attributes,
        styled=styles[0],
        html=html,
    )
    # a paragraph for screen readers only goes; a sentence there is noted (offscreen_text.py)
    away, noted = offscreen_text(attributes.rows, styles[1], kept)
    hidden += away
    # the verdicts decide what is hidden: trafilatura reads the blocks kept as shown, and a
    # closed <details> answer whose script marks it aria-hidden (kept_hidden.py)
    opens = kept + closed_details_marked_hidden(body)
    if html is None or "dmonition" in html or "alert-title" in html or "<details" in html:
        bold_admonition_titles(attributes.rows)  # "**Note**" over a callout (admonitions.py)
    main = find_main_content(doc, comments=forum, html=opinion, shown=opens, url=url)
    page_chars = main.page_chars if main is not None else page_text_size(body)
    # counted where they reach the output (hidden_chars_kept), with closed <details> content
    # the inline-style scans read the rows with a style alone (scan_index.py); the colour
    # scan reads every row only when the stylesheet paints a class in its background's colour
    colour_rows = attributes.rows if styles[2] else attributes.styled
    drawn = drawn_invisibly(attributes.styled) + same_colour_blocks(colour_rows, styles[2])
    shown = outermost(kept + noted + closed_details(body) + faded_blocks(attributes.styled) + drawn)
    # never drawn for a visitor, unlike a closed panel or an opacity:0 fade-in start
    invisible = outermost(noted + drawn)
    written = hidden_text if hidden_text is not None else []
    unseen = invisible_text if invisible_text is not None else []

    def write_hidden(root: etree._Element | None) -> None:
        """The kept hidden text in ``root``, the tree written (``None``: trafilatura's own)."""
        written[:] = rendered_pieces(root, shown) if root is not None else hidden_runs(shown)
        unseen[:] = rendered_pieces(root, invisible) if root is not None else hidden_runs(invisible)

    menus = popup_menus(body, attributes)  # a language or tag picker: links a click shows
    menus += closed_popups(body, html, attributes)  # a category flyout a collapsed button opens
    hidden += menus + headings_left_empty(menus)  # "## Download" over a dropdown alone
    hidden += closed_dialogs(body, attributes, page_chars)  # a <dialog> without open: unseen
    hidden += placeholder_blocks(doc, html)  # "Lorem ipsum dolor sit amet" a template left
    hidden += consent_banners(body, attributes)  # "We use cookies … Accept": never the content
    hidden += signup_forms(body, page_chars)  # "Enter your email to sign in", a newsletter box
    hidden += page_widgets(body)  # "Was this page helpful?", "Edit this page", "Next »"
    hidden += listing_controls(body, site_of(url or base))  # "Sort by: Featured", "Showing 1–16 of 29 results"
    hidden += card_badges(body)  # "Sold out", "New arrival" on card after card (card_badges.py)
    hidden += api_item_chrome(body, attributes)  # "1.0.0 · Source" beside an API item
    if main is not None:  # a hidden schema.org name kept, its visible heading dropped
        main.prefer_visible_copies(hidden)
    # a newsletter sign-up box, an author card: removed after pruning (their kept text
    # still bounds the span of the article's images, as trafilatura chose it)
    boxes = signup_boxes(body, page_chars) + author_cards(body, page_chars)
    if may_hold_paywall(attributes):  # "For subscribers … Log in" (paywall.py)
        boxes += paywall_boxes(body, page_chars, premium)
    if main is None:
        fallback = "no main content found"
    elif (
        main.kept_chars < MIN_KEPT_SHARE * page_chars
        and main.kept_chars < MAX_FALLBACK_KEPT_CHARS
        and not rest_is_boilerplate(body, main.kept_chars)
        and not main.holds_landmark()  # the page's <main>, beside other offers (landmark_pass)
    ):
        share = 100 * main.kept_chars / page_chars
        fallback = f"main content kept {share:.0f}% of the page text"
    elif (landmark := item_page_landmark(body, main.kept_chars, declared, url)) is not None:
        remove_elements(hidden + boxes)
        heading = banner_heading(body, url, styles[1], title)
        remove_page_chrome(landmark)
        if heading is not None:
            restore_heading(landmark, heading)
        collapse_marquees(landmark)  # a ticker's item read once, not hundreds of times
        drop_noise_images(landmark, images, base, cards, photo, title)
        write_hidden(landmark)
        markdown = tidy_below_title(_written(landmark, base, styles[3]), title, keep_repeats)
        if markdown:
            return HtmlExtraction(title, markdown, "main-content", "repeated items: <main> kept")
        fallback = "main landmark was empty"
    else:
        remove_elements(hidden)
        heading = banner_heading(body, url, styles[1], title)  # the <h1> in the banner
        root = main.root()
        remove_elements(boxes)
        if main.aligned:  # the site's menu or banner trafilatura kept (page_chrome.py)
            drop_kept_chrome(root)
        if heading is not None:
            restore_heading(root, heading)
        drop_teasers(root)
        if not shop:  # a shop's delivery and returns lines follow its description
            drop_after_article(root)  # a call to action, a bio after the article (article_end.py)
        collapse_marquees(root)  # a ticker's item read once, not hundreds of times
        drop_noise_images(root, images, base, cards, photo, title)
        # trafilatura's own tree holds no element of the page: its runs found in the output
        write_hidden(root if main.aligned else None)
        markdown = tidy_below_title(_written(root, base, styles[3]), title, keep_repeats)
        markdown = drop_promo_paragraphs(drop_teaser_sections(markdown))
        markdown = drop_meta_lines(drop_ad_sections(drop_author_bios(markdown)))
        if not forum:  # a thread's replies are its content
            markdown = drop_comment_sections(markdown)
        if markdown and main.whole_body:  # trafilatura's last resort: said as a fallback
            return HtmlExtraction(title, with_declared_facts(markdown, facts), "whole-page", _NO_MAIN)
        if markdown:
            return HtmlExtraction(title, with_declared_facts(markdown, facts), "main-content", None)
        fallback = "main content was empty"
    remove_elements(hidden + boxes)
    heading = banner_heading(body, url, styles[1], title)
    remove_page_chrome(body)
    if heading is not None:
        restore_heading(body, heading)
    drop_noise_images(body, images, base, cards, title=title)
    write_hidden(body)
    markdown = tidy_markdown(_written(body, base, styles[3]), keep_repeats)
    if markdown:
        return HtmlExtraction(title, markdown, "whole-page", fallback)
    text = plain_text(body)
    if UI_LABEL.fullmatch(text):
        text = ""  # a skip link or "Loading…" alone: a page its scripts never drew
    return HtmlExtraction(
        title, text, "plain-text", (fallback + "; " if fallback else "") + "whole page was empty"
    )


def _written(root: etree._Element, base: str, flex: frozenset[str]) -> str:
    """The markdown of ``root``, the items of its flex containers apart first ("€129.00
    ★★★★☆", flex_items.py: read in the part written only, not the whole page)."""
    space_flex_items(root, flex)
    return element_to_markdown(root, base)
