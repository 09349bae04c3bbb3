"""The ``webresearch`` command: one group, one module per command."""

from __future__ import annotations

import errno
import os
import sys
from typing import NoReturn

import click
from click.shell_completion import shell_complete

from webresearch import ConfigurationError, __version__

from .browse import browse
from .config_cmd import config
from .fetch import fetch
from .image import image
from .journal import journal
from .logs import LOG_FORMATS, configure_logging, json_logs, say_error
from .mcp import mcp
from .options import SettingsProblem
from .search import search
from .signals import EXIT_INTERRUPTED, EXIT_TERMINATED, StopSignals, Terminated, say_stopped
from .tools import tools


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="webresearch")
@click.option(
    "--config",
    type=click.Path(dir_okay=False),
    envvar="WEBRESEARCH_CONFIG",
    default=None,
    help="TOML settings file (default: $WEBRESEARCH_CONFIG, else "
    "$XDG_CONFIG_HOME/webresearch/config.toml when it exists; `webresearch config init` "
    "writes a commented one). WEBRESEARCH_* variables win over the file.",
)
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Show what happens on stderr (-v: which tools are available and why; -vv: debug, "
    "and fetch's request chain: hops, addresses, timings, cache, extractor).",
)
@click.option(
    "--log-format",
    type=click.Choice(LOG_FORMATS),
    envvar="WEBRESEARCH_LOG_FORMAT",
    default="text",
    show_default=True,
    help="Logs on stderr as text, or as one JSON object per line (for log collectors).",
)
def cli(config: str | None, verbose: int, log_format: str) -> None:
    """Safe, observable web access for AI agents and people.

    \b
    Examples:
      webresearch fetch https://example.org
      webresearch fetch https://example.org --json
      webresearch fetch -i urls.txt --json > pages.jsonl
      curl -s https://example.org | webresearch fetch - --base-url https://example.org
      webresearch image https://example.org/photo.jpg -o photo.jpg
      webresearch browse https://example.org --do snapshot
      webresearch mcp
      webresearch journal --since 1h
      webresearch journal stats
      webresearch search "python asyncio timeout"
      webresearch tools --language ru
      webresearch config init && webresearch config show

    \b
    Shell completion (bash; zsh_source / fish_source for the others):
      eval "$(_WEBRESEARCH_COMPLETE=bash_source webresearch)"
    """
    configure_logging(verbose, log_format)


def _more_verbose(ctx: click.Context, _param: click.Parameter, value: int) -> None:
    """``fetch URL -vv``: counted with the ``-v`` typed before the command."""
    if value:
        root = ctx.find_root()
        root.params["verbose"] = (root.params.get("verbose") or 0) + value
        configure_logging(root.params["verbose"], root.params.get("log_format") or "text")


