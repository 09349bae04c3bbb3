"""Runs of bare links to a site's other pages after an article's text: not the article.
Pure functions over the markdown about to be returned.

A site lists its other pages under an article in blocks of their own, one link each, with
no list markup and no heading that names them (a cleaning company's "Average costs for
cleaning services in Austin / in Atlanta / …", a health blog's "Find out if weight loss
medications can help you / Learn about the Mediterranean diet / …", a mental-health
practice's treatments). The label-led kind ("**Related articles:**" over such links) is
:func:`~webresearch.extract.article_extras.drop_promo_paragraphs`'s; this one has no label.
:func:`drop_link_runs` removes a run of at least :data:`MIN_RUN` consecutive blocks that
are each one link — with at most emphasis around it and a closing punctuation mark after
it — to a page of the same site (the page's host, ``www.`` aside, or a relative address),
when the text before the run holds more letters than the run (it follows an article: a
hub page whose content is such links stays). A run of links to other sites is a list of
sources or resources and stays; so does a list (``- [x](…)``): its markup says the author
wrote it as one.

The caller runs it only on a page declaring an article (schema.org or ``og:type``): on a
documentation index or a listing, such runs are the content.

Source of the rule: the WCXB dev article pages (the sites above and a travel blog's list
of its own posts); none of the runs' text is in their ground truth. WCXB dev
(webresearch): article 0.9583 → 0.9588 (4 pages up — the cleaning company's page by
+0.19 —, none down), service one page up (+0.002), the other types unchanged. Without the
declared-article gate (offline on the outputs) a documentation index lost −0.44 and a
listing −0.28.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from webresearch.extract.sections import closing_fence, link_texts

__all__ = ["MIN_RUN", "drop_link_runs"]

#: A run of at least this many one-link blocks to the same site is a list of its pages.
MIN_RUN = 3

_ONE_LINK = re.compile(
    r"[*_]*\[(?P<text>[^\]\n]+)\]\(<?(?P<target>[^)\s>]+)>?(?: \"[^\"\n]*\")?\)[*_]*[.:;,!?]?\\?"
)
_LETTER = re.compile(r"[^\W_]")


def drop_link_runs(markdown: str, url: str) -> str:
    """``markdown`` without its runs of bare links to the site's other pages (module
    docstring); ``url``: the page's address. Code blocks are never read. Returns the text
    unchanged when it has none."""
    host = _host(url)
    if not host:
        return markdown
    blocks = markdown.split("\n\n")
    links = _link_blocks(blocks, host)
    drop: set[int] = set()
    start = 0
    while start < len(blocks):
        end = start
        while end < len(blocks) and links[end]:
            end += 1
        if end - start >= MIN_RUN and _letters(blocks[:start]) > _letters(blocks[start:end]):
            drop.update(range(start, end))
        start = max(end, start + 1)
    if not drop:
        return markdown
    return "\n\n".join(b for n, b in enumerate(blocks) if n not in drop)


def _link_blocks(blocks: list[str], host: str) -> list[bool]:
    """For each block: whether it is one link to a page of ``host``, outside code."""
    found: list[bool] = []
    fence: str | None = None
    for block in blocks:
        inside = fence is not None
        if inside or "```" in block or "~~~" in block:
            fence = closing_fence(fence, block)
        if inside or fence is not None:
            found.append(False)
            continue
        match = _ONE_LINK.fullmatch(block.strip())
        target = _host(match.group("target")) if match is not None else None
        found.append(target is not None and target in (host, ""))
    return found


def _host(address: str) -> str:
    try:
        name = urlsplit(address).hostname or ""
    except ValueError:
        return "?"  # an address that does not parse is no page of the site
    return name.removeprefix("www.")


def _letters(blocks: list[str]) -> int:
    return sum(len(_LETTER.findall(link_texts(b))) for b in blocks)
