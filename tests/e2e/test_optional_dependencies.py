"""Without an optional dependency a tool is absent, logged once, and nothing crashes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

CHILD = r"""
import asyncio, json, logging, sys

# None in sys.modules is Python's own "not installed": import raises ModuleNotFoundError and
# importlib.util.find_spec answers None.
for name in sys.argv[1].split(","):
    sys.modules[name] = None
logging.basicConfig(level=logging.INFO, stream=sys.stderr)

from webresearch import RunContext, Settings, Toolkit

async def main():
    settings = Settings.load(environ={}, journal_url="memory://", search_provider=None)
    async with Toolkit(settings) as tk:
        names = [s.name for s in tk.tools(RunContext(workspace=__import__("pathlib").Path(".")))]
        print(json.dumps({"tools": names, "unavailable": sorted(tk.unavailable)}))

asyncio.run(main())
"""


def run_child(blocked: str) -> tuple[dict[str, list[str]], str]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, blocked],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_without_pillow_the_image_tools_are_absent_and_fetch_stays() -> None:
    out, log = run_child("PIL")
    assert "web_fetch" in out["tools"]
    assert "fetch_image" not in out["tools"] and "view_image" not in out["tools"]
    assert {"fetch_image", "view_image"} <= set(out["unavailable"])
    assert log.count("fetch_image is not available") == 1


def test_without_any_optional_dependency_web_fetch_still_works() -> None:
    out, _ = run_child("PIL,playwright,ddgs,mcp,redis,psycopg,lightpanda")
    # image_info reads headers only: it needs no optional dependency either
    assert out["tools"] == ["web_fetch", "image_info"]
    assert {"fetch_image", "view_image", "web_search"} <= set(out["unavailable"])