def _later_log_format(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """``fetch URL --log-format json``: as if typed before the command (it wins over the
    settings file's ``log_format``, as there)."""
    if value is not None:
        root = ctx.find_root()
        root.params["log_format"] = value
        root.set_parameter_source("log_format", click.core.ParameterSource.COMMANDLINE)
        configure_logging(root.params.get("verbose") or 0, value)


def _accept_global_options(command: click.Command) -> None:
    """Let ``-v`` and ``--log-format`` also follow the command's name (``webresearch fetch
    URL -vv``), on every command and subcommand, as a person types them after the URL."""
    taken = {name for param in command.params for name in param.opts}
    if not taken & {"-v", "--verbose"}:
        command.params.append(
            click.Option(
                ["-v", "--verbose"],
                count=True,
                expose_value=False,
                callback=_more_verbose,
                help="Same as `webresearch -v`: may come after the command too.",
            )
        )
    if "--log-format" not in taken:
        command.params.append(
            click.Option(
                ["--log-format"],
                type=click.Choice(LOG_FORMATS),
                default=None,
                expose_value=False,
                callback=_later_log_format,
                help="Same as `webresearch --log-format`: may come after the command too.",
            )
        )
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _accept_global_options(sub)


def _add_commands(group: click.Group, *commands: click.Command) -> None:
    for command in commands:
        _accept_global_options(command)
        group.add_command(command)


_add_commands(cli, fetch, image, browse, mcp, journal, search, tools, config)


def main() -> None:
    """Console-script entry point.

    Exits with the command's code; 130 after Ctrl-C and 143 after SIGTERM (with one line on
    stderr), once every resource the command opened has been released — whenever the
    signal came (:mod:`.signals`).
    """
    guard = StopSignals.install()
    code, stopped = _invoke()
    stopped = guard.exit_code or stopped
    if stopped is not None:
        say_stopped(stopped)
        code = stopped
    sys.exit(code)


def _invoke() -> tuple[int, int | None]:
    """Run the command: (its exit code, the code of a stop it was ended by or ``None``)."""
    try:
        code = _run_cli(sys.argv[1:])
    except click.ClickException as exc:
        _show_click_error(exc)
        return exc.exit_code, None
    except ConfigurationError as exc:  # a provider's option, read when the toolkit starts
        problem = SettingsProblem(exc, _command_name(sys.argv[1:]))
        problem.show()
        return problem.exit_code, None
    except click.Abort as exc:  # click's form of KeyboardInterrupt (and of EOF at a prompt)
        stopped = EXIT_TERMINATED if isinstance(exc.__cause__, Terminated) else EXIT_INTERRUPTED
        return stopped, stopped
    except KeyboardInterrupt as exc:  # outside click's handling (Terminated is one)
        stopped = EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
        return stopped, stopped
    except BaseExceptionGroup as group:  # a batch's tasks: one broken pipe each
        rest = group.split(BrokenPipeError)[1]
        if rest is not None:
            raise
        _reader_went_away()
    return (code if isinstance(code, int) else 0), None


#: The variable that asks for shell completion (click's name for ``webresearch``).
COMPLETE_VAR = "_WEBRESEARCH_COMPLETE"


def _run_cli(args: list[str]) -> object:
    """What ``cli.main(standalone_mode=False)`` does, without its blank line: click's
    ``main`` echoes an empty line on stderr for a ``KeyboardInterrupt`` before turning it
    into ``click.Abort``, in every mode (for a terminal's ``^C``), so a stop signal wrote
    ``\nwebresearch: terminated`` and, with JSON logs, an empty line in the JSON-lines
    stream (session 10 review, 8). Here the signal's exception reaches :func:`_invoke`
    as it was raised. Shell completion, ``--help``/``--version`` (an ``Exit``) and a
    broken stdout pipe (exit 1) are handled as click's ``main`` does.

    Returns the command's return value (an exit code when it is an ``int``).
    """
    instruction = os.environ.get(COMPLETE_VAR)
    if instruction:
        sys.exit(shell_complete(cli, {}, "webresearch", COMPLETE_VAR, instruction))
    try:
        with cli.make_context("webresearch", args) as ctx:
            return cli.invoke(ctx)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        _reader_went_away()


def _show_click_error(exc: click.ClickException) -> None:
    """Click's error (a usage block and ``Error: …``), or with JSON logs one record of level
    error: ``message`` is ``error[usage]: …`` (a usage error) or click's message, without
    the usage block, which is for people (session 10 review: it stayed plain text)."""
    if isinstance(exc, SettingsProblem) or not _json_logs_asked(sys.argv[1:]):
        exc.show()  # a settings problem shows its own line (a record with JSON logs)
        return
    if not json_logs():  # asked, not yet in effect: the record is JSON all the same
        configure_logging(0, "json")
    usage = isinstance(exc, click.UsageError)
    ctx = exc.ctx if usage else None  # type: ignore[attr-defined]
    path = ctx.command_path.split()[1:] if ctx is not None else []
    command = " ".join(path) or _command_name(sys.argv[1:])
    if command == "webresearch":
        command = ""
    what = "error[usage]: " if usage else ""
    prefix = f"webresearch {command}: " if command else "webresearch: "
    say_error(
        f"{prefix}{what}{exc.format_message()}",
        command=command or None,
        code="usage" if usage else None,
    )


def _json_logs_asked(args: list[str]) -> bool:
    """Whether the logs are JSON, or were asked to be by a command line that failed before
    its ``--log-format`` took effect (``webresearch --log-format json nosuch``, ``fetch
    --log-format json --bogus``: click stops at the error first). The last
    ``--log-format`` typed wins over ``WEBRESEARCH_LOG_FORMAT``, as when it parses."""
    if json_logs():
        return True
    value = os.environ.get("WEBRESEARCH_LOG_FORMAT", "")
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--log-format" and index + 1 < len(args):
            value = args[index + 1]
        elif arg.startswith("--log-format="):
            value = arg.partition("=")[2]
    return value == "json"


def _command_name(args: list[str]) -> str:
    """The command typed (``tools`` of ``webresearch -v tools --offline``), for the one line
    of an error raised past its context; ``webresearch``'s own name when there is none."""
    return next((arg for arg in args if arg in cli.commands), "webresearch")


def _reader_went_away() -> NoReturn:
    """The reader of stdout closed it (``| head``): no traceback, and exit 1 as click does
    for a single command's broken pipe (Python docs, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so flushing at exit cannot fail again
    sys.exit(1)
