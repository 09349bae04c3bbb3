"""HTML text → an lxml document tree, robust to hostile markup. Pure functions.

lxml (libxml2) stops parsing at a nesting depth of 2048 even with ``huge_tree`` and silently
drops everything after that point. A page nested deeper is therefore flattened first: tags
beyond :data:`MAX_DEPTH` are removed (their text stays), then parsed again. Comments and
processing instructions are not kept; an XML declaration (which lxml refuses in a ``str``)
and control characters XML cannot hold (NUL and the like) are removed.

HTML5 tree construction ignores a ``</body>`` or ``</html>`` end tag that is not the last
thing in the document: a browser keeps parsing, and content after a stray ``</body></html>``
(common in CMS output) stays part of the body. libxml2 stops at ``</html>`` and puts
content after ``</body>`` beside the body, so both end tags are removed before parsing
(they carry no content; the body ends where the document ends) and anything left beside
the ``<body>`` is moved into it.

HTML5 void elements (``<wbr>``, ``<embed>``, ``<source>``…) never have content: the tree
construction rules of the HTML Standard (§13.2.6.4.7, "in body") insert them and pop them
at once. libxml2 2.14 treats ``embed``, ``source``, ``track``, ``wbr`` and ``keygen`` as
containers, so the text and elements after them became their children (``Hash<wbr>Map``
gave ``<wbr>Map</wbr>``, and every consumer that skips or ignores such an element lost
that content). After parsing, the text and children of every void element are moved out to
follow it, in order, before its tail, as a browser builds the tree.

A menu, banner or button whose end tag libxml2 ignored for a ``<div>`` left open inside it
swallows the rest of the page; such a page is parsed again with that end tag honoured as a
browser honours it (:mod:`webresearch.extract.block_ends`).
"""

from __future__ import annotations

import re
from contextlib import suppress

from lxml import etree
from lxml import html as lxml_html

from webresearch.extract.block_ends import close_chrome_blocks, swallowed_content
from webresearch.extract.nesting import flatten_deep_tree, unwrap_deep_tables

__all__ = [
    "MAX_DEPTH",
    "VOID_ELEMENTS",
    "parse_html",
    "unnest_void_elements",
    "without_lone_surrogates",
    "without_subset_and_end_tags",
]

#: Nesting depth kept when a document is too deep for libxml2 (levels of elements).
MAX_DEPTH = 512

#: HTML5 void elements (HTML Standard §13.1.2, plus the obsolete ``keygen`` and ``param``).
VOID_ELEMENTS = (
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr", "keygen", "param",
)  # fmt: skip

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
# Characters an lxml tree cannot hold (XML 1.0 forbids them): dropped before parsing.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# The same characters, one by one.
_CONTROL_CHARS = tuple(
    chr(code) for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF)
)
_NUL = re.compile("\x00")
# A UTF-16 surrogate code point on its own (not Unicode text: a DOM string may hold one).
_SURROGATE = re.compile("[\ud800-\udfff]")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)\b[^>]*?(/?)>")
_VOID = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr", "keygen", "frame", "basefont", "isindex",
    }
)  # fmt: skip
# Void elements libxml2 2.14 parses as containers of what follows them (checked per tag).
_NESTING_VOID = frozenset({"embed", "source", "track", "wbr", "keygen"})
# Elements whose end tag is often omitted: counting them would make the depth drift upwards.
_IMPLIED_END = frozenset(
    {
        "p",
        "li",
        "dt",
        "dd",
        "tr",
        "td",
        "th",
        "option",
        "optgroup",
        "rb",
        "rt",
        "rp",
        "tbody",
        "thead",
        "tfoot",
        "colgroup",
        "caption",
    }
)
_INLINE = frozenset(
    {
        "a",
        "b",
        "i",
        "em",
        "strong",
        "span",
        "font",
        "u",
        "s",
        "small",
        "big",
        "code",
        "sup",
        "sub",
        "abbr",
        "cite",
        "q",
        "mark",
        "label",
        "tt",
        "kbd",
        "var",
        "samp",
        "time",
        "bdi",
        "bdo",
        "nobr",
    }
)


_BODY_HTML_END = re.compile(r"</(?:body|html)\s*>", re.I)
# A DOCTYPE with an internal subset, or a </body> or </html> end tag: one scan finds both.
_DOCTYPE_SUBSET_OR_END = re.compile(
    r"<(?:!DOCTYPE[^>\[]*\[.*?\]\s*|/(?:body|html)\s*)>", re.I | re.S
)


def _parser() -> lxml_html.HTMLParser:
    """lxml.html's parser with a C-level element class lookup.

    Every element is an ``HtmlElement`` (``text_content()``, ``cssselect``… as trafilatura
    expects), but lxml no longer calls Python code to choose a class for each element it
    hands out (``HtmlElementClassLookup.lookup``, which only picks form classes): a tenth of
    the extraction time on large pages.
    """
    parser = lxml_html.HTMLParser(
        encoding="utf-8",  # what _document hands it (a str is read as a str)
        remove_comments=True,
        remove_pis=True,
        huge_tree=True,
        collect_ids=False,
        default_doctype=False,
    )
    parser.set_element_class_lookup(
        etree.ElementDefaultClassLookup(
            element=lxml_html.HtmlElement,
            comment=lxml_html.HtmlComment,
            pi=lxml_html.HtmlProcessingInstruction,
            entity=lxml_html.HtmlEntity,
        )
    )
    return parser


