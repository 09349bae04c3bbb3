"""Formulas shown twice: MathML for assistive technology next to a rendering. Pure functions.

Wikipedia (MediaWiki's Math extension) writes each formula as
``<span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display:
none"><math alttext="…">…</math></span><img class="mwe-math-fallback-image-inline"
aria-hidden="true" alt="TeX"></span>``; KaTeX as ``<span class="katex"><span
class="katex-mathml"><math>…</math></span><span class="katex-html" aria-hidden="true">glyphs
</span></span>``. The ``<math>`` is the formula with its TeX source (the annotation or
``alttext``), the rendering a picture or glyphs of the same formula for the eye. A reader
of the markdown needs it once, as TeX:

* the wrappers that hold nothing but the ``<math>`` lose their ``display:none`` /
  ``hidden`` marking, and no element holding only formulas is a hidden block, whatever
  hides it (a style, an attribute, a utility class such as ``sr-only``:
  :func:`holds_only_formula`, read by
  :func:`~webresearch.extract.page_noise.hidden_blocks`);
* the rendering right next to the formula's outermost wrapper (a sibling before or after
  it, no text between) — an element marked ``aria-hidden="true"``, KaTeX's ``katex-html``
  glyphs (KaTeX before 0.10 did not mark them ``aria-hidden``), an element whose text is
  the formula's own characters (its MathML tokens, spaces and invisible characters aside:
  any renderer's glyphs), or an image whose alt text is the formula's TeX — is removed: it
  is a second copy of the formula, not content.

MathJax 2 keeps each formula's TeX in a ``<script type="math/tex">`` (``; mode=display``
for a display formula) and puts its renderings right before it: an element of class
``MathJax_Preview``, then ``MathJax``, ``MathJax_Display``, ``MathJax_SVG_Display``,
``MathJax_CHTML``, ``mjx-chtml``… (which may hold an assistive ``<math>``). :func:`tex_scripts` turns
each such script into a ``<math>`` holding the TeX as its annotation and removes those
renderings, before scripts are dropped; a script not yet typeset gives its TeX too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from webresearch.extract.tree import remove_keep_tail

__all__ = ["formula_tex", "holds_only_formula", "show_formulas", "tex_scripts"]

_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:;|$)", re.I
)


#: MathJax 2's renderings of the formula in the script after them (module docstring).
_MATHJAX_RENDERING = re.compile(r"(?:^|\s)(?:MathJax(?:_[A-Za-z]+)*|mjx-chtml)(?:\s|$)")
#: Blocks and cells that say something of their own even when their text is the formula's
#: (a table of symbols and their readings): never a rendering by their text alone.
_TEXT_BLOCKS = frozenset(
    {"p", "li", "td", "th", "tr", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "table"}
)
_KATEX_GLYPHS = re.compile(r"(?:^|\s)katex-html(?:\s|$)")
#: Left out when comparing a rendering's text with the formula's: spaces, zero-width and
#: invisible characters (KaTeX's struts, MathML's invisible times and function application).
_NOT_GLYPHS = re.compile(r"[\s\u200b-\u200d\u2060-\u2064\ufeff]+")


def _local(el: etree._Element) -> str:
    return el.tag.rpartition("}")[2].lower() if isinstance(el.tag, str) else ""


def formula_tex(math: etree._Element) -> str:
    """The TeX source of a ``<math>`` element: its ``application/x-tex`` annotation, else its
    ``alttext``, whitespace collapsed; ``""`` when it has neither."""
    for el in math.iter():
        if _local(el) == "annotation" and "tex" in (el.get("encoding") or "").lower():
            tex = " ".join((el.text or "").split())
            if tex:
                return tex
    return " ".join((math.get("alttext") or "").split())


def _blank(text: str | None) -> bool:
    return text is None or text.isspace() or not text


def show_formulas(root: etree._Element) -> int:
    """Unhide the ``<math>`` elements under ``root`` and drop their second renderings, in
    place (module docstring); how many renderings were removed."""
    removed = 0
    # "{*}math": a <math> in any namespace or none (the HTML parser lower-cases tag names)
    for math in list(root.iter("{*}math")):
        if any(_local(a) == "math" for a in math.iterancestors()):
            continue
        top = math
        parent = top.getparent()
        # wrappers that hold only this formula: unhide them
        while parent is not None and len(parent) == 1 and _blank(parent.text) and _blank(top.tail):
            if parent.tag in ("body", "html"):
                break
            top = parent
            parent = top.getparent()
        for el in (math, *(a for a in math.iterancestors() if a is not parent and _inside(a, top))):
            style = el.get("style")
            if style and _HIDING_STYLE.search(style):
                el.set("style", _HIDING_STYLE.sub(";", style))
            if el.get("hidden") is not None:
                del el.attrib["hidden"]
        removed += _drop_renderings(top, formula_tex(math), _glyphs(math))
    return removed


def tex_scripts(root: etree._Element, scripts: Sequence[etree._Element] | None = None) -> int:
    """Turn MathJax 2's ``<script type="math/tex">`` elements under ``root`` into ``<math>``
    elements holding their TeX (``display="block"`` for ``mode=display``) and remove the
    renderings right before them, in place (module docstring); how many scripts were
    turned. A script without TeX is removed with its renderings. ``scripts``: the
    ``<script>`` elements under ``root`` when the caller has listed them (``None``: read
    here)."""
    turned = 0
    listed = root.iter("script") if scripts is None else scripts
    for script in [el for el in listed if el.get("type")]:
        kind = (script.get("type") or "").strip().lower()
        if not kind.startswith("math/tex"):
            continue
        previous = script.getprevious()
        while (
            previous is not None
            and isinstance(previous.tag, str)
            and _blank(previous.tail)
            and _MATHJAX_RENDERING.search(previous.get("class") or "")
        ):
            remove_keep_tail(previous)
            previous = script.getprevious()
        tex = " ".join((script.text or "").split())
        if not tex:
            remove_keep_tail(script)
            continue
        math = etree.Element("math")
        if "mode=display" in kind.replace(" ", ""):
            math.set("display", "block")
        annotation = etree.SubElement(math, "annotation", encoding="application/x-tex")
        annotation.text = tex
        math.tail = script.tail
        parent = script.getparent()
        if parent is not None:
            parent.replace(script, math)
            turned += 1
    return turned


def _glyphs(math: etree._Element) -> str:
    """The characters a ``<math>`` shows: its text without annotations, spaces and
    invisible characters."""
    skip = {
        d for a in math.iter() if _local(a) in ("annotation", "annotation-xml") for d in a.iter()
    }
    parts: list[str] = []
    for el in math.iter():
        if el not in skip and isinstance(el.tag, str):
            parts.append(el.text or "")
        if el is not math and el.getparent() not in skip:
            parts.append(el.tail or "")
    return _NOT_GLYPHS.sub("", "".join(parts))


def _inside(el: etree._Element, top: etree._Element) -> bool:
    """``el`` is ``top`` or below it."""
    return el is top or any(a is top for a in el.iterancestors())


def _drop_renderings(formula: etree._Element, tex: str, glyphs: str) -> int:
    """Remove the renderings of the formula right next to ``formula`` (its outermost
    wrapper): the siblings before and after it, with no text between, that are
    drawn for the eye only; how many were removed."""
    found = []
    for step in (etree._Element.getnext, etree._Element.getprevious):
        edge = formula
        while True:
            if step is etree._Element.getnext and not _blank(edge.tail):
                break
            sibling = step(edge)
            if sibling is None or not isinstance(sibling.tag, str):
                break
            if step is etree._Element.getprevious and not _blank(sibling.tail):
                break
            if not _is_rendering(sibling, tex, glyphs):
                break
            found.append(sibling)
            edge = sibling
    for sibling in found:
        remove_keep_tail(sibling)
    return len(found)


def holds_only_formula(el: etree._Element) -> bool:
    """``el`` is a ``<math>`` or holds one and no text outside formulas: hiding it hides a
    formula from the eye only (module docstring), it is not left out."""
    if _local(el) == "math":
        return True
    if not any(_local(d) == "math" for d in el.iter()):
        return False
    if not _blank(el.text):
        return False
    for child in el:
        if not _blank(child.tail):
            return False
        if (
            _local(child) != "math"
            and not holds_only_formula(child)
            and "".join(child.itertext()).strip()
        ):
            return False
    return True


def _is_rendering(el: etree._Element, tex: str, glyphs: str) -> bool:
    """An element drawn for the eye only (``aria-hidden``, KaTeX's glyphs), one showing
    the formula's own characters ``glyphs``, or an image of the formula."""
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    if _KATEX_GLYPHS.search(el.get("class") or ""):
        return True
    if (
        glyphs
        and _local(el) not in _TEXT_BLOCKS
        and _NOT_GLYPHS.sub("", "".join(el.itertext())) == glyphs
    ):
        return True
    images = [el] if _local(el) == "img" else list(el.iter("img"))
    if len(images) != 1 or "".join(el.itertext()).strip():
        return False
    alt = " ".join((images[0].get("alt") or "").split())
    return bool(alt) and alt == tex
