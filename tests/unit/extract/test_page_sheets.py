"""page_sheets: the page's <style> sheets cut once into rules (CSS Syntax Level 3 blocks)."""

from __future__ import annotations

from lxml import etree, html

from webresearch.extract.page_sheets import PageSheets, Sheet, declarations, read_sheets


def _page(*sheets: str) -> etree._Element:
    styles = "".join(f"<style>{css}</style>" for css in sheets)
    return html.fromstring(f"<html><head>{styles}</head><body><p>x</p></body></html>")


def _sheet(css: str) -> Sheet:
    return read_sheets(_page(css).iter("style")).sheets[0]


def test_rules_carry_their_at_rules_outermost_first() -> None:
    sheet = _sheet(
        "@import url(a.css);.a{color:red}"
        "@media screen and (min-width: 800px){.b,.c{display:none}"
        "@supports (display:grid){.d{display:grid}}}"
        "@layer base{p{margin:0}}"
    )
    found = [(r.selector, r.block, r.context) for r in sheet.rules]
    assert found == [
        (".a", "color:red", ()),
        (".b,.c", "display:none", ("@media screen and (min-width: 800px)",)),
        (
            ".d",
            "display:grid",
            ("@media screen and (min-width: 800px)", "@supports (display:grid)"),
        ),
        ("p", "margin:0", ("@layer base",)),
    ]
    # the @media block holds a block holding rules: its own rules are not in a flat block
    assert [r.flat_parent for r in sheet.rules] == [True, False, True, True]


def test_comments_are_blanked_offsets_kept() -> None:
    css = "/* .x{display:none} */.a/* b */{color:/* c */red}/* open"
    sheet = _sheet(css)
    assert [r.selector for r in sheet.rules] == [".a"]
    (rule,) = sheet.rules
    assert css[rule.start] == "{" and css[rule.end] == "}"
    assert rule.block.split() == ["color:", "red"]
    assert len(sheet.blanked) == len(css)
    # as written, comments in
    head, block = sheet.written(rule)
    assert head.endswith("*/.a/* b */") and block == "color:/* c */red"


def test_important_is_read_from_the_declarations() -> None:
    rule = _sheet(".a{ DISPLAY : None ! Important ; color:red; --x: 1}").rules[0]
    assert rule.declarations()[0] == ("display", "none", True)
    assert ("color", "red", False) in rule.declarations()


def test_broken_css_stray_brace_unclosed_block_and_at_rules_without_rules() -> None:
    sheet = _sheet("}}.a{color:red}}@font-face{font-family:x}.b{color:blue}@media print{.c{x:y}")
    # a stray `}` is ignored, @font-face is no style rule, an unclosed @media's closed rule
    # is read, with its context
    assert [(r.selector, r.context) for r in sheet.rules] == [
        (".a", ()),
        (".b", ()),
        (".c", ("@media print",)),
    ]
    assert _sheet(".a{color:red").rules == ()
    assert _sheet("no rules at all").rules == ()


def test_nested_rules_and_the_declarations_of_their_parent() -> None:
    css = ".card{color:red;.meta{display:flex}gap:1px}"
    sheet = _sheet(css)
    assert [(r.selector, r.context, r.nested) for r in sheet.rules] == [
        (".meta", (".card",), False),
        (".card", (), True),
    ]
    card = sheet.rules[1]
    assert card.own == "color:red;.meta"
    assert sheet.rule_at(css.index("red")) == card
    assert sheet.rule_at(css.index("flex")) == sheet.rules[0]
    assert sheet.rule_at(css.index("gap")) is None  # after a nested rule: not read


def test_rule_at_and_holding() -> None:
    css = ".a{color:red}.b{color:blue;display:none}@media (x){.c{left:0}}"
    sheet = _sheet(css)
    assert sheet.rule_at(css.index(".b")) is None  # in a selector
    assert sheet.rule_at(css.index("(x)")) is None  # in an at-rule's prelude
    assert sheet.rule_at(css.index("blue")).selector == ".b"  # type: ignore[union-attr]
    offsets = [css.index("left"), css.index("blue"), css.index("none"), css.index("red")]
    assert [r.selector for r in sheet.holding(offsets)] == [".a", ".b", ".c"]
    # only the rules closed before the bound
    assert [r.selector for r in sheet.holding(offsets, limit=css.index(".c"))] == [".a", ".b"]


