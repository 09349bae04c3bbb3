"""Output for people and programs: one-line errors, JSON, exit codes."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from webresearch import ConfigurationError, InvalidArguments, Refusal, WebResearchError

if TYPE_CHECKING:
    from webresearch import Toolkit, ToolResult

from .install_hint import Installation, fit_install_hints
from .logs import say_error
from .signals import run_stoppable

__all__ = [
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "Progress",
    "emit_result",
    "exit_code_for",
    "for_a_person",
    "quiet_option",
    "reports_own_tool",
    "result_dict",
    "run_command",
    "show_error",
    "unavailable_exit",
]

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
#: The tool ran and failed (network, HTTP status, content, timeout …).
EXIT_TOOL_ERROR = 1
#: Bad command line, invalid arguments or configuration.
EXIT_USAGE = 2
#: A policy refused the call (SSRF guard, domain policy, scope, rate limit, budget, approval).
EXIT_REFUSED = 3


#: Advice written for a model, which has a browser tool, and what a person runs instead.
_FOR_A_PERSON = (
    (
        "use the browser tool (open, then content) to read it",
        "render it in a browser to read it, e.g. webresearch browse URL --do content",
    ),
    ("the browser tool", "webresearch browse URL"),
    # fetch_image on HTML, text, an SVG or a PDF (images.rules.unsupported)
    ("— use web_fetch", "— read it with webresearch fetch"),
    ("use web_fetch to read it", "webresearch fetch takes the same URL or PATH"),
    ("with web_fetch", "with webresearch fetch"),
)

#: An operator's setting named in a hint → the option a person types. Hints only: a page's
#: text that mentions a setting of the same name is printed as it is.
_SETTING_OPTIONS = (
    ("allowed_networks", "--allow-network CIDR"),
    ("allow_private", "--allow-private"),
    # the domain policy's refusal (access.domains.DOMAIN_HINT): the setting a person changes
    (
        "this site is outside the allowed domains; use another source",
        "this site is outside the domain policy: use another site, or change the setting "
        "WEBRESEARCH_ALLOWED_DOMAINS / WEBRESEARCH_BLOCKED_DOMAINS (allowed_domains / "
        "blocked_domains in the settings file; webresearch config show says where each is set)",
    ),
)


def for_a_person(text: str, *, hint: bool = False) -> str:
    """``text`` with advice meant for a model worded for the command line (the browser
    tool → ``webresearch browse URL``); with ``hint``, an error's next step, also the
    settings it names as options (``allowed_networks`` → ``--allow-network CIDR``)."""
    for said, instead in _FOR_A_PERSON + (_SETTING_OPTIONS if hint else ()):
        text = text.replace(said, instead)
    return text


def exit_code_for(error: WebResearchError | None) -> int:
    """The process exit code for a result's error (0 for success)."""
    if error is None:
        return EXIT_OK
    if isinstance(error, Refusal) or error.details.get("refusal"):
        return EXIT_REFUSED  # a refusal kind, or a confinement (e.g. the workspace)
    if isinstance(error, (InvalidArguments, ConfigurationError)):
        return EXIT_USAGE
    return EXIT_TOOL_ERROR


def error_line(command: str, error: WebResearchError, hint: str | None = None) -> str:
    """One line for stderr: ``webresearch <command>: error[code]: message (next step: hint)``,
    advice for a model in the words of the command line (:func:`for_a_person`); ``hint``:
    the command's own next step in place of the error's (``--allow-network 127.0.0.1/32``
    for the address typed: :mod:`.local_hints`)."""
    line = f"webresearch {command}: error[{error.code}]: {for_a_person(error.message)}"
    if hint or error.hint:
        # The hint speaks to a model or an operator's settings
        line += f" (next step: {for_a_person(hint or error.hint or '', hint=True)})"
    return fit_install_hints(" ".join(line.split()), Installation.of())


def show_error(
    command: str, error: WebResearchError, *, suffix: str = "", hint: str | None = None
) -> None:
    """:func:`error_line` (and ``suffix``, e.g. `` [URL]``) on stderr, or its JSON record
    when the logs are JSON (:func:`.logs.say_error`)."""
    say_error(error_line(command, error, hint) + suffix, command=command, code=error.code)


