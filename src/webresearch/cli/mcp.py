"""``webresearch mcp [--http HOST:PORT]``: serve the tools to MCP clients."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType

import click

from webresearch import ConfigurationError

from .install_hint import Installation, fit_install_hints
from .logs import say
from .options import guard_options, load_settings
from .signals import say_stopped, serve_until_signal


def _server_module() -> ModuleType:
    """``webresearch.mcp_server``, or a usage error naming the extra to install."""
    try:
        import webresearch.mcp_server as mcp_server
    except ImportError:  # the optional ``mcp`` SDK (or one of its parts) is missing
        raise click.UsageError(
            fit_install_hints(
                "the MCP server needs the mcp extra: "  # not its missing part (starlette…)
                "pip install -e '.[mcp]' in the webresearch checkout",
                Installation.of(),
            )
        ) from None
    return mcp_server


#: Largest ``--budget``: ``webresearch.config.MAX_PRICE_UNITS`` (not imported here: the
#: settings' module loads pydantic, which ``webresearch --version`` must not wait for).
BUDGET_MAX = 1e9


@click.command("mcp")
@click.option(
    "--http",
    "bind",
    metavar="[HOST:]PORT",
    default=None,
    help=(
        "Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; HOST defaults to "
        "127.0.0.1, port 0 picks a free one."
    ),
)
@click.option(
    "--token",
    default=None,
    metavar="TOKEN",
    help=(
        "Bearer token HTTP clients must send (default: $WEBRESEARCH_MCP_TOKEN; prefer the "
        "variable: a command line is visible to other local users)."
    ),
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME[:PORT]",
    help=(
        "Another name clients use to reach the HTTP server (Host and Origin are checked "
        "against the bind address and these; others get 421/403). Repeatable; the server's "
        "port when none is given, NAME:* any port; also $WEBRESEARCH_MCP_ALLOWED_HOSTS "
        "(comma-separated). Needed for 0.0.0.0 or :: binds."
    ),
)
@click.option(
    "--workspace",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Directory view_image may read (default: none, view_image off).",
)
@click.option(
    "--fetch-scope",
    type=click.Choice(["open", "search_results"]),
    default=None,
    help=(
        "Which URLs a session may open: any public URL (open), or only URLs from the "
        "session's latest web_search (search_results). Default: $WEBRESEARCH_MCP_FETCH_SCOPE "
        "or open."
    ),
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, max=BUDGET_MAX),
    default=None,
    metavar="AMOUNT",
    help=(
        "Most one session may spend on paid calls, in the units of your prices "
        "(0 to 1e9; default: $WEBRESEARCH_MCP_BUDGET, none). A limit for all sessions and workers "
        "together: WEBRESEARCH_SPENDING_LIMIT."
    ),
)
@guard_options
@click.pass_context
def mcp(
    ctx: click.Context,
    bind: str | None,
    token: str | None,
    allowed_hosts: tuple[str, ...],
    workspace: Path | None,
    fetch_scope: str | None,
    budget: float | None,
    allow_private: bool,
    allow_network: tuple[str, ...],
) -> None:
    """Serve the web tools to an MCP client (stdio by default).

    The HTTP transport binds 127.0.0.1 unless told otherwise; on any other address
    (127.0.0.2 and localhost too) a bearer token is required, and requests without it get
    HTTP 401. On every address a request must name the server in Host (else 421) and, from
    a browser, in Origin (else 403): a web page cannot reach it by DNS rebinding.

    Over HTTP, GET /healthz and /readyz answer without a token (for health checks); idle
    sessions are closed after WEBRESEARCH_MCP_SESSION_IDLE_S (30 min), at most
    WEBRESEARCH_MCP_MAX_SESSIONS (100) are open. Calls report progress to clients that ask
    for it, and a client's cancel stops the call. Ctrl-C or SIGTERM stops the server with
    one line.

    \b
    Examples:
      webresearch mcp
      webresearch mcp --fetch-scope search_results --budget 0.50
      webresearch mcp --http 8765
      WEBRESEARCH_MCP_TOKEN=$(openssl rand -hex 32) webresearch mcp \\
          --http 0.0.0.0:8765 --allowed-host mcp.example.org
      npx @modelcontextprotocol/inspector webresearch mcp     # try it in the MCP Inspector

    \b
    Client configuration (Claude Desktop, Cursor, any MCP client using stdio);
    webresearch is not on PyPI: give the absolute path of your checkout
      {"mcpServers": {"webresearch": {"command": "uvx",
        "args": ["--from", "/path/to/webresearch[mcp]", "webresearch", "mcp"]}}}
    or, installed there with pip install '.[mcp]', its program:
      {"mcpServers": {"webresearch": {"command": "/path/to/webresearch/.venv/bin/webresearch",
        "args": ["mcp"]}}}
    """
    settings = load_settings(ctx, allow_private=allow_private, allow_network=allow_network)
    policy: dict[str, object] = {}
    if fetch_scope is not None:
        policy["mcp_fetch_scope"] = fetch_scope
    if budget is not None:
        policy["mcp_budget"] = budget
    settings = settings.replace(**policy) if policy else settings
    server = _server_module()
    workspace = workspace.resolve() if workspace is not None else None
    if bind is None:
        if token or allowed_hosts:
            option = "--token" if token else "--allowed-host"
            raise click.UsageError(f"{option} applies to --http only (stdio needs no token)")
        asyncio.run(
            serve_until_signal(server.serve_stdio(settings, workspace=workspace), exit_at_once=True)
        )
        return
    try:
        host, port = server.parse_bind(bind)
        if token:
            settings = settings.replace(mcp_token=token)
        secret = settings.mcp_token.get_secret_value() if settings.mcp_token else None
        server.check_bind(host, secret)
        server.HostRules.for_bind(host, port or 1, (*settings.mcp_allowed_hosts, *allowed_hosts))
    except ConfigurationError as exc:
        raise click.UsageError(exc.message) from None

    def ready(url: str) -> None:
        auth = "bearer token required" if secret else "no token: this machine only"
        say(f"MCP server listening on {url} ({auth})", prefix="webresearch ")

    try:
        code = asyncio.run(
            serve_until_signal(
                server.serve_http(
                    settings,
                    host=host,
                    port=port,
                    workspace=workspace,
                    on_ready=ready,
                    allowed_hosts=allowed_hosts,
                )
            )
        )
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {bind}: {exc.strerror or exc}") from None
    if code is not None:
        say_stopped(code)
        ctx.exit(code)
