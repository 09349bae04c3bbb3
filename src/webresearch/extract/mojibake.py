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
"""

from __future__ import annotations

import ftfy

__all__ = ["EVIDENCE", "MIN_EVIDENCE", "repair_mojibake"]

#: "â" then U+0080 (Latin-1) or "€" (Windows-1252): the bytes E2 80 of ’ “ ” – — … • read
#: as characters.
EVIDENCE = ("\u00e2\u0080", "\u00e2\u20ac")
#: A text needs this many pieces of evidence before it is repaired.
MIN_EVIDENCE = 2


def repair_mojibake(text: str) -> str:
    """``text`` with its double-decoded UTF-8 put right when it shows the evidence
    (module docstring), else ``text`` itself."""
    if "\u0080" not in text and "\u20ac" not in text:  # one character: a fast scan
        return text
    if sum(text.count(mark) for mark in EVIDENCE) < MIN_EVIDENCE:
        return text
    return ftfy.fix_encoding(text)
