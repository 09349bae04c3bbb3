"""Inline notations of the markdown walk: sup/sub, MathML, permalinks. Pure functions.

* ``10<sup>6</sup>`` → ``10^6``, ``H<sub>2</sub>O`` → ``H_2O`` (never glued to the text before
  them: flattening changes the numbers), ``x^{n+1}`` when the script has spaces or signs;
  a symbol-only superscript (``™``, ``®``) stays as it is;
* MathML → ``$LaTeX$`` from its TeX annotation or ``alttext``, else its text with scripts,
  fractions and roots written out (``a^2``, ``x_i``, ``(a + b)/2``, ``√x``);
* heading permalinks (``¶``, ``#``, ``headerlink``, ``anchorjs-link``) and wiki ``[edit]``
  sections are recognised so the walk can leave them out.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.formulas import formula_tex
from webresearch.extract.urls import image_source

__all__ = [
    "EDIT_LINK",
    "MATH_END",
    "MAX_MATH_DEPTH",
    "PERMALINK_MARKS",
    "escape_brackets",
    "image_markdown",
    "is_display_math",
    "is_permalink",
    "math_text",
    "mathml_text",
    "script_text",
]

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
    """MathML → ``$LaTeX$`` from its TeX annotation (or ``alttext``; MediaWiki's
    ``{\\displaystyle …}`` wrapper left out), ``$$LaTeX$$`` for a display formula
    (:func:`is_display_math`), else as text whose scripts, fractions and roots stay
    unambiguous (:func:`mathml_text`); ``""`` when it has no text. No surrounding spaces."""
    tex = formula_tex(el)
    if tex:
        tex = _unwrap_style(tex)
        return f"$${tex}$$" if is_display_math(el) else f"${tex}$"
    return mathml_text(el)


def is_display_math(el: etree._Element) -> bool:
    """A ``<math display="block">``, or one inside a MediaWiki display wrapper
    (``mwe-math-mathml-display``, its next ancestors only)."""
    if (el.get("display") or "").strip().lower() == "block":
        return True
    for depth, ancestor in enumerate(el.iterancestors()):
        if depth >= 3:
            break
        if "math-display" in (ancestor.get("class") or "") or "mathml-display" in (
            ancestor.get("class") or ""
        ):
            return True
    return False


_STYLE_WRAPPER = re.compile(r"\{\\(?:displaystyle|textstyle)\s*(.*)\}", re.S)


def _unwrap_style(tex: str) -> str:
    """``{\\displaystyle x^{2}}`` → ``x^{2}`` when the outer braces are one balanced group."""
    match = _STYLE_WRAPPER.fullmatch(tex)
    if match is None:
        return tex
    inner = match.group(1).strip()
    depth = 0
    for ch in inner:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return tex
    return inner if depth == 0 and inner else tex


def mathml_text(el: etree._Element, depth: int = 0) -> str:
    """Presentation MathML as one line of text with the sup/sub notation of
    :func:`script_text` (MathML Core §3: the layout elements).

    ``<msup>a 2</msup>`` → ``a^2``, ``<msub>x i</msub>`` → ``x_i``, ``<msubsup>`` → ``x_i^2``,
    ``<munder>``/``<mover>`` (limits) likewise, ``<mfrac>`` → ``a/b``, ``<msqrt>`` → ``√x``,
    ``<mroot>`` → ``x^(1/n)``,
    ``<mtable>`` → ``[1, 0; 0, 1]`` (cells by commas, rows by semicolons); a part holding several tokens is put in ``()`` (a base or a
    fraction's term) or ``{}`` (a script). Token elements give their text, rows their parts
    joined by spaces; annotations are left out. Past :data:`MAX_MATH_DEPTH` levels the text
    is flattened (no recursion limit is reached on hostile markup).
    """
    name = _local(el)
    if name in ("annotation", "annotation-xml", "none", "mprescripts"):
        return ""
    if depth > MAX_MATH_DEPTH:
        return " ".join(" ".join(el.itertext()).split())
    parts = [mathml_text(child, depth + 1) for child in el if isinstance(child.tag, str)]
    if name in ("mi", "mn", "mo", "mtext", "ms") or not parts:
        own = " ".join("".join(el.itertext()).split())
        return own
    if name in ("msup", "mover") and len(parts) >= 2:
        return _base(parts[0]) + script_text(parts[1], "sup")
    if name in ("msub", "munder") and len(parts) >= 2:
        return _base(parts[0]) + script_text(parts[1], "sub")
    if name in ("msubsup", "munderover") and len(parts) >= 3:
        return _base(parts[0]) + script_text(parts[1], "sub") + script_text(parts[2], "sup")
    if name == "mfrac" and len(parts) >= 2:
        return f"{_base(parts[0])}/{_base(parts[1])}"
    if name == "msqrt":
        return "√" + _base(_row(parts))
    if name == "mroot" and len(parts) >= 2:
        return f"{_base(parts[0])}^(1/{parts[1]})"
    if name == "mtr":
        return ", ".join(p for p in parts if p)
    if name == "mtable":
        return "[" + "; ".join(p for p in parts if p) + "]"
    return _row(parts)


#: Ends a formula in inline text until whitespace is collapsed (no space before a comma).
MATH_END = "\x1d"
#: MathML nesting converted structurally; deeper parts are flattened to their text.
MAX_MATH_DEPTH = 64
_OPEN_SPACE = re.compile(r"([(\[{]) | (?=[)\]},])")


def _local(el: etree._Element) -> str:
    return el.tag.rpartition("}")[2].lower() if isinstance(el.tag, str) else ""


def _row(parts: list[str]) -> str:
    """Parts of a row joined by spaces, none just inside brackets or before a comma."""
    return _OPEN_SPACE.sub(r"\1", " ".join(p for p in parts if p))


def _base(text: str) -> str:
    """``text`` as the base of a script or a term of a fraction: bracketed when it has
    several tokens (``(a + b)^2``, ``(n + 1)/2``) and is not bracketed already."""
    if " " not in text or (text[0] + text[-1]) in ("()", "[]", "{}", "||"):
        return text
    return f"({text})"


def escape_brackets(text: str) -> str:
    """Escape brackets in link text unless they are balanced markdown (an image)."""
    if text.startswith("![") or ("[" not in text and "]" not in text):
        return text
    depth = 0
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if depth < 0:
            break
    if depth == 0:
        return text
    return text.replace("[", "\\[").replace("]", "\\]")


def image_markdown(el: etree._Element, base_url: str) -> str:
    """``![alt](url)`` of an ``<img>`` (alt text, else its title, brackets escaped), or ``""``
    when it has no usable address (:func:`~webresearch.extract.urls.image_source`)."""
    src = image_source(el, base_url)
    if src is None:
        return ""
    alt = " ".join((el.get("alt") or el.get("title") or "").split())
    return "![" + alt.replace("]", "\\]").replace("[", "\\[") + f"]({src})"


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
