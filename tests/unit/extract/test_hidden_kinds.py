"""The hidden-text note says what kind of hidden text was kept — a closed panel a click
opens, or text the page draws in its background's colour (or off the screen) that no
visitor sees — with the count of each (review, session 15: white-on-white text was called
"closed tabs or panels"), on pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.tools.page_text import format_document, hidden_kept_note
from webresearch.types import PageText

from .test_offscreen_text import INJECTION, URL, page

PANEL = (
    "<h2>Crossings</h2><div class='tabs'>"
    "<button aria-controls='day' aria-selected='true'>Day</button>"
    "<button aria-controls='night' aria-selected='false'>Night</button></div>"
    "<div id='day'><p>The day ferries leave every hour from the north harbour.</p></div>"
    "<div id='night' hidden><p>The night ferry leaves the north harbour at eleven and reaches "
    "the island a little after one, when the harbour office on the quay is already closed, "
    "so tickets for it are sold on board by the purser, in cash or by card, until the ship "
    "leaves the breakwater behind.</p></div>"
)
WHITE = f"<p style='color:#fff;background:#fff'>{INJECTION}</p>"


def _letters(text: str) -> int:
    return sum(c.isalnum() for c in text)


def test_white_on_white_text_is_counted_as_invisible() -> None:
    result = extract_html(page(WHITE), URL)
    assert result.hidden_chars_kept >= _letters(INJECTION)
    assert result.invisible_chars_kept == result.hidden_chars_kept


def test_a_closed_panel_is_not_invisible_text() -> None:
    result = extract_html(page(PANEL), URL)
    assert "night ferry" in result.markdown and result.hidden_chars_kept > 100
    assert result.invisible_chars_kept == 0


def test_both_kinds_are_counted_apart() -> None:
    result = extract_html(page(PANEL + WHITE), URL)
    assert "night ferry" in result.markdown and "bank password" in result.markdown
    assert result.invisible_chars_kept >= _letters(INJECTION)
    assert result.hidden_chars_kept - result.invisible_chars_kept > 100


def test_the_note_names_the_kind_of_hidden_text() -> None:
    closed = hidden_kept_note(120)
    assert "closed tabs or panels" in closed and "colour" not in closed
    white = hidden_kept_note(90, 90)
    assert "background's colour" in white and "closed tabs" not in white
    both = hidden_kept_note(210, 90)
    assert "120 in closed tabs or panels" in both and "90 in text drawn invisibly" in both
    for note in (closed, white, both):
        assert note.startswith(f"note: {note.split()[1]} letters of this text are hidden")


def test_the_formatted_page_says_white_on_white_text_is_invisible() -> None:
    result = extract_html(page(WHITE), URL)
    doc: PageText = {
        "url": URL,
        "content_type": "text/html",
        "title": result.title,
        "text": result.markdown,
        "markdown": True,
        "hidden_chars_kept": result.hidden_chars_kept,
        "hidden_chars_invisible": result.invisible_chars_kept,
    }
    text, _window = format_document(doc, 0, 10_000)
    assert "background's colour" in text and "closed tabs or panels" not in text


FADE_IN = (
    "<section data-w-id='a1b2' style='opacity:0;transform:translate3d(0,40px,0)'>"
    "<h2>Ferry fares</h2><p>A return ticket for a car and two adults costs forty pounds in "
    "winter and fifty-five in summer; bikes travel free on every crossing.</p></section>"
)


def test_a_fade_in_start_is_counted_with_closed_panels_not_as_invisible() -> None:
    """A Webflow section at ``opacity:0`` its script fades in (review, session 16): shown
    a moment later, so kept and counted, but not "drawn invisibly"."""
    result = extract_html(page(FADE_IN), URL)
    assert "forty pounds" in result.markdown and result.hidden_chars_kept > 50
    assert result.invisible_chars_kept == 0


def test_transparent_and_zero_size_text_stay_invisible() -> None:
    for style in ("color:transparent", "transform:scale(0)"):
        result = extract_html(page(f"<p style='{style}'>{INJECTION}</p>"), URL)
        assert result.hidden_chars_kept >= _letters(INJECTION), style
        assert result.invisible_chars_kept == result.hidden_chars_kept, style
