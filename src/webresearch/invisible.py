"""Invisible characters removed from everything a model reads (SPEC §1, issue 20). Pure.

Text a person never sees can still instruct a model ("ASCII smuggling", hidden prompt
injection): Unicode Tag characters spell ASCII invisibly, zero-width characters hide
between letters, bidi controls reorder what is displayed. :func:`strip_invisible` removes,
by Unicode property (the ``regex`` module's tables, not a hand list):

* every ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt): the Tag block
  U+E0000–U+E007F, zero-width space/joiners, word joiner, soft hyphen, BOM, the Hangul
  fillers, variation selectors, reserved default-ignorable code points …;
* every ``Bidi_Control`` (embeddings, overrides, isolates, LRM/RLM/ALM; PropList.txt);

except what a script or an emoji needs, decided from the neighbours:

* ZWJ/ZWNJ after a virama (``Canonical_Combining_Class=9``: Devanagari क्‍ष, Sinhala ශ්‍රී,
  Malayalam chillus) and ZWNJ between joining letters (``Joining_Type`` (L|D) T* ZWNJ T*
  (R|D): Persian می‌خواهم) — the CONTEXTJ rules of RFC 5892 Appendix A.1/A.2, the IETF's
  definition of where a joiner is needed;
* ZWJ between two emoji (``Extended_Pictographic``, optionally with a skin-tone modifier or
  U+FE0F before the joiner: 👩‍💻, ❤️‍🔥) — UTS #51's emoji ZWJ sequence;
* one default-ignorable nonspacing mark (a variation selector such as U+FE0F, the combining
  grapheme joiner, a Mongolian free variation selector) directly after a visible base
  character; a run of them (data smuggled as variation selectors) keeps none after the first.

Everything else stays, right-to-left text included (it needs no control characters to be
read). The result is stable: cleaning clean text removes nothing.
"""

from __future__ import annotations

import regex

__all__ = ["strip_invisible"]

_V1 = regex.V1 | regex.VERBOSE

#: Candidates: every default-ignorable code point and bidi control (the Tag block is
#: default-ignorable; named for the reader).
_CANDIDATE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Block=Tags}]", _V1)
#: Candidates no context ever needs: all but the two joiners and the nonspacing marks.
_ALWAYS = regex.compile(
    r"[[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Block=Tags}]--[\u200C\u200D]--\p{Mn}]",
    _V1,
)
#: The joiners and marks that their neighbours do not need (module docstring).
_UNNEEDED = regex.compile(
    r"""
    (?<!\p{Canonical_Combining_Class=Virama})       # RFC 5892 A.1/A.2: after a virama
    (?:
        (?<!\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?)\u200D   # no emoji before
      | \u200D(?!\p{Extended_Pictographic})                                # or none after
      | (?<![\p{Joining_Type=L}\p{Joining_Type=D}]\p{Joining_Type=T}*)\u200C  # no joining
      | \u200C(?!\p{Joining_Type=T}*[\p{Joining_Type=R}\p{Joining_Type=D}])  # letter around
    )
    | (?<![^\p{Default_Ignorable_Code_Point}\p{Bidi_Control}])   # a mark not right after
      [\p{Default_Ignorable_Code_Point}&&\p{Mn}]                # a visible base character
    """,
    _V1,
)


def strip_invisible(text: str) -> tuple[str, int]:
    """``text`` without invisible characters, and how many were removed.

    Args:
        text: any text a model may read (page text, a title, a snippet, an error message).

    Returns:
        (the clean text, the number of code points removed). Text without any candidate is
        returned as it is (one scan).
    """
    if text.isascii() or not _CANDIDATE.search(text):  # every candidate is non-ASCII
        return text, 0
    original = len(text)
    # Joiners and marks are judged by their neighbours in the text as given first (a mark
    # after a zero-width space has no visible base), then the rest goes at once.
    text = _ALWAYS.sub("", _UNNEEDED.sub("", text))
    # Removing one may change another's neighbours: repeat until nothing changes, so
    # cleaning the result again removes nothing.
    for _ in range(8):
        text, count = _UNNEEDED.subn("", text)
        if not count:
            break
    return text, original - len(text)
