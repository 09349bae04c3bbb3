"""``webresearch fetch URL…``: read pages as text — one, a batch, or HTML given offline."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO

import click

from webresearch import InvalidArguments, ToolResult

from ..daemon_thread import in_daemon_thread
from ..url_text import clean_url, scheme_hint
from .batch import batch_exit_code, concurrency_option, json_line, read_targets, run_batch
from .local_hints import Exemptions, refusal_step, scheme_typo
from .options import guard_options, load_settings, robots_option
from .render import (
    Progress,
    emit_result,
    quiet_option,
    reports_own_tool,
    run_command,
    show_error,
    unavailable_exit,
)
from .targets import (
    empty_problem,
    is_url,
    list_file_problem,
    local_targets,
    read_file,
    read_stdin,
)
from .trace_view import tracing_to_stderr

#: What a person who typed ``-q`` for "quiet" reads: ``-q`` has meant ``--query`` since
#: focused reading came (README, the examples below), so it stays; the mistake is named.
_Q_IS_QUERY = "-q is --query QUESTION here, not quiet (--quiet has no short form)"


class _FetchCommand(click.Command):
    """``fetch`` with a clear word when ``-q`` was meant as quiet and so lacks its QUESTION."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed, joined = _query_as_typed(args)  # before click consumes ``args``
        try:
            rest = super().parse_args(ctx, args)
        except click.BadOptionUsage as exc:
            if exc.option_name != "-q":
                raise
            raise click.BadOptionUsage("-q", f"{exc.message} {_Q_IS_QUERY}.", ctx) from None
        # ``fetch FILE -q --json``: click takes the next word as -q's value, even an option
        # of this very command; none of them is a question anyone asks.
        query = ctx.params.get("query")
        if not isinstance(query, str):
            return rest
        options = {name for p in self.get_params(ctx) for name in (*p.opts, *p.secondary_opts)}
        # ``-q --max-bytes=5``: an option with its value joined by ``=`` is an option too
        if query.split("=", 1)[0] in options:
            quiet = " (--quiet has no short form)" if typed == "-q" else ""
            raise click.BadOptionUsage(
                typed,
                f"{_takes(typed)}; got the option {query} as the question{quiet}",
                ctx,
            )
        if query == "-" and typed == "--query":  # meant: the question from stdin
            raise click.BadOptionUsage(typed, _NO_QUESTION_FROM_STDIN, ctx)
        # ``-q -- page.html``, ``-q a.html b.html``, ``-q URL URL``: -q meant as quiet (a
        # lone ``-q page.html`` is worded where its missing target is: fetch's body)
        taken = _not_a_question(query, bool(ctx.params.get("targets")) and not joined)
        if taken is not None:
            quiet = " (--quiet has no short form)" if typed == "-q" else ""
            raise click.BadOptionUsage(
                typed, f"{_takes(typed)}; got {taken} as the question{quiet}", ctx
            )
        if not query.strip():  # ``-q ""``, ``-q "$UNSET"``: nothing to rank sections by
            raise click.BadOptionUsage(
                typed, f"an empty question was given to {typed}; ask one, or leave it out", ctx
            )
        return rest


#: ``--query -`` / ``--query=-``: the question asked for from stdin, which is never read for it.
_NO_QUESTION_FROM_STDIN = (
    "--query - does not read the question from stdin ('-' is a page's HTML from stdin "
    'here); write the question itself, e.g. --query "how do I cancel a task?"'
)


def _takes(typed: str) -> str:
    """How the option's use is said: ``-q is --query QUESTION`` (a person may have meant
    quiet), ``--query takes the QUESTION itself`` (not ``--query is --query …``)."""
    return "-q is --query QUESTION" if typed == "-q" else "--query takes the QUESTION itself"


