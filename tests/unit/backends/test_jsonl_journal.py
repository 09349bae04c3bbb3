"""The JSON-lines journal survives damage and several writers (SPEC §3 "Journal", issue 20).

Damage of every kind (a torn line, bytes that are not UTF-8, text that is not JSON, JSON
that is not a record) is skipped and counted, never an error; the next event starts on its
own line; operation-id lookups read only what was appended since the last one; three
processes writing one file lose nothing and fail no call.
"""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from io import BufferedReader
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from webresearch import RunContext, Settings, Toolkit
from webresearch.backends import jsonl_journal
from webresearch.backends.jsonl_journal import (
    READ_CHUNK_BYTES,
    SINCE_SLACK_S,
    SINCE_STOP_RUN,
    JSONLinesJournal,
    encode_line,
    lines_backwards,
    parse_line,
)
from webresearch.cli import journal as journal_cli
from webresearch.cli.main import cli
from webresearch.runtime.journal import JournalEvent
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject, ToolResult

#: Damage as a crash, a full disk or another program leaves it: (name, bytes, lines skipped).
DAMAGE = [
    ("torn last line", b'{"event_id": "x", "kind": "tool.sta', 1),
    ("not UTF-8", b"\xff\xfe\n", 1),
    ("invalid UTF-8 inside a JSON string", b'{"kind": "tool.started", "run_id": "\xc3("}\n', 1),
    ("NUL bytes", b"\x00\x00\x00\n", 1),
    ("not JSON", b"hello world\n", 1),
    ("a JSON array", b"[1, 2, 3]\n", 1),
    ("an object that is not an event", b'{"x": 1}\n', 1),
    ("an event with a number for its kind", b'{"kind": 5, "run_id": "r"}\n', 1),
    ("deeply nested JSON", b"[" * 100_000 + b"\n", 1),
    ("a bad operation result", b'{"operation_result": {"operation_id": 7}}\n', 0),
    ("two torn lines", b'{"kind": "a\n{"run_id"', 2),
    ("blank lines only", b"\n\n   \n", 0),
]


def event(i: int, run: str = "r") -> JournalEvent:
    return JournalEvent(kind="tool.completed", run_id=run, tool="web_fetch", output=f"event {i}")


@pytest.mark.parametrize("limit", [None, 10], ids=["forwards", "newest first"])
@pytest.mark.parametrize(("name", "damage", "skipped"), DAMAGE, ids=[d[0] for d in DAMAGE])
async def test_damage_is_skipped_counted_and_the_next_event_kept(
    tmp_path: Path, name: str, damage: bytes, skipped: int, limit: int | None
) -> None:
    path = tmp_path / "j.jsonl"
    sink = JSONLinesJournal(path)
    try:
        await sink.append(event(1))
        await sink.record_result("op-before", {"text": "before"})
        with path.open("ab") as fh:
            fh.write(damage)
        await sink.append(event(2))
        await sink.record_result("op-after", {"text": "after"})
        assert [e.output for e in await sink.query(limit=limit)] == ["event 1", "event 2"]
        assert sink.skipped_lines == skipped and sink.read_all
        assert await sink.recorded_result("op-before") == {"text": "before"}
        assert await sink.recorded_result("op-after") == {"text": "after"}
        assert path.read_bytes().endswith(b"\n")
    finally:
        await sink.aclose()


async def test_a_line_in_progress_is_not_read_until_it_ends(tmp_path: Path) -> None:
    # Another process's write may be seen half done: an unterminated last line is not data yet.
    path = tmp_path / "j.jsonl"
    sink = JSONLinesJournal(path)
    try:
        await sink.append(event(1))
        whole = encode_line({"operation_result": {"operation_id": "op", "result": {"n": 1}}})
        with path.open("ab") as fh:
            fh.write(whole[:-10])
            fh.flush()
            assert await sink.recorded_result("op") is None
            assert len(await sink.query()) == 1
            fh.write(whole[-10:])
        assert await sink.recorded_result("op") == {"n": 1}
    finally:
        await sink.aclose()


