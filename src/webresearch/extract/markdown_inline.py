"""Inline notations of the markdown walk: sup/sub, MathML, permalinks. Pure functions.

* ``10<sup>6</sup>`` → ``10^6``, ``H<sub>2</sub>O`` → ``H_2O`` (never glued to the text before
  them: flattening changes the numbers), ``x^{n+1}`` when the script has spaces or signs;
  a symbol-only superscript (``™``, ``®``) stays as it is;
* MathML → ``$LaTeX$`` from its TeX annotation or ``alttext``, else its text with scripts,
  fractions and roots written out (``a^2``, ``x_i``, ``(a + b)/2``, ``√x``:
  :mod:`webresearch.extract.mathml`);
* a link never wraps text that holds a link already (:func:`holds_link`);
* heading permalinks (``¶``, ``#``, ``headerlink``, ``anchorjs-link``) and wiki ``[edit]``
  sections are recognised so the walk can leave them out.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.formulas import formula_tex
from webresearch.extract.mathml import mathml_text
from webresearch.extract.urls import image_source

__all__ = [
    "EDIT_LINK",
    "MATH_END",
    "PERMALINK_MARKS",
    "escape_brackets",
    "escape_inline_text",
    "escape_line_starts",
    "holds_link",
    "image_markdown",
    "is_display_math",
    "is_permalink",
    "math_text",
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
    unambiguous (:func:`mathml_text`); ``""`` when it has no text. No surrounding spaces.
    A TeX source empty once unwrapped (MediaWiki's ``{\\displaystyle }`` for an empty
    ``<math>``) counts as none: never an empty ``${}$``."""
    tex = _unwrap_style(formula_tex(el))
    if tex.strip("{} "):
        return f"$${tex}$$" if is_display_math(el) else f"${tex}$"
    return mathml_text(el)


def is_display_math(el: etree._Element) -> bool:
    """A ``<math display="block">``, or one inside a MediaWiki or KaTeX display wrapper
    (``mwe-math-mathml-display``, ``katex-display``: its next ancestors only)."""
    if (el.get("display") or "").strip().lower() == "block":
        return True
    for depth, ancestor in enumerate(el.iterancestors()):
        if depth >= 3:
            break
        names = ancestor.get("class") or ""
        if "math-display" in names or "mathml-display" in names or "katex-display" in names:
            return True
    return False


_STYLE_WRAPPER = re.compile(r"\{\\(?:displaystyle|textstyle)\s*(.*)\}", re.S)


def _unwrap_style(tex: str) -> str:
    """``{\\displaystyle x^{2}}`` → ``x^{2}`` when the outer braces are one balanced group
    (``{\\displaystyle }`` → ``""``)."""
    match = _STYLE_WRAPPER.fullmatch(tex)
    if match is None:
        return tex
    inner = match.group(1).strip()
    depth = 0
    for ch in inner:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return tex
    return inner if depth == 0 else tex


#: Ends a formula in inline text until whitespace is collapsed (no space before a comma).
MATH_END = "\x1d"


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


#: A markdown link's opening ``[text](`` (not an image's ``![``, not an escaped ``\[``).
_MARKDOWN_LINK = re.compile(r"(?<![!\\])\[(?:\\.|[^\]\\])*\]\(")


def holds_link(text: str) -> bool:
    """``text`` (rendered markdown) holds a link: wrapping it in another would nest links,
    which CommonMark §6.3 forbids ("links may not contain other links, at any level of
    nesting"), so the outer ``[`` and ``](url)`` would show as text. An image is no link."""
    return _MARKDOWN_LINK.search(text) is not None


def image_markdown(el: etree._Element, base_url: str) -> str:
    """``![alt](url)`` of an ``<img>`` (alt text, else its title, as plain text:
    :func:`escape_inline_text`; CommonMark §6.4 makes an image description's emphasis or
    code its plain string, so an alt's ``*`` or backticks would be lost), or ``""``
    when it has no usable address (:func:`~webresearch.extract.urls.image_source`)."""
    src = image_source(el, base_url)
    if src is None:
        return ""
    alt = " ".join((el.get("alt") or el.get("title") or "").split())
    return "![" + escape_inline_text(alt) + f"]({src})"


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


_LINE_START_ESCAPE = re.compile(r"^(\s*)([#>+]|[-*](?=\s)|\d{1,9}[.)](?=\s)|`(?=``)|~(?=~~))", re.M)


def escape_line_starts(text: str) -> str:
    """Backslash a character that would turn a plain line into a heading, quote, list item or
    fence (CommonMark's block starts: ``#``, ``>``, ``+``/``-``/``*`` and ``1.``/``1)`` before
    a space, three backticks or tildes)."""
    return _LINE_START_ESCAPE.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


#: What CommonMark (with GFM's strikethrough and a dollar-math extension) can read as inline
#: syntax in plain text: emphasis, code spans, links and images, raw HTML and autolinks,
#: entity references, backslash escapes, strikethrough and math.
_INLINE_ACTIVE = re.compile(r"[\\`*_\[\]<>~$]|&(?=#?\w+;)")


def escape_inline_text(text: str) -> str:
    """Backslash every character of ``text`` that markdown could read as inline syntax, so a
    renderer shows ``text`` as written: for a plain string from an attribute (a frame's
    ``title``) put into a line of markdown. CommonMark §2.4: any ASCII punctuation may be
    backslash-escaped; an ``&`` starting an entity reference is escaped too (``\\&amp;``
    shows ``&amp;``)."""
    return _INLINE_ACTIVE.sub(lambda m: "\\" + m.group(0), text)
