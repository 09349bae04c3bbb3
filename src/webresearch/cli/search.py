"""``webresearch search QUERY``: search the web; ``--test`` checks the provider."""

from __future__ import annotations

import asyncio
import json

import click

from webresearch import ConfigurationError

from .options import load_settings
from .render import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    Progress,
    emit_result,
    reports_own_tool,
    run_command,
    unavailable_exit,
)


@click.command("search")
@click.argument("query", required=False)
@click.option(
    "--provider",
    "-p",
    default=None,
    metavar="ID",
    help="searxng, brave, ddgs, tavily, exa, firecrawl or a plugin's id "
    "(default: $WEBRESEARCH_SEARCH_PROVIDER, else searxng when WEBRESEARCH_SEARXNG_URL is set, "
    "else ddgs).",
)
@click.option(
    "--max-results", "-n", type=click.IntRange(1, 20), default=None, help="1-20 (default 8)."
)
@click.option(
    "--freshness",
    type=click.Choice(["day", "week", "month", "year"]),
    default=None,
    help="Only recent results.",
)
@click.option("--language", "-l", default=None, metavar="CODE", help="e.g. en")
@click.option("--country", "-c", default=None, metavar="CODE", help="e.g. us")
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option(
    "--test",
    "health",
    is_flag=True,
    help="Health check: one real query, no cache; prints ok or the error code.",
)
@click.pass_context
def search(
    ctx: click.Context,
    query: str | None,
    provider: str | None,
    max_results: int | None,
    freshness: str | None,
    language: str | None,
    country: str | None,
    as_json: bool,
    health: bool,
) -> None:
    """Search the web and print answers and results as markdown.

    Keys and endpoints come from WEBRESEARCH_* variables or the --config file
    (WEBRESEARCH_SEARXNG_URL, WEBRESEARCH_BRAVE_API_KEY, …); keys are never printed.

    \b
    Examples:
      webresearch search "python asyncio timeout"
      webresearch search "rust 1.80 release" --freshness month -n 5
      webresearch search "weather" --provider brave --country de --language de --json
      webresearch search --test
      webresearch search --test --provider searxng

    Exit codes: 0 ok, 1 tool error (or a failed --test), 2 usage error (also a provider
    that is not set up: unknown name, missing key), 3 refused by policy.
    """
    from webresearch import Toolkit, check_provider

    settings = load_settings(ctx)
    if provider:
        try:
            settings = settings.replace(search_provider=provider)
        except ConfigurationError as exc:
            raise click.UsageError(exc.message) from None
    if health:
        if query:
            raise click.UsageError("--test runs its own query: give either QUERY or --test")
        ok, code = asyncio.run(check_provider(settings, provider))
        if as_json:
            click.echo(json.dumps({"ok": ok, "code": code}))
        else:
            click.echo("ok" if ok else code)
        # a provider that is not set up (unknown name, missing key) is a usage error
        ctx.exit(EXIT_OK if ok else EXIT_USAGE if code == "configuration" else EXIT_TOOL_ERROR)
    if not query or not query.strip():
        raise click.UsageError("QUERY is required (or use --test)")
    arguments: dict[str, object] = {"query": query}
    for name, value in (
        ("max_results", max_results),
        ("freshness", freshness),
        ("language", language),
        ("country", country),
    ):
        if value is not None:
            arguments[name] = value

    async def run() -> int:
        with reports_own_tool("web_search"):
            async with Toolkit(settings) as toolkit:
                if (code := unavailable_exit("search", toolkit, "web_search")) is not None:
                    return code
                with Progress(f"searching {query!r}"):
                    result = await toolkit.call("web_search", arguments)
        return emit_result("search", result, as_json=as_json)

    ctx.exit(run_command("search", run()))