def _not_a_question(query: str, more_targets: bool) -> str | None:
    """What ``query`` is when it is no question anyone asks but a word of the command line
    (``--``, which ends the options; ``-``, stdin's target; with ``more_targets``, a file
    that exists or a URL), else ``None``.

    ``-`` is never read as "the question from stdin": ``-`` is already the page's HTML from
    stdin here (``fetch - -q -`` could not read both), a question is a few words to type,
    and ``fetch a.html -q -`` is what a person types who meant quiet and stdin."""
    if query == "--":
        return "-- (the end of the options)"
    if query == "-":
        return "- (stdin, a target)"
    if not more_targets:
        return None
    if is_url(query):
        return f"the URL {query}"
    if os.path.isfile(query):
        return f"the file {query}"
    return None


def _query_as_typed(args: list[str]) -> tuple[str, bool]:
    """``-q`` or ``--query``, as the person typed the last one (the one click kept), and
    whether its value was joined to it (``--query=a.html``, ``-qa.html``): a value joined
    on purpose is the question even when it names a file or a URL."""
    typed, joined = "--query", False
    for arg in args:
        if arg == "--":
            break
        if arg == "--query" or arg.startswith("--query="):
            typed, joined = "--query", arg != "--query"
        elif arg.startswith("-q"):
            typed, joined = "-q", arg != "-q"
    return typed, joined


def _blank(data: bytes) -> bool:
    """Whether ``data`` holds no text: nothing, or only white space — a byte-order mark and
    Unicode spaces (a no-break space) included, as a UTF-8 page would read."""
    if not data.strip():
        return True
    if len(data) > 4096:
        return False  # a page, not a blank save
    return not data.decode("utf-8", "replace").replace("\ufeff", "").strip()


def _empty_stdin(data: bytes) -> InvalidArguments:
    """The error of ``fetch -`` when stdin held nothing, or only white space: most often the
    command before the pipe failed (``curl -s`` prints nothing on an error), not a page
    that is empty."""
    held = "was empty" if not data else "held only white space"
    return InvalidArguments(
        f"stdin {held}: no page was piped in",
        hint="check the command before the pipe (curl -fsS URL says why it failed), or "
        "give a saved file as PATH",
    )


def _empty_file(target: str, data: bytes) -> InvalidArguments:
    """The error of ``fetch PATH`` when the file holds nothing, or only white space — as
    empty stdin is an error: most often a download or a save that failed, not a page."""
    held = "is empty (0 bytes)" if not data else "holds only white space"
    return InvalidArguments(
        f"{target} {held}: there is no page to read",
        hint="check that the page was saved completely (a failed download leaves an empty "
        "file), or give its URL",
    )


def _no_listed_targets(input_file: TextIO) -> str:
    """The usage error of ``-i FILE`` (or ``-i -``) that lists nothing, without arguments."""
    if input_file.name == "<stdin>":
        return (
            "-i -: stdin listed no URL or PATH (it was empty, or held only blank lines and "
            "# comments); check the command before the pipe, or give the URLs as arguments"
        )
    return (
        f"-i {input_file.name}: the file lists no URL or PATH (it is empty, or holds only "
        "blank lines and # comments); write one URL or PATH per line"
    )


def _base_url(given: str | None) -> str | None:
    """``--base-url`` read as every URL on the command line is (:func:`clean_url`).

    Raises:
        click.UsageError: it is empty (``--base-url ''``, as ``fetch ""`` is) or a URL typed
            without its scheme (``example.org/docs/``: the URL meant is named).
    """
    if given is None:
        return None
    cleaned = clean_url(given)
    if not cleaned:
        raise click.UsageError("an empty --base-url was given")
    if "://" not in cleaned and (hint := scheme_hint(cleaned)) is not None:
        raise click.UsageError(f"--base-url {cleaned} is not a full URL; {hint}")
    return cleaned


