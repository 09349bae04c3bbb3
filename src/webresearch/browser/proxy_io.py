"""Moving bytes for the guarded proxy (:mod:`.proxy`): h11 events from either side, the
proxy's own short answers, and the two-way copy of a tunnel. No policy here.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import h11
import httpcore2

__all__ = [
    "CHUNK_BYTES",
    "MAX_HEAD_BYTES",
    "answer",
    "next_event",
    "next_upstream_event",
    "pump",
    "until_closed",
]

#: Bytes of a request or response head (request line + headers) accepted; Chromium's own
#: limit for response heads is 256 KiB, requests with cookies stay far below 64 KiB.
MAX_HEAD_BYTES = 256 * 1024
#: Bytes read from a socket at a time.
CHUNK_BYTES = 64 * 1024


async def next_event(conn: h11.Connection, reader: asyncio.StreamReader) -> Any:
    """The next h11 event from the browser's side (reading as needed)."""
    while True:
        event = conn.next_event()
        if event is not h11.NEED_DATA:
            return event
        conn.receive_data(await reader.read(CHUNK_BYTES))


async def next_upstream_event(up: h11.Connection, upstream: httpcore2.AsyncNetworkStream) -> Any:
    """The next h11 event from the origin's side (reading as needed)."""
    while True:
        event = up.next_event()
        if event is not h11.NEED_DATA:
            return event
        up.receive_data(await upstream.read(CHUNK_BYTES))


async def until_closed(reader: asyncio.StreamReader, extra: bytearray) -> None:
    """Returns when the browser closes its side. Bytes it sends meanwhile are kept in
    ``extra`` (the first bytes after a ``101``) and otherwise never forwarded: one request
    per connection."""
    while data := await reader.read(CHUNK_BYTES):
        if len(extra) < MAX_HEAD_BYTES:
            extra.extend(data)


async def answer(conn: h11.Connection, writer: asyncio.StreamWriter, status: int, body: bytes) -> None:
    """A short final response from the proxy itself, then the connection closes."""
    if conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
        return
    headers = [
        (b"Content-Type", b"text/plain; charset=utf-8"),
        (b"Content-Length", str(len(body)).encode()),
        (b"Connection", b"close"),
        (b"X-Webresearch-Proxy", b"refused" if status == 403 else b"error"),
    ]
    try:
        data = conn.send(h11.Response(status_code=status, headers=headers))
    except h11.LocalProtocolError:
        data = f"HTTP/1.1 {status} Error\r\n".encode() + b"".join(
            k + b": " + v + b"\r\n" for k, v in headers
        )
        writer.write(data + b"\r\n" + body)
    else:
        writer.write((data or b"") + (conn.send(h11.Data(data=body)) or b""))
        writer.write(conn.send(h11.EndOfMessage()) or b"")
    await writer.drain()


async def pump(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    upstream: httpcore2.AsyncNetworkStream,
    to_origin: bytes,
    to_client: bytes,
) -> None:
    """Copy bytes both ways until either side closes (a tunnel or a switched protocol),
    starting with what was already read from each side."""

    async def to_upstream() -> None:
        if to_origin:
            await upstream.write(to_origin)
        while data := await reader.read(CHUNK_BYTES):
            await upstream.write(data)

    async def to_browser() -> None:
        if to_client:
            writer.write(to_client)
            await writer.drain()
        while data := await upstream.read(CHUNK_BYTES):
            writer.write(data)
            await writer.drain()

    tasks = [asyncio.ensure_future(to_upstream()), asyncio.ensure_future(to_browser())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
