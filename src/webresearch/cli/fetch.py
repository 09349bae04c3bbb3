"""``webresearch fetch URL``: read one page as text."""

from __future__ import annotations

import click

from .options import guard_options, load_settings, robots_option
from .render import Progress, emit_result, reports_own_tool, run_command, unavailable_exit


@click.command("fetch")
@click.argument("url")
@click.option(
    "--max-bytes",
    type=click.IntRange(1, 131072),
    default=None,
    help="Output budget in bytes (default 49152, max 131072).",
)
@click.option(
    "--offset",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Bytes of the text to skip (continue a cut page).",
)
@click.option(
    "--query",
    "-q",
    default=None,
    metavar="QUESTION",
    help="Show the page's sections most relevant to QUESTION (BM25) instead of its start.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the full result (text + provenance metadata) as JSON.",
)
@guard_options
@robots_option
@click.pass_context
def fetch(
    ctx: click.Context,
    url: str,
    max_bytes: int | None,
    offset: int,
    query: str | None,
    as_json: bool,
    allow_private: bool,
    allow_network: tuple[str, ...],
    respect_robots: bool,
) -> None:
    """Fetch URL and print it as text for a model.

    HTML becomes markdown of the main content; JSON, text, XML and CSV pass through;
    PDF becomes text. Internal addresses are refused unless exempted, and so are domains
    outside the domain policy (allowed_domains / blocked_domains).

    robots.txt is not read for your own command; model-initiated calls (MCP, the library,
    adapters) obey it by default, and so does this command with --respect-robots.

    \b
    Examples:
      webresearch fetch https://example.org
      webresearch fetch https://example.org/long --offset N   # N from "[truncated at N of M bytes]"
      webresearch fetch https://docs.python.org/3/library/asyncio-task.html -q "how do I cancel a task?"
      webresearch fetch http://127.0.0.1:8000/ --allow-network 127.0.0.0/8
      webresearch fetch https://example.org --json
      webresearch fetch https://example.org/private/ --respect-robots   # as an agent would

    Exit codes: 0 ok, 1 tool error, 2 usage error, 3 refused by policy.
    """
    from webresearch import Toolkit

    settings = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=True,
    )
    arguments: dict[str, object] = {"url": url, "offset": offset}
    if max_bytes is not None:
        arguments["max_bytes"] = max_bytes
    if query is not None:
        arguments["query"] = query

    async def run() -> int:
        with reports_own_tool("web_fetch"):
            toolkit = Toolkit(settings)
        async with toolkit:
            if (code := unavailable_exit("fetch", toolkit, "web_fetch")) is not None:
                return code
            # the heading in the person's language (tool_titles_language)
            title = next((s.title for s in toolkit.tools() if s.name == "web_fetch"), "fetching")
            with Progress(f"{title}: {url}"):
                result = await toolkit.call("web_fetch", arguments)
        return emit_result("fetch", result, as_json=as_json)

    ctx.exit(run_command("fetch", run()))
