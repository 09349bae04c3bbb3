"""Step 3 of the fallback chain (:mod:`webresearch.extract.html`): the page's text,
whitespace-collapsed, when conversion yields nothing. Pure function."""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.markdown import SKIPPED_TAGS

__all__ = ["plain_text"]

_WS = re.compile(r"\s+")


def plain_text(body: etree._Element) -> str:
    """All text under ``body`` except scripts and styles (:data:`SKIPPED_TAGS`), whitespace
    collapsed to single spaces."""
    parts: list[str] = []
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if event == "start":
            if not tag or tag in SKIPPED_TAGS:
                walker.skip_subtree()
                continue
            if el.text:
                parts.append(el.text)
        elif el is not body and el.tail:
            parts.append(el.tail)
    return _WS.sub(" ", " ".join(parts)).strip()
