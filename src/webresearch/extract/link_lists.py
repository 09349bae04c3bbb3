"""Lists of links that are an article's content whatever their link density. Pure functions
over trafilatura's converted trees (``<list>``, ``<item>``, ``<ref href=…>``, ``<head>``).

trafilatura's link density test (:mod:`webresearch.extract.traf_links`) deletes a list, or
a block, whose text is all links: a menu, a row of share buttons, a "Related posts" list. An
article's own lists of links are all links too, and losing them left their heading or label
alone ("Sources:" over nothing). These stay:

* a documentation admonition's body (``<div class="admonition seealso">`` of Sphinx and
  MkDocs: a "See also" box listing its pages), and the admonition itself when its links
  made it a link farm (four links or more: the box went whole, title and all; review n-18);
* a list whose every link is to a document file (:data:`DOCUMENT_ENDINGS`: "Minutes of the
  meeting (PDF)", a report's annexes; review n-17b) — navigation and related-story lists
  link pages, not files;
* a list of citations (:func:`cites_other_sites`): right under a heading or a label that
  introduces it ("Sources", "**Buying options:**", "Other apps you may find helpful:"),
  every link to another site than the page's (:func:`same_site`), none to a social
  network, a sharing service or an e-mail address (:data:`SOCIAL_HOSTS`), no page linked
  from two items (a newsletter's "Rate this issue: Good, Neutral, Bad" links one poll). A
  site's related posts, popular posts, tag clouds and menus link its own pages; share and
  follow buttons link social networks; a list with nothing introducing it (a "Follow us"
  box's icons, a partners' box) is left to the test. Teasers linking sister sites under
  "Related posts" or "More from our network:" pass here and are dropped later
  (:mod:`webresearch.extract.article_extras`, :mod:`webresearch.extract.article_end`).

  Studied on WCXB dev half A: of the lists the test deleted, those under a heading or a
  paragraph with every link to another site were an article's "References & Sources" (40
  links) and "References", a review's "Buying options:", an app list, kept by the ground
  truths — and an arXiv abstract's "References & Citations" box (NASA ADS, Google
  Scholar), a newsletter's theme-song links (streaming services) and its poll, which
  they leave out; lists with nothing before them were a "Follow us" row and a menu.
  Measured (webresearch, before → after): WCXB dev article half A 0.9576 → 0.9577 (an
  article's "References & Sources" +0.041; a newsletter's course list −0.004), half B
  +0.00004 (one page up by 0.008, none down), the other types and Zyte unchanged: most
  such lists were already brought back by the alignment's second opinion, not those at
  the article's end (a "Sources:" label left over nothing; review n-18).

A block (``<div>``) is kept when it is an admonition, a box in an article's flow
(:mod:`webresearch.extract.flow_asides`: an event's date, place and "Register" link) or a
block whose every link is in a list kept above (the block around a "Sources" heading and its
list would otherwise go whole); so is a paragraph or a list in an admonition or such a box.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from lxml import etree

from webresearch.extract.flow_asides import BOX_ATTR

__all__ = [
    "DOCUMENT_ENDINGS",
    "LABEL_WORDS",
    "SOCIAL_HOSTS",
    "block_of_content",
    "cites_other_sites",
    "is_content_box",
    "list_of_content",
    "same_site",
    "site_of",
]

#: Endings of a link's path that name a document file (a report, a dataset, an archive).
DOCUMENT_ENDINGS = (
    ".pdf", ".doc", ".docx", ".odt", ".rtf", ".xls", ".xlsx", ".ods", ".csv", ".ppt",
    ".pptx", ".odp", ".epub", ".zip", ".tar.gz", ".tgz",
)  # fmt: skip

#: Hosts (and their subdomains) of social networks, sharing and streaming services: a list
#: linking one of them is a row of share or follow buttons, not citations.
SOCIAL_HOSTS = (
    "facebook.com", "fb.com", "twitter.com", "x.com", "t.co", "linkedin.com", "instagram.com",
    "pinterest.com", "reddit.com", "tumblr.com", "whatsapp.com", "wa.me", "t.me",
    "telegram.me", "telegram.org", "youtube.com", "youtu.be", "tiktok.com", "spotify.com",
    "music.apple.com", "podcasts.apple.com", "soundcloud.com", "threads.net", "bsky.app",
    "mastodon.social", "vk.com", "weibo.com", "flipboard.com", "getpocket.com", "digg.com",
    "mix.com", "line.me", "snapchat.com", "discord.com", "discord.gg", "twitch.tv",
    "addtoany.com", "sharethis.com", "feedly.com", "xing.com", "ok.ru", "mailchi.mp",
)  # fmt: skip

#: The most words of a paragraph introducing a list without a colon ("Empathy Program").
LABEL_WORDS = 8

#: Tags of an introducing block in trafilatura's tree: a heading, a paragraph.
_INTRODUCERS = ("head", "p")


def site_of(url: str) -> str:
    """The host of ``url``, lower case, without a leading ``www.``; ``""`` when it has none
    (a relative address, ``mailto:``)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.")


