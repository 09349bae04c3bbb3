"""UTF-8 text that was decoded once more as Latin-1 or Windows-1252, put right. Pure functions.

A CMS or a crawler that reads a UTF-8 page as Latin-1 (or Windows-1252) and writes it out as
UTF-8 again turns every non-ASCII character into two to four others: ``don’t`` becomes
``donâ\\x80\\x99t`` (Latin-1: the bytes ``80 99`` become invisible C1 control characters)
or ``donâ€™t`` (Windows-1252), ``café`` becomes ``cafÃ©``. Browsers show the garbage; a
model reading it sees broken words (``donât`` is one word that means nothing).

The evidence is the right single quotation mark's, dashes', ellipsis' and bullet's first two
bytes read as characters: ``â`` followed by U+0080 or by ``€`` (:data:`EVIDENCE`), which no
language writes. A text holding it at least :data:`MIN_EVIDENCE` times is repaired by ftfy
(``ftfy.fix_encoding``: Robyn Speer's mojibake detector and fixer, which also puts back the
Windows-1252 punctuation a page read as C1 controls, ``shouldn\\x92t``); other text is returned
as it is. A search for one character (U+0080 or "€") decides most pages: they cost nothing
(0.02 ms on a 250 kB page); ftfy's pass over a page with the evidence takes 10–80 ms a
100–200 kB page (24 of the 1,026 corpus pages).

Source: WCXB dev pages served double-encoded (the ground truth of most of them has the
real characters). WCXB dev (webresearch alone, against main 096fedb + page_toc and
image_neighbours): article +0.0002 (8 up: 5676 +0.029, 4125 +0.021, 4177 +0.019; 3 down
whose ground truth keeps the garbage: 4859 −0.018, 4267 −0.010, 4526 −0.009), service
+0.0006 (3 up, none down), collection 4465 +0.002, documentation −0.0004 (two man pages,
0666 and 0688, whose ground truth keeps "â\\x9f¨" for "⟨"), forum, listing, product and
Zyte dev unchanged.

Two limits (review r16): a page ABOUT mojibake ("why does my page show â€™?") quotes the
garbage on purpose, and code shows it as data. So (1) the text of ``<pre>``, ``<code>``,
``<script>``, ``<style>`` and ``<textarea>`` elements is never touched nor counted, and (2) a
page is left as written when one run of text (between two tags) or one tag holds both the
evidence and a correctly encoded character of the same family (:data:`SAME_FAMILY`: ’ ‘ “ ”
– — … •): a double decoding garbles every such character of the text it touches, so a writer
who types ``’`` beside ``â€™`` has a working encoding and quotes the sequence. A page whose
parts come from two sources (a shop's template in UTF-8 around a seller's garbled
description: WCXB dev 3020) keeps the two apart and is still repaired. ftfy then runs on
each run of text or tag that is not ASCII, not on the whole document: scripts and styles,
most of a big page's bytes, cost nothing (WCXB dev 3020, 1.3 MB: 3.8 s → 0.25 s). WCXB
dev against main e15e3b5: documentation 0666 +0.009 and 0688 +0.006 (man pages whose ground truth keeps the garbled
"⟨": 0688's is all in code, 0666's is now repaired run by run), the other pages unchanged.
"""

from __future__ import annotations

import re

import ftfy

__all__ = ["EVIDENCE", "MIN_EVIDENCE", "SAME_FAMILY", "repair_mojibake"]

#: "â" then U+0080 (Latin-1) or "€" (Windows-1252): the bytes E2 80 of ’ “ ” – — … • read
#: as characters.
EVIDENCE = ("\u00e2\u0080", "\u00e2\u20ac")
#: A text needs this many pieces of evidence before it is repaired.
MIN_EVIDENCE = 2
#: The characters bytes 80–FF become when read as Windows-1252 or Latin-1: the pieces of a
#: garbled character.
_MISREAD = "".join(
    bytes([byte]).decode("cp1252", errors="replace").replace("\ufffd", chr(byte))
    for byte in range(0x80, 0x100)
)
#: Correctly encoded characters whose UTF-8 starts with E2 80 (’ ‘ “ ” – — … •): the
#: evidence's own family. Windows-1252 writes bytes 85 and 91–97 as these very characters,
#: so one that follows a misread byte (``Ã–`` for Ö, ``â€”`` for —) is a piece of a garbled
#: character and does not count.
SAME_FAMILY = re.compile(
    f"(?<![{re.escape(_MISREAD)}])[\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u2022]"
)
#: Elements whose text is data, not prose (kept whole, never repaired): code and
#: raw-text elements.
_VERBATIM = re.compile(
    r"(<(pre|code|script|style|textarea)\b[^>]*>.*?</\2\s*>)", re.IGNORECASE | re.DOTALL
)
#: A tag (kept as one part: its attribute values may hold garbled text too).
_TAG = re.compile(r"(<[^>]*>)")


def repair_mojibake(text: str) -> str:
    """``text`` (an HTML document or plain text) with its double-decoded UTF-8 put right
    when it shows the evidence and quotes none of it (module docstring), else ``text``
    itself."""
    if "\u0080" not in text and "\u20ac" not in text:  # one character: a fast scan
        return text
    if sum(text.count(mark) for mark in EVIDENCE) < MIN_EVIDENCE:
        return text
    pieces = _VERBATIM.split(text)  # [prose, element, name, prose, element, name, ...]
    prose = [_TAG.split(piece) for piece in pieces[::3]]
    parts = [part for runs in prose for part in runs]
    if sum(part.count(mark) for part in parts for mark in EVIDENCE) < MIN_EVIDENCE:
        return text
    if any(_quotes_evidence(part) for part in parts):
        return text
    out: list[str] = []
    for index, runs in enumerate(prose):
        out.extend(run if run.isascii() else ftfy.fix_encoding(run) for run in runs)
        if 3 * index + 1 < len(pieces):
            out.append(pieces[3 * index + 1])
    return "".join(out)


def _quotes_evidence(part: str) -> bool:
    """Whether ``part`` holds the evidence beside a correctly encoded character of its
    family: the garbled sequence is quoted, not the product of a double decoding."""
    return any(mark in part for mark in EVIDENCE) and SAME_FAMILY.search(part) is not None
