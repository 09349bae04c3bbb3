"""web_fetch and fetch_image judge bytes by one rule (issue 21 item 4, case 38).

A body both tools would send to the other cannot exist: text labelled ``image/png`` is text
(web_fetch reads it; fetch_image says it is no image and points to web_fetch, which works),
and a real image with a text label is an image (web_fetch points to fetch_image, which
shows it). Tested over the whole kind: every image label × text, HTML, JSON and other text
bodies; real images × wrong labels; and any bytes × any label (hypothesis).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.image_factory import encode, photo_like
from webresearch.errors import UnsupportedContent, WebResearchError
from webresearch.extract.dispatch import convert
from webresearch.extract.sniff import label_note, sniff_mime, text_kind
from webresearch.images.prepare import prepare_image
from webresearch.images.sniff import sniff

IMAGE_LABELS = [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/avif",
    "image/bmp",
    "image/tiff",
    "image/x-icon",
    "image/heic",
    "image/png; charset=binary",
]
TEXTS: dict[str, bytes] = {
    "plain": b"Meeting notes, 14 March\n\nThe nightly export moves to 03:30 UTC.\n",
    "html": b"<!doctype html><html><head><title>T</title></head><body><p>Hello page</p></body></html>",
    "html-fragment": b"<div class='x'><p>Hello fragment</p></div>",
    "json": b'{"export": "03:30", "owners": ["Priya"]}',
    "json-array": b'[{"a": 1}, {"b": 2}]',
    "xml": b'<?xml version="1.0"?><notes><item>Hello xml</item></notes>',
    "csv": b"name,time\nexport,03:30\n",
    "markdown": b"# Notes\n\n- export at 03:30\n",
    "utf-16": "Notes in UTF-16: export at 03:30".encode("utf-16"),
    "latin-1": "Café notes: l'export à 03:30".encode("latin-1"),
    "empty": b"",
    "whitespace": b"\n\n  \n",
}
WRONG_LABELS = [
    "text/html",
    "text/plain; charset=utf-8",
    "application/json",
    "application/octet-stream",
    None,
    "image/jpeg",
    "text/csv",
]


def _web_fetch_says(body: bytes, label: str | None) -> str:
    """``read`` or ``use fetch_image`` or ``refuse``: what web_fetch makes of a body."""
    try:
        convert(body, label, "http://a.example/notes.png")
    except UnsupportedContent as exc:
        return "use fetch_image" if "fetch_image" in (exc.hint or "") else "refuse"
    except WebResearchError:
        return "refuse"
    return "read"


def _fetch_image_says(body: bytes) -> str:
    """``show`` or ``use web_fetch`` or ``refuse``: what fetch_image makes of a body."""
    try:
        prepare_image(body)
    except UnsupportedContent as exc:
        return "use web_fetch" if "web_fetch" in f"{exc.message} {exc.hint}" else "refuse"
    except WebResearchError:
        return "refuse"
    return "show"


@pytest.mark.parametrize("label", IMAGE_LABELS)
@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_text_with_an_image_label_is_text_for_both_tools(label: str, kind: str) -> None:
    body = TEXTS[kind]
    assert _web_fetch_says(body, label) == "read"
    assert _fetch_image_says(body) in ("use web_fetch", "refuse")
    if body.strip():
        assert _fetch_image_says(body) == "use web_fetch"


def _images() -> dict[str, bytes]:
    picture = photo_like(64, 48)
    return {
        "png": encode(picture, "PNG"),
        "jpeg": encode(picture, "JPEG"),
        "gif": encode(picture.convert("P"), "GIF"),
        "webp": encode(picture, "WEBP"),
    }


@pytest.mark.parametrize("label", WRONG_LABELS)
@pytest.mark.parametrize("fmt", ["png", "jpeg", "gif", "webp"])
def test_a_real_image_with_a_wrong_label_is_an_image_for_both_tools(
    label: str | None, fmt: str
) -> None:
    body = _images()[fmt]
    assert _web_fetch_says(body, label) == "use fetch_image"
    assert _fetch_image_says(body) == "show"


def test_case_38_notes_served_as_png() -> None:
    from tests.conftest import CASES

    notes = (CASES / "38-text-labelled-as-png" / "notes.txt").read_bytes()
    converted = convert(notes, "image/png", "http://a.example/notes.png")
    assert converted.mime == "text/plain"
    assert "The nightly export moves from 02:00 to 03:30 UTC" in converted.text
    assert sniff(notes) == "text" and text_kind(notes) == "text"
    assert label_note("image/png", "text/plain") == (
        "the server labelled this image/png, but the bytes are text/plain"
    )


def test_labels_that_agree_or_say_nothing_give_no_note() -> None:
    assert label_note("text/html; charset=utf-8", "text/html") is None
    assert label_note("application/octet-stream", "text/plain") is None
    assert label_note(None, "text/plain") is None
    assert label_note("text/html", "application/xhtml+xml") is None
    assert label_note("text/plain", "application/pdf") is not None


def test_binary_bytes_keep_a_binary_label() -> None:
    noise = bytes(range(256)) * 4
    assert sniff_mime(noise, "image/png") == "image/png"
    assert sniff_mime(noise, "application/zip") == "application/zip"
    assert sniff_mime(noise, None) == "application/octet-stream"
    assert sniff(noise) == "unknown"


_MAGIC_PREFIXES = [
    b"",
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"GIF89a",
    b"RIFF\x00\x00\x00\x00WEBP",
    b"%PDF-",
    b"\n\x89PNG\r\n\x1a\n",
    b"<svg ",
    b"<html>",
    b"<?xml ",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"BM",
    b"\x00\x00\x01\x00",
]
_BODIES = st.one_of(
    st.binary(max_size=64),
    st.tuples(st.sampled_from(_MAGIC_PREFIXES), st.binary(max_size=64)).map(b"".join),
    st.tuples(
        st.sampled_from(_MAGIC_PREFIXES), st.text(max_size=200).map(lambda t: t.encode())
    ).map(b"".join),
    st.sampled_from(list(TEXTS.values())),
)
_LABELS = st.sampled_from([*IMAGE_LABELS, *WRONG_LABELS, "image/svg+xml", "application/pdf"])


@settings(max_examples=400, deadline=None, database=None)
@given(body=_BODIES, label=_LABELS)
def test_no_body_is_sent_back_and_forth(body: bytes, label: str | None) -> None:
    web_fetch = _web_fetch_says(body, label)
    if web_fetch == "use fetch_image":
        assert _fetch_image_says(body) != "use web_fetch", (body[:40], label)
    if _fetch_image_says(body) == "use web_fetch":
        assert web_fetch != "use fetch_image", (body[:40], label)
