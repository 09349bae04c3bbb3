"""A closed dialog (a hidden ``role="dialog"`` box, a ``<dialog>`` without ``open``) is left
out; a hidden panel of prose that is no dialog (a closed tab) stays."""

from __future__ import annotations

from webresearch.extract.align import page_segments, page_text_size
from webresearch.extract.dialog_titles import keep_dialog_title
from webresearch.extract.dialogs import closed_dialogs, is_dialog, names_dialog
from webresearch.extract.html import extract_html
from webresearch.extract.page_noise import hidden_blocks
from webresearch.extract.parse import parse_html

STORY = (
    "<p>The town's orchard society planted forty pear trees along the river path this spring, "
    "each one adopted by a family who waters it through the first two summers.</p>"
    "<p>Volunteers prune the trees every February and keep a record of each tree's harvest, "
    "which the society publishes on a board at the library.</p>"
)
# longer than a short notice: a hidden block of this much prose is read as a closed panel
TERMS = (
    "<h2>Reuse this story</h2><p>You may reprint this story in full on your own site or in "
    "print, provided you credit the author and link back to the original page.</p><p>Do not "
    "edit the text beyond changing references to time or place, and do not sell it.</p>"
    "<p>Photographs from agencies may not be reused; ask the editors first when a picture "
    "carries a credit line, and keep every caption as it was written.</p>"
)
PANEL = (
    "<p>Winter care: wrap the young trunks with a pale guard against sunscald, and check the "
    "stakes after every storm so the roots are not rocked loose in the wet soil.</p>"
)


def page(extra: str) -> str:
    return (
        "<html><head><title>Pear trees</title></head><body><main><article>"
        f"<h1>Forty pear trees on the river path</h1>{STORY * 4}{extra}</article></main>"
        "</body></html>"
    )


def markdown(extra: str) -> str:
    return extract_html(page(extra), "http://127.0.0.1/pears").markdown


def hidden_ids(extra: str) -> list[str | None]:
    doc = parse_html(page(extra))
    body = doc.find("body")
    assert body is not None
    return [el.get("id") for el in hidden_blocks(doc, page_text_size(body))]


def test_a_hidden_dialog_is_a_hidden_block_not_collapsed_content() -> None:
    dialog = f"<div id='d' role='dialog' aria-modal='true' style='display:none'>{TERMS}</div>"
    wrapped = f"<div id='w' hidden><div aria-modal='true'>{TERMS}</div></div>"
    assert hidden_ids(dialog) == ["d"]
    assert hidden_ids(wrapped) == ["w"]
    tab = "<button role='tab' aria-controls='p'>Terms</button>"
    assert hidden_ids(f"{tab}<div id='p' role='tabpanel' hidden>{TERMS}</div>") == []  # closed


def test_a_hidden_dialog_of_prose_is_left_out() -> None:
    dialog = f"<div role='dialog' aria-modal='true' style='display:none'>{TERMS}</div>"
    assert "Forty pear trees" in markdown(dialog) or "orchard society" in markdown(dialog)
    assert "reprint this story" not in markdown(dialog)


def test_a_hidden_wrapper_around_a_dialog_is_left_out() -> None:
    wrapped = f"<div hidden><div class='modal' aria-modal='true'>{TERMS}</div></div>"
    assert "reprint this story" not in markdown(wrapped)


def test_a_dialog_element_without_open_is_left_out() -> None:
    assert "reprint this story" not in markdown(f"<dialog>{TERMS}</dialog>")
    doc = parse_html(
        f"<html><body><dialog open>{TERMS}</dialog><dialog>{PANEL}</dialog></body></html>"
    )
    body = doc.find("body")
    assert body is not None
    assert [d.get("open") for d in closed_dialogs(body)] == [None]  # the open one is shown


def test_a_closed_panel_of_prose_stays() -> None:
    tabs = (
        "<div role='tablist'><button role='tab'>Story</button><button role='tab'>Care</button>"
        f"</div><div class='tabs'><div role='tabpanel'>{STORY}</div>"
        f"<div role='tabpanel' hidden>{PANEL}</div></div>"
    )
    assert "Winter care" in markdown(tabs)


def test_is_dialog_reads_the_role_and_the_wrapped_share() -> None:
    doc = parse_html(
        f"<html><body><div id='a' role='alertdialog'>{TERMS}</div>"
        f"<div id='b'><div role='dialog'><p>Close</p></div>{PANEL}</div>"
        f"<dialog id='c'><h1>Whole page</h1></dialog></body></html>"
    )
    a, b = doc.get_element_by_id("a"), doc.get_element_by_id("b")
    assert is_dialog(a, 100)
    assert not is_dialog(b, 150)  # the dialog inside holds little of the block's text
    body = doc.find("body")
    assert body is not None
    assert closed_dialogs(body) == []  # a dialog holding the page's <h1> stays


def modal(classes: str, inner: str = "modal-dialog", style: str = "") -> str:
    return (
        f"<div class='{classes}' tabindex='-1'{style}><div class='{inner}'>"
        f"<div class='modal-content'><div class='modal-body'>{TERMS}</div></div></div></div>"
    )


NOTICE = (
    "<h6>Help us keep this site free</h6><p>This site is free for everyone because advertising "
    "pays for it. Please support us by opting in to relevant advertising.</p><p>We value your "
    "privacy. We and our partners use cookies and other technologies to store and access "
    "information on your device and to measure our audience.</p>"
)
SERVICES = "".join(
    f"<div class='row'><div class='col'><h2>Service {n}</h2><p>Our team of trained gardeners "
    "visits your orchard every season to prune, feed and check each tree for disease, and "
    "writes you a short report.</p></div></div>"
    for n in range(4)
)