def parse_html(html: str) -> lxml_html.HtmlElement:
    """Parse an HTML document into an ``<html>`` element that always has a ``<body>``.

    Args:
        html: the decoded document text (any size; deeply nested markup is flattened).

    Returns:
        the root ``<html>`` element; an empty document gives ``<html><body/></html>``.
        Tables nested deeper than :data:`~webresearch.extract.nesting.MAX_TABLE_DEPTH`
        are ``<div>`` blocks (:mod:`webresearch.extract.nesting`).
    """
    text = _XML_DECLARATION.sub("", html, count=1)
    if _has_control(text):
        text = _CONTROL.sub("", text)
    text = without_subset_and_end_tags(text)
    if not text.strip():
        return _empty()
    parser = _parser()
    try:
        root = _document(text, parser)
    except (etree.ParserError, ValueError):
        return _empty()
    errors = [entry.message for entry in parser.error_log]
    if any("Invalid bytes in character encoding" in message for message in errors):
        text = without_lone_surrogates(text)  # libxml2 stopped at one: read again
        parser = _parser()
        try:
            root = _document(text, parser)
        except (etree.ParserError, ValueError):
            return _empty()
        errors = [entry.message for entry in parser.error_log]
    if any("Excessive depth" in message for message in errors):
        text = flatten_deep_markup(text)
        parser = _parser()
        try:
            root = _document(text, parser)
        except (etree.ParserError, ValueError):
            return _empty()
    if swallowed_content(root):  # a menu's unclosed <div> took the article (block_ends.py)
        repaired = close_chrome_blocks(text, root)
        if repaired is not text:
            with suppress(etree.ParserError, ValueError):  # it parsed once already
                root = _document(repaired, _parser())
    body = root.find("body")
    if body is None:
        body = lxml_html.Element("body")
        head = root.find("head")
        if head is not None:  # a page without <body>: libxml2 left its content in <head>
            _move_body_content(head, body)
        for child in list(root):
            if child.tag != "head":
                body.append(child)
        root.append(body)
    else:  # content after a stray </body> (HTML5 "after body" mode puts it back in)
        for child in list(body.itersiblings()):
            body.append(child)
    unnest_void_elements(root)
    flatten_deep_tree(root)  # deeper than 256 levels: text (nesting.py)
    unwrap_deep_tables(root)  # tables in tables 6 levels down: blocks (nesting.py)
    return root


#: Elements a document's ``<head>`` holds (HTML Standard §13.2.6.4.4, "in head" mode).
_HEAD_TAGS = frozenset(
    {"title", "meta", "link", "style", "script", "base", "noscript", "template", "basefont",
     "bgsound"}
)  # fmt: skip


def _move_body_content(head: etree._Element, body: etree._Element) -> None:
    """Move into ``body`` the first child of ``head`` that is no head element
    (:data:`_HEAD_TAGS`) and every child after it: a browser closes the head there and
    opens the body. libxml2 does so for tags it knows, not for HTML5's (``<title>Study
    </title><main><article>…`` with no ``<html>`` nor ``<body>`` tag kept the article
    in the head, where its links were never read; review n-18)."""
    moving = False
    for child in list(head):
        moving = moving or (isinstance(child.tag, str) and child.tag not in _HEAD_TAGS)
        if moving:
            body.append(child)