def same_site(host: str, site: str) -> bool:
    """Whether ``host`` is ``site`` or a subdomain of it, or ``site`` a subdomain of
    ``host`` (``blog.example.org`` and ``example.org``); both as :func:`site_of` gives them."""
    return host == site or host.endswith("." + site) or site.endswith("." + host)


def is_content_box(element: etree._Element) -> bool:
    """Whether ``element`` is a documentation admonition (class token ``admonition``) or a
    box in an article's flow (:data:`~webresearch.extract.flow_asides.BOX_ATTR`)."""
    return element.get(BOX_ATTR) is not None or "admonition" in (element.get("class") or "").split()


def list_of_content(element: etree._Element, parent: etree._Element | None, site: str) -> bool:
    """Whether the list ``element`` (in ``parent``) is content whatever its links (module
    docstring); ``site``: the page's :func:`site_of` (``""``: unknown, no citation list)."""
    if parent is not None and is_content_box(parent):
        return True
    targets = _targets(element)
    if targets and all(_names_document(target) for target in targets):
        return True
    return cites_other_sites(element, site)


def block_of_content(element: etree._Element, site: str) -> bool:
    """Whether the block ``element`` is content whatever its links: an admonition, or a
    block whose every link is in a list of content (module docstring)."""
    if is_content_box(element):
        return True
    lists = [el for el in element.iter("list") if list_of_content(el, el.getparent(), site)]
    if not lists:
        return False
    inside = {ref for el in lists for ref in el.iter("ref")}
    return all(ref in inside for ref in element.iter("ref"))


def cites_other_sites(element: etree._Element, site: str) -> bool:
    """Whether the list ``element`` is a list of citations (module docstring): introduced by
    the block before it (or before its parent, when it comes first there), each link to
    another site than ``site``, none to :data:`SOCIAL_HOSTS`."""
    if not site or not _introduced(element):
        return False
    targets = _targets(element)
    if not targets or _shares_a_page(element):
        return False
    for target in targets:
        host = site_of(target)
        if not host or same_site(host, site) or _social(host):
            return False
    return True


def _introduced(element: etree._Element) -> bool:
    """Whether a heading comes right before ``element`` (or before its parent, when
    ``element`` is the parent's first child), or a label: a paragraph right before it
    ending with a colon or of at most :data:`LABEL_WORDS` words, not a row of links."""
    before = element.getprevious()
    if before is None:
        parent = element.getparent()
        before = parent.getprevious() if parent is not None else None
        if before is None or before.tag != "head":
            return False
    if before.tag not in _INTRODUCERS:
        return False
    text = " ".join("".join(before.itertext()).split())
    linked = sum(len("".join(ref.itertext()).strip()) for ref in before.iter("ref"))
    if not text or linked * 2 >= len(text):
        return False
    return (
        before.tag == "head" or text.endswith((":", "\uff1a")) or len(text.split()) <= LABEL_WORDS
    )


def _shares_a_page(element: etree._Element) -> bool:
    """Whether two items of the list link one page (the query and fragment aside): a poll's
    answers; an item's icon and title linking its one page are one item's."""
    seen: set[str] = set()
    for item in element:
        pages = {_page(target) for target in _targets(item)}
        if pages & seen:
            return True
        seen |= pages
    return False


def _page(target: str) -> str:
    return target.split("#", 1)[0].split("?", 1)[0]


def _targets(element: etree._Element) -> list[str]:
    return [ref.get("target") or ref.get("href") or "" for ref in element.iter("ref")]


def _names_document(target: str) -> bool:
    path = _page(target).lower()
    return path.endswith(DOCUMENT_ENDINGS)


def _social(host: str) -> bool:
    return any(host == name or host.endswith("." + name) for name in SOCIAL_HOSTS)
