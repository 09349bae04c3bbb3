"""What ``browse`` prints of its results for a person (cli/browse_output.py): the page's
header once, not once per action."""

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
    'refs: d1e… (valid until the page navigates)\n\n- main\n  - heading "Tide tables"'
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
    assert "status: 200\ncontent-type: text/html\n\n# Tide tables\n\nHigh water" in out


def test_a_result_after_page_text_prints_whole() -> None:
    """After ``content`` the next result's header separates it from the page's text."""
    shown = HeaderLines()
    shown.fresh(CONTENT)
    assert shown.fresh(SNAPSHOT) == SNAPSHOT


def test_a_changed_line_is_printed() -> None:
    shown = HeaderLines()
    shown.fresh(OPENED)
    moved = CONTENT.replace("/tides", "/tides/today").replace("title: Tide tables", "title: Today")
    out = shown.fresh(moved)
    assert out.startswith("url: http://127.0.0.1:8765/tides/today\ncontent-type: text/html\n")
    assert "title: Today\n\n# Tide tables" in out
    assert NOTICE not in out


def test_forget_prints_the_next_result_whole() -> None:
    shown = HeaderLines()
    shown.fresh(OPENED)
    shown.forget()
    assert shown.fresh(CONTENT) == CONTENT
