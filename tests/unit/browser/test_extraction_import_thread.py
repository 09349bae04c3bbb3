"""The first read of a rendered page imports the page extraction off the event loop
(tools/browser_reading._extract): inline on the loop, that import (~100 modules, 0.3–0.7 s
of CPU) held the MCP server's every other request (review). Runs in a fresh interpreter
(this one has imported everything already)."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import asyncio, sys, threading
from webresearch.runtime.cpu_pool import CPUPool
from webresearch.tools.browser_reading import read_rendered

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "webresearch.extract.html":
            print("imported on", "main" if threading.current_thread() is threading.main_thread() else "other")
        return None

class Tab:
    async def html(self):
        page = "<html><head><title>Tides</title></head><body><p>High water at 06:12.</p></body></html>"
        return "http://127.0.0.1:8765/tides", "Tides", page, [], "text/html"

assert "webresearch.extract.html" not in sys.modules
sys.meta_path.insert(0, Watch())
text, _doc, _facts = asyncio.run(read_rendered(Tab(), 100_000, CPUPool(0)))
assert "High water at 06:12." in text, text
"""


def test_the_first_read_imports_the_extraction_in_a_thread() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.split("\n")[0] == "imported on other", out
