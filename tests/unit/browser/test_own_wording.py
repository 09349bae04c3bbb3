"""Browser wording a second reviewer found unclear (session 8 note): each says in our own
words what happened and the next step — never the library's text."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from webresearch.browser.base import SessionConfig
from webresearch.browser.page_errors import map_error
from webresearch.cli import browse
from webresearch.cli.main import cli
from webresearch.errors import InvalidArguments, NetworkError
from webresearch.tools.browser_reading import status_note


def test_fill_on_a_button_says_it_is_not_a_text_field() -> None:
    """Was "fill failed: Error: Element is not an <input>, <textarea>, <select> or
    [contenteditable] and does not have a role allowing [aria-readonly]"."""
    library = (
        "Locator.fill: Error: Element is not an <input>, <textarea>, <select> or "
        "[contenteditable] and does not have a role allowing [aria-readonly]\nCall log:\n  - x"
    )
    error = map_error(Exception(library), "fill", SessionConfig())
    assert isinstance(error, InvalidArguments)
    assert error.message == (
        "fill failed: the element is not a text field (an input, a text area, a select or an "
        "editable element)"
    )
    assert error.hint is not None and "use click" in error.hint
    assert "<input>" not in str(error) and "Error:" not in error.message


@pytest.mark.parametrize(
    ("library", "expected"),
    [
        (
            "Page.goto: net::ERR_HTTP_RESPONSE_CODE_FAILURE at http://127.0.0.1:1/x",
            "opening the page failed: the server answered with an HTTP error status and an "
            "empty page",
        ),
        (
            "Page.goto: net::ERR_INVALID_RESPONSE at http://127.0.0.1:1/x",
            "opening the page failed: the browser could not load the page "
            "(net::ERR_INVALID_RESPONSE)",
        ),
    ],
)
def test_a_failed_load_is_said_in_our_words_with_a_next_step(library: str, expected: str) -> None:
    """Was "opening the page failed: net::ERR_HTTP_RESPONSE_CODE_FAILURE" with no next step
    (an empty 502 page)."""
    error = map_error(Exception(library), "opening the page", SessionConfig())
    assert isinstance(error, NetworkError)
    assert error.message == expected
    assert error.hint


def test_a_bare_error_prefix_is_not_shown() -> None:
    error = map_error(Exception("Locator.hover: Error: something odd"), "hover", SessionConfig())
    assert error.message == "hover failed: something odd"


def test_an_error_status_page_says_so_and_what_to_do() -> None:
    """A 502 page opened with exit 0 and only `status: 502`: nothing said the page shown is
    the server's error page."""
    assert status_note(200, False) is None and status_note(None, False) is None
    note = status_note(502, False)
    assert note is not None
    assert note.startswith("note: the server answered HTTP 502, an error status")
    assert note.endswith("next step: retry later")
    assert (status_note(404, False) or "").endswith("check the URL or search for it")
    unreached = status_note(502, True) or ""
    assert "the site could not be reached" in unreached and "next step:" in unreached


def test_an_unquoted_selector_with_spaces_says_to_quote_it() -> None:
    """`click text=Sign in` said only "click: unexpected 'in' (usage: click SELECTOR|REF)"."""
    with pytest.raises(browse.ActionError) as caught:
        browse.parse_action("click text=Sign in")
    assert str(caught.value) == (
        "click: unexpected 'in' after the selector 'text=Sign': quote a selector that holds "
        "spaces, e.g. click 'text=Sign in' (usage: click SELECTOR|REF)"
    )
    assert browse.parse_action("click 'text=Sign in'") == (
        {"action": "click", "selector": "text=Sign in"},
        None,
    )


def test_a_timed_out_action_names_a_larger_timeout_first() -> None:
    # second fresh review: --timeout-ms 1 was advised to "try wait with a selector"
    error = map_error(TimeoutError(), "opening the page", SessionConfig())
    assert error.hint is not None and error.hint.startswith("give a larger timeout_ms")


def test_browse_refuses_a_timeout_beyond_a_day_naming_the_option() -> None:
    result = CliRunner().invoke(cli, ["browse", "http://127.0.0.1:9/", "--timeout-ms", "9" * 20])
    assert result.exit_code == 2
    assert "'--timeout-ms': 99999999999999999999 is not in the range 1<=x<=86400000" in (
        result.output
    )
