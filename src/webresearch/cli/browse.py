"""``webresearch browse``: drive the browser tool from a script of actions or a prompt.

One action per ``--do`` (or per line in interactive mode), in the same words as the tool.
The actions, their aliases, their words and the help all come from the tool's table of
actions (:func:`webresearch.browser_actions`, a light table: ``--help`` imports no browser
tool): a new action is here without a change.

Arguments are split like a shell line (quote a selector or text with spaces); JavaScript
after ``evaluate`` is taken as typed. A word that looks like a snapshot ref (``d1e5``) is a
ref, anything else a selector. An action whose result holds pictures (``screenshot``) takes
a file name as well: any word no parameter of the action takes.
"""

from __future__ import annotations

import asyncio
import difflib
import re
import shlex
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from webresearch import InvalidArguments

if TYPE_CHECKING:
    from webresearch import (
        ActionParam,
        BrowserActionInfo,
        RunContext,
        Settings,
        Toolkit,
        ToolResult,
    )

from ..url_text import clean_url, not_web_url, scheme_hint
from .browse_output import HeaderLines, refused_url, save_images
from .files import free_name, output_problem
from .local_hints import Exemptions, url_step
from .logs import say, say_error
from .options import guard_options, load_settings, robots_option
from .render import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    Progress,
    emit_result,
    exit_code_for,
    quiet_option,
    reports_own_tool,
    show_error,
    unavailable_exit,
)
from .signals import run_stoppable
from .targets import EMPTY_URL

__all__ = [
    "ActionError",
    "browse",
    "help_text",
    "parse_action",
    "save_images",
    "scheme_problem",
    "screenshot_file",
]

_REF = re.compile(r"^d\d+e\d+$")
_REGION = re.compile(r"^\d+,\d+,\d+,\d+$")
_NUMBER = re.compile(r"^[+-]?\d+$")
#: The file word of an action whose result holds pictures.
_FILE = "[FILE]"
#: Width of the help's usage column and of its lines (characters).
_USAGE_COLUMN = 30
_LINE = 96


#: Stem of the file a ``screenshot`` without a file name is saved to (in the current
#: directory: ``screenshot-1.png``, ``screenshot-2.png``…).
DEFAULT_SCREENSHOT_STEM = "screenshot"


#: How an unknown ``--do`` action ends its message ("type help" works at the prompt only).
DO_HELP = "'webresearch browse --help' lists the actions"


class ActionError(ValueError):
    """A line is not a valid action (the message says why)."""


def browser_actions() -> tuple[BrowserActionInfo, ...]:
    """The browser tool's table of actions (imported on first use; the table's module loads
    no browser, HTTP or extraction code, so ``browse --help`` stays fast)."""
    from webresearch import browser_actions as table

    return table()


def help_text() -> str:
    """The list of actions, one per line, from the tool's table of actions."""
    rows = []
    for info in browser_actions():
        usage = f"{info.usage} {_FILE}" if info.pictures else info.usage
        summary = info.summary
        if info.pictures:
            summary += f"; saved to FILE (default {DEFAULT_SCREENSHOT_STEM}-N.png here)"
        if info.aliases:
            summary += f" (also: {', '.join(info.aliases)})"
        rows.append((usage, summary))
    rows.append(("help | quit", "this list | stop"))
    width = min(_USAGE_COLUMN, max(len(usage) for usage, _ in rows))
    lines = ["actions (one per line):"]
    for usage, summary in rows:
        said = textwrap.wrap(summary, _LINE - width - 4) or [""]
        if len(usage) > width:
            lines.append(f"  {usage}")
        else:
            lines.append(f"  {usage:{width}}  {said.pop(0)}")
        lines += [f"  {'':{width}}  {more}" for more in said]
    return "\n".join(lines)


