"""Code blocks → fenced markdown: ``<pre>`` (and its old cousins) becomes a fenced block
whose info string comes from ``language-xxx`` / ``lang-xxx`` / ``highlight-xxx`` classes or
``data-lang`` of it or near it; whitespace is kept verbatim, entities are decoded, toolbar
buttons and line-number gutters are left out, superscripts and subscripts keep their meaning
(``mc^2``: :mod:`webresearch.extract.markdown_scripts`). Pure functions, used by
:mod:`webresearch.extract.markdown`.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.markdown_scripts import SCRIPT_TAGS, code_script

__all__ = ["PRE_TAGS", "fenced_code"]

#: Elements whose text is preformatted code.
PRE_TAGS = frozenset({"pre", "listing", "xmp", "plaintext"})
_CODE_NOISE_CLASSES = re.compile(
    r"(?:^|[\s_-])(?:line-?numbers?-?rows|linenos?|line-?numbers?|gutter|copy|clipboard|toolbar)(?:$|[\s_-])",
    re.I,
)
_LANG_CLASS = re.compile(
    r"(?:^|\s)(?:language|lang|highlight-source|highlight|brush:?\s*|sourceCode)[-_:]?\s*"
    r"([A-Za-z0-9_+#.-]{1,30})(?:\s|$|;)"
)
_NOT_LANGUAGES = frozenset(
    {"none", "plain", "plaintext", "text", "nohighlight", "default", "js-copy"}
)


def _code_language(el: etree._Element) -> str:
    """The info string of a code block, from classes or ``data-lang`` of it or near it."""
    candidates: list[etree._Element] = [el]
    candidates.extend(c for c in el.iterchildren("code"))
    parent = el.getparent()
    if parent is not None:
        candidates.append(parent)
        grand = parent.getparent()
        if grand is not None:
            candidates.append(grand)
    for node in candidates:
        for attr in ("data-lang", "data-language"):
            value = (node.get(attr) or "").strip()
            if (
                re.fullmatch(r"[A-Za-z0-9_+#.-]{1,30}", value)
                and value.lower() not in _NOT_LANGUAGES
            ):
                return value.lower()
        match = _LANG_CLASS.search(node.get("class") or "")
        if match and match.group(1).lower() not in _NOT_LANGUAGES:
            return match.group(1).lower()
    return ""


def _code_text(el: etree._Element) -> str:
    """Verbatim text of a ``<pre>``: ``<br>`` as newlines, an ``<hr>`` as the end of its
    line (an Apache "Index of" listing rules off its header line so: review n-17), buttons and gutters left out,
    ``<sup>`` / ``<sub>`` in the notation of prose (``mc^2``, ``H_{2}O``:
    :mod:`.markdown_scripts`)."""
    parts: list[str] = []
    scripts: list[int] = []  # where each open <sup>/<sub>'s text starts in parts
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        if event == "start":
            if node is not el and _is_code_noise(node, tag):
                walker.skip_subtree()
                continue
            if tag in SCRIPT_TAGS and node is not el:
                scripts.append(len(parts))
            if tag == "br" or (tag == "hr" and parts and not parts[-1].endswith("\n")):
                parts.append("\n")  # a rule ends its line (an Apache listing's header)
            elif node.text:
                parts.append(node.text)
            continue
        if tag in SCRIPT_TAGS and node is not el:
            start = scripts.pop()
            parts[start:] = [code_script("".join(parts[start:]), node)]
        if node is not el and node.tail:
            parts.append(node.tail)
    return "".join(parts)


def _is_code_noise(node: etree._Element, tag: str) -> bool:
    """Buttons, scripts, toolbars and line-number gutters inside a code block."""
    if not tag or tag in ("button", "script", "style", "svg", "input", "select"):
        return True
    if _CODE_NOISE_CLASSES.search(node.get("class") or ""):
        return True
    return node.get("aria-hidden") == "true" and bool(
        re.fullmatch(r"[\d\s]+", "".join(node.itertext()))
    )


def fenced_code(el: etree._Element) -> str:
    """A fenced code block for a ``<pre>`` (empty when it holds no text)."""
    text = _code_text(el).replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    if text.startswith("\n"):
        text = text[1:]
    text = text.rstrip()
    if not text.strip():
        return ""
    longest = max((len(m) for m in re.findall(r"^ {0,3}(`{3,})", text, re.M)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{_code_language(el)}\n{text}\n{fence}"
