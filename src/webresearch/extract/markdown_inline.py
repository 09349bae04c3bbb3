r"""Inline notations of the markdown walk: MathML, permalinks. Pure functions.

* sup/sub: :mod:`webresearch.extract.markdown_scripts` (``10^6``, ``H_{2}O``, ``10^{n+1}``);
* MathML → ``$LaTeX$`` from its TeX annotation or ``alttext``, else its text with scripts,
  fractions and roots written out (``a^2``, ``x_i``, ``(a + b)/2``, ``√x``:
  :mod:`webresearch.extract.mathml`);
* TeX between dollars (:func:`math_source`): a dollar-math renderer (pandoc's
  ``tex_math_dollars``, markdown-it's dollarmath, commonmark-hs) takes what lies between
  ``$`` as raw TeX — a backslash there is TeX's, not an escape — while a renderer without
  math reads the same characters as markdown. So the TeX is kept as written except where
  markdown could act on it, rewritten there into TeX that means the same: ``*`` →
  ``\ast`` (plain TeX's ``\mathchardef\ast="2203``, the math code of ``*``), and a space
  after a ``_`` that CommonMark §6.2 lets open emphasis (``\right)_{n}`` → ``\right)_
  {n}``) or after a ``<`` that could open a tag or an autolink (``a<b`` → ``a< b``):
  spaces mean nothing in TeX's math mode. The page's own ``$``, ``*`` and ``_`` are
  resolved by :mod:`webresearch.extract.markdown_prose`; code keeps them as written.
* a link never wraps text that holds a link already (:func:`holds_link`);
* heading permalinks (``¶``, ``#``, ``headerlink``, ``anchorjs-link``) and wiki ``[edit]``
  sections are recognised so the walk can leave them out.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.formulas import formula_tex
from webresearch.extract.markdown_prose import (
    PROSE_BRACKET,
    PROSE_LT,
    PROSE_STAR,
    PROSE_TICK,
    PROSE_UNDERSCORE,
    opens_underscore,
    plain_text,
    prose_text,
)
from webresearch.extract.mathml import mathml_text
from webresearch.extract.urls import image_source

__all__ = [
    "EDIT_LINK",
    "LINE_BREAK",
    "MATH_END",
    "PERMALINK_MARKS",
    "code_span",
    "collapse_inline",
    "escape_brackets",
    "escape_inline_text",
    "escape_line_starts",
    "hard_breaks",
    "heading_text",
    "holds_link",
    "image_markdown",
    "is_display_math",
    "is_permalink",
    "link_destination",
    "math_source",
    "math_text",
    "one_line",
]

_PERMALINK_CLASS = CaselessPattern(
    r"(?:^|\s)(?:headerlink|header-?anchor|heading-?anchor|anchor-?link|anchorjs-link|"
    r"hash-?link|permalink|deep-?link|mw-editsection|edit-?section)(?:\s|$)"
)
PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", "⚓", "permalink"})
#: A wiki's ``[edit]`` link (the page's ``[`` may still be marked: :mod:`.markdown_prose`).
EDIT_LINK = re.compile(
    rf"\s*[\[{PROSE_BRACKET}]\s*[\[{PROSE_BRACKET}]?edit\]?(?:\([^)]*\))?\s*\]"
    r"|\s*\[edit\]\([^)]*\)",
    re.I,
)


def math_text(el: etree._Element) -> str:
    """MathML → ``$LaTeX$`` from its TeX annotation (or ``alttext``; MediaWiki's
    ``{\\displaystyle …}`` wrapper left out), ``$$LaTeX$$`` for a display formula
    (:func:`is_display_math`), else as text whose scripts, fractions and roots stay
    unambiguous (:func:`mathml_text`); ``""`` when it has no text. No surrounding spaces.
    A TeX source empty once unwrapped (MediaWiki's ``{\\displaystyle }`` for an empty
    ``<math>``) counts as none: never an empty ``${}$``. The TeX is made inert for markdown
    (:func:`math_source`)."""
    tex = _unwrap_style(formula_tex(el))
    if tex.strip("{} "):
        tex = math_source(tex)
        return f"$${tex}$$" if is_display_math(el) else f"${tex}$"
    return prose_text(mathml_text(el))


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
#: Marks a hard line break (``<br>``) inside inline text until whitespace is collapsed.
LINE_BREAK = "\x1e"
_WS = re.compile(r"[ \t\n\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_AFTER_MATH = re.compile("\x1d[ \t\n\r\u00a0]*(?=[,.;:!?)\\]])")


def collapse_inline(text: str) -> str:
    """Whitespace runs → one space; hard breaks (:data:`LINE_BREAK`) stay, without spaces
    around them (``str.strip`` drops them at the edges, :func:`hard_breaks` writes them);
    no space between a formula (:data:`MATH_END`) and the punctuation after it."""
    if MATH_END in text:
        text = _AFTER_MATH.sub("", text).replace(MATH_END, " ")
    text = _WS.sub(" ", text)
    if LINE_BREAK in text:
        text = re.sub(" ?\x1e ?", LINE_BREAK, text)
    return text


def hard_breaks(text: str) -> str:
    """The line breaks (:data:`LINE_BREAK`) of a paragraph's collapsed, stripped text as
    markdown: one as a CommonMark hard line break (§6.7: a backslash at the line's end,
    seen by any renderer and kept by editors that strip trailing spaces), two or more in a
    row (``<br><br>``) as a paragraph break."""
    if LINE_BREAK not in text:
        return text
    return _BREAK_RUN.sub(lambda m: "\\\n" if len(m.group()) == 1 else "\n\n", text)


def one_line(text: str) -> str:
    """``text`` (inline markdown, maybe with hard breaks of :func:`hard_breaks` or
    :data:`LINE_BREAK`) on one line: each break as a space (a heading's or a link's text)."""
    return text.replace("\\\n", " ").replace("\n", " ").replace(LINE_BREAK, " ")


_BREAK_RUN = re.compile("\x1e+")
_CLOSING_HASHES = re.compile(r"(^|[ \t])(#+)$")


def heading_text(text: str) -> str:
    """A heading's inline ``text`` (edges stripped) for an ATX heading line: on one line
    (:func:`one_line`), and a last run of ``#`` after a space escaped (``Tags ##`` →
    ``Tags \\#\\#``): CommonMark §4.2 takes it as the optional closing sequence and drops
    it."""
    text = one_line(text)
    return _CLOSING_HASHES.sub(lambda m: m.group(1) + "\\#" * len(m.group(2)), text)


#: A control word or symbol: TeX's, left as it is.
_CONTROL = re.compile(r"\\(?:[A-Za-z]+|.)?", re.S)
#: Commands whose argument is text, not math: copied as written.
_TEXT_MODE = re.compile(r"\\(?:text[a-z]*|mbox|hbox|operatorname)")
#: After ``<``, what could start an HTML tag, a comment, a declaration or an autolink.
_TAG_START = re.compile(r"[A-Za-z/!?]")


def math_source(tex: str) -> str:
    """``tex`` with its markdown-active characters rewritten into TeX that means the same
    (module docstring): ``a*b`` → ``a\\ast b``, ``)_{n}`` → ``)_ {n}``, ``a<b`` →
    ``a< b``. The ``$`` delimiters count as punctuation around it. The argument of a
    text command (``\\text{…}``, ``\\mbox{…}``, ``\\operatorname{…}``) is copied as
    written: ``\\ast`` is math only."""
    out: list[str] = []
    i, n = 0, len(tex)
    while i < n:
        ch = tex[i]
        if ch == "\\":
            control = _CONTROL.match(tex, i)
            assert control is not None  # the pattern matches a lone backslash too
            out.append(control.group())
            i = control.end()
            if _TEXT_MODE.fullmatch(control.group()) and tex.startswith("{", i):
                end = _group_end(tex, i)  # text mode: \\ast would be an error there
                out.append(tex[i:end])
                i = end
            continue
        following = tex[i + 1] if i + 1 < n else "$"
        if ch == "*":
            out.append("\\ast " if following.isalpha() else "\\ast")
        elif ch == "_" and i + 1 < n and opens_underscore(tex[i - 1] if i else "$", following):
            out.append("_ ")
        elif ch == "<" and _TAG_START.match(following):
            out.append("< ")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _group_end(tex: str, start: int) -> int:
    """The index after the brace group opening at ``start`` (the end of ``tex`` when it is
    not closed)."""
    depth = 0
    i = start
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            i += 2
            continue
        depth += (ch == "{") - (ch == "}")
        i += 1
        if depth == 0:
            return i
    return len(tex)


def escape_brackets(text: str) -> str:
    """Escape brackets in link text unless they are balanced markdown (an image)."""
    if text.startswith("![") or ("[" not in text and "]" not in text and PROSE_BRACKET not in text):
        return text
    depth = 0
    for ch in text:
        depth += (ch == "[" or ch == PROSE_BRACKET) - (ch == "]")
        if depth < 0:
            break
    if depth == 0:
        return text
    return text.replace("[", "\\[").replace(PROSE_BRACKET, "\\[").replace("]", "\\]")


#: A markdown link's opening ``[text](`` (not an image's ``![``, not an escaped ``\[``).
_MARKDOWN_LINK = re.compile(r"(?<![!\\])\[(?:\\.|[^\]\\])*\]\(")


def holds_link(text: str) -> bool:
    """``text`` (rendered markdown) holds a link: wrapping it in another would nest links,
    which CommonMark §6.3 forbids ("links may not contain other links, at any level of
    nesting"), so the outer ``[`` and ``](url)`` would show as text. An image is no link."""
    return _MARKDOWN_LINK.search(text) is not None


#: In a link destination, what CommonMark would not read as written: a backslash (§2.4, it
#: escapes the punctuation after it) and an ``&`` that starts an entity or numeric character
#: reference (§2.5: ``&copy;`` would become ``©``). §6.3 resolves both in destinations.
_DESTINATION_ACTIVE = re.compile(
    r"\\|&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)"
)


def link_destination(url: str) -> str:
    """``url`` (an absolute address whose spaces, parentheses and angle brackets are already
    percent-encoded: :func:`~webresearch.extract.urls.absolute_url`) as a link destination
    that a CommonMark renderer resolves back to ``url``: ``a\\(b`` → ``a\\\\(b``,
    ``?x&copy;=1`` → ``?x\\&copy;=1`` (§6.3: backslash escapes and entity references are
    resolved in a destination; a backslash-escaped ``&`` starts none, §2.5). Escaping
    rather than percent-encoding keeps the address the same (``%26`` is no ``&`` in a
    query)."""
    if "\\" not in url and "&" not in url:
        return url
    return _DESTINATION_ACTIVE.sub(lambda m: "\\" + m.group(0), url)


def image_markdown(el: etree._Element, base_url: str) -> str:
    """``![alt](url)`` of an ``<img>`` (alt text, else its title, as plain text:
    :func:`escape_inline_text`; CommonMark §6.4 makes an image description's emphasis or
    code its plain string, so an alt's ``*`` or backticks would be lost), or ``""``
    when it has no usable address (:func:`~webresearch.extract.urls.image_source`)."""
    src = image_source(el, base_url)
    if src is None:
        return ""
    alt = " ".join((el.get("alt") or el.get("title") or "").split())
    return "![" + escape_inline_text(alt) + f"]({link_destination(src)})"


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


_BREAK = f"[-*_{PROSE_STAR}{PROSE_UNDERSCORE}]"
_TICK = f"[`{PROSE_TICK}]"
_LINE_START_ESCAPE = re.compile(
    rf"^(\s*)([#>+]|[-*{PROSE_STAR}](?=\s|$)|\d{{1,9}}[.)](?=\s|$)|{_TICK}(?={_TICK}{{2}}[^`{PROSE_TICK}\n]*$)"
    rf"|~(?=~~)|{_BREAK}(?=(?:[ \t]*{_BREAK}){{2,}}[ \t]*$)|=(?==*[ \t]*$)|-(?=-*[ \t]*$)"
    rf"|{PROSE_LT}(?=[A-Za-z/!?])"
    rf"|{PROSE_BRACKET}(?=(?:\\.|[^\\\[\]{PROSE_BRACKET}])*\]:))",
    re.M,
)


def escape_line_starts(text: str) -> str:
    """Backslash a character that would turn a plain line into a heading, quote, list item,
    fence or rule (CommonMark's block starts: ``#``, ``>``, ``+``/``-``/``*`` and
    ``1.``/``1)`` before a space (escaped as ``1\\.``: a backslash before a digit would
    show), three backticks with no backtick after them on the line (§4.5: a backtick
    fence's info string holds none, so ````` `` ````` is a code span) or three tildes, a
    line of three or more ``*``, ``_`` or ``-``: §4.1 thematic breaks), a line of only
    ``=`` or ``-`` (a setext heading's underline under the line before, §4.3:
    ``words<br>=`` became a heading), an HTML block (a page's ``<`` before a letter, ``/``,
    ``!`` or ``?``: §4.6) or a link reference definition (a page's ``[label]:``, §4.7). A
    page's character may still be marked (:mod:`.markdown_prose`): the escaped one is written plain."""
    return _LINE_START_ESCAPE.sub(_escape_start, text)


def _escape_start(match: re.Match[str]) -> str:
    indent, start = match.group(1), match.group(2)
    if start[0].isdigit():  # "1." → "1\." (a backslash before a digit would show: §2.4)
        return f"{indent}{start[:-1]}\\{start[-1]}"
    return f"{indent}\\{plain_text(start)}"


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


def code_span(text: str) -> str:
    """``text`` (inline text, edges stripped) as a CommonMark code span (spec §6.1): a
    backtick fence one longer than the longest run inside, padded when the text starts or
    ends with a backtick (``<code>``</code>`` → ````` `` `````: a renderer strips one space
    from each side). Code is never math nor emphasis: its dollars, stars and underscores
    come out as written. A code element inside another is text of the outer one's span."""
    text = plain_text(text)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