async def test_text_that_is_not_unicode_is_written_as_escapes(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    sink = JSONLinesJournal(path)
    try:
        odd = JournalEvent(
            kind="tool.failed", run_id="r", output="a\ud800b", details={"k": "\udcff"}
        )
        await sink.append(odd)
        path.read_bytes().decode("utf-8")  # the file stays UTF-8
        (back,) = await sink.query()
        assert (back.output, back.details) == ("a\ufffdb", {"k": "\ufffd"})
        await sink.record_result("op\ud800", {"text": "\udcff"})  # kept as JSON escapes
        path.read_bytes().decode("utf-8")
        assert await sink.recorded_result("op\ud800") == {"text": "\udcff"}
        assert sink.skipped_lines == 0
    finally:
        await sink.aclose()


def test_parse_line_takes_json_objects_only() -> None:
    assert parse_line(b'{"a": 1}') == {"a": 1}
    for line in (b"\xff", b"[1]", b'"text"', b"1", b"{", b"[" * 100_000, b"null"):
        assert parse_line(line) is None


class _CountingReader:
    """``open`` for the module under test, counting the bytes it reads."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def __call__(self, path: Path, mode: str) -> BufferedReader:
        fh = open(path, mode)  # noqa: SIM115
        real_read = fh.read

        def read(n: int = -1) -> bytes:
            data: bytes = real_read(n)
            self.read_bytes += len(data)
            return data

        fh.read = read  # type: ignore[method-assign]
        return fh  # type: ignore[return-value]


async def test_lookups_read_only_what_was_appended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.jsonl"
    sink = JSONLinesJournal(path)
    try:
        for i in range(300):
            await sink.append(event(i))
            await sink.record_result(f"op-{i}", {"text": "x" * 200, "i": i})
        counter = _CountingReader()
        monkeypatch.setattr(jsonl_journal, "open", counter, raising=False)
        assert await sink.recorded_result("op-7") == {"text": "x" * 200, "i": 7}
        first = counter.read_bytes
        assert first >= path.stat().st_size  # the first lookup indexes the file once
        for i in (3, 150, 299, 42):
            assert (await sink.recorded_result(f"op-{i}") or {})["i"] == i
        await sink.record_result("op-new", {"i": -1})
        assert await sink.recorded_result("op-new") == {"i": -1}
        assert await sink.recorded_result("missing") is None
        # Five lookups of indexed results and one new line: a few hundred bytes, not the file.
        assert counter.read_bytes - first < 4096
    finally:
        await sink.aclose()


def _complete_lines(data: bytes) -> list[tuple[int, bytes]]:
    """``(offset, line)`` of every newline-terminated line, first first (the reference)."""
    out, offset = [], 0
    for line in data[: data.rfind(b"\n") + 1].split(b"\n")[:-1]:
        out.append((offset, line))
        offset += len(line) + 1
    return out


@given(
    parts=st.lists(
        st.sampled_from([b"", b"a", b"\n", b"bc\n", b"x" * 40, b"\n\n", b'{"k": 1}\n']),
        max_size=30,
    ),
    chunk=st.integers(1, 16),
)
def test_lines_backwards_are_the_complete_lines_last_first(parts: list[bytes], chunk: int) -> None:
    # Lines longer than a block, blocks starting or ending on a newline, blank lines, no
    # newline at all, an unterminated last line (a write in progress: not a line).
    data = b"".join(parts)
    got = list(lines_backwards(io.BytesIO(data), len(data), chunk))
    assert got[::-1] == _complete_lines(data)


async def test_the_newest_events_are_read_from_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A reviewer's 737 MB journal took 164 s for ``journal --limit 3``: the whole file was
    # read (and parsed) to keep its last lines.
    path = tmp_path / "j.jsonl"
    with path.open("wb") as fh:
        fh.write(b"not json\n")  # counted only by a query that reads this far back
        for i in range(2000):
            fh.write(encode_line(event(i).to_dict()))
        fh.write(b'{"kind": "tool.comp')  # a write in progress
    sink = JSONLinesJournal(path)
    counter = _CountingReader()
    monkeypatch.setattr(jsonl_journal, "open", counter, raising=False)
    try:
        newest = await sink.query(limit=3)
        assert [e.output for e in newest] == ["event 1997", "event 1998", "event 1999"]
        assert counter.read_bytes <= 2 * READ_CHUNK_BYTES < path.stat().st_size // 4
        assert sink.skipped_lines == 0 and not sink.read_all
        everything = await sink.query(limit=5000)
        assert sink.skipped_lines == 1 and sink.read_all
        assert everything == await sink.query()  # the same events as a forward read
        assert [e.output for e in await sink.query(run_id="r", limit=2)] == [
            "event 1998",
            "event 1999",
        ]
    finally:
        await sink.aclose()


async def test_a_newest_first_query_with_since_stops_at_older_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lines are in the order they were written, not quite in time order: an event made
    # just before another may be written just after it.
    path = tmp_path / "j.jsonl"

    def at(time: str, output: str) -> bytes:
        return encode_line(JournalEvent(kind="k", run_id="r", output=output, time=time).to_dict())

    with path.open("wb") as fh:
        for i in range(2000):
            fh.write(at("2026-11-01T00:00:00.000+00:00", f"old {i}"))
        fh.write(at("2026-12-01T10:00:01.000+00:00", "e, before a stray line"))
        for i in range(SINCE_STOP_RUN - 1):
            fh.write(at("2026-11-30T10:00:00.000+00:00", f"stray {i}"))  # a wrong clock
        fh.write(at("2026-12-01T10:00:05.000+00:00", "a"))
        fh.write(at("2026-12-01T10:00:00.000+00:00", "b, made before a"))
        fh.write(at("2026-12-01T09:55:00.000+00:00", "c, before since"))
        fh.write(at("2026-12-01T10:00:10.000+00:00", "d"))
    sink = JSONLinesJournal(path)
    counter = _CountingReader()
    monkeypatch.setattr(jsonl_journal, "open", counter, raising=False)
    since = "2026-12-01T10:00:00.000+00:00"
    try:
        found = [e.output for e in await sink.query(since=since, limit=100)]
        assert found == ["e, before a stray line", "a", "b, made before a", "d"]
        assert counter.read_bytes <= 2 * READ_CHUNK_BYTES < path.stat().st_size // 4
        assert not sink.read_all
        assert [e.output for e in await sink.query(since=since)] == found  # forwards: the same
        assert SINCE_SLACK_S >= 60
    finally:
        await sink.aclose()


async def test_a_replaced_file_is_indexed_again(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    sink = JSONLinesJournal(path)
    try:
        await sink.record_result("op", {"v": 1})
        assert await sink.recorded_result("op") == {"v": 1}
        path.write_bytes(encode_line({"operation_result": {"operation_id": "op2", "result": {}}}))
        assert await sink.recorded_result("op") is None
        assert await sink.recorded_result("op2") == {}
    finally:
        await sink.aclose()


# --- through the Toolkit and the CLI ---------------------------------------------------------


def _probe(services: Services) -> ToolEntry[JSONObject]:
    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        return ToolResult(f"results for {arguments['query']}")

    return ToolEntry(spec=WEB_SEARCH, run=run)


async def _call(url: str, op: str) -> ToolResult:
    settings = Settings.load(environ={}, journal_url=url)
    async with Toolkit(settings, builders=[_probe]) as toolkit:
        return await toolkit.call(
            "web_search", {"query": op}, run=RunContext(run_id="r"), operation_id=op
        )


@pytest.mark.parametrize(("name", "damage", "skipped"), DAMAGE[:3], ids=[d[0] for d in DAMAGE[:3]])
def test_calls_and_the_journal_command_survive_damage(
    tmp_path: Path, name: str, damage: bytes, skipped: int
) -> None:
    path = tmp_path / "j.jsonl"
    url = f"jsonl:///{path}"
    assert asyncio.run(_call(url, "op-before")).ok
    with path.open("ab") as fh:
        fh.write(damage)
    after = asyncio.run(_call(url, "op-after"))
    again = asyncio.run(_call(url, "op-again"))
    assert after.ok and again.ok, (after.error, again.error)
    assert asyncio.run(_call(url, "op-after")).meta.get("replayed") is True
    result = CliRunner().invoke(
        cli, ["journal", "--json", "--limit", "1000"], env={"WEBRESEARCH_JOURNAL_URL": url}
    )
    assert result.exit_code == 0, result.output
    ops = [json.loads(line)["operation_id"] for line in result.stdout.splitlines()]
    assert {"op-before", "op-after", "op-again"} <= set(ops)
    assert f"skipped {skipped} unreadable line" in result.stderr
    table = CliRunner().invoke(cli, ["journal", "--events"], env={"WEBRESEARCH_JOURNAL_URL": url})
    assert table.exit_code == 0 and "tool.completed" in table.stdout


def test_the_journal_command_reads_only_the_end_of_a_big_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``journal --limit 3``, also with the run-id prefix the table shows (before: a prefix
    # was first looked up as a full id, which read the whole file to find nothing).
    path = tmp_path / "j.jsonl"
    with path.open("wb") as fh:
        for i in range(3000):
            op = f"op-{i}"
            for kind in ("tool.started", "tool.completed"):
                fh.write(
                    encode_line(
                        JournalEvent(
                            kind=kind, run_id=f"run-{i // 100:04d}-abcdef", tool="t",
                            operation_id=op, output="z" * 300,
                        ).to_dict()
                    )
                )  # fmt: skip
    env = {"WEBRESEARCH_JOURNAL_URL": f"jsonl:///{path}"}
    size = path.stat().st_size
    monkeypatch.setattr(journal_cli, "RUN_PREFIX_SCAN", 1000)  # recent runs: a tenth here
    for args in (
        ("--limit", "3"),
        ("--events", "--limit", "3"),
        ("--run", "run-0029", "--limit", "3"),
    ):
        counter = _CountingReader()
        monkeypatch.setattr(jsonl_journal, "open", counter, raising=False)
        result = CliRunner().invoke(cli, ["journal", *args], env=env)
        assert result.exit_code == 0, result.output
        assert len(result.stdout.splitlines()) == 4 and "run-0029-abc" in result.stdout
        assert counter.read_bytes < size // 4, (args, counter.read_bytes, size)


# --- several writers ---------------------------------------------------------------------------

WRITER = """
import asyncio, sys
from webresearch.backends.jsonl_journal import JSONLinesJournal
from webresearch.runtime.journal import JournalEvent

async def main() -> None:
    sink = JSONLinesJournal(sys.argv[1])
    name, n, failed = sys.argv[2], int(sys.argv[3]), 0
    for i in range(n):
        try:
            await sink.append(JournalEvent(kind="tool.started", run_id=name, output="x" * (i * 37 % 3000)))
            await sink.record_result(f"{name}-{i}", {"i": i, "pad": "y" * (i * 53 % 5000)})
            got = await sink.recorded_result(f"{name}-{i}")
            if got is None or got["i"] != i:
                failed += 1
            await sink.query(run_id=name, limit=1) if i % 25 == 0 else None
        except Exception as exc:  # the check: nothing may fail
            failed += 1
            print(type(exc).__name__, exc, file=sys.stderr)
    await sink.aclose()
    print(failed)

asyncio.run(main())
"""


def _writers(path: Path, n: int) -> Iterator[subprocess.Popen[str]]:
    for k in range(3):
        yield subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), f"w{k}", str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


async def test_three_processes_writing_one_file_lose_nothing(tmp_path: Path) -> None:
    path, n = tmp_path / "j.jsonl", 150
    procs = list(_writers(path, n))
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outputs
    assert [out.strip() for out, _err in outputs] == ["0", "0", "0"], outputs
    sink = JSONLinesJournal(path)
    try:
        events = await sink.query()
        assert sink.skipped_lines == 0
        for k in range(3):
            assert len([e for e in events if e.run_id == f"w{k}"]) == n
            for i in (0, n // 2, n - 1):
                assert (await sink.recorded_result(f"w{k}-{i}") or {}).get("i") == i
    finally:
        await sink.aclose()
