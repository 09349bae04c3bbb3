"""Inline notations of the markdown walk: sup/sub, MathML, permalinks. Pure functions.

* ``10<sup>6</sup>`` → ``10^6``, ``H<sub>2</sub>O`` → ``H_2O`` (never glued to the text before
  them: flattening changes the numbers), ``x^{n+1}`` when the script has spaces or signs;
  a symbol-only superscript (``™``, ``®``) stays as it is;
* MathML → ``$LaTeX$`` from its TeX annotation or ``alttext``, else its text;
* heading permalinks (``¶``, ``#``, ``headerlink``, ``anchorjs-link``) and wiki ``[edit]``
  sections are recognised so the walk can leave them out.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.caseless import CaselessPattern

__all__ = ["EDIT_LINK", "PERMALINK_MARKS", "is_permalink", "math_text", "script_text"]

_PERMALINK_CLASS = CaselessPattern(
    r"(?:^|\s)(?:headerlink|header-?anchor|heading-?anchor|anchor-?link|anchorjs-link|"
    r"hash-?link|permalink|deep-?link|mw-editsection|edit-?section)(?:\s|$)"
)
PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", "⚓", "permalink"})
EDIT_LINK = re.compile(r"\s*\[\s*\[?edit\]?(?:\([^)]*\))?\s*\]|\s*\[edit\]\([^)]*\)", re.I)
_SYMBOLS_ONLY = re.compile(r"[™®©*†‡§°'′″]+")
_SIMPLE_SCRIPT = re.compile(r"[\w.,′'+\-−]+")


def script_text(text: str, tag: str) -> str:
    """``text`` of a ``<sup>`` / ``<sub>`` (``tag``) as ``^text`` / ``_text`` (module docstring)."""
    if _SYMBOLS_ONLY.fullmatch(text):
        return text
    mark = "^" if tag == "sup" else "_"
    if _SIMPLE_SCRIPT.fullmatch(text) or text.startswith("["):
        return f"{mark}{text}"
    return f"{mark}{{{text}}}"


def math_text(el: etree._Element) -> str:
    """MathML → ``$LaTeX$`` from its TeX annotation (or ``alttext``), else its text."""
    for annotation in el.iter("annotation", "{*}annotation"):
        tex = " ".join((annotation.text or "").split())
        if "tex" in (annotation.get("encoding") or "").lower() and tex:
            return f" ${tex}$ "
    alt = " ".join((el.get("alttext") or "").split())
    if alt:
        return f" ${alt}$ "
    text = " ".join(
        node.text.strip()
        for node in el.iter()
        if isinstance(node.tag, str)
        and not node.tag.endswith("annotation")
        and node.text
        and node.text.strip()
    )
    return f" {text} " if text else ""


def is_permalink(el: etree._Element) -> bool:
    """A heading permalink or a wiki ``[edit]`` section by its class (``headerlink``,
    ``anchorjs-link``, ``mw-editsection``…) and its text: a mark, or nothing."""
    names = el.get("class")
    match = _PERMALINK_CLASS.search(names) if names else None
    if match is None:
        return False
    if "edit" in match.group(0).lower():
        return True
    text = "".join(el.itertext()).strip()
    return len(text) <= 2 or text.lower() in PERMALINK_MARKS