class _BrowseCommand(click.Command):
    """``browse``: its ``--help`` ends with the list of actions, built when it is shown from
    the light table of actions (never the browser tool itself)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text("\b\n" + help_text())  # \b: click keeps the lines as they are


def _by_name() -> dict[str, BrowserActionInfo]:
    return {name: info for info in browser_actions() for name in (info.name, *info.aliases)}


def _matches(param: ActionParam, word: str) -> bool:
    """``word`` has the shape an optional ``param`` takes (a number goes only to numbers)."""
    if _NUMBER.match(word):
        return param.kind == "int"
    if param.kind == "choice":
        return word in param.choices
    if param.kind == "flag":
        return word == param.label
    if param.kind == "region":
        return bool(_REGION.match(word))
    if param.kind == "ref":
        return bool(_REF.match(word))
    return param.kind in ("word", "target")


def _fill(arguments: dict[str, Any], param: ActionParam, word: str) -> None:
    """Set the tool argument ``param`` fills from ``word``."""
    if param.kind == "target":
        arguments["ref" if _REF.match(word) else "selector"] = word
    elif param.kind == "int":
        if not _NUMBER.match(word) or int(word) < param.minimum:
            raise ActionError(f"{param.label} must be a whole number of at least {param.minimum}")
        arguments[param.argument] = int(word)
    elif param.kind == "flag":
        arguments[param.argument] = True
    else:
        arguments[param.argument] = word


def parse_action(line: str, *, help_hint: str = "type help") -> tuple[dict[str, Any], str | None]:
    """One action line → (tool arguments, file for its pictures or ``None``); ``help_hint``
    ends the message of an unknown action (the prompt's ``type help``; ``--do`` points to
    ``--help``, which lists the actions).

    Raises:
        ActionError: unknown action, a missing or extra word.
    """
    verb, _, remainder = line.strip().partition(" ")
    if not verb:
        raise ActionError("empty action")
    names = _by_name()
    if (info := names.get(verb.lower())) is None:  # ``clik``: the close name, as click does
        close = difflib.get_close_matches(verb.lower(), sorted(names), n=1)
        meant = f"did you mean {close[0]!r}? " if close else ""
        raise ActionError(f"not an action: {line.strip()!r} ({meant}{help_hint})")
    arguments: dict[str, Any] = {"action": info.name}
    required = [p for p in info.params if not p.optional]
    if required and required[0].kind == "source":
        if not remainder.strip():
            raise ActionError(f"{info.name} needs {required[0].label} (usage: {info.usage})")
        arguments[required[0].argument] = remainder.strip()
        return arguments, None
    try:
        words = shlex.split(remainder)
    except ValueError as exc:
        raise ActionError(f"cannot parse {line!r}: {exc}") from None
    for param in required:
        if not words:
            raise ActionError(f"{info.name} needs {param.label} (usage: {info.usage})")
        if param.kind == "text":
            arguments[param.argument] = " ".join(words)
            words = []
        else:
            _fill(arguments, param, words.pop(0))
    file: str | None = None
    left = [p for p in info.params if p.optional]
    for word in words:
        match = next((p for p in left if _matches(p, word)), None)
        if match is not None:
            _fill(arguments, match, word)
            left.remove(match)
        elif info.pictures and file is None and not _NUMBER.match(word):
            file = word
        else:
            usage = f"{info.usage} {_FILE}" if info.pictures else info.usage
            selector = arguments.get("selector")
            if isinstance(selector, str):  # `click text=Sign in`: the words were split
                raise ActionError(
                    f"{info.name}: unexpected {word!r} after the selector {selector!r}: quote a "
                    f"selector that holds spaces, e.g. {info.name} '{selector} {word}' "
                    f"(usage: {usage})"
                )
            raise ActionError(f"{info.name}: unexpected {word!r} (usage: {usage})")
    return arguments, file


def screenshot_file(file: str | None) -> str:
    """Where a screenshot goes: the given file, else a fresh ``screenshot-N.png`` in the
    current directory."""
    if file:
        return file
    return str(free_name(Path("."), DEFAULT_SCREENSHOT_STEM, ".png"))


def scheme_problem(
    arguments: dict[str, Any], exempt: Exemptions | None = None
) -> InvalidArguments | None:
    """The error of an ``open`` whose URL is not http(s), worded as the browser tool words it
    (``BrowserPolicy.check_navigation``), else ``None``. Checked before the backend is looked
    for, so a missing Playwright does not hide a bad argument, and for every line typed at
    the prompt, so ``open URL`` there says what ``browse URL`` says. The URL is cleaned as the
    WHATWG parser cleans it (outer spaces, tabs); an empty one and one typed without its
    scheme (``example.org``, ``localhost:8765``, which ``urlsplit`` reads as the scheme
    ``localhost``) are worded as ``fetch`` words them (cli/targets.py), the exemption it
    needs named unless ``exempt`` (the settings') covers it."""
    url = arguments.get("url")
    if arguments.get("action") != "open" or not isinstance(url, str):
        return None
    cleaned = clean_url(url)
    if not cleaned:
        return InvalidArguments(EMPTY_URL, hint="give an http:// or https:// URL")
    problem = not_web_url(cleaned)
    if problem is None:
        return None
    hint = problem[1]
    if "://" not in cleaned and scheme_hint(cleaned) is not None:
        hint = url_step(cleaned, exempt) or hint  # localhost:8765: the exemption it needs
    return InvalidArguments(problem[0], hint=hint)


def _backend_settings(settings: Settings, backend: str | None) -> Settings:
    if backend is None:
        return settings
    if backend in ("chromium", "lightpanda"):
        return settings.replace(browser_backend=backend)
    if backend.startswith(("cdp://", "ws://", "wss://", "http://", "https://")):
        return settings.replace(browser_backend="cdp", browser_cdp_url=backend)
    raise click.UsageError("--backend must be chromium, lightpanda or cdp://host:port")


@click.command("browse", cls=_BrowseCommand)
@click.argument("url", required=False)
@click.option(
    "--backend",
    default=None,
    metavar="chromium|lightpanda|cdp://HOST:PORT",
    help="Browser backend (default: the browser_backend setting, chromium).",
)
@click.option(
    "--do",
    "actions",
    multiple=True,
    metavar="ACTION",
    help="An action to run (repeatable), e.g. --do 'click text=Login'.",
)
@click.option(
    "--screenshot",
    "screenshot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Save a screenshot of the final page to FILE.",
)
@click.option(
    "--timeout-ms",
    type=click.IntRange(1, 86_400_000),  # a day: more is a typo (the setting caps it anyway)
    default=None,
    metavar="MS",
    help="Time budget of each action, for slow pages (default: the action timeout, 45 s; "
    "at most browser_max_timeout_s).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print each action's result as one line of JSON (JSON Lines: a whole object per "
    "action, in order, a refused URL's error too, as fetch --json prints it; errors also on "
    "stderr; 'help' typed with -i prints on stderr).",
)
@click.option(
    "-i",
    "--interactive",
    is_flag=True,
    help="Read actions from stdin, one per line (the default without URL and --do).",
)
@quiet_option
@guard_options
@robots_option
@click.pass_context
def browse(
    ctx: click.Context,
    url: str | None,
    backend: str | None,
    actions: tuple[str, ...],
    screenshot: str | None,
    timeout_ms: int | None,
    as_json: bool,
    interactive: bool,
    quiet: bool,
    allow_private: bool,
    allow_network: tuple[str, ...],
    respect_robots: bool,
) -> None:
    """Open URL in a headless browser and run actions on it.

    Only http(s) pages can be opened. With a launched browser (chromium, lightpanda) every
    connection the browser makes — pages, frames, workers, WebSockets — goes through an
    in-process guarded proxy that checks the SSRF rules and the domain policy and connects
    only to the address it checked: a refused address gets no packet. A remote browser
    (cdp://…) cannot be proxied: there only request interception applies.

    \b
    Examples:
      webresearch browse https://example.org --do content
      webresearch browse https://example.org/login --do 'fill #user alice' \\
          --do 'click text="Sign in"' --do snapshot --screenshot after.png
      webresearch browse --backend lightpanda          # interactive: type actions, 'help'
      webresearch browse https://example.org --backend cdp://127.0.0.1:9222
      webresearch browse https://example.org --do snapshot --json > steps.jsonl

    While the browser starts or a page loads, a progress line is shown on stderr (at a
    terminal; --quiet hides it).

    Exit codes: 0 ok, 1 tool error, 2 usage error, 3 refused by policy, 130 interrupted
    (Ctrl-C), 143 terminated (SIGTERM).
    """
    loaded = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=True,
    )
    settings = _backend_settings(loaded, backend)
    if url is not None and not clean_url(url):  # ``browse ""``, ``browse "$UNSET"``
        raise click.UsageError(EMPTY_URL)
    script: list[str] = [f"open {shlex.quote(url)}"] if url else []
    try:
        parsed = [parse_action(line, help_hint=DO_HELP) for line in (*script, *actions)]
    except ActionError as exc:
        raise click.UsageError(str(exc)) from None
    if screenshot:
        parsed.append(({"action": "screenshot", "full_page": False}, screenshot))
    for _arguments, file in parsed:  # before the browser starts: one line, no traceback
        problem = output_problem(file) if file else None
        if problem is not None:
            say_error(f"webresearch browse: {problem}", command="browse", code="usage")
            ctx.exit(EXIT_USAGE)
    for arguments, _file in parsed:  # a bad URL is reported whatever the backend's state
        bad_url = scheme_problem(arguments, Exemptions.of(settings))
        if bad_url is not None:
            ctx.exit(refused_url("browse", bad_url, as_json))
    interactive = interactive or not parsed
    steps = _Steps(as_json, quiet, timeout_ms)
    ctx.exit(run_stoppable(_run(settings, parsed, interactive, steps)))


