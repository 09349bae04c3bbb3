"""Acceptance run: every corpus page through `webresearch fetch`, served from 127.0.0.1.

Serves the pages of a corpus (``zyte-aeb`` or ``wcxb``: ``html/<id>.html.gz``) from a local
HTTP server as ``text/html; charset=utf-8`` and runs the real CLI on each one
(``python -m webresearch fetch URL --allow-private``), checking the SPEC §1.1 output format:
the untrusted-data line, ``url:``/``content-type:``/``title:`` header lines, a blank line, a
non-empty body; a non-empty title; exit code 0. Prints a summary and every failure.

    python bench/fetch_corpus.py --corpus-dir ../shared/corpus --corpus zyte-aeb
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def serve(pages: dict[str, bytes]) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            body = pages.get(self.path.strip("/").removesuffix(".html"))
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def check(url: str) -> tuple[str, list[str], float]:
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "webresearch", "fetch", url, "--allow-private"],
        capture_output=True,
        text=True,
        timeout=120,
        # Corpus pages reference third-party hosts (scripts, images): browser rendering of
        # app shells would try to reach them, so this offline run reads the static HTML only.
        env={
            "WEBRESEARCH_JOURNAL_URL": "memory://",
            "WEBRESEARCH_RENDER": "never",
            "WEBRESEARCH_SEARCH_PROVIDER": "none",
            "PATH": "/usr/bin:/bin",
        },
    )
    elapsed = time.monotonic() - started
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit {proc.returncode}: {proc.stderr.strip()[:300]}")
        return url, problems, elapsed
    lines = proc.stdout.split("\n")
    if not lines[0].startswith("[untrusted web content"):
        problems.append("no untrusted-data notice")
    if (
        len(lines) < 6
        or not lines[1].startswith("url: ")
        or not lines[2].startswith("content-type: ")
        or not lines[3].startswith("title: ")
        or lines[4] != ""
    ):
        problems.append("header lines not in the SPEC format")
    elif lines[3] == "title: ":
        problems.append("empty title")
    if not "\n".join(lines[5:]).strip():
        problems.append("empty body")
    return url, problems, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus-dir",
        type=Path,
        default=Path(__file__).resolve().parents[1].parent / "shared" / "corpus",
    )
    parser.add_argument("--corpus", default="zyte-aeb", choices=["zyte-aeb", "wcxb"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    html_dir = args.corpus_dir / args.corpus / "html"
    files = sorted(html_dir.glob("*.html.gz"))[: args.limit]
    if not files:
        print(f"no pages under {html_dir}", file=sys.stderr)
        return 2
    pages = {f.name.removesuffix(".html.gz"): gzip.decompress(f.read_bytes()) for f in files}
    httpd, base = serve(pages)
    failures = []
    times = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for url, problems, elapsed in pool.map(check, [f"{base}/{pid}.html" for pid in pages]):
            times.append(elapsed)
            if problems:
                failures.append((url, problems))
    httpd.shutdown()
    print(
        f"{len(pages)} pages, {len(pages) - len(failures)} ok, {len(failures)} failed; median {sorted(times)[len(times) // 2]:.2f} s per CLI run"
    )
    for url, problems in failures:
        print(f"FAIL {url}: {'; '.join(problems)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
