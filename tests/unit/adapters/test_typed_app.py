"""An app using every adapter passes ``mypy --strict`` without casts (issue 17 acceptance), and
the types are real: a wrong use of an adapter's output is a type error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).parent / "typed_app" / "app.py"
ROOT = Path(__file__).resolve().parents[3]

#: Anthropic tools where chat completions' go: must not type-check.
WRONG = """
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionMessageParam
from webresearch import ToolSpec
from webresearch.adapters import anthropic_tool_results, chat_tools


def wrong(specs: list[ToolSpec]) -> None:
    tools: list[ToolParam] = chat_tools(specs)
    history: list[ChatCompletionMessageParam] = []
    reply = anthropic_tool_results([])
    if reply is not None:
        history.append(reply)
"""


def test_an_app_using_every_adapter_passes_mypy_strict_without_casts(tmp_path: Path) -> None:
    source = APP.read_text()
    assert "cast(" not in source and "type: ignore" not in source and "Any" not in source
    used = set(re.findall(r"\b(\w+)\(", source))
    from webresearch import adapters

    functions = {n for n in adapters.__all__ if n[0].islower() and callable(getattr(adapters, n))}
    helpers = {"error_status_and_text", "refusal_kind"}  # error plumbing, not message shapes
    assert functions - helpers <= used, functions - helpers - used

    wrong = tmp_path / "wrong_use.py"
    wrong.write_text(WRONG)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
         "--cache-dir", str(ROOT / ".mypy_cache"), str(APP), str(wrong)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if "typed_app" in e], done.stdout
    # The types are the SDKs' own, not Any: both wrong uses are caught.
    assert any("wrong_use.py:9" in e for e in errors), done.stdout
    assert any("wrong_use.py:13" in e for e in errors), done.stdout
