"""Superscripts and subscripts as text: ``<sup>`` → ``^``, ``<sub>`` → ``_``. Pure functions.

Flattening a script into the text around it changes the numbers (``10<sup>6</sup>`` is no
``106``), so a script is always marked, and braced whenever the bare form could be read
another way. One rule, the same in prose, in inline code and in ``<pre>`` blocks
(``E = mc^2`` in a code block, not ``mc2``):

* bare (``^x`` / ``_x``) when the script is **one token** — only digits (``10^6``,
  ``2^31``) or only letters (``T_max``, ``1^st``) — and the character after it is no
  letter, no digit and no other script: ``10^6 joules``, ``5 m^2.``, ``2^31−1``;
* braced (``^{x}`` / ``_{x}``) otherwise: a script of more than one token (``10^{-6}``,
  ``10^{n+1}``, ``x^{2y}``, ``T_{max value}``, ``f^{(n)}``), one with a letter or digit
  right after it (``10^{6}5``, ``x^{2}y``, ``H_{2}O``, ``CO_{2}e``), and one beside another
  script, before or after it (``a^{b}^{c}``, ``E_{k}^{2}``, ``a_{i}b_{j}``);
* a script whose text is only symbols (``™``, ``®``, ``*``, ``†``, ``°``) stays as written,
  and a footnote link (``Smith^[1](…)``) is marked but never braced.

A bare script thus ends where its token ends, and a braced one at its brace: the reader can
always tell ``x^{2}y`` (x² times y) from ``x^{2y}``.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.markdown_prose import PROSE_BRACKET, PROSE_UNDERSCORE, plain_text

__all__ = ["SCRIPT_TAGS", "beside_script", "code_script", "following_char", "script_text"]

SCRIPT_TAGS = frozenset({"sup", "sub"})
_SYMBOLS_ONLY = re.compile(r"[™®©*†‡§°'′″]+")
_ONE_TOKEN = re.compile(r"[0-9]+|[^\W\d_]+")
#: Inline elements a script's neighbour is looked for through (``<a>note<sup>3</sup></a>.``:
#: the full stop after the link follows the script).
_INLINE = frozenset(
    {"a", "span", "b", "strong", "em", "i", "u", "code", "kbd", "samp", "tt", "var", "small",
     "big", "mark", "font", "abbr", "cite", "q", "s", "del", "ins", "dfn", "time", "data"}
)  # fmt: skip
_MAX_CLIMB = 4


def _tag(node: etree._Element) -> str:
    tag = node.tag
    return tag.lower().rpartition("}")[2] if isinstance(tag, str) else ""


def following_char(el: etree._Element) -> str:
    """The first character shown after the element ``el`` (its tail, else the next sibling's
    text, else what follows its inline parent; up to four levels): ``"^"`` / ``"_"`` when a
    ``<sup>`` / ``<sub>`` comes next, ``" "`` for a line break or a block, ``""`` at the end
    of a block."""
    node = el
    for _ in range(_MAX_CLIMB):
        tail: str | None = node.tail
        if tail:
            return tail[0]
        sibling = node.getnext()
        while sibling is not None:
            tag = _tag(sibling)
            if tag in SCRIPT_TAGS:
                return "^" if tag == "sup" else "_"
            if tag and tag not in _INLINE:
                return " "
            text = next((t for t in sibling.itertext() if t), "") if tag else ""
            if text:
                return text[0]
            tail = sibling.tail
            if tail:
                return tail[0]
            sibling = sibling.getnext()
        parent = node.getparent()
        if parent is None or _tag(parent) not in _INLINE:
            return ""
        node = parent
    return ""


def beside_script(el: etree._Element) -> bool:
    """``el`` follows another ``<sup>`` / ``<sub>`` with no text between them
    (``E<sub>k</sub><sup>2</sup>``)."""
    before = el.getprevious()
    return before is not None and _tag(before) in SCRIPT_TAGS and not before.tail


def _braced(plain: str, following: str, beside: bool) -> bool:
    return (
        beside or not _ONE_TOKEN.fullmatch(plain) or following.isalnum() or following in ("^", "_")
    )


def script_text(text: str, tag: str, following: str = "", beside: bool = False) -> str:
    """``text`` (inline markdown of a ``<sup>`` / ``<sub>``: ``tag``) as ``^text``,
    ``_text``, ``^{text}`` or ``_{text}`` (module docstring); ``following``: the character
    after the element (:func:`following_char`), ``beside``: it follows another script
    (:func:`beside_script`). The ``_`` is the page's text, escaped where it would pair
    into emphasis (:mod:`.markdown_prose`)."""
    plain = plain_text(text)
    if _SYMBOLS_ONLY.fullmatch(plain):
        return text
    mark = "^" if tag == "sup" else PROSE_UNDERSCORE
    if text.startswith(("[", PROSE_BRACKET)) or not _braced(plain, following, beside):
        return f"{mark}{text}"
    return f"{mark}{{{text}}}"


def code_script(text: str, el: etree._Element) -> str:
    """The text of a ``<sup>`` / ``<sub>`` ``el`` inside a ``<pre>`` as the same notation
    (``mc^2``, ``H_{2}O``; a symbol-only script as written, an empty one as nothing)."""
    if not text or _SYMBOLS_ONLY.fullmatch(text):
        return text
    mark = "^" if _tag(el) == "sup" else "_"
    if _braced(text, following_char(el), beside_script(el)):
        return f"{mark}{{{text}}}"
    return f"{mark}{text}"
