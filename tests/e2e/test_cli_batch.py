"""`webresearch fetch` and `image` with several inputs, HTML from stdin, and `-vv`'s chain."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.cli_runs import cli_env, sigint_default
from tests.support.http_server import LocalServer, Route, send_route
from tests.support.tiny_png import png_bytes
from webresearch import Settings, read_page
from webresearch.cli.batch import InOrder, batch_exit_code, read_targets
from webresearch.cli.main import cli
from webresearch.errors import BlockedAddress, FetchError
from webresearch.types import ToolResult

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"}
HTML = "text/html; charset=utf-8"


def page(title: str, words: str) -> bytes:
    return (
        f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        f"<p>{words} " * 20 + '<a href="/next">next page</a></p></main></body></html>'
    ).encode()


@pytest.fixture
def site() -> Iterator[LocalServer]:
    second_done = threading.Event()

    def slow_first(h: BaseHTTPRequestHandler) -> None:
        # answers only after the third page was served: completion order ≠ input order
        second_done.wait(timeout=10)
        send_route(h, Route(headers=[("Content-Type", HTML)], body=page("One", "alpha")), "")

    def third(h: BaseHTTPRequestHandler) -> None:
        send_route(h, Route(headers=[("Content-Type", HTML)], body=page("Three", "gamma")), "")
        second_done.set()

    with LocalServer() as srv:
        srv.routes["/1"] = slow_first
        srv.routes["/3"] = third
        srv.routes["/article"] = Route(headers=[("Content-Type", HTML)], body=page("Art", "delta"))
        srv.routes["/img.png"] = Route(headers=[("Content-Type", "image/png")], body=png_bytes())
        yield srv


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV, input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_batch_json_lines_in_input_order_with_a_failure_in_the_middle(
    site: LocalServer, tmp_path: Path
) -> None:
    urls = [f"{site.base}/1", f"{site.base}/missing", f"{site.base}/3"]
    listing = tmp_path / "urls.txt"
    listing.write_text(f"# pages\n{urls[1]}\n\n{urls[2]}\n")
    code, out, _err = run(
        "fetch", urls[0], "-i", str(listing), "--json", "--allow-network", "127.0.0.0/8"
    )
    lines = out.splitlines()
    assert len(lines) == 3
    rows = [json.loads(line) for line in lines]
    assert [r["input"] for r in rows] == urls  # input order, though /1 finished last
    assert [r["ok"] for r in rows] == [True, False, True]
    assert "alpha" in rows[0]["text"] and "gamma" in rows[2]["text"]
    assert rows[1]["error"]["code"] == "http_status"
    assert rows[0]["meta"]["final_url"] == urls[0]
    assert code == 1  # some failed


def test_batch_from_stdin_all_ok_exits_zero_and_text_mode_separates_pages(
    site: LocalServer,
) -> None:
    stdin = f"{site.base}/article\n{site.base}/3\n".encode()
    code, out, err = run("fetch", "-i", "-", "--allow-private", stdin=stdin)
    assert code == 0, err
    assert out.count("[untrusted web content") == 2
    assert out.index("delta") < out.index("gamma")


def test_batch_refused_url_exits_with_its_code(site: LocalServer) -> None:
    code, out, _err = run("fetch", f"{site.base}/article", "http://127.0.0.1:9/", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["error"]["code"] for r in rows] == ["blocked_address", "blocked_address"]
    assert code == 3


def test_concurrency_is_bounded(site: LocalServer) -> None:
    inflight, peak, lock = 0, 0, threading.Lock()
    release = threading.Event()

    def counted(h: BaseHTTPRequestHandler) -> None:
        nonlocal inflight, peak
        with lock:
            inflight += 1
            peak = max(peak, inflight)
            if inflight >= 2:
                release.set()
        release.wait(timeout=5)
        send_route(h, Route(headers=[("Content-Type", HTML)], body=page("C", "c")), "")
        with lock:
            inflight -= 1

    site.routes["/c"] = counted
    urls = [f"{site.base}/c?n={i}" for i in range(6)]
    code, out, err = run("fetch", *urls, "--concurrency", "2", "--json", "--allow-private")
    assert code == 0, err
    assert len(out.splitlines()) == 6
    assert peak == 2


def test_stdin_html_gives_the_same_text_as_serving_that_page(site: LocalServer) -> None:
    url = f"{site.base}/article"
    code, served, err = run("fetch", url, "--allow-private")
    assert code == 0, err
    code, offline, err = run("fetch", "-", "--base-url", url, stdin=page("Art", "delta"))
    assert code == 0, err
    assert offline == served
    assert f"[next page]({site.base}/next)" in offline  # links resolve against --base-url
    code, as_json, _ = run("fetch", "-", "--base-url", url, "--json", stdin=page("Art", "delta"))
    meta = json.loads(as_json)["meta"]
    assert meta["reader"] == "local" and meta["extractor"]


def test_a_local_file_converts_without_network(tmp_path: Path) -> None:
    saved = tmp_path / "page.html"
    saved.write_bytes(page("Saved", "epsilon"))
    # a base URL nothing listens on: nothing is requested (it would be refused anyway)
    code, out, err = run("fetch", str(saved), "--base-url", "http://127.0.0.1:9/p")
    assert code == 0, err
    assert "url: http://127.0.0.1:9/p" in out and "epsilon" in out
    code, _out, err = run("fetch", str(tmp_path / "absent.html"))
    assert code == 2 and "cannot read" in err


def test_a_local_frameset_file_lists_its_frames(tmp_path: Path) -> None:
    saved = tmp_path / "frames.html"
    saved.write_bytes(
        b"<frameset cols='*,*'><frame src='a.html'><frame src='b.html'><noframes><p>Your "
        b"browser does not support frames.</p></noframes></frameset>"
    )
    code, out, err = run("fetch", str(saved))
    assert code == 0, err
    assert "does not support frames" in out
    assert "- [a.html](a.html)\n- [b.html](b.html)" in out


def test_stdin_needs_a_base_url() -> None:
    code, _out, err = run("fetch", "-", stdin=b"<p>x</p>")
    assert code == 2 and "--base-url" in err


def test_vv_shows_the_request_chain_without_secrets(site: LocalServer) -> None:
    site.routes["/go"] = Route(status=302, headers=[("Location", "/article?token=s3cr3t")])
    code, _out, err = run("-vv", "fetch", f"{site.base}/go", "--allow-private")
    assert code == 0, err
    assert "hop 0: GET" in err and "→ 302" in err and "hop 1: GET" in err
    assert "resolve 127.0.0.1 → 127.0.0.1" in err
    assert "connect 127.0.0.1:" in err
    assert "cache miss" in err and "extractor " in err and "done in" in err
    assert "s3cr3t" not in err
    code, _out, err = run("-v", "fetch", f"{site.base}/article", "--allow-private")
    assert "hop 0" not in err  # -v alone shows no chain


def test_image_batch_json_lines(site: LocalServer, tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(png_bytes())
    code, out, _err = run(
        "image",
        f"{site.base}/img.png",
        f"{site.base}/missing.png",
        str(tmp_path / "a.png"),
        "--json",
        "--allow-private",
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["ok"] for r in rows] == [True, False, True]
    assert rows[0]["input"].endswith("/img.png") and rows[2]["input"].endswith("a.png")
    assert code == 1


def test_pure_parts() -> None:
    assert read_targets(["a"], ["  b ", "", "# c", "d"]) == ["a", "b", "d"]
    order: InOrder[str] = InOrder()
    assert order.put(1, "y") == []
    assert order.put(0, "x") == ["x", "y"]
    assert order.put(2, "z") == ["z"]
    ok = ToolResult(text="ok")
    refused = ToolResult.failure(BlockedAddress("no"))
    failed = ToolResult.failure(FetchError("x"))
    assert batch_exit_code([ok, ok]) == 0
    assert batch_exit_code([ok, refused, failed]) == 3
    assert batch_exit_code([failed, refused]) == 1


def _fetch_with_stderr_on_a_terminal(urls: list[str], tmp_path: Path) -> str:
    """Run the CLI as a child whose stderr is a pseudo-terminal; what it wrote there."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    try:
        proc = subprocess.run(
            [sys.executable, "-c", "from webresearch.cli.main import main; main()",
             "fetch", *urls, "--json", "--allow-private"],
            env=cli_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=child,
            timeout=120,
            preexec_fn=sigint_default,
        )  # fmt: skip
        os.close(child)
        child = -1
        chunks = []
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:  # EIO: the terminal's other side is closed and drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(main)
        if child != -1:
            os.close(child)
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) == len(urls)  # the bar never touches stdout
    return b"".join(chunks).decode("utf-8", "replace")


