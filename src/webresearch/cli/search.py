"""``webresearch search QUERY``: search the web; ``--test [QUERY]`` checks the providers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import click

from webresearch import ConfigurationError, InvalidArguments

if TYPE_CHECKING:
    from webresearch import Settings, Toolkit
    from webresearch.types import JSONObject

from ..wording import count
from .logs import say
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
from .signals import run_stoppable

#: What ``--language`` takes (checked by :func:`webresearch.config.codes.language_problem`).
LANGUAGE_FORM = "a language tag (BCP 47) like en, pt-BR or zh-Hans"
#: What ``--country`` takes (checked by :func:`webresearch.config.codes.country_problem`).
COUNTRY_FORM = "a two-letter country code (ISO 3166-1 alpha-2) like us or de"


def accepted_arguments(toolkit: Toolkit, arguments: dict[str, object]) -> bool:
    """Whether web_search takes ``arguments`` (click's types: text and whole numbers), as
    its call would check them before any search: valid Unicode text (a lone surrogate from
    a non-UTF-8 command line is refused), the tool's JSON schema (a query over 500
    characters), then the tool's own typed arguments (``Toolkit.tool(...).prepare``: a
    blank query). A refusal the call meets later (a rate limit, the budget) is not foreseen.
    """
    from jsonschema import Draft202012Validator

    tool = toolkit.tool("web_search")
    if tool is None:
        return False
    for value in arguments.values():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return False
    if not Draft202012Validator(tool.spec.input_schema).is_valid(arguments):
        return False
    try:
        tool.prepare(cast("JSONObject", arguments))
    except InvalidArguments:
        return False
    return True


def _language_problem(tag: str) -> str | None:
    from webresearch.config.codes import language_problem

    return language_problem(tag)


def _country_problem(code: str) -> str | None:
    from webresearch.config.codes import country_problem

    return country_problem(code)


def checked_code(value: str | None, problem: Callable[[str], str | None], form: str) -> str | None:
    """``--language`` / ``--country``: the code trimmed, or ``None`` when not given.

    Args:
        problem: why a code is refused (``None`` when it is fine): the language tag or the
            country must exist, not only have the form (``uk`` is no country: gb is).

    Raises:
        click.BadParameter: not such a code (exit 2), naming the form, the value given and
            why (``not 'uk': no country has this code (United Kingdom is gb)``).
    """
    if value is None:
        return None
    code = value.strip()
    if len(code) > 40:
        raise click.BadParameter(f"must be {form}, not {code[:37] + '...'!r}")
    why = problem(code)
    if why is not None:
        raise click.BadParameter(f"must be {form}, not {code!r}: {why}")
    return code


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
@click.option(
    "--language",
    "-l",
    default=None,
    metavar="CODE",
    callback=lambda _c, _p, v: checked_code(v, _language_problem, LANGUAGE_FORM),
    help="A language tag (BCP 47), e.g. en or pt-BR.",
)
@click.option(
    "--country",
    "-c",
    default=None,
    metavar="CODE",
    callback=lambda _c, _p, v: checked_code(v, _country_problem, COUNTRY_FORM),
    help="A country code (ISO 3166-1 alpha-2), e.g. us.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option(
    "--test",
    "health",
    is_flag=True,
    help="Health check: one real query per provider (QUERY, default 'test'), no cache; "
    "prints ok or the error code, the result count and the latency of each.",
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
      webresearch search --test "rust 1.80" --provider searxng

    --provider P asks only P (no failover, no fusion); without it the configured providers
    answer (WEBRESEARCH_SEARCH_PROVIDERS=searxng,ddgs fails over in that order). --test
    prints one line per provider: "ok searxng: 8 results in 412 ms" or "auth brave: …".

    Exit codes: 0 ok, 1 tool error (or a failed --test), 2 usage error (also a provider
    that is not set up: unknown name, missing key), 3 refused by policy, 130 interrupted
    (Ctrl-C), 143 terminated (SIGTERM).
    """
    from webresearch import Toolkit
    from webresearch.config.search_notice import default_provider_notice

    settings = load_settings(ctx)
    if provider:
        try:
            settings = settings.replace(
                search_provider=provider, search_providers=(), search_fusion="off"
            )
        except ConfigurationError as exc:
            raise click.UsageError(exc.message) from None
    if health:
        ctx.exit(_health(settings, provider, query, as_json=as_json))
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
                # Told before the query leaves, and only when it will: arguments refused
                # before any search (a lone surrogate, a query too long) leave the one
                # error line alone (session 10 review, 7).
                notice = default_provider_notice(settings)
                if notice is not None and accepted_arguments(toolkit, arguments):
                    say(notice, prefix="webresearch search: ")
                with Progress(f"searching {query!r}"):
                    result = await toolkit.call("web_search", arguments)
        return emit_result("search", result, as_json=as_json)

    ctx.exit(run_command("search", run()))


def _health(settings: Settings, provider: str | None, query: str | None, *, as_json: bool) -> int:
    """Run ``--test``: print each provider's line (or JSON); the exit code."""
    from webresearch import check_search
    from webresearch.config.search_notice import default_provider_notice

    if query is not None and not query.strip():
        raise click.UsageError("QUERY must not be blank")
    if provider is None and (notice := default_provider_notice(settings)) is not None:
        say(notice, prefix="webresearch search: ")  # ddgs is among the providers checked
    checks = run_stoppable(check_search(settings, (provider,) if provider else None, query))
    failed = [c for c in checks if not c.ok]
    code = failed[0].code if failed else None
    if as_json:
        rows = [
            {
                "provider": c.provider or None,
                "ok": c.ok,
                "code": c.code,
                "results": c.results,
                "latency_ms": c.latency_ms,
            }
            for c in checks
        ]
        click.echo(json.dumps({"ok": not failed, "code": code, "providers": rows}))
    for check in checks if not as_json else ():
        if not check.provider:
            click.echo(check.code)
        elif check.ok:
            found = count(check.results, "result")
            click.echo(f"ok {check.provider}: {found} in {check.latency_ms:g} ms")
        else:
            after = f" after {check.latency_ms:g} ms" if check.latency_ms else ""
            click.echo(f"{check.code} {check.provider}{':' + after if after else ''}")
    # a provider that is not set up (unknown name, missing key) is a usage error
    if not failed:
        return EXIT_OK
    return EXIT_USAGE if any(c.code == "configuration" for c in failed) else EXIT_TOOL_ERROR
