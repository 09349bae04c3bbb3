"""``webresearch browse``: drive the browser tool from a script of actions or a prompt.

One action per ``--do`` (or per line in interactive mode), in the same words as the tool:

    open URL · click SELECTOR|REF · fill SELECTOR|REF TEXT · press KEY · eval EXPRESSION ·
    content · snapshot · screenshot [FILE] [full] · scroll up|down|left|right [PX] ·
    scroll SELECTOR|REF · wait SELECTOR|REF|MS · back · forward · close · help · quit

Arguments are split like a shell line (quote a selector or text with spaces). A token that
looks like a snapshot ref (``d1e5``) is a ref, anything else a selector.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from webresearch import RunContext, Settings, Toolkit, ToolResult

from .files import free_name, output_problem, write_file
from .options import guard_options, load_settings, robots_option
from .render import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    emit_result,
    error_line,
    exit_code_for,
    reports_own_tool,
    unavailable_exit,
)

__all__ = ["HELP", "browse", "parse_action", "save_images", "screenshot_file"]

HELP = """actions (one per line):
  open URL                      go to a page
  click SELECTOR|REF            click an element (CSS, text=..., or a ref like d1e5)
  fill SELECTOR|REF TEXT        type into a field
  press KEY                     press a key (Enter, Tab, ArrowDown, ...)
  eval EXPRESSION               run JavaScript and print the value
  content                       the page as markdown
  snapshot                      elements with refs
  screenshot [FILE] [full]      save a screenshot (default file: screenshot-N.png here;
                                full = whole page in tiles)
  scroll up|down|left|right [PX] / scroll SELECTOR|REF
  wait SELECTOR|REF|MS          wait for an element or some milliseconds
  back | forward | close        history, close the tab
  help | quit"""

_REF = re.compile(r"^d\d+e\d+$")
_SIMPLE = {"content", "snapshot", "back", "forward", "close"}


class ActionError(ValueError):
    """A line is not a valid action (the message says why)."""


def _target(token: str) -> dict[str, Any]:
    return {"ref": token} if _REF.match(token) else {"selector": token}


def parse_action(line: str) -> tuple[dict[str, Any], str | None]:
    """One action line → (tool arguments, screenshot file or ``None``).

    Raises:
        ActionError: unknown action or missing argument.
    """
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise ActionError(f"cannot parse {line!r}: {exc}") from None
    if not words:
        raise ActionError("empty action")
    verb, rest = words[0].lower(), words[1:]
    if verb in ("navigate", "goto"):
        verb = "open"
    if verb in _SIMPLE:
        return {"action": verb}, None
    if verb == "open" and len(rest) == 1:
        return {"action": "open", "url": rest[0]}, None
    if verb == "click" and len(rest) == 1:
        return {"action": "click", **_target(rest[0])}, None
    if verb == "fill" and len(rest) >= 2:
        return {"action": "fill", **_target(rest[0]), "text": " ".join(rest[1:])}, None
    if verb == "press" and len(rest) == 1:
        return {"action": "press", "key": rest[0]}, None
    if verb in ("eval", "evaluate") and rest:
        expression = line.strip().split(None, 1)[1]
        return {"action": "evaluate", "expression": expression}, None
    if verb == "screenshot" and len(rest) <= 2:
        full = "full" in rest
        files = [w for w in rest if w != "full"]
        return {"action": "screenshot", "full_page": full}, (files[0] if files else None)
    if verb == "scroll" and rest:
        if rest[0] in ("up", "down", "left", "right"):
            args: dict[str, Any] = {"action": "scroll", "direction": rest[0]}
            if len(rest) > 1:
                if not rest[1].isdigit() or int(rest[1]) < 1:
                    raise ActionError("scroll amount must be a positive number of pixels")
                args["amount"] = int(rest[1])
            return args, None
        return {"action": "scroll", **_target(rest[0])}, None
    if verb == "wait" and len(rest) == 1:
        if rest[0].isdigit():
            return {"action": "wait", "ms": min(int(rest[0]), 45000)}, None
        return {"action": "wait", **_target(rest[0])}, None
    raise ActionError(f"not an action: {line.strip()!r} (type help)")


#: Stem of the file a ``screenshot`` without a file name is saved to (in the current
#: directory: ``screenshot-1.png``, ``screenshot-2.png``…).
DEFAULT_SCREENSHOT_STEM = "screenshot"


def save_images(result: ToolResult, path: str) -> tuple[list[str], str | None]:
    """Write a result's images to ``path`` (tiles: ``name-2.ext``, ``name-3.ext``…).

    Returns:
        (the files written, a one-line reason when a write failed — the rest are skipped).
    """
    written: list[str] = []
    target = Path(path)
    for i, image in enumerate(result.images):
        out = target if i == 0 else target.with_name(f"{target.stem}-{i + 1}{target.suffix}")
        problem = write_file(out, image.data)
        if problem is not None:
            return written, problem
        written.append(str(out))
    return written, None


def screenshot_file(file: str | None) -> str:
    """Where a screenshot goes: the given file, else a fresh ``screenshot-N.png`` in the
    current directory."""
    if file:
        return file
    return str(free_name(Path("."), DEFAULT_SCREENSHOT_STEM, ".png"))


def _backend_settings(settings: Settings, backend: str | None) -> Settings:
    if backend is None:
        return settings
    if backend in ("chromium", "lightpanda"):
        return settings.replace(browser_backend=backend)
    if backend.startswith(("cdp://", "ws://", "wss://", "http://", "https://")):
        return settings.replace(browser_backend="cdp", browser_cdp_url=backend)
    raise click.UsageError("--backend must be chromium, lightpanda or cdp://host:port")


@click.command("browse")
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
@click.option("--json", "as_json", is_flag=True, help="Print each result as JSON.")
@click.option(
    "-i",
    "--interactive",
    is_flag=True,
    help="Read actions from stdin, one per line (the default without URL and --do).",
)
@guard_options
@robots_option
@click.pass_context
def browse(
    ctx: click.Context,
    url: str | None,
    backend: str | None,
    actions: tuple[str, ...],
    screenshot: str | None,
    as_json: bool,
    interactive: bool,
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

    Exit codes: 0 ok, 1 tool error, 2 usage error, 3 refused by policy.
    """
    loaded = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=True,
    )
    settings = _backend_settings(loaded, backend)
    script: list[str] = [f"open {shlex.quote(url)}"] if url else []
    try:
        parsed = [parse_action(line) for line in (*script, *actions)]
    except ActionError as exc:
        raise click.UsageError(str(exc)) from None
    if screenshot:
        parsed.append(({"action": "screenshot", "full_page": False}, screenshot))
    for _arguments, file in parsed:  # before the browser starts: one line, no traceback
        problem = output_problem(file) if file else None
        if problem is not None:
            click.echo(f"webresearch browse: {problem}", err=True)
            ctx.exit(EXIT_USAGE)
    interactive = interactive or not parsed
    ctx.exit(asyncio.run(_run(settings, parsed, interactive, as_json)))


