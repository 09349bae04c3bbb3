"""What ``browse`` prints of its results for a person (cli/browse_output.py): the results
told apart, the page's header not repeated for the same page."""

from __future__ import annotations

from webresearch.cli.browse_output import NOTICE, HeaderLines
from webresearch.tools.page_text import UNTRUSTED_NOTICE

OPENED = f"{NOTICE}\nurl: http://127.0.0.1:8765/tides\ntitle: Tide tables\nstatus: 200"
CONTENT = (
    f"{NOTICE}\nurl: http://127.0.0.1:8765/tides\ncontent-type: text/html\n"
    "title: Tide tables\n\n# Tide tables\n\nHigh water at 06:12."
)
SNAPSHOT = (
    f"{NOTICE}\nurl: http://127.0.0.1:8765/tides\ntitle: Tide tables\n"
    'refs: d1e… (valid until the page loads another document)\n\n- main\n  - heading "Tide tables"'
)


def test_the_notice_is_the_tools_own() -> None:
    assert NOTICE == UNTRUSTED_NOTICE


def test_content_after_open_prints_the_header_once() -> None:
    """``browse URL --do content``: the notice, url and title printed twice in a row
    (a new user's report)."""
    shown = HeaderLines()
    out = "\n".join([shown.fresh(OPENED), shown.fresh(CONTENT)])
    assert out.count(NOTICE) == 1
    assert out.count("url: http://127.0.0.1:8765/tides") == 1
    assert out.count("title: Tide tables") == 1
    assert "status: 200\n\ncontent-type: text/html\n\n# Tide tables\n\nHigh water" in out


def test_a_result_after_page_text_prints_whole() -> None:
    """After ``content`` the next result's header separates it from the page's text."""
    shown = HeaderLines()
    shown.fresh(CONTENT)
    assert shown.fresh(SNAPSHOT) == "\n" + SNAPSHOT


def test_a_changed_line_is_printed() -> None:
    shown = HeaderLines()
    shown.fresh(OPENED)
    moved = CONTENT.replace("/tides", "/tides/today").replace("title: Tide tables", "title: Today")
    out = shown.fresh(moved)
    assert out.startswith("\nurl: http://127.0.0.1:8765/tides/today\ncontent-type: text/html\n")
    assert "title: Today\n\n# Tide tables" in out
    assert NOTICE not in out


def test_forget_prints_the_next_result_whole() -> None:
    shown = HeaderLines()
    shown.fresh(OPENED)
    shown.forget()
    assert shown.fresh(CONTENT) == CONTENT


def _page(path: str, title: str, *lines: str) -> str:
    return "\n".join([NOTICE, f"url: http://127.0.0.1:8765/{path}", f"title: {title}", *lines])


def test_each_result_is_told_apart() -> None:
    """``open a``, ``open a`` printed ``status: 200`` twice in a row; ``back`` then
    ``forward`` read as one block; the last ``open`` named no page (review)."""
    shown = HeaderLines()
    results = [
        _page("a.html", "Page A", "status: 200"),
        _page("a.html", "Page A", "status: 200"),
        _page("b.html", "Page B", "note: the page navigated").replace("\n", "\nclicked\n", 1),
        _page("a.html", "Page A"),  # back
        _page("b.html", "Page B"),  # forward
        _page("b.html", "Page B", "status: 200"),
    ]
    out = "\n".join(shown.fresh(r) for r in results)
    assert out == (
        f"{NOTICE}\nurl: http://127.0.0.1:8765/a.html\ntitle: Page A\nstatus: 200\n"
        "\nstatus: 200\n"
        "\nclicked\nurl: http://127.0.0.1:8765/b.html\ntitle: Page B\nnote: the page navigated\n"
        "\nurl: http://127.0.0.1:8765/a.html\ntitle: Page A\n"
        "\nurl: http://127.0.0.1:8765/b.html\ntitle: Page B\n"
        "\nstatus: 200"
    )


def test_another_page_is_named_after_a_result_without_text() -> None:
    """Only a result on the same page as the one just printed leaves its header out: a
    ``content`` after ``back`` to another page mixed the two pages' title lines (review)."""
    shown = HeaderLines()
    shown.fresh(OPENED)
    other = CONTENT.replace("/tides", "/ferries")
    out = shown.fresh(other)
    assert out.startswith("\nurl: http://127.0.0.1:8765/ferries\n")
    assert "title: Tide tables" in out and NOTICE not in out


def test_a_result_of_repeated_lines_only_still_names_its_page() -> None:
    """A result whose lines were all repeats printed nothing: an action that succeeded
    said nothing (review)."""
    shown = HeaderLines()
    same = f"{NOTICE}\nurl: http://127.0.0.1:8765/tides\ntitle: Tide tables"
    shown.fresh(same)
    assert shown.fresh(same) == "\nurl: http://127.0.0.1:8765/tides\ntitle: Tide tables"
