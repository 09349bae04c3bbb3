"""The guarded forward proxy: the hard network boundary of a launched browser (SPEC §1.4, §2).

Every connection a launched browser makes goes through this in-process asyncio proxy on
127.0.0.1 (Chromium: ``--proxy-server`` with loopback NOT bypassed; Lightpanda:
``--http-proxy``). So the browser itself never resolves a name nor opens a TCP connection to
a target: whatever the page does — documents, iframes, workers, service workers, WebSockets
of windows AND workers, EventSource, beacons, preconnects — reaches the network only here:

* ``CONNECT host:port`` (https, wss, and ws: Chromium tunnels WebSockets) and absolute-form
  plain-HTTP requests (``GET http://host/…``) are served; anything else is a 400;
* each target is judged by the browser's :class:`~.policy.RequestPolicy` without DNS (scheme,
  the SSRF guard's string rules, the domain policy), then connected through
  :class:`~webresearch.net.transport.GuardedNetworkBackend` — the seam of web_fetch's guarded
  transport: the name is resolved ONCE with the guard's resolver, EVERY address is checked,
  and only a checked address is dialled (no second resolution, so DNS rebinding cannot
  reach a private address). A refused target is answered ``403`` without any upstream
  connection, and reported through ``on_refused``;
* plain HTTP is re-framed with h11 (strict parsing on both sides, hop-by-hop headers
  dropped, ``Host`` set from the target) and both sides get ``Connection: close``: one proxied
  connection carries one request to one checked origin, never several;
* the proxy never connects to its own listening ports or to ports registered with
  :meth:`GuardedProxy.exclude_port` (the browser's DevTools port) on this host, however the
  host is spelled (``127.0.0.1``, ``[::ffff:7f00:1]``, ``[::7f00:1]``, ``[64:ff9b::7f00:1]``,
  ``0.0.0.0``, ``[::]``: :func:`~webresearch.addresses.reaches_this_host`), even when
  ``allow_private`` or ``allowed_networks`` let loopback through.

A proxy may have several listeners, each with an *owner* (a session key, or ``None`` for the
browser-wide one): a refusal is reported with the owner of the listener it came through, so
it reaches the right session's journal. Nothing here imports the browser library.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import h11
import httpcore2

from ..addresses import reaches_this_host
from ..errors import BlockedAddress, InvalidArguments, NetworkError, WebResearchError
from ..net.transport import GuardedNetworkBackend
from .policy import RequestPolicy, describe_request, reword_refusal
from .proxy_http import (
    ProxyTarget,
    TargetError,
    downstream_headers,
    parse_target,
    refusal_response_body,
    upstream_headers,
    wants_upgrade,
)
from .proxy_io import (
    MAX_HEAD_BYTES,
    answer,
    next_event,
    next_upstream_event,
    pump,
    until_closed,
)
from .proxy_listen import Listener

__all__ = ["GuardedProxy", "OnRefused", "ProxyRefusal", "ProxyStats"]

log = logging.getLogger("webresearch.browser")

#: Seconds a new proxy connection may take to send its request head (Chromium opens proxy
#: connections ahead of use; an idle one is closed after this and simply reopened).
HEAD_TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class ProxyRefusal:
    """A target the proxy refused (no upstream connection was made).

    Attributes:
        owner: the owner of the listener the request came through (``None``: browser-wide).
        target: ``host:port`` (never a path or query).
        tunnel: a CONNECT (https/wss/ws) rather than a plain-HTTP request.
        error: the refusal (``BlockedAddress``, ``BlockedDomain``, ``InvalidArguments``).
    """

    owner: str | None
    target: str
    tunnel: bool
    error: WebResearchError


#: ``on_refused(refusal)``: called for every refused target (must not raise).
OnRefused = Callable[[ProxyRefusal], None]


@dataclass(slots=True)
class ProxyStats:
    """Counters (tests and benchmarks read them).

    Attributes:
        accepted: client connections accepted.
        refused: targets refused by the policy or the guard (403, no upstream connection).
        failed: targets that could not be reached (502: no such name, connection refused).
        upstream: upstream connections opened (to checked addresses only).
        tunnels: CONNECT tunnels established.
        forwarded: plain-HTTP requests forwarded.
    """

    accepted: int = 0
    refused: int = 0
    failed: int = 0
    upstream: int = 0
    tunnels: int = 0
    forwarded: int = 0


class _ExcludePorts(httpcore2.AsyncNetworkBackend):
    """A connector that refuses connections to some ports of this host (our own listeners,
    the DevTools port) — for every spelling of the local host (:func:`reaches_this_host`:
    ``127.0.0.1``, ``[::ffff:7f00:1]``, ``[::]``, ``0.0.0.0`` …), whatever the address
    policy allows — then delegates to ``inner``."""

    def __init__(self, inner: httpcore2.AsyncNetworkBackend, ports: set[int]) -> None:
        self.inner = inner
        self.ports = ports

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        if port in self.ports and reaches_this_host(host):
            raise BlockedAddress(
                "refused: the target is the browser's own control or proxy port",
                category="loopback",
            )
        return await self.inner.connect_tcp(
            host, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.AsyncNetworkStream:  # pragma: no cover - never called by the guard
        raise httpcore2.ConnectError("unix sockets are never used")

    async def sleep(self, seconds: float) -> None:  # pragma: no cover
        await asyncio.sleep(seconds)


class _Reply(Exception):
    """Answer the browser with ``status`` and stop (raised inside a handler)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


