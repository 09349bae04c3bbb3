"""A body cut before its Content-Length: the page reader keeps what arrived, with a note."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from webresearch import Settings, Toolkit
from webresearch.addresses import AddressPolicy
from webresearch.errors import NetworkError
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools import web_fetch

PAGE = (
    b"<html><head><title>Cut short</title></head><body><h1>Cut short</h1>"
    b"<p>The first paragraph arrived whole, with enough words to be the content.</p>"
    b"<p>The second paragraph was cut in the mid"
)


@pytest.fixture
def cut_server() -> Iterator[str]:
    """A loopback server that promises 5,000 bytes, sends :data:`PAGE` and closes (no
    robots.txt)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                request = conn.recv(65536)
                if request.startswith(b"GET /robots.txt "):
                    conn.sendall(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    )
                    continue
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: 5000\r\nConnection: close\r\n\r\n" + PAGE
                )

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()


async def test_the_client_refuses_a_cut_body_unless_asked(cut_server: str) -> None:
    guard = SSRFGuard(AddressPolicy.from_strings(allowed_networks=["127.0.0.1/32"]))
    async with GuardedClient(guard) as client:
        with pytest.raises(NetworkError):
            await client.get(f"{cut_server}/page")
        response = await client.get(f"{cut_server}/page", allow_incomplete=True)
    assert response.incomplete and response.body == PAGE


async def test_web_fetch_returns_the_part_that_arrived_with_a_note(cut_server: str) -> None:
    settings = Settings.load(environ={}, allowed_networks=["127.0.0.1/32"], journal_url="memory://")
    async with Toolkit(settings, journal=MemoryJournal(), builders=[web_fetch.build]) as tk:
        result = await tk.call("web_fetch", {"url": f"{cut_server}/page"})
    assert result.ok, result.text
    assert "The first paragraph arrived whole" in result.text
    assert "before the whole page arrived" in result.text