def _document(text: str, parser: lxml_html.HTMLParser) -> lxml_html.HtmlElement:
    """``text`` parsed by ``parser`` (:func:`_parser`), handed to libxml2 as UTF-8 bytes.

    Given a ``str``, lxml passes libxml2 the string's own buffer, declared Latin-1, UTF-16
    or UCS-4 by its widest character, and libxml2 converts it to UTF-8 (its internal form)
    through an encoding handler; encoding it here (one C pass) and declaring UTF-8 skips
    that conversion: parse_html's median time a page 7 % less (all 1,026 corpus pages,
    interleaved), the same trees (serialized alike on every corpus page). The declared
    encoding overrides a ``<meta charset>`` in the markup as the ``str`` path does. A text
    that does not encode (a lone surrogate) is encoded with U+FFFD in its place
    (:func:`without_lone_surrogates`): one parse, not one that stops at it and a second.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = without_lone_surrogates(text).encode("utf-8")
    return lxml_html.document_fromstring(data, parser=parser)


def without_subset_and_end_tags(text: str) -> str:
    """``text`` with its first DOCTYPE that has an internal DTD subset (``<!DOCTYPE html
    [ … ]>``, not HTML: libxml2's HTML parser would leave its ``]>`` in the text) written
    ``<!DOCTYPE html>``, and every ``</body>`` and ``</html>`` end tag removed (module
    docstring).

    One scan of the text, where replacing the first such DOCTYPE and then removing the end
    tags took two (half the time). The result is the same: an end tag never holds ``<!``,
    so no DOCTYPE begins inside one; an end tag inside the first DOCTYPE went with it; one
    inside a later DOCTYPE (kept) is removed from it.
    """
    first = True

    def replace(match: re.Match[str]) -> str:
        nonlocal first
        found = match.group()
        if found[1] == "/":
            return ""
        if first:
            first = False
            return "<!DOCTYPE html>"
        return _BODY_HTML_END.sub("", found)

    return _DOCTYPE_SUBSET_OR_END.sub(replace, text)


def unnest_void_elements(root: etree._Element) -> None:
    """Move the text and children of every void element out to follow it (in place).

    ``<p>a<wbr>b<i>c</i>d</wbr></p>`` (libxml2's tree for ``<p>a<wbr>b<i>c</i>d</p>``)
    becomes ``<p>a<wbr/>b<i>c</i>d</p>``: the element's text, then its children with their
    tails, then its own tail. One pass over :data:`VOID_ELEMENTS` found by lxml's C-level tag
    filter; only elements with text or children are touched. They are handled in document
    order, so a void element nested in another (``a<wbr>b<wbr>c``) has already been moved
    out of it when its turn comes, and each element's content moves once.
    """
    for el in [el for el in root.iter(*VOID_ELEMENTS) if el.text or len(el)]:
        parent = el.getparent()
        if parent is None:
            continue
        children = list(el)
        tail = el.tail or ""
        el.tail = el.text
        el.text = None
        if children:
            last = children[-1]
            last.tail = (last.tail or "") + tail or None
            index = parent.index(el) + 1
            for offset, child in enumerate(children):
                parent.insert(index + offset, child)
        else:
            el.tail = (el.tail or "") + tail or None


def _has_control(text: str) -> bool:
    """True when ``text`` holds a character of :data:`_CONTROL`.

    One substring test per character (a ``memchr``-like scan in C) is faster than scanning
    the text with the pattern (2.7 ms a page on a loaded machine) or than deleting the
    control bytes of its UTF-8 encoding and comparing lengths (1.5 ms; 1.1 ms this way,
    Zyte and WCXB development pages); the pattern then runs only on the rare page that
    needs it.

    NUL is the exception in a text that is not ASCII (most pages: curly quotes, so two
    bytes a character): CPython looks for a character there with ``memchr`` on its low
    byte, which is NUL in every ASCII character, so ``"\\x00" in text`` crawls; the pattern
    finds it in a quarter less time (interleaved, Zyte and WCXB development pages). An
    ASCII text (``isascii`` reads a flag) keeps ``in``: one ``memchr``.
    """
    if text.isascii():
        return any(char in text for char in _CONTROL_CHARS)
    return _NUL.search(text) is not None or any(char in text for char in _CONTROL_CHARS[1:])


def without_lone_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (U+D800–U+DFFF) replaced by U+FFFD.

    A browser's DOM string (JavaScript strings are UTF-16) or a JSON string may hold one
    (``"\\ud800"``); libxml2 stops reading the text at it (logging only "Invalid bytes in
    character encoding"), so a page lost everything after it (a ``<base href>`` holding one
    in the ``<head>`` left the body empty). The WHATWG Encoding Standard's UTF-8 encoder
    writes U+FFFD for one; so does this. :func:`parse_html` calls it only when libxml2
    logged that error (a UTF-8 encoding of every page to look for one cost 0.2 ms a page);
    an ASCII text (``isascii`` reads a flag) costs nothing.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _empty() -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring("<html><body></body></html>")


def flatten_deep_markup(html: str, max_depth: int = MAX_DEPTH) -> str:
    """Remove start and end tags nested deeper than ``max_depth``; keep all text.

    The depth is estimated from the tags alone (void elements and elements whose end tag is
    often left out are not counted). A removed block-level tag becomes a newline so words of
    neighbouring blocks do not run together; a removed inline tag becomes nothing. The void
    elements libxml2 nests content into (:data:`_NESTING_VOID`) are written self-closing
    (``<wbr />``, which libxml2 honours): a run of thousands of ``<wbr>`` in one element
    would otherwise nest that deep again.
    """
    depth = 0
    out: list[str] = []
    last = 0
    for match in _TAG.finditer(html):
        closing, name, self_closing = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID or name in _IMPLIED_END or self_closing:
            if name in _NESTING_VOID and not closing and not self_closing:
                out.append(html[last : match.end() - 1])
                out.append(" />")  # the space: "src=a.swf/>" would end the value in "/"
                last = match.end()
            continue
        if closing:
            remove = depth > max_depth
            depth = max(0, depth - 1)
        else:
            depth += 1
            remove = depth > max_depth
        if remove:
            out.append(html[last : match.start()])
            out.append("" if name in _INLINE else "\n")
            last = match.end()
    out.append(html[last:])
    return "".join(out)