def service_page(box: str) -> str:
    return extract_html(
        "<html><head><title>Orchard care</title></head><body><div class='container'>"
        f"<h1>Orchard care</h1>{SERVICES}</div><footer><p>© 2026 Orchard</p></footer>{box}"
        "</body></html>",
        "http://127.0.0.1/care",
    ).markdown


def test_a_closed_framework_modal_is_left_out() -> None:
    # Bootstrap's stylesheet hides .modal until a script opens it: no inline style says so
    bootstrap = (
        "<div class='modal fade'><div class='modal-dialog'><div class='modal-content'>"
        f"<div class='modal-body'>{NOTICE}</div></div></div></div>"
    )
    bulma = (
        "<div class='modal'><div class='modal-background'></div>"
        f"<div class='modal-content'>{NOTICE}</div></div>"
    )
    for box in (bootstrap, bulma):
        text = service_page(box)
        assert "value your privacy" not in text
        assert "prune, feed and check" in text


def test_an_open_modal_or_a_component_named_modal_is_no_closed_dialog() -> None:
    shown = (
        modal("modal fade show"),
        modal("modal", style=" style='display: block'"),
        modal("modal is-active"),
        modal("modal", inner="panel"),  # without the framework's box the class names a part
    )
    doc = parse_html(f"<html><body>{''.join(shown)}{modal('modal fade')}</body></html>")
    body = doc.find("body")
    assert body is not None
    assert [d.get("class") for d in closed_dialogs(body)] == ["modal fade"]


def test_a_page_whose_text_is_all_in_a_closed_modal_keeps_it() -> None:
    """Review r-15 M2: a terms fragment fetched alone is the modal; it is the page."""
    prose = (
        "<p>Members may cancel a mooring booking up to two days before arrival and receive "
        "a full refund of the harbour fee, less the card charge.</p>"
    )
    for box in (
        f"<div class='modal'><div class='modal-dialog'><h2>Mooring terms</h2>{prose}</div></div>",
        f"<div class='modal'><div class='modal-background'></div>"
        f"<div class='modal-card'><h2>Mooring terms</h2>{prose}</div></div>",
    ):
        html = f"<html><head><title>Terms</title></head><body>{box}</body></html>"
        out = extract_html(html, "https://harbour.example/terms")
        assert "cancel a mooring booking" in out.markdown
        assert out.fallback is None or "empty" not in out.fallback


def test_the_title_of_a_modal_that_is_the_page_stays() -> None:
    """Review (session 15): Bootstrap's ``h5.modal-title`` over the box was lost."""
    prose = "".join(
        f"<p>Rule {n}: members may cancel a mooring booking up to two days before arrival and "
        "receive a full refund of the harbour fee, less the card charge.</p>"
        for n in range(3)
    )
    close = "<button type='button' class='btn-close' aria-label='Close'></button>"
    for box in (
        "<div class='modal fade' tabindex='-1'><div class='modal-dialog'>"
        "<div class='modal-content'><div class='modal-header'>"
        f"<h5 class='modal-title'>Mooring terms</h5>{close}</div>"
        f"<div class='modal-body'>{prose}</div></div></div></div>",
        "<div role='dialog' aria-labelledby='t'><div class='head'>"
        f"<span id='t'>Mooring terms</span>{close}</div><div>{prose}</div></div>",
    ):
        html = f"<html><head><title>Terms</title></head><body>{box}</body></html>"
        out = extract_html(html, "https://harbour.example/terms").markdown
        assert "Mooring terms" in out, box
        assert out.index("Mooring terms") < out.index("Rule 0")


def test_a_modal_title_is_not_added_when_the_content_kept_is_outside_the_box() -> None:
    body = parse_html(
        "<html><body><p>The article</p><div class='modal'><div class='modal-dialog'>"
        "<h5 class='modal-title'>Sign in</h5><p>Your email</p></div></div></body></html>"
    ).find("body")
    assert body is not None
    segments = page_segments(body)
    for seg in segments:
        seg.kept = seg.norm in ("thearticle", "youremail")
    assert keep_dialog_title(segments) == 0
    for seg in segments:
        seg.kept = seg.norm == "youremail"
    assert keep_dialog_title(segments) == len("signin")


def test_dialog_titles_read_a_dialog_as_dialogs_does() -> None:
    """One rule for what a dialog is (review, session 16: dialog_titles took any element of
    class ``modal`` for one, dialogs.py only a framework's box)."""
    body = parse_html(
        "<html><body><div class='modal'><p>Members may cancel a booking</p>"
        "<h5 class='modal-title'>Sign in</h5></div>"
        "<div class='modal'><div class='modal-dialog'><p>Harbour fees</p>"
        "<h5 class='modal-title'>Fees</h5></div></div></body></html>"
    ).find("body")
    assert body is not None
    boxes = [el for el in body.iter("div") if el.get("class") == "modal"]
    assert [names_dialog(el) for el in boxes] == [False, True]
    segments = page_segments(body)
    for seg in segments:
        seg.kept = seg.norm == "membersmaycancelabooking"
    assert keep_dialog_title(segments) == 0  # a part named "modal", no framework box
    for seg in segments:
        seg.kept = seg.norm == "harbourfees"
    assert keep_dialog_title(segments) == len("fees")