def test_progress_bar_only_on_a_terminal_and_for_more_than_three(
    site: LocalServer, tmp_path: Path
) -> None:
    many = [f"{site.base}/article?n={i}" for i in range(5)]
    shown = _fetch_with_stderr_on_a_terminal(many, tmp_path)
    assert "5/5" in shown and "url" in shown
    few = _fetch_with_stderr_on_a_terminal(many[:3], tmp_path)
    assert "/3" not in few
    code, _out, err = run("fetch", *many, "--json", "--allow-private")
    assert code == 0 and err == ""  # not a terminal: no bar


async def test_read_page_is_web_fetch_without_the_network() -> None:
    result = await read_page(page("Lib", "zeta"), "https://example.org/a/b", max_bytes=4096)
    assert result.ok and "zeta" in result.text
    assert "[next page](https://example.org/next)" in result.text
    assert (
        result.meta["reader"] == "local" and result.meta["final_url"] == "https://example.org/a/b"
    )
    # as web_fetch: text over the download cap is read as far as the cap, with a note;
    # a binary over it is too_large
    small_cap = Settings.load(environ={}, download_cap_bytes=1024)
    long_text = await read_page(b"word " * 600, "https://example.org/", settings=small_cap)
    assert long_text.ok and long_text.meta["download_truncated"] is True
    assert "larger than the 1 KiB limit on what is read of a page" in long_text.text
    png = b"\x89PNG\r\n\x1a\n" + bytes(4096)
    too_big = await read_page(png, "https://example.org/", settings=small_cap)
    assert too_big.error is not None and too_big.error.code == "too_large"
    odd = await read_page(b"<p>x</p>", "ftp://example.org/")
    assert odd.error is not None and odd.error.code == "invalid_arguments"
