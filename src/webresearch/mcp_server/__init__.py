"""The MCP server: every registered tool over stdio or streamable HTTP (SPEC §4).

    webresearch mcp                                   # stdio, for a desktop or IDE client
    webresearch mcp --http 127.0.0.1:8765             # streamable HTTP at /mcp
    WEBRESEARCH_MCP_TOKEN=… webresearch mcp --http 0.0.0.0:8765   # elsewhere: token required

Built on the official ``mcp`` SDK's low-level ``Server`` (the only module that imports it),
so the constant tool schemas are served byte for byte. Tool failures are ``isError`` results
with the ``error[code]: …`` text, images are ``ImageContent``; supervised tools ask the
person through MCP elicitation (see :mod:`.approval`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from webresearch import Settings, Toolkit

from .health import HEALTH_PATH, READY_PATH, HealthRoutes
from .http import MCP_PATH, check_bind, gate, is_loopback, listen_socket, parse_bind
from .origin import HostOriginGate, HostRules
from .server import SERVER_NAME, WebResearchServer

__all__ = [
    "HEALTH_PATH",
    "MCP_PATH",
    "READY_PATH",
    "SERVER_NAME",
    "HostRules",
    "WebResearchServer",
    "check_bind",
    "is_loopback",
    "parse_bind",
    "serve_http",
    "serve_stdio",
]


async def serve_stdio(settings: Settings, *, workspace: Path | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes the connection (or the task is
    cancelled: the client's input is read so that a cancel does not wait for its next
    line, :mod:`.stdio_input`).

    Args:
        settings: configuration (the Toolkit is built from it and closed at the end).
        workspace: directory ``view_image`` may read.
    """
    from mcp.server.stdio import stdio_server

    from .stdio_input import claimed_stdin

    async with Toolkit(settings) as toolkit:
        web = WebResearchServer(toolkit, workspace=workspace)
        try:
            # Our stdin: a cancel (Ctrl-C, SIGTERM) does not wait for the client's next line.
            with claimed_stdin() as stdin:
                async with stdio_server(stdin=stdin) as (read_stream, write_stream):
                    await web.server.run(
                        read_stream, write_stream, web.server.create_initialization_options()
                    )
        finally:
            await web.aclose()


async def serve_http(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    token: str | None = None,
    workspace: Path | None = None,
    on_ready: Callable[[str], Any] | None = None,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Serve MCP over streamable HTTP at ``http://host:port/mcp`` until cancelled.

    Also ``GET /healthz`` and ``GET /readyz`` without a token (:mod:`.health`). At most
    ``settings.mcp_max_sessions`` sessions are open at once (one more gets 503), and a
    session without a request for ``settings.mcp_session_idle_s`` is closed.

    Cancelling the task stops the server cleanly: new requests get 503, open sessions and
    their calls are closed (each call gets :data:`~.server.CANCEL_GRACE_S` to release what
    it holds), connections are shut, the Toolkit is closed — nothing is logged, and the
    cancellation then propagates (the caller says the one line).

    Args:
        settings: configuration; ``settings.mcp_token`` is the bearer token unless ``token``
            is given.
        host: address to bind (loopback by default).
        port: TCP port; 0 picks a free one (``on_ready`` gets the real URL).
        token: bearer token every request must carry (a secret: never logged).
        workspace: directory ``view_image`` may read.
        on_ready: called with the endpoint URL once the socket listens.
        allowed_hosts: more ``NAME[:PORT]`` authorities clients may name in ``Host`` and
            ``Origin``, besides ``settings.mcp_allowed_hosts`` (the bind address with its
            port is always accepted; see :mod:`.origin`).

    Raises:
        ConfigurationError: a bind other than 127.0.0.1/::1 without a token, a malformed
            ``allowed_hosts`` entry, or a wildcard bind without one.
        OSError: the address cannot be bound.
    """
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from .serving import SHUTDOWN_GRACE_S, EmbeddedServer, serve_until_cancelled

    if token:
        settings = settings.replace(mcp_token=token)  # the redactor hides it everywhere
    elif settings.mcp_token is not None:
        token = settings.mcp_token.get_secret_value() or None
    check_bind(host, token)
    allowed_hosts = (*settings.mcp_allowed_hosts, *allowed_hosts)
    HostRules.for_bind(host, port or 1, allowed_hosts)  # refuse a bad list before listening
    sock = listen_socket(host, port)
    try:
        rules = HostRules.for_bind(host, sock.getsockname()[1], allowed_hosts)
        async with Toolkit(settings) as toolkit:
            web = WebResearchServer(toolkit, workspace=workspace)
            app = web.server.streamable_http_app(
                streamable_http_path=MCP_PATH,
                host=host,
                # Ours (HostOriginGate) is the one Host/Origin rule, on every bind address.
                transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
                session_idle_timeout=settings.mcp_session_idle_s,
                max_sessions=settings.mcp_max_sessions,
            )
            front = HealthRoutes(HostOriginGate(gate(app, token), rules), toolkit.readiness)
            config = uvicorn.Config(
                front,
                log_level="warning",
                access_log=False,
                # The session manager's lifespan is ours (below): stopping it first ends
                # the sessions' streams, so uvicorn then finds no connection to wait for.
                lifespan="off",
                log_config=None,  # the application's logging (the CLI's text or JSON)
                timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
            )
            shown_host = f"[{host}]" if ":" in host else host
            url = f"http://{shown_host}:{sock.getsockname()[1]}{MCP_PATH}"
            try:
                await serve_until_cancelled(
                    EmbeddedServer(config),
                    sock,
                    web.server.session_manager,
                    front,
                    lambda: on_ready(url) if on_ready is not None else None,
                    web.stop_calls,
                )
            finally:
                await web.aclose()
    finally:
        sock.close()