class GuardedProxy:
    """An HTTP forward proxy that only reaches targets the request policy allows.

    Args:
        policy: the browser's request policy (its guard resolves and checks addresses).
        connector: opens TCP streams to checked IPs (the guarded transport's seam; default
            real sockets).
        connect_timeout_s: seconds to resolve and connect upstream.
        on_refused: called for each refused target.
    """

    def __init__(
        self,
        policy: RequestPolicy,
        *,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        connect_timeout_s: float = 15.0,
        on_refused: OnRefused | None = None,
    ) -> None:
        self.policy = policy
        self.connect_timeout_s = connect_timeout_s
        self.on_refused = on_refused
        self.stats = ProxyStats()
        self._excluded: set[int] = set()
        self.network = GuardedNetworkBackend(
            policy.guard, _ExcludePorts(connector or httpcore2.AnyIOBackend(), self._excluded)
        )
        self._servers: dict[str | None, Listener] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: the browser side of every accepted connection not yet closed (closed by aclose)
        self._writers: set[asyncio.StreamWriter] = set()
        self._closed = False

    # --- listeners ------------------------------------------------------------------------
    async def listen(self, owner: str | None = None) -> str:
        """Open a listener on 127.0.0.1 (a free port) for ``owner``; returns its proxy URL
        ``http://127.0.0.1:<port>``. One listener per owner (an existing one is reused)."""
        if self._closed:
            raise RuntimeError("the proxy is closed")
        server = self._servers.get(owner)
        if server is None:
            server = Listener("127.0.0.1", lambda sock: self._take(owner, sock))
            self._servers[owner] = server
            self._excluded.add(server.port)
        return f"http://127.0.0.1:{server.port}"

    def port(self, owner: str | None = None) -> int | None:
        """The port of ``owner``'s listener, or ``None``."""
        server = self._servers.get(owner)
        return None if server is None else server.port

    def exclude_port(self, port: int) -> None:
        """Never connect to ``port`` on this host (e.g. the browser's DevTools port)."""
        self._excluded.add(port)

    @property
    def excluded_ports(self) -> tuple[int, ...]:
        """The ports of this host the proxy never connects to: its own listeners and those
        given to :meth:`exclude_port`."""
        return tuple(sorted(self._excluded))

    def forget(self, owner: str) -> None:
        """Close ``owner``'s listener (connections already open end with their exchange)."""
        server = self._servers.pop(owner, None)
        if server is not None:
            self._excluded.discard(server.port)
            server.close()

    async def aclose(self) -> None:
        """Close every listener and end every proxied connection. Idempotent."""
        self._closed = True
        servers, self._servers = list(self._servers.values()), {}
        for server in servers:
            server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        # Whatever a handler did not close (it never ran, or is still unwinding) is closed
        # here: no accepted transport outlives the proxy.
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    # --- one client connection ------------------------------------------------------------
    def _take(self, owner: str | None, sock: socket.socket) -> None:
        """A socket the listener accepted: wrapped in streams by a task, then served; closed
        here whatever happens before a transport owns it (the proxy closed, the task
        cancelled before its first step, the wrapping failed)."""
        if self._closed:
            sock.close()
            return
        task = asyncio.ensure_future(self._wrap(owner, sock))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda done: _close_unwrapped(done, sock))

    async def _wrap(self, owner: str | None, sock: socket.socket) -> None:
        reader, writer = await asyncio.open_connection(sock=sock)
        self._accept(owner, reader, writer)

    def _accept(self, owner: str | None, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.stats.accepted += 1
        if self._closed:
            # The loop accepted the socket before the listener closed but hands it over only
            # now (Python 3.11's Server.close stops no pending accept and its wait_closed
            # does not wait for them): aclose has already run, nothing would end this one.
            writer.transport.abort()
            return
        self._writers.add(writer)
        task = asyncio.ensure_future(self._serve(owner, reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        # A task cancelled before its first step never runs _serve's ``finally``: the
        # accepted socket is closed here whatever happened (closing twice is harmless).
        task.add_done_callback(lambda _task: self._release(writer))

    def _release(self, writer: asyncio.StreamWriter) -> None:
        writer.close()
        self._writers.discard(writer)

    async def _serve(self, owner: str | None, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)
        try:
            await self._handle(owner, conn, reader, writer)
        except _Reply as reply:
            with contextlib.suppress(Exception):
                await answer(conn, writer, reply.status, reply.text.encode("utf-8", "replace"))
        except (ConnectionError, asyncio.IncompleteReadError, h11.ProtocolError, TimeoutError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # the text may name an address: only the type is logged
            log.debug("browser proxy connection failed: %s", type(exc).__name__)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1)

    async def _handle(
        self, owner: str | None, conn: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            request = await asyncio.wait_for(next_event(conn, reader), HEAD_TIMEOUT_S)
        except h11.RemoteProtocolError:
            raise _Reply(400, "malformed proxy request") from None
        if not isinstance(request, h11.Request):
            return
        try:
            target = parse_target(request.method.decode("ascii"), request.target.decode("latin-1"))
        except (TargetError, UnicodeDecodeError) as exc:
            raise _Reply(400, f"not a proxy request: {exc}") from None
        upstream = await self._connect(owner, target, conn, writer)
        if upstream is None:
            return
        try:
            if target.kind == "tunnel":
                self.stats.tunnels += 1
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await writer.drain()
                await pump(reader, writer, upstream, conn.trailing_data[0], b"")
            else:
                self.stats.forwarded += 1
                await self._forward(request, target, conn, reader, writer, upstream)
        finally:
            with contextlib.suppress(Exception):
                await upstream.aclose()

    async def _connect(
        self, owner: str | None, target: ProxyTarget, conn: h11.Connection, writer: asyncio.StreamWriter
    ) -> httpcore2.AsyncNetworkStream | None:
        """Judge ``target`` and connect to a checked address; ``None`` after a refusal
        (answered 403, reported) — no upstream connection is attempted then."""
        verdict = self.policy.check_static(target.policy_url, redirect=True)
        error: WebResearchError | None = None
        if verdict is not None and not verdict.allowed:
            error = verdict.error or BlockedAddress("refused by the browser's request policy")
        else:
            try:
                stream = await self.network.connect_tcp(
                    target.host, target.port, timeout=self.connect_timeout_s
                )
            except (BlockedAddress, InvalidArguments) as exc:
                error = exc
            except NetworkError:
                self.stats.failed += 1
                log.debug("browser proxy: a target name does not resolve")
                raise _Reply(502, "the host name does not resolve") from None
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout, OSError, TimeoutError):
                self.stats.failed += 1
                log.debug("browser proxy: could not connect to a target")
                raise _Reply(502, "could not connect to the server") from None
            else:
                self.stats.upstream += 1
                return stream
        self.stats.refused += 1
        refusal = ProxyRefusal(
            owner, target.shown, target.kind == "tunnel", _for_connection(error, target)
        )
        log.debug("browser proxy refused a %s target (%s)", target.kind, error.code)
        if self.on_refused is not None:
            try:
                self.on_refused(refusal)
            except Exception:
                log.exception("recording a proxy refusal failed")
        await answer(conn, writer, 403, refusal_response_body(error.code))
        return None

    async def _forward(
        self,
        request: h11.Request,
        target: ProxyTarget,
        conn: h11.Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        upstream: httpcore2.AsyncNetworkStream,
    ) -> None:
        """One plain-HTTP exchange, re-framed on both sides, then the connection closes."""
        raw = list(request.headers.raw_items())
        up = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)
        await upstream.write(
            up.send(
                h11.Request(
                    method=request.method,
                    target=target.origin_form.encode("ascii", "replace"),
                    headers=upstream_headers(raw, target),
                )
            )
            or b""
        )
        while True:  # the request body
            event = await asyncio.wait_for(next_event(conn, reader), HEAD_TIMEOUT_S)
            if isinstance(event, h11.Data):
                await upstream.write(up.send(h11.Data(data=event.data)) or b"")
            elif isinstance(event, h11.EndOfMessage):
                await upstream.write(up.send(h11.EndOfMessage()) or b"")
                break
            else:
                return
        extra = bytearray()  # what the browser sends while the response is relayed
        watcher = asyncio.ensure_future(until_closed(reader, extra))
        relay = asyncio.ensure_future(
            self._relay_response(up, conn, writer, upstream, wants_upgrade(raw))
        )
        switched = False
        try:
            done, _ = await asyncio.wait({watcher, relay}, return_when=asyncio.FIRST_COMPLETED)
            switched = relay in done and not relay.cancelled() and relay.result() is True
        finally:
            for task in (watcher, relay):
                task.cancel()
            for task in (watcher, relay):
                with contextlib.suppress(BaseException):
                    await task
        if switched:  # a 101 handshake: from now on bytes flow both ways, as a tunnel
            await pump(
                reader, writer, upstream, conn.trailing_data[0] + bytes(extra), up.trailing_data[0]
            )

    async def _relay_response(
        self,
        up: h11.Connection,
        conn: h11.Connection,
        writer: asyncio.StreamWriter,
        upstream: httpcore2.AsyncNetworkStream,
        upgrade: bool,
    ) -> bool:
        """Relay the origin's response; True when it switched protocols (``101``)."""
        started = False
        try:
            while True:
                event = await next_upstream_event(up, upstream)
                if isinstance(event, h11.InformationalResponse):
                    headers = downstream_headers(list(event.headers.raw_items()), event.status_code)
                    if event.status_code == 101 and upgrade:
                        writer.write(
                            conn.send(
                                h11.InformationalResponse(
                                    status_code=101, headers=headers, reason=event.reason
                                )
                            )
                            or b""
                        )
                        await writer.drain()
                        return True
                    continue  # 100 Continue and friends: h11 tracks them; nothing to relay
                if isinstance(event, h11.Response):
                    started = True
                    headers = downstream_headers(list(event.headers.raw_items()), event.status_code)
                    writer.write(
                        conn.send(
                            h11.Response(
                                status_code=event.status_code, headers=headers, reason=event.reason
                            )
                        )
                        or b""
                    )
                elif isinstance(event, h11.Data):
                    writer.write(conn.send(h11.Data(data=event.data)) or b"")
                    await writer.drain()
                elif isinstance(event, h11.EndOfMessage):
                    writer.write(conn.send(h11.EndOfMessage()) or b"")
                    await writer.drain()
                    return False
                else:
                    return False
        except h11.RemoteProtocolError:
            if not started:
                with contextlib.suppress(Exception):
                    await answer(conn, writer, 502, b"the server sent a malformed response")
            return False


def _close_unwrapped(task: asyncio.Task[None], sock: socket.socket) -> None:
    """Close ``sock`` unless ``task`` handed it to a transport (which closes it itself)."""
    if task.cancelled() or task.exception() is not None:
        sock.close()


def _for_connection(error: WebResearchError, target: ProxyTarget) -> WebResearchError:
    """The refusal reworded for a connection: the policy speaks of "the redirect target"
    (it never echoes a URL the model did not choose); here it is a connection of the page.
    The target's address is not named (it may be internal): records keep
    ``target.shown`` (``host:port``, never a path) for the journal."""
    del target  # named in the record (ProxyRefusal.target), never in the message
    return reword_refusal(error, describe_request("Connection"))
