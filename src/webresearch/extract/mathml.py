"""Presentation MathML as one line of unambiguous text (MathML Core §3). Pure functions.

Used when a ``<math>`` has no TeX source (:func:`~webresearch.extract.formulas.formula_tex`):

* scripts always show their mark: ``<msup>a 2</msup>`` → ``a^2``, ``<msub>x *</msub>`` →
  ``x_*``, ``<msubsup>`` → ``x_i^2``, ``<munder>``/``<mover>`` (limits) likewise; a script
  of more than one token is braced: ``x^{n + 1}``, ``x^{−1}``;
* ``<mfrac>`` → ``a/b``, ``<msqrt>`` → ``√x``, ``<mroot>`` → ``x^(1/n)``, ``<mtable>`` →
  ``[1, 0; 0, 1]`` (cells by commas, rows by semicolons), ``<mfenced>`` → ``(a, b)``;
* a base, a fraction's term or a root's radicand is bracketed when it is a fraction, a
  script, a root or a row of more than one token — unless it is exactly one bracketed
  group already: ``(a/b)^2``, ``1/(1/x)``, ``1/((a + 1)(b + 1))``, ``(x^2)^3``,
  ``√(|a| + |b|)``, but ``(a + b)^2``;
* tokens of a row are joined by spaces, none inside brackets or bars, before ``,`` ``.``
  ``;``, between ``)(`` or after a sign that has nothing before it (``−b``, ``x = −1``);
  invisible operators (function application, invisible times) are left out.

Annotations are left out. Past :data:`MAX_MATH_DEPTH` levels the text is flattened (no
recursion limit is reached on hostile markup).
"""

from __future__ import annotations

from lxml import etree

__all__ = ["MAX_MATH_DEPTH", "mathml_text"]

#: MathML nesting converted structurally; deeper parts are flattened to their text.
MAX_MATH_DEPTH = 64

_TOKENS = frozenset({"mi", "mn", "mo", "mtext", "ms"})
_OPENING = frozenset("([{⟨⌊⌈")
_CLOSING = frozenset(")]}⟩⌋⌉")
_NO_SPACE_BEFORE = frozenset(",.;:!?") | _CLOSING
_SIGNS = frozenset({"-", "−", "+", "±", "∓"})
_INVISIBLE = frozenset({"\u2061", "\u2062", "\u2063", "\u2064"})
_PAIRS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⌊": "⌋", "⌈": "⌉"}

# What a converted part is, for bracketing: one token (or one bracketed group), an
# operator, or something compound (a fraction, script, root, or several tokens).
_ATOM, _OP, _COMPOUND = "atom", "op", "compound"


def mathml_text(el: etree._Element) -> str:
    """Presentation MathML under ``el`` as one line of text (module docstring)."""
    return _convert(el, 0)[0]


def _local(el: etree._Element) -> str:
    return el.tag.rpartition("}")[2].lower() if isinstance(el.tag, str) else ""


def _convert(el: etree._Element, depth: int) -> tuple[str, str]:
    """(text, kind) of one MathML element."""
    name = _local(el)
    if name in ("annotation", "annotation-xml", "none", "mprescripts"):
        return "", _ATOM
    if depth > MAX_MATH_DEPTH:
        return " ".join(" ".join(el.itertext()).split()), _COMPOUND
    children = [c for c in el if isinstance(c.tag, str)]
    if name in _TOKENS or not children:
        own = "".join(ch for ch in "".join(el.itertext()) if ch not in _INVISIBLE)
        own = " ".join(own.split())
        if name == "mo":
            return own, _OP
        return own, _ATOM if " " not in own else _COMPOUND
    parts = [_convert(c, depth + 1) for c in children]
    if name in ("msup", "mover") and len(parts) >= 2:
        return _bracket(parts[0]) + _script(parts[1], "^"), _COMPOUND
    if name in ("msub", "munder") and len(parts) >= 2:
        return _bracket(parts[0]) + _script(parts[1], "_"), _COMPOUND
    if name in ("msubsup", "munderover") and len(parts) >= 3:
        return _bracket(parts[0]) + _script(parts[1], "_") + _script(parts[2], "^"), _COMPOUND
    if name == "mfrac" and len(parts) >= 2:
        return f"{_bracket(parts[0])}/{_bracket(parts[1])}", _COMPOUND
    if name == "msqrt":
        return "√" + _bracket(_row(parts)), _COMPOUND
    if name == "mroot" and len(parts) >= 2:
        return f"{_bracket(parts[0])}^(1/{parts[1][0]})", _COMPOUND
    if name == "mtr":
        return ", ".join(p for p, _ in parts if p), _COMPOUND
    if name == "mtable":
        return "[" + "; ".join(p for p, _ in parts if p) + "]", _ATOM
    if name == "mfenced":
        opening, closing = el.get("open", "("), el.get("close", ")")
        separator = (el.get("separators", ",").strip() or ",")[0]
        return opening + f"{separator} ".join(p for p, _ in parts if p) + closing, _ATOM
    return _row(parts)


def _row(parts: list[tuple[str, str]]) -> tuple[str, str]:
    """Parts of a row joined by spaces (module docstring), and the row's kind."""
    items = [(text, kind) for text, kind in parts if text]
    if len(items) == 1:
        return items[0]
    out = ""
    glue = True  # no space before the next token
    bars = 0  # open absolute-value bars
    previous_kind = ""
    for text, kind in items:
        if text == "|":
            closing = bars > 0 and not glue
            bars += -1 if closing else 1
            out += ("" if glue or closing else " ") + text
            glue = not closing
            previous_kind = _ATOM if closing else _OP
            continue
        unary = kind == _OP and text in _SIGNS and (not out or previous_kind == _OP)
        space = not (glue or text[0] in _NO_SPACE_BEFORE or (out.endswith(")") and text[0] == "("))
        out += (" " if space else "") + text
        glue = unary or text[-1] in _OPENING
        previous_kind = _OP if kind == _OP and text[-1] not in _CLOSING else _ATOM
    return out, _ATOM if _one_group(out) else _COMPOUND


def _one_group(text: str) -> bool:
    """``text`` is exactly one bracketed group: its first bracket closes at its end."""
    if len(text) < 2:
        return False
    if text[0] == "|":
        return text[-1] == "|" and "|" not in text[1:-1]
    closing = _PAIRS.get(text[0])
    if closing is None or text[-1] != closing:
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == text[0]) - (ch == closing)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _bracket(part: tuple[str, str]) -> str:
    """A base, a fraction's term or a radicand: bracketed unless one token or one group."""
    text, kind = part
    if kind in (_ATOM, _OP) or _one_group(text):
        return text
    return f"({text})"


def _script(part: tuple[str, str], mark: str) -> str:
    """A sub- or superscript with its mark, braced when it is more than one token."""
    text, kind = part
    if not text:
        return ""
    if (kind in (_ATOM, _OP) and " " not in text) or _one_group(text):
        return mark + text
    return f"{mark}{{{text}}}"
