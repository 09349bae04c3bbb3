"""A window that starts among a table's rows repeats the table's header and delimiter rows
(review r-11): paging through a long table with ``offset`` keeps every window a table whose
columns are named."""

from __future__ import annotations

from markdown_it import MarkdownIt

from webresearch.extract.budget import cut_window

HEADER = "| Port | Service | Notes |\n|---|---|---|\n"
ROWS = "".join(f"| {8000 + i} | service-{i} | opened for the night shift |\n" for i in range(60))
TEXT = "Intro paragraph about the ports.\n\n" + HEADER + ROWS + "\nClosing words after it.\n"


def _tables(markdown: str) -> int:
    md = MarkdownIt("commonmark").enable("table")
    return sum(tok.type == "table_open" for tok in md.parse(markdown))


def test_every_window_inside_a_table_repeats_its_header() -> None:
    offset, windows = 0, []
    while True:
        window = cut_window(TEXT, offset, 700, markdown=True)
        assert len(window.text.encode()) <= 700
        windows.append(window.text)
        if not window.truncated:
            break
        offset = window.end
    assert len(windows) > 3
    for text in windows[1:]:
        if text.startswith("| 80"):  # cannot happen: a row is never the first line
            raise AssertionError(text)
        if "| service-" in text:
            assert text.startswith(HEADER), text[:80]
            assert _tables(text) == 1
    # every row is read exactly once over the windows (the repeated header aside)
    joined = "".join(w.removeprefix(HEADER) if i else w for i, w in enumerate(windows))
    assert joined == TEXT


def test_a_window_outside_a_table_gets_no_header() -> None:
    start = TEXT.index("Closing")
    window = cut_window(TEXT, len(TEXT[:start].encode()), 700, markdown=True)
    assert window.text == "Closing words after it.\n"


def test_a_header_longer_than_half_the_budget_is_not_repeated() -> None:
    offset = len((TEXT[: TEXT.index("| 8010")]).encode())
    window = cut_window(TEXT, offset, 60, markdown=True)
    assert window.text.startswith("| 8010")
    assert len(window.text.encode()) <= 60


def test_a_cut_inside_a_long_row_moves_to_the_rows_start() -> None:
    """review n-12b: a window ended inside a long row, the next began with its lone ``|``
    and no header."""
    long_rows = "".join(f"| {i} | {'long cell text ' * 40}{i} |\n" for i in range(8))
    text = "Intro.\n\n| N | Long |\n|---|---|\n" + long_rows
    offset, windows = 0, []
    while True:
        window = cut_window(text, offset, 1000, markdown=True)
        windows.append(window.text)
        if not window.truncated:
            break
        offset = window.end
    for piece in windows[1:]:
        assert piece.startswith("| N | Long |\n|---|---|\n| "), piece[:40]
    joined = "".join(
        w.removeprefix("| N | Long |\n|---|---|\n") if i else w for i, w in enumerate(windows)
    )
    assert joined == text