class _Steps:
    """How each action runs: its output form (the header lines shown last), the progress
    line, the time budget."""

    def __init__(self, as_json: bool, quiet: bool, timeout_ms: int | None) -> None:
        self.as_json = as_json
        self.quiet = quiet
        self.timeout_ms = timeout_ms
        self.header = HeaderLines()


async def _run(
    settings: Settings,
    parsed: list[tuple[dict[str, Any], str | None]],
    interactive: bool,
    steps: _Steps,
) -> int:
    from webresearch import RunContext, Toolkit

    run = RunContext()
    with reports_own_tool("browser"):
        toolkit = Toolkit(settings)
    async with toolkit:
        if (code := unavailable_exit("browse", toolkit, "browser")) is not None:
            return code
        for arguments, file in parsed:
            code = await _step(toolkit, run, arguments, file, steps)
            if code != EXIT_OK:
                return code
        if not interactive:
            return EXIT_OK
        return await _prompt(toolkit, run, steps)


async def _step(
    toolkit: Toolkit, run: RunContext, arguments: dict[str, Any], file: str | None, steps: _Steps
) -> int:
    as_json = steps.as_json
    # a line typed at the prompt: as `browse URL` says it
    bad_url = scheme_problem(arguments, Exemptions.of(toolkit.settings))
    if bad_url is not None:
        return refused_url("browse", bad_url, steps.as_json)
    if steps.timeout_ms is not None:
        arguments = {**arguments, "timeout_ms": steps.timeout_ms}
    heading = str(arguments.get("url") or arguments["action"])
    with Progress(f"browser: {heading}", quiet=steps.quiet, at_once=False) as progress:
        result = await toolkit.call("browser", arguments, run=run, progress=progress.update)
    saved_ok = True
    if arguments.get("action") == "screenshot" and result.ok:
        saved_ok = _save_screenshot(result, file)
    if as_json:
        code = emit_result("browse", result, as_json=True, json_lines=True)
    elif result.ok:
        if shown := steps.header.fresh(result.text):  # the page's header once (browse_output)
            click.echo(shown)
        code = EXIT_OK
    else:
        show_error("browse", result.error)  # type: ignore[arg-type]
        code = exit_code_for(result.error)
    return code if code != EXIT_OK or saved_ok else EXIT_TOOL_ERROR


