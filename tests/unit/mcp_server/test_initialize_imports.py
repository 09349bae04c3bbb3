"""The MCP server answers ``initialize`` without loading the page extraction: building the
toolkit and the server's tool list imports neither ``webresearch.extract.html`` (about 100
modules, trafilatura's helpers and ftfy among them) nor the PDF reader; the first page read
loads them. Measured cold start of ``webresearch mcp`` to the initialize answer: see the
commit. Runs in a fresh interpreter (this one has imported everything already)."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import json, sys
from webresearch import Settings, Toolkit
from webresearch.mcp_server import WebResearchServer
toolkit = Toolkit(Settings.load(environ={"WEBRESEARCH_JOURNAL_URL": "memory://"}))
server = WebResearchServer(toolkit)
assert "web_fetch" in [spec.name for spec in toolkit.tools()]
print(json.dumps(sorted(sys.modules)))
"""

#: Modules the tool list must not load (the extraction and what only it needs).
HEAVY = ("webresearch.extract.html", "webresearch.extract.pdf", "trafilatura", "ftfy", "justext")


def test_the_tool_list_loads_no_page_extraction() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    loaded = set(json.loads(out.splitlines()[-1]))
    assert not any(m == h or m.startswith(h + ".") for m in loaded for h in HEAVY), loaded
