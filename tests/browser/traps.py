"""Raw network traps for the browser's network-boundary tests. Written for these tests.

* :class:`TCPTrap` counts every accepted TCP connection (a connection that carries zero
  bytes — a port probe — counts too): the evidence that no packet got through;
* :class:`UDPTrap` counts datagrams (WebRTC STUN, QUIC / WebTransport);
* :class:`WebSocketServer` completes WebSocket handshakes and sends a secret text frame
  (what an internal service would leak), counting accepts;
* :class:`EchoServer` answers every HTTP request with a JSON echo of what it received
  (method, target, headers, body), so proxy tests can see what was forwarded.

Each runs on its own thread and is a context manager; ``port`` is the bound port.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["SECRET", "EchoServer", "TCPTrap", "UDPTrap", "WebSocketServer", "wait_for"]

#: What the WebSocket server sends: a page that shows it has reached an internal service.
SECRET = "INTERNAL-SECRET-DATA"

_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 §1.3


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def wait_for(predicate: Any, timeout_s: float = 5.0) -> bool:
    """Poll ``predicate()`` until true or ``timeout_s`` passes (for POSITIVE controls only:
    a zero count needs no waiting, the browser reported the refusal before we look)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())


class _Thread:
    def __init__(self, host: str, kind: int) -> None:
        self.host = host
        self.sock = socket.socket(_family(host), kind)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.settimeout(0.1)
        self.port = int(self.sock.getsockname()[1])
        self.count = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def url_host(self) -> str:
        """The host as written in a URL (IPv6 in brackets)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    def __enter__(self) -> Any:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop = True
        self._thread.join()
        self.sock.close()

    def reset(self) -> None:
        self.count = 0

    def _run(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class TCPTrap(_Thread):
    """Counts accepted TCP connections on ``host`` (any port: ``port``)."""

    def __init__(self, host: str) -> None:
        super().__init__(host, socket.SOCK_STREAM)
        self.sock.listen(64)

    def _run(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.count += 1
            conn.close()


class UDPTrap(_Thread):
    """Counts datagrams received on ``host:port``."""

    def __init__(self, host: str) -> None:
        super().__init__(host, socket.SOCK_DGRAM)

    def _run(self) -> None:
        while not self._stop:
            try:
                self.sock.recvfrom(65536)
            except OSError:
                continue
            self.count += 1


class WebSocketServer(_Thread):
    """Accepts WebSocket handshakes and sends one text frame: ``SECRET from <host>``."""

    def __init__(self, host: str) -> None:
        super().__init__(host, socket.SOCK_STREAM)
        self.sock.listen(64)

    def _run(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.count += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError), conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            key = ""
            for line in data.decode("latin-1").split("\r\n"):
                name, _, value = line.partition(":")
                if name.strip().lower() == "sec-websocket-key":
                    key = value.strip()
            accept = base64.b64encode(hashlib.sha1((key + _WS_GUID).encode()).digest()).decode()
            conn.sendall(
                (
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
                ).encode()
            )
            message = f"{SECRET} from {self.host}".encode()
            conn.sendall(bytes([0x81, len(message)]) + message)
            time.sleep(1.0)  # keep the socket open while the page reads the frame


class EchoServer:
    """HTTP/1.1 server on 127.0.0.1 answering every request with a JSON echo of it."""

    def __init__(self) -> None:
        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _echo(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = b""
                    while True:
                        size = int(self.rfile.readline().strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        body += self.rfile.read(size)
                        self.rfile.readline()
                else:
                    body = self.rfile.read(length) if length else b""
                payload = json.dumps(
                    {
                        "method": self.command,
                        "target": self.path,
                        "headers": [[k, v] for k, v in self.headers.items()],
                        "body": body.decode("latin-1"),
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Keep-Alive", "timeout=60")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_HEAD = _echo

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self._httpd.daemon_threads = True
        self.port = int(self._httpd.server_address[1])
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> EchoServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