@click.command("fetch", cls=_FetchCommand)
@click.argument("targets", nargs=-1, metavar="URL|PATH|-...")
@click.option(
    "-i",
    "--input",
    "input_file",
    type=click.File("r", encoding="utf-8"),
    default=None,
    metavar="FILE",
    help="Read more URLs from FILE, one per line ('-': stdin; blank lines and # comments skipped).",
)
@concurrency_option("Pages fetched")
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="The address HTML from stdin ('-') or a file was served from: relative links "
    "resolve against it. Required with '-'. Nothing is requested from it.",
)
@click.option(
    "--max-bytes",
    type=click.IntRange(1, 131072),
    default=None,
    help="Budget in bytes for the page's text, outline included (default 49152, max "
    "131072); the header lines and the [truncated at N of M bytes] line come on top.",
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
    help="Show the page's sections most relevant to QUESTION (BM25) instead of its start. "
    "-q is short for --query, not quiet: --quiet has no short form.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the full result (text + provenance metadata) as JSON; a batch prints JSON "
    "Lines: one object per input, in input order, failures as objects with their error.",
)
@quiet_option
@guard_options
@robots_option
@click.pass_context
def fetch(
    ctx: click.Context,
    targets: tuple[str, ...],
    input_file: TextIO | None,
    concurrency: int,
    base_url: str | None,
    max_bytes: int | None,
    offset: int,
    query: str | None,
    as_json: bool,
    quiet: bool,
    allow_private: bool,
    allow_network: tuple[str, ...],
    respect_robots: bool,
) -> None:
    """Fetch each URL and print it as text for a model.

    HTML becomes markdown of the main content; JSON, text, XML and CSV pass through;
    PDF becomes text. Internal addresses are refused unless exempted, and so are domains
    outside the domain policy (allowed_domains / blocked_domains). A page whose HTML is an
    empty app shell (its text drawn by JavaScript) is rendered in a headless browser when
    one is available (render = auto; never with render = never or browser_backend = none).
    At a terminal a progress line on stderr says what happens (--quiet hides it).

    Several URLs (arguments and/or -i FILE) are a batch: up to --concurrency pages at
    once, printed in input order; with --json one JSON object per line. A progress bar
    shows on a terminal for more than 3 URLs.

    '-' reads a page's HTML from stdin and needs --base-url URL (the address it came
    from); a PATH (or its file:///PATH URL) reads a saved regular file (--base-url
    optional). Both are converted
    with the same extraction, without any network, and read no further than the
    download cap (download_cap_bytes, 2 MiB: HTML and text past it are cut with a note).
    Empty stdin or an empty file (or only white space) is an error.

    robots.txt is not read for your own command; model-initiated calls (MCP, the library,
    adapters) obey it by default, and so does this command with --respect-robots.
    -vv shows each request's chain on stderr (hops, resolved and checked addresses,
    timings, cache, extractor).

    \b
    Examples:
      webresearch fetch https://example.org
      webresearch fetch https://example.org/long --offset N   # N from "[truncated at N of M bytes]"
      webresearch fetch https://docs.python.org/3/library/asyncio-task.html -q "how do I cancel a task?"
      webresearch fetch https://a.example https://b.example --json > pages.jsonl
      webresearch fetch -i urls.txt --json --concurrency 8 > pages.jsonl
      curl -s https://example.org | webresearch fetch - --base-url https://example.org
      webresearch fetch saved/page.html --base-url https://example.org/page
      webresearch fetch http://127.0.0.1:8000/ --allow-network 127.0.0.1/32
      webresearch fetch https://example.org/private/ --respect-robots   # as an agent would

    Exit codes: 0 ok (every URL of a batch), 1 tool error, 2 usage error, 3 refused by
    policy; a batch exits with the code of its first failure. 130 interrupted (Ctrl-C), 143
    terminated (SIGTERM).
    """
    from webresearch import Toolkit, read_page
    from webresearch.config import DEFAULT_MAX_BYTES

    if (empty := empty_problem(targets)) is not None:  # ``fetch ""``, ``fetch "$UNSET"``
        raise click.UsageError(empty)
    base_url = _base_url(base_url)
    if (problem := list_file_problem(input_file)) is not None:
        raise click.UsageError(problem)
    try:  # ``file:///…`` (the url: line printed for a file) is that file's path
        items = local_targets(read_targets(targets, input_file or ()))
    except InvalidArguments as exc:
        raise click.UsageError(f"{exc.message}; {exc.hint}") from None
    stdin_used = input_file is not None and input_file.name == "<stdin>"
    if not items:
        if query is not None:  # ``fetch -q URL`` or ``fetch -q page.html``: -q taken for quiet
            raise click.UsageError(
                f"{_Q_IS_QUERY}: {query} was read as the question; give the URL or PATH too"
            )
        if input_file is not None:
            raise click.UsageError(_no_listed_targets(input_file))
        raise click.UsageError("give at least one URL, PATH or '-' (or -i FILE)")
    if items.count("-") > 1:  # ``fetch - -``
        raise click.UsageError("stdin can be read once: give '-' once")
    if "-" in items and stdin_used:
        raise click.UsageError("stdin can be read once: '-' and -i - cannot be combined")
    if "-" in items and base_url is None:
        raise click.UsageError("'-' (HTML from stdin) needs --base-url URL (its address)")
    batch = len(items) > 1 or input_file is not None
    settings = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=not batch,  # a batch converts its pages in parallel in the pool
    )
    arguments: dict[str, object] = {"offset": offset}
    if max_bytes is not None:
        arguments["max_bytes"] = max_bytes
    if query is not None:
        arguments["query"] = query
    verbose = ctx.find_root().params.get("verbose") or 0

    limit = settings.download_cap_bytes + 1  # one byte past the cap: over it, not read whole
    exempt = Exemptions.of(settings)  # named in the next step toward a local address

    def step(target: str, result: ToolResult) -> str | None:
        """The command's own next step after a refusal of ``target`` (local_hints.py)."""
        return refusal_step(target, result.error, exempt)

    async def offline(target: str) -> ToolResult:
        # Read in a daemon thread: a signal never waits for a read that does not end.
        if target == "-":
            data, url = (
                await in_daemon_thread(partial(read_stdin, limit), name="webresearch-read"),
                base_url or "",
            )
            if _blank(data):  # ``curl -s … | webresearch fetch -`` after curl failed
                return ToolResult.failure(_empty_stdin(data))
        else:
            try:
                data = await in_daemon_thread(
                    partial(read_file, target, limit=limit, exempt=exempt),
                    name="webresearch-read",
                )
            except InvalidArguments as exc:  # not a regular file, or unreadable
                return ToolResult.failure(exc)
            if _blank(data):  # a failed save: an error, as empty stdin is
                return ToolResult.failure(_empty_file(target, data))
            url = base_url or Path(target).absolute().as_uri()
        return await read_page(
            data,
            url,
            offset=offset,
            max_bytes=max_bytes or DEFAULT_MAX_BYTES,  # web_fetch's default budget
            query=query,
            settings=settings,
            source="stdin" if target == "-" else target,
        )

    def emit(index: int, target: str, result: ToolResult) -> None:
        if as_json:
            click.echo(json_line(target, result, hint=step(target, result)))
            return
        if result.ok:
            click.echo(result.text + ("\n" if index < len(items) - 1 else ""))
        else:
            assert result.error is not None
            show_error("fetch", result.error, suffix=f" [{target}]", hint=step(target, result))

    async def run() -> int:
        with reports_own_tool("web_fetch"):
            toolkit = Toolkit(settings)
        async with toolkit:
            needs_tool = any(is_url(t) for t in items)
            if needs_tool and (code := unavailable_exit("fetch", toolkit, "web_fetch")):
                return code
            # the heading in the person's language (tool_titles_language)
            title = next((s.title for s in toolkit.tools() if s.name == "web_fetch"), "fetching")

            async def call(
                target: str, progress: Callable[[str], None] | None = None
            ) -> ToolResult:
                if not is_url(target):
                    return await offline(target)
                if (typo := scheme_typo(target, exempt)) is not None:  # ``http:/127.0.0.1/``
                    return ToolResult.failure(typo)
                with tracing_to_stderr(target, enabled=verbose >= 2):
                    return await toolkit.call(
                        "web_fetch", {"url": target, **arguments}, progress=progress
                    )

            if not batch:
                with Progress(f"{title}: {items[0]}", quiet=quiet) as line:
                    result = await call(items[0], line.update)
                return emit_result("fetch", result, as_json=as_json, hint=step(items[0], result))
            results = await run_batch(items, call, emit, concurrency=concurrency, label=title)
        return batch_exit_code(results)

    ctx.exit(run_command("fetch", run()))
