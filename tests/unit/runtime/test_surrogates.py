"""Text that is not Unicode (lone surrogates) never makes a call or the CLI raise (issue 20).

A lone surrogate reaches us from JSON text (``"\\ud800"`` is valid JSON) and from a
non-UTF-8 command-line byte (Python decodes it to U+DC80–U+DCFF). The argument hash, every
journal sink and the journal's output cut must take it; the answer is a result.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runs import sigint_default
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import arguments_hash, storable, truncate_utf8
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject, ToolResult

#: Lone surrogates of every kind: high, low, a reversed pair, one at each end, many.
ODD_TEXTS = ["\ud800", "\udfff", "a\udcffb", "\udc00\ud800", "x\ud83d", "\ude00y", "\ud800" * 50]


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_the_argument_hash_takes_any_text(text: str) -> None:
    args: dict[str, Any] = {"query": text, "nested": [{"k": text}], text: 1}
    digest = arguments_hash(args)
    assert len(digest) == 64 and digest == arguments_hash(json.loads(json.dumps(args)))
    assert digest != arguments_hash({"query": "\ufffd", "nested": [{"k": "\ufffd"}], "\ufffd": 1})


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_storable_and_the_output_cut_give_valid_unicode(text: str) -> None:
    clean = storable({"a": [text, (text,)], text: {"b": text}})
    json.dumps(clean, ensure_ascii=False).encode("utf-8")
    truncate_utf8(text * 1000, 64).encode("utf-8")
    assert storable("\ud83d\ude00") == "😀"  # a pair written as two code points is kept
    assert storable("plain é") == "plain é"


def _echo(services: Services) -> ToolEntry[JSONObject]:
    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        return ToolResult(f"results for {arguments['query']}", meta={"q": arguments["query"]})

    return ToolEntry(spec=WEB_SEARCH, run=run)


@pytest.mark.parametrize("sink", ["memory", "sqlite", "jsonl"])
@pytest.mark.parametrize("text", ["\ud800", "a\udcffb"])
async def test_a_call_with_a_lone_surrogate_returns_and_is_journaled(
    tmp_path: Path, sink: str, text: str
) -> None:
    url = {"memory": "memory://", "sqlite": f"sqlite:///{tmp_path}/j.db"}.get(
        sink, f"jsonl:///{tmp_path}/j.jsonl"
    )
    settings = Settings.load(environ={}, journal_url=url)
    async with Toolkit(settings, builders=[_echo]) as toolkit:
        run = RunContext(run_id="r")
        args = json.loads(json.dumps({"query": text}))
        result = await toolkit.call("web_search", args, run=run, operation_id="op" + text)
        # Refused at validation (no tool ever sees text that is not Unicode), not raised.
        assert result.error is not None and result.error.code == "invalid_arguments"
        assert "query: not valid Unicode text" in result.text
        result.text.encode("utf-8")
        again = await toolkit.call("web_search", args, run=run, operation_id="op" + text)
        assert again.meta.get("replayed") is True
        kinds = [e.kind for e in await toolkit.journal.query(run_id="r")]
        assert kinds == ["tool.started", "tool.failed"]


@pytest.mark.parametrize("sink", ["memory", "sqlite", "jsonl"])
async def test_journal_filters_with_a_lone_surrogate_find_nothing(
    tmp_path: Path, sink: str
) -> None:
    url = {"memory": "memory://", "sqlite": f"sqlite:///{tmp_path}/j.db"}.get(
        sink, f"jsonl:///{tmp_path}/j.jsonl"
    )
    settings = Settings.load(environ={}, journal_url=url)
    async with Toolkit(settings, builders=[_echo]) as toolkit:
        await toolkit.call("web_search", {"query": "q"}, run=RunContext(run_id="r"))
        journal = toolkit.journal
        for odd in ODD_TEXTS:
            assert await journal.query(run_id=odd, tool=odd, kind=odd) == []
            assert await journal.query(since=odd) == []  # after every event
            assert await journal.recorded_result(odd) is None


@pytest.mark.parametrize(
    "argv",
    [
        [b"fetch", b"http://a.example/\xff"],
        [b"search", b"\xff query"],
        [b"image", b"http://a.example/\xff.png"],
        [b"image", b"./\xff.png"],
        [b"browse", b"http://a.example/\xff"],
        [b"journal", b"--run", b"\xff"],
    ],
)
def test_cli_arguments_that_are_not_utf8_give_one_line(tmp_path: Path, argv: list[bytes]) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("WEBRESEARCH_")},
        "WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path}/j.db",
    }
    done = subprocess.run(
        [str(Path(sys.executable).with_name("webresearch")), *argv],
        capture_output=True,
        env=env,
        timeout=60,
        preexec_fn=sigint_default,
    )
    err = done.stderr.decode(errors="replace")
    assert "Traceback" not in err
    assert done.returncode in ((0,) if argv[0] == b"journal" else (1, 2)), err
    assert len(err.strip().splitlines()) == 1, err