async def _run(
    settings: Settings,
    parsed: list[tuple[dict[str, Any], str | None]],
    interactive: bool,
    as_json: bool,
) -> int:
    from webresearch import RunContext, Toolkit

    run = RunContext()
    with reports_own_tool("browser"):
        toolkit = Toolkit(settings)
    async with toolkit:
        if (code := unavailable_exit("browse", toolkit, "browser")) is not None:
            return code
        for arguments, file in parsed:
            code = await _step(toolkit, run, arguments, file, as_json)
            if code != EXIT_OK:
                return code
        if not interactive:
            return EXIT_OK
        return await _prompt(toolkit, run, as_json)


async def _step(
    toolkit: Toolkit, run: RunContext, arguments: dict[str, Any], file: str | None, as_json: bool
) -> int:
    result = await toolkit.call("browser", arguments, run=run)
    saved_ok = True
    if arguments.get("action") == "screenshot" and result.ok:
        saved_ok = _save_screenshot(result, file)
    if as_json:
        code = emit_result("browse", result, as_json=True)
    elif result.ok:
        click.echo(result.text)
        code = EXIT_OK
    else:
        click.echo(error_line("browse", result.error), err=True)  # type: ignore[arg-type]
        code = exit_code_for(result.error)
    return code if code != EXIT_OK or saved_ok else EXIT_TOOL_ERROR


def _save_screenshot(result: ToolResult, file: str | None) -> bool:
    """Save a screenshot result's images (to ``file`` or a fresh name) and say where, or
    say why nothing was saved. False when a write failed."""
    if not result.images:
        if result.meta.get("screenshot_reason") == "backend":
            # A person asked for a picture this backend cannot draw: a failed step.
            click.echo(
                "webresearch browse: screenshot not saved: this browser backend draws no "
                "pictures (use --backend chromium); the page text is shown instead",
                err=True,
            )
            return False
        click.echo(
            "webresearch browse: screenshot not saved: there is no picture "
            "(the page text is shown instead)",
            err=True,
        )
        return True
    written, problem = save_images(result, screenshot_file(file))
    for path in written:
        click.echo(f"saved {path}", err=True)
    if problem is not None:
        click.echo(f"webresearch browse: screenshot not saved: {problem}", err=True)
        return False
    return True


async def _prompt(toolkit: Toolkit, run: RunContext, as_json: bool) -> int:
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
            click.echo(HELP)
            continue
        try:
            arguments, file = parse_action(line)
        except ActionError as exc:
            click.echo(f"webresearch browse: {exc}", err=True)
            last = EXIT_USAGE
            continue
        last = await _step(toolkit, run, arguments, file, as_json)
