"""Session 10 review (fault 12): a call whose tool is "" is counted in every view, costs are
plain decimals, and table cells are cut and padded by terminal columns (CJK, combining
marks), so the columns after them line up."""

from __future__ import annotations

from typing import Any

from webresearch.cli.journal import format_table
from webresearch.cli.journal_view import (
    Call,
    calls_of,
    cut,
    display_width,
    format_calls,
    format_stats,
    journal_stats,
    plain_number,
)


def _call(op: str, tool: str, cost: float = 0.0) -> list[dict[str, Any]]:
    started = {
        "kind": "tool.started",
        "operation_id": op,
        "tool": tool,
        "run_id": "r",
        "time": f"2026-12-02T08:0{op[-1]}:00.000+00:00",
        "details": {"arguments": {"url": f"https://a.test/{op}"}},
    }
    closed = {
        "kind": "tool.completed",
        "operation_id": op,
        "tool": tool,
        "run_id": "r",
        "time": f"2026-12-02T08:0{op[-1]}:01.000+00:00",
        "outcome": "ok",
        "cost": cost,
    }
    return [started, closed]  # fmt: skip


def test_a_call_of_a_tool_named_empty_is_listed_as_stats_count_it() -> None:
    events = _call("op1", "web_fetch") + _call("op2", "")
    calls = calls_of(events)
    assert [c.tool for c in calls] == ["web_fetch", ""]
    assert journal_stats(events).calls == len(calls) == 2
    assert "(no name)" in format_calls(calls)[2]
    assert any(
        line.split() == ["(no", "name)", "1"] for line in format_stats(journal_stats(events))
    )


def test_run_level_events_without_a_tool_are_still_no_call() -> None:
    events = [{"kind": "run.note", "operation_id": "op9", "tool": None, "run_id": "r",
               "time": "2026-12-02T08:00:00.000+00:00"}]  # fmt: skip
    assert calls_of(events) == []


def test_costs_are_plain_decimals() -> None:
    assert plain_number(123456789.123) == "123456789.123"
    assert plain_number(1e-09) == "0.000000001"
    assert plain_number(0.005) == "0.005"
    assert plain_number(12) == "12"
    assert plain_number(2_000_000) == "2000000"
    events = _call("op1", "web_search", cost=123456789.123)
    assert "123456789.123" in format_calls(calls_of(events))[1]
    assert "spent       123456789.123" in format_stats(journal_stats(events))
    table = format_table([{"kind": "tool.completed", "tool": "t", "cost": 123456789.123,
                           "time": "2026-12-02T08:00:00.000+00:00", "run_id": "r"}])  # fmt: skip
    assert "123456789.123" in table[1] and "e+08" not in table[1]


def test_width_counts_terminal_columns() -> None:
    assert display_width("日本語") == 6
    assert display_width("e\u0301") == 1
    assert display_width("abc") == 3
    cut_text = cut("日本語のとても長いパス", 9)
    assert cut_text == "日本語の…" and display_width(cut_text) == 9


def test_cjk_and_combining_targets_keep_the_columns_in_line() -> None:
    calls = [
        Call(time="2026-12-02T08:01:00.000+00:00", run_id="run-a", operation_id="a",
             tool="web_fetch", target="https://例え.テスト/日本語のとても長いパスの名前がここにありますよ/さらに",
             outcome="ok", duration_ms=5.0),
        Call(time="2026-12-02T08:02:00.000+00:00", run_id="run-b", operation_id="b",
             tool="web_fetch", target="https://a.test/" + "\u0301" * 30 + "x", outcome="ok",
             duration_ms=5.0),
        Call(time="2026-12-02T08:03:00.000+00:00", run_id="run-c", operation_id="c",
             tool="web_fetch", target="https://a.test/plain", outcome="ok", duration_ms=5.0),
    ]  # fmt: skip
    lines = format_calls(calls)
    header = lines[0]
    column = display_width(header[: header.index("OUTCOME")])
    for line in lines[1:]:
        assert display_width(line[: line.index("ok")]) == column, line
    assert max(display_width(line[: line.index("ok")]) for line in lines[1:]) <= column