class _Offset(int):
    """An offset that counts how often it is compared (``rule < offset`` asks it first)."""

    compared = 0

    def _count(self, other: object, result: bool) -> bool:
        type(self).compared += 1
        return result

    def __lt__(self, other: object) -> bool:
        return self._count(other, int(self) < int(other))  # type: ignore[call-overload]

    def __gt__(self, other: object) -> bool:
        return self._count(other, int(self) > int(other))  # type: ignore[call-overload]

    def __le__(self, other: object) -> bool:
        return self._count(other, int(self) <= int(other))  # type: ignore[call-overload]

    def __ge__(self, other: object) -> bool:
        return self._count(other, int(self) >= int(other))  # type: ignore[call-overload]


def test_rule_at_in_many_nested_rules_bisects() -> None:
    # 2,000 rules holding a rule each: an offset is found among them by bisection (a few
    # dozen comparisons), not by a look at every one (4,000 and more)
    css = "".join(f".a{i}{{color:red;.b{i}{{display:none}}}}" for i in range(2000))
    sheet = _sheet(css)
    assert len(sheet.rules) == 4000
    places = [css.index(f".a{i}{{") + len(f".a{i}{{") for i in (0, 999, 1999)]
    _Offset.compared = 0
    found = [sheet.rule_at(_Offset(place)) for place in places]
    assert [r.selector for r in found if r is not None] == [".a0", ".a999", ".a1999"]
    assert _Offset.compared < 3 * 60
    # and the innermost of rules nested 300 deep, with declarations after the inner blocks
    deep = "".join(f".d{i}{{color:red;" for i in range(300)) + "}gap:0;" * 300
    sheet = _sheet(deep)
    _Offset.compared = 0
    assert sheet.rule_at(_Offset(deep.index(".d150{") + 7)).selector == ".d150"  # type: ignore[union-attr]
    assert sheet.rule_at(_Offset(deep.index("gap"))) is None  # after a nested rule
    assert _Offset.compared < 2 * 60


def test_rules_nested_deep_share_their_sheet_text() -> None:
    # each rule's block is cut from the sheet's text when asked, not copied when the sheet
    # is cut (copies of 300 blocks nested in each other: the sheet's size 150 times over)
    css = "".join(f".d{i}{{color:red;" for i in range(300)) + "}" * 300
    sheet = _sheet(css)
    rules = sheet.rules
    assert len(rules) == 300
    assert all(rule.css is sheet.blanked for rule in rules)
    outer = rules[-1]
    assert outer.selector == ".d0"
    assert outer.block == css[len(".d0{") : -1]
    assert outer.own == "color:red;.d1"


def test_a_huge_sheet_is_bounded_by_each_reader() -> None:
    rule = ".r{color:red}"
    doc = _page(rule * 10_000, ".late{display:none}")
    sheets = read_sheets(doc.iter("style"))
    read = sheets.capped(5 * len(rule) + 3)
    assert [limit for _, limit in read] == [5 * len(rule) + 3]  # the second sheet not read
    sheet, limit = read[0]
    assert len(sheet.holding(range(0, len(sheet.text), 7), limit)) == 5
    assert [limit for _, limit in sheets.capped(10**9)] == [len(rule) * 10_000, 19]


def test_sheets_read_again_keep_what_they_have_read() -> None:
    doc = _page(".a{color:red}", ".b{color:red}")
    first = read_sheets(doc.iter("style"))
    rules = first.sheets[1].rules
    style = next(doc.iter("style"))
    style.getparent().remove(style)
    again = read_sheets(doc.iter("style"), first)
    assert isinstance(again, PageSheets) and len(again.sheets) == 1
    assert again.sheets[0] is first.sheets[1] and again.sheets[0].rules == rules


def test_declarations_of_a_plain_block_and_of_another() -> None:
    assert declarations("display:none;color : Red !important") == [
        ("display", "none", False),
        ("color", "red", True),
    ]
    assert declarations("content:'a;b';display:none") == [
        ("content", '"a;b"', False),
        ("display", "none", False),
    ]
