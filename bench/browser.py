"""Browser benchmark: Chromium and Lightpanda in one run, through the browser tool.

For each backend: cold start (a new Toolkit's first ``open``: driver, browser launch, probe,
first page), then ``open`` + ``content``, ``snapshot``, ``click`` and ``screenshot``
repeated on a local page; median milliseconds per action and the peak resident memory
(bytes) of the launched browser's process group, sampled during the run.

    PYTHONPATH=src .venv/bin/python bench/browser.py --rounds 15

Pages are served on 127.0.0.1 by a stdlib server in this process; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from webresearch import RunContext, Settings, Toolkit
from webresearch.browser.launch import process_tree_rss_bytes

try:
    import webresearch.images.prepare  # noqa: F401

    PIPELINE = True
except ImportError:  # the image pipeline is not installed in this tree
    PIPELINE = False

PAGE = (
    b"<!doctype html><html><head><title>Bench</title></head><body><main><h1>Benchmark page</h1>"
    + b"".join(
        b"<p>Paragraph %d with some words to extract and a <a href='#p%d'>link %d</a>.</p>"
        % (i, i, i)
        for i in range(60)
    )
    + b"<form><input id='q' placeholder='Search'><button id='go' type='button' "
    b"onclick=\"document.title='clicked'\">Go</button></form></main></body></html>"
)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


class _Peak:
    """Samples the browser process group's RSS every 20 ms."""

    def __init__(self, toolkit: Toolkit) -> None:
        self.manager = toolkit.services.browser
        self.peak = 0
        self._task: asyncio.Task[None] | None = None

    async def _loop(self) -> None:
        while True:
            self.peak = max(self.peak, process_tree_rss_bytes(self.manager.pids()))
            await asyncio.sleep(0.02)

    def __enter__(self) -> _Peak:
        self._task = asyncio.ensure_future(self._loop())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()


async def bench_backend(backend: str, url: str, rounds: int) -> dict[str, Any]:
    settings = Settings.load(
        environ={},
        allowed_networks=["127.0.0.1/32"],
        journal_url="memory://",
        browser_backend=backend,
        browser_rate_limit=None,
    )
    times: dict[str, list[float]] = {
        k: [] for k in ("open+content", "snapshot", "click", "screenshot")
    }
    toolkit = Toolkit(settings)
    try:
        with _Peak(toolkit) as peak:
            run = RunContext()
            t0 = time.perf_counter()
            first = await toolkit.call("browser", {"action": "open", "url": url}, run=run)
            cold_ms = (time.perf_counter() - t0) * 1000
            assert first.ok, first.text
            for _ in range(rounds):
                t = time.perf_counter()
                assert (await toolkit.call("browser", {"action": "open", "url": url}, run=run)).ok
                assert (await toolkit.call("browser", {"action": "content"}, run=run)).ok
                times["open+content"].append((time.perf_counter() - t) * 1000)
                for action, args in (
                    ("snapshot", {"action": "snapshot"}),
                    ("click", {"action": "click", "selector": "#go"}),
                    ("screenshot", {"action": "screenshot"}),
                ):
                    t = time.perf_counter()
                    session = toolkit.services.browser.table.get(run.run_id)
                    pixels = session is not None and session.capabilities.real_screenshots
                    if action == "screenshot" and pixels and not PIPELINE:
                        # Without the image pipeline, time the browser's PNG capture alone.
                        assert session is not None
                        await session.screenshot(False, 1)
                    else:
                        result = await toolkit.call("browser", args, run=run)
                        assert result.ok, result.text
                    times[action].append((time.perf_counter() - t) * 1000)
            caps = toolkit.services.browser.table.get(run.run_id)
            screenshot_kind = (
                "pixels"
                if caps is not None and caps.capabilities.real_screenshots
                else "text instead"
            )
    finally:
        await toolkit.aclose()
    return {
        "backend": backend,
        "cold_ms": cold_ms,
        **{k: statistics.median(v) for k, v in times.items()},
        "peak_rss_mb": peak.peak / 2**20,
        "screenshot_kind": screenshot_kind
        + ("" if PIPELINE or screenshot_kind != "pixels" else ", capture only"),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--backends", default="chromium,lightpanda")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    rows = []
    try:
        for backend in args.backends.split(","):
            rows.append(await bench_backend(backend.strip(), url, args.rounds))
    finally:
        server.shutdown()
        server.server_close()
    header = (
        f"{'backend':<11}{'cold start ms':>14}{'open+content ms':>17}{'snapshot ms':>13}"
        f"{'click ms':>10}{'screenshot ms':>15}{'peak RSS MB':>13}  screenshot"
    )
    print(header)
    for r in rows:
        print(
            f"{r['backend']:<11}{r['cold_ms']:>14.0f}{r['open+content']:>17.1f}{r['snapshot']:>13.1f}"
            f"{r['click']:>10.1f}{r['screenshot']:>15.1f}{r['peak_rss_mb']:>13.0f}  {r['screenshot_kind']}"
        )
    if len(rows) == 2:
        a, b = rows
        print(
            f"\nratio {b['backend']}/{a['backend']}: cold start {b['cold_ms'] / a['cold_ms']:.2f}, "
            f"open+content {b['open+content'] / a['open+content']:.2f}, "
            f"peak RSS {b['peak_rss_mb'] / a['peak_rss_mb']:.2f}"
        )


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
