"""Decoding order and WHATWG labels (SPEC §1.1 "Decoding"); cases 01 and 03."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webresearch.extract.charset import (
    PYTHON_CODECS,
    charset_from_content_type,
    decode_document,
    decode_with,
    prescan_meta_charset,
    whatwg_encoding,
)

from .cases import route
from .samples import SAMPLES, first_sentence, short


def encode(text: str, encoding: str) -> bytes:
    return text.encode(PYTHON_CODECS.get(encoding, encoding))


def page(text: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>{short(text)}</title></head><body><p>{text}</p></body></html>"


# --------------------------------------------------------------------------- cases


def test_case_01_meta_charset_windows_1251_without_header_charset() -> None:
    r = route("01-charset-meta-only-cp1251", "/")
    decoded = decode_document(r.body, r.content_type, html=True)
    assert (decoded.encoding, decoded.source) == ("windows-1251", "meta")
    for expected in (
        "Погода в Новосибирске: прогноз на неделю",
        "температура опустится до минус двадцати трёх градусов",
        "на трассе № 7 возможны заносы",
        "«умеренный мороз и солнце»",
        "Ёлочный базар",
    ):
        assert expected in decoded.text
    assert "\ufffd" not in decoded.text
    assert "Ïîãîäà" not in decoded.text


def test_case_01_without_the_meta_detection_still_reads_cyrillic() -> None:
    r = route("01-charset-meta-only-cp1251", "/")
    body = r.body.replace(
        b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">', b""
    )
    decoded = decode_document(body, r.content_type, html=True)
    assert (decoded.encoding, decoded.source) == ("windows-1251", "detected")
    assert "Ёлочный базар" in decoded.text


def test_case_03_bom_overrides_the_header_charset_and_is_stripped() -> None:
    r = route("03-bom-overrides-header", "/")
    decoded = decode_document(r.body, r.content_type, html=True)
    assert (decoded.encoding, decoded.source) == ("utf-8", "bom")
    assert "Grüße aus Köln — Übersicht" in decoded.text
    assert "Die Führung über den Domplatz kostet 12 € pro Person" in decoded.text
    assert "Café „Zur Brücke“" in decoded.text
    assert not decoded.text.startswith("\ufeff")
    for mojibake in ("ï»¿", "\ufeff", "Ã¼", "ÃŸ", "â‚¬", "â€"):
        assert mojibake not in decoded.text


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16le"),
        (codecs.BOM_UTF16_BE, "utf-16be"),
    ],
)
def test_every_bom_wins_over_header_and_meta(bom: bytes, encoding: str) -> None:
    text = '<meta charset="koi8-r"><p>Größe</p>'
    body = bom + text.encode(PYTHON_CODECS[encoding])
    decoded = decode_document(body, "text/html; charset=windows-1251", html=True)
    assert (decoded.text, decoded.encoding, decoded.source) == (text, encoding, "bom")


# --------------------------------------------------------------------------- order


def test_header_charset_wins_over_meta() -> None:
    body = page("Привет, как дела", '<meta charset="koi8-r">').encode("cp1251")
    decoded = decode_document(body, "text/html; charset=windows-1251", html=True)
    assert (decoded.encoding, decoded.source) == ("windows-1251", "header")
    assert "Привет, как дела" in decoded.text


def test_meta_wins_over_detection() -> None:
    # KOI8-R bytes that a detector could read otherwise: the declaration decides.
    body = page("Привет, как дела", '<meta charset="koi8-r">').encode("koi8_r")
    decoded = decode_document(body, "text/html", html=True)
    assert (decoded.encoding, decoded.source) == ("koi8-r", "meta")
    assert "Привет, как дела" in decoded.text


def test_meta_is_ignored_for_non_html() -> None:
    body = '<meta charset="koi8-r"> Grüße'.encode()
    decoded = decode_document(body, "text/plain", html=False)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")


def test_ascii_without_declaration_is_utf8_by_default() -> None:
    decoded = decode_document(b"<p>plain</p>", None, html=True)
    assert (decoded.text, decoded.encoding, decoded.source) == ("<p>plain</p>", "utf-8", "default")


def test_empty_body() -> None:
    decoded = decode_document(b"", None, html=True)
    assert (decoded.text, decoded.encoding, decoded.source) == ("", "utf-8", "default")


def test_a_wrong_header_label_falls_through_to_detection() -> None:
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю."
    decoded = decode_document(page(text).encode("cp1251"), "text/html; charset=utf-8", html=True)
    assert (decoded.encoding, decoded.source) == ("windows-1251", "detected")
    assert text in decoded.text


def test_a_stray_byte_keeps_the_declared_utf8_with_one_replacement() -> None:
    text = "Grüße aus Köln, Übersicht über alle Führungen. " * 20
    body = text.encode() + b"\xe9 footer"
    decoded = decode_document(body, "text/plain; charset=utf-8", html=False)
    assert (decoded.encoding, decoded.source) == ("utf-8", "header")
    assert decoded.text.count("\ufffd") == 1
    assert decoded.text.startswith(text)


def test_a_character_cut_at_the_end_is_dropped_not_replaced() -> None:
    body = "Größe €".encode()[:-1]  # the download cap cut the euro sign
    decoded = decode_document(body, "text/plain; charset=utf-8", html=False)
    assert decoded.text == "Größe "
    assert (decoded.encoding, decoded.source) == ("utf-8", "header")


def test_unknown_and_replacement_labels_fall_through() -> None:
    body = page("Привет, как дела у вас сегодня").encode("cp1251")
    for label in ("x-nonsense", "iso-2022-kr", "hz-gb-2312", "replacement"):
        decoded = decode_document(body, f"text/html; charset={label}", html=True)
        assert decoded.source == "detected"
        assert decoded.encoding == "windows-1251"


# --------------------------------------------------------------------------- WHATWG labels


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("iso-8859-1", "windows-1252"),
        ("ISO-8859-1", "windows-1252"),
        ("latin1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("us-ascii", "windows-1252"),
        ("  utf8 ", "utf-8"),
        ("gb2312", "gbk"),
        ("GB_2312-80", "gbk"),
        ("x-gbk", "gbk"),
        ("gb18030", "gb18030"),
        ("cp1251", "windows-1251"),
        ("sjis", "shift_jis"),
        ("ks_c_5601-1987", "euc-kr"),
        ("x-user-defined", "windows-1252"),
        ("utf-16", "utf-16le"),
        ("iso-2022-kr", None),
        ("replacement", None),
        ("utf-7", None),
        ("", None),
        (None, None),
    ],
)
def test_whatwg_labels(label: str | None, name: str | None) -> None:
    assert whatwg_encoding(label) == name


def test_latin1_label_decodes_as_windows_1252() -> None:
    decoded = decode_document(
        b"price: 12 \x80, \x93quoted\x94", "text/plain; charset=ISO-8859-1", html=False
    )
    assert decoded.text == "price: 12 €, “quoted”"


def test_gbk_label_decodes_gb18030_four_byte_sequences() -> None:
    text = "汉字 € 𠀀"  # € and U+20000 need GB18030 beyond GB2312/GBK
    decoded = decode_document(text.encode("gb18030"), "text/plain; charset=gb2312", html=False)
    assert (decoded.text, decoded.encoding) == (text, "gbk")


def test_windows_1252_undefined_bytes_are_c1_controls_not_errors() -> None:
    text, errors = decode_with(b"a\x81b\x9dc", "windows-1252")
    assert (text, errors) == ("a\x81b\x9dc", 0)


@pytest.mark.parametrize(
    ("value", "charset"),
    [
        ("text/html; charset=utf-8", "utf-8"),
        ('text/html; charset="windows-1251"', "windows-1251"),
        ("text/html;charset='koi8-r'", "koi8-r"),
        ("text/html; Charset = GBK ; foo=bar", "GBK"),
        ("text/html", None),
        ("text/html; charset=", None),
        (None, None),
    ],
)
def test_charset_parameter(value: str | None, charset: str | None) -> None:
    assert charset_from_content_type(value) == charset


# --------------------------------------------------------------------------- prescan


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ('<meta charset="windows-1251">', "windows-1251"),
        ("<meta charset=koi8-r>", "koi8-r"),
        ("<META CHARSET='Shift_JIS'>", "shift_jis"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">', "euc-kr"),
        ("<meta content='text/html;charset=gb2312' http-equiv=content-type>", "gbk"),
        ('<meta content="text/html; charset=euc-kr">', None),  # no http-equiv pragma
        ('<meta http-equiv="refresh" content="0; charset=koi8-r">', None),
        ('<!-- <meta charset="koi8-r"> --><meta charset="big5">', "big5"),
        ('<meta name="description" content="charset=koi8-r"><meta charset=euc-jp>', "euc-jp"),
        ('<div title="<meta charset=koi8-r>"></div>', None),
        ('<meta charset="utf-16le">', "utf-8"),
        ('<meta charset="x-user-defined">', "windows-1252"),
        ('<meta charset="bogus"><meta charset="koi8-r">', "koi8-r"),
        ('<meta charset="koi8-r"><meta charset="big5">', "koi8-r"),
    ],
)
def test_prescan(head: str, expected: str | None) -> None:
    assert prescan_meta_charset(f"<!DOCTYPE html><html><head>{head}</head>".encode()) == expected


def test_prescan_looks_only_at_the_first_1024_bytes() -> None:
    padding = "<!-- " + "x" * 1100 + " -->"
    assert prescan_meta_charset(f"{padding}<meta charset=koi8-r>".encode()) is None
    assert prescan_meta_charset(f"<p>{'y' * 900}</p><meta charset=koi8-r>".encode()) == "koi8-r"


# --------------------------------------------------------------------------- detection


DETECTION = [
    (lang, encoding, form)
    for lang, (_, encodings) in SAMPLES.items()
    for encoding in encodings
    for form in ("short", "sentence", "full", "long")
]


@pytest.mark.parametrize(("lang", "encoding", "form"), DETECTION)
@pytest.mark.parametrize("as_html", [True, False])
def test_detection_without_any_declaration(
    lang: str, encoding: str, form: str, as_html: bool
) -> None:
    text = SAMPLES[lang][0]
    sample = {
        "short": short(text),
        "sentence": first_sentence(text),
        "full": text,
        "long": (text + "\n") * 40,
    }[form]
    document = page(sample) if as_html else sample
    decoded = decode_document(encode(document, encoding), None, html=as_html)
    assert decoded.text == document
    assert decoded.source == "detected"


def test_detection_of_utf8() -> None:
    decoded = decode_document("Grüße, Привет, 你好".encode(), None, html=False)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")


def test_detection_of_a_large_page_is_quick_enough() -> None:
    import time

    text = SAMPLES["ru"][0]
    body = page((text + "\n") * 4000).encode("cp1251")  # ~1.7 MB
    started = time.perf_counter()
    decoded = decode_document(body, "text/html", html=True)
    assert time.perf_counter() - started < 5
    assert decoded.encoding == "windows-1251"


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(
    body=st.binary(max_size=2048),
    content_type=st.sampled_from(
        [
            None,
            "text/html",
            "text/html; charset=utf-8",
            "text/plain; charset=gbk",
            "text/html; charset=utf-16",
            "text/html; charset=x-user-defined",
            "text/html; charset=bogus",
        ]
    ),
    html=st.booleans(),
)
def test_decoding_never_raises_and_never_keeps_a_bom(
    body: bytes, content_type: str | None, html: bool
) -> None:
    decoded = decode_document(body, content_type, html=html)
    assert isinstance(decoded.text, str)
    assert not decoded.text.startswith("\ufeff") or not body.startswith(
        (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
    )
    decoded.text.encode("utf-8")  # no lone surrogates


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=200),
    encoding=st.sampled_from(
        ["utf-8", "windows-1251", "koi8-r", "gbk", "shift_jis", "euc-kr", "big5", "windows-1252"]
    ),
)
def test_a_correct_header_label_always_round_trips(text: str, encoding: str) -> None:
    try:
        body = encode(text, encoding)
    except UnicodeEncodeError:
        return
    if body.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return
    decoded = decode_document(body, f"text/plain; charset={encoding}", html=False)
    # Some legacy code pages map a character to a look-alike (cp932: "¢" → "￠"), so the
    # reference is the codec's own reading of the bytes.
    assert decoded.text == body.decode(PYTHON_CODECS.get(encoding, encoding))
    assert decoded.source == "header"


def test_one_stray_byte_in_a_short_declared_utf8_page_keeps_utf8() -> None:
    # newcomer review: one bad byte among a few accented words was > 1 % of the non-ASCII
    # bytes, and the page was "detected" as windows-1257: every accent became mojibake.
    text = "Café crème. Déjà vu, naïve façade, señor."
    head = "<meta charset=\"utf-8\">"
    body = page(text + " One stray byte here: ", head).encode() + b"\xff and the text goes on."
    decoded = decode_document(body, None, html=True)
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert text in decoded.text and decoded.text.count("\ufffd") == 1