def result_dict(result: ToolResult, hint: str | None = None) -> dict[str, Any]:
    """``result.to_dict()`` with the error's message and next step in the words of the
    command line (``--allow-network CIDR``, not ``allowed_networks``; ``webresearch fetch``,
    not ``web_fetch``), as stderr gives them: in the error, in its copy under ``meta`` and
    where the text says them (only they are reworded, never a page's words around them);
    ``hint``: the command's own next step in place of the error's (:func:`error_line`)."""
    data = result.to_dict()
    error = data.get("error")
    if not isinstance(error, dict):
        return data
    reworded: dict[str, str] = {}
    for key in ("message", "hint"):
        said = error.get(key)
        if isinstance(said, str) and said:
            mine = hint if key == "hint" and hint else said  # the command's own step
            reworded[key] = for_a_person(mine, hint=key == "hint")
    data["error"] = {**error, **reworded}
    meta = data.get("meta")
    meta_error = meta.get("error") if isinstance(meta, dict) else None
    if isinstance(meta, dict) and isinstance(meta_error, dict):
        kept = {key: words for key, words in reworded.items() if key in meta_error}
        data["meta"] = {**meta, "error": {**meta_error, **kept}}
    if isinstance(data.get("text"), str):
        for key, said in reworded.items():
            data["text"] = data["text"].replace(error[key], said)
    return data


def emit_result(
    command: str,
    result: ToolResult,
    *,
    as_json: bool,
    hint: str | None = None,
    json_lines: bool = False,
) -> int:
    """Print a tool result (text or JSON on stdout, errors on stderr); return the exit code.
    ``hint``: the command's own next step after an error, in place of the tool's;
    ``json_lines``: the JSON on one line (a command printing one record per step, JSON
    Lines), else indented (a command printing one document)."""
    if as_json:
        data = result_dict(result, hint)
        if json_lines:
            line = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
            click.echo(line)
        else:
            click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=_json_default))
    elif result.ok:
        click.echo(for_a_person(result.text))
    if result.error is not None:
        show_error(command, result.error, hint=hint)
    return exit_code_for(result.error)


class _DropGateLine(logging.Filter):
    """Drops operator log lines about the command's own tools ("tool X is not available",
    "web_search provider … failed"): the command prints the same error itself."""

    def __init__(self, tools: tuple[str, ...]) -> None:
        super().__init__()
        self.tools = tools

    def filter(self, record: logging.LogRecord) -> bool:
        about = getattr(record, "about_tool", None)
        return about is None or (bool(self.tools) and about not in self.tools)


@contextmanager
def reports_own_tool(*tools: str) -> Iterator[None]:
    """While a command runs its own tools, it reports their unavailability
    (:func:`unavailable_exit`) and errors itself: the operator log lines about them would
    say it twice. No names: every tool (``webresearch tools`` lists them all)."""
    logger = logging.getLogger("webresearch")
    line_filter = _DropGateLine(tools)
    logger.addFilter(line_filter)
    try:
        yield
    finally:
        logger.removeFilter(line_filter)


def unavailable_exit(command: str, toolkit: Toolkit, tool: str) -> int | None:
    """When ``tool`` is not available: one line on stderr saying why (a missing optional
    package or a setting) and :data:`EXIT_USAGE`; ``None`` when it is available."""
    reason = toolkit.unavailable.get(tool) or toolkit.not_configured.get(tool)
    if reason is None:
        return None
    reason = fit_install_hints(reason, Installation.of())
    say_error(
        f"webresearch {command}: error[configuration]: {tool} is not available: {reason}",
        command=command,
        code="configuration",
    )
    return EXIT_USAGE


def run_command(command: str, main: Coroutine[Any, Any, int]) -> int:
    """Run a command's coroutine; an error before any result (a journal that cannot be
    opened, a bad configuration) becomes one line on stderr and its exit code."""
    try:
        return run_stoppable(main)
    except WebResearchError as exc:
        show_error(command, exc)
        return exit_code_for(exc)


def _json_default(value: Any) -> Any:
    return str(value)


def quiet_option(func: F) -> F:
    """``--quiet``: no progress line on stderr (no short form: ``fetch -q`` is ``--query``)."""
    return click.option(
        "--quiet", is_flag=True, help="No progress line on stderr (shown at a terminal)."
    )(func)


class Progress:
    """A one-line progress note on stderr, shown only to a person at a terminal (and not
    with ``--quiet``), cleared when the work is done.

    Args:
        message: what is being done (``Read a web page: https://…``).
        quiet: show nothing.
        at_once: show ``message`` from the start; else only once :meth:`update` reports a
            long step (starting the browser, rendering a page).
    """

    def __init__(self, message: str, *, quiet: bool = False, at_once: bool = True) -> None:
        self.message = message
        self.at_once = at_once
        self.enabled = not quiet and sys.stderr.isatty()
        self.shown = False

    def _show(self, text: str) -> None:
        sys.stderr.write(f"\r\033[K{text}…")
        sys.stderr.flush()
        self.shown = True

    def __enter__(self) -> Progress:
        if self.enabled and self.at_once:
            self._show(self.message)
        return self

    def update(self, step: str) -> None:
        """The tool began a long step: ``message — step…`` (a progress callback)."""
        if self.enabled:
            self._show(f"{self.message} — {step}")

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