def _save_screenshot(result: ToolResult, file: str | None) -> bool:
    """Save a screenshot result's images (to ``file`` or a fresh name) and say where, or
    say why nothing was saved. False when a write failed."""
    if not result.images:
        if result.meta.get("screenshot_reason") == "backend":
            # A person asked for a picture this backend cannot draw: a failed step.
            say_error(
                "webresearch browse: screenshot not saved: this browser backend draws no "
                "pictures (use --backend chromium); the page text is shown instead",
                command="browse",
            )
            return False
        say(
            "screenshot not saved: there is no picture (the page text is shown instead)",
            prefix="webresearch browse: ",
        )
        return True
    written, problem = save_images(result, screenshot_file(file))
    for path in written:
        say(f"saved {path}", prefix="")
    if problem is not None:
        say_error(f"webresearch browse: screenshot not saved: {problem}", command="browse")
        return False
    return True


async def _prompt(toolkit: Toolkit, run: RunContext, steps: _Steps) -> int:
    tty = sys.stdin.isatty()
    last = EXIT_OK
    while True:
        if tty:
            click.echo("browse> ", nl=False, err=True)
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            return last
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line in ("quit", "exit"):
            return last
        if line in ("help", "?"):
            click.echo(help_text(), err=steps.as_json)  # --json: stdout stays JSON Lines
            steps.header.forget()
            continue
        try:
            arguments, file = parse_action(line)
        except ActionError as exc:
            say_error(f"webresearch browse: {exc}", command="browse", code="usage")
            last = EXIT_USAGE
            continue
        last = await _step(toolkit, run, arguments, file, steps)
