"""Options shared by commands: configuration file, SSRF exceptions, robots.txt."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from webresearch import ConfigurationError

if TYPE_CHECKING:
    from webresearch import Settings

from .config_file import settings_path
from .logs import configure_logging
from .render import error_line, show_error

F = TypeVar("F", bound=Callable[..., Any])


class SettingsProblem(click.ClickException):
    """A setting of the environment or the settings file is wrong: exit code 2 as a usage
    error, but no ``Usage: … Try --help`` (the command line was right; ``--help`` would not
    help), one line as every error of a command: ``webresearch fetch: error[configuration]:
    invalid setting WEBRESEARCH_X: … (next step: …)``."""

    exit_code = 2

    def __init__(self, error: ConfigurationError, command: str) -> None:
        super().__init__(error.message)
        self.error = error
        self.command = command

    def show(self, file: IO[Any] | None = None) -> None:
        """The one line, on stderr (a JSON record when the logs are JSON), or on ``file``."""
        if file is None:
            show_error(self.command, self.error)
        else:
            click.echo(error_line(self.command, self.error), file=file)


def guard_options(func: F) -> F:
    """``--allow-private`` and ``--allow-network CIDR`` (repeatable)."""
    func = click.option(
        "--allow-network",
        "allow_network",
        multiple=True,
        metavar="CIDR",
        help="Exempt this network from the SSRF guard (repeatable), e.g. 127.0.0.1/32.",
    )(func)
    func = click.option(
        "--allow-private",
        is_flag=True,
        default=False,
        help="Allow private and loopback addresses (internal doc servers). Off by default.",
    )(func)
    return func


def robots_option(func: F) -> F:
    """``--respect-robots``: a person's own command ignores robots.txt unless asked (the
    ``robots`` setting is for model-initiated calls: the library, MCP, adapters)."""
    return click.option(
        "--respect-robots",
        is_flag=True,
        default=False,
        help="Obey the site's robots.txt (RFC 9309) as model-initiated calls do; a "
        "disallowed URL is refused (exit code 3). Without it your own command ignores "
        "robots.txt.",
    )(func)


def load_settings(
    ctx: click.Context,
    *,
    allow_private: bool = False,
    allow_network: tuple[str, ...] = (),
    respect_robots: bool | None = None,
    in_process_cpu: bool = False,
) -> Settings:
    """Settings from the environment and the settings file (``--config``, else
    ``$WEBRESEARCH_CONFIG``, else the XDG default file when it exists: :mod:`.config_file`),
    with the command's exceptions added.

    Args:
        respect_robots: a person's own command (``fetch``, ``image``, ``browse``): ``robots``
            is ``respect`` with ``--respect-robots``, else ``ignore``; ``None`` leaves the
            setting (``mcp``: the calls are the model's).
        in_process_cpu: a one-shot command (one call at a time, nothing else to serve)
            converts in-process, without starting worker processes, unless ``cpu_workers``
            is set (docs/architecture.md, "CPU work off the event loop").

    Raises:
        click.UsageError: a CIDR of ``--allow-network`` is invalid (exit code 2).
        SettingsProblem: a setting of the environment or the file is wrong (exit code 2).
    """
    from webresearch import Settings
    from webresearch.config.section import parse_networks

    for network in allow_network:  # worded as the option, before the settings are read
        try:
            parse_networks([network])
        except ValueError as exc:
            raise click.UsageError(f"--allow-network: {exc}") from None
    config_path, _how = settings_path(ctx.find_root().params.get("config"), os.environ)
    try:
        settings = Settings.load(path=config_path)
        changes: dict[str, Any] = {}
        if in_process_cpu and "cpu_workers" not in settings.model_fields_set:
            changes["cpu_workers"] = 0
        if allow_private:
            changes["allow_private"] = True
        if respect_robots is not None:
            changes["robots"] = "respect" if respect_robots else "ignore"
        if allow_network:
            changes["allowed_networks"] = [str(n) for n in settings.allowed_networks] + list(
                allow_network
            )
        settings = settings.replace(**changes) if changes else settings
        root = ctx.find_root()
        if settings.log_format == "json" and root.get_parameter_source("log_format") in (
            click.core.ParameterSource.DEFAULT,
            None,
        ):
            configure_logging(root.params.get("verbose") or 0, "json")  # from the TOML file
        return settings
    except ConfigurationError as exc:
        command = " ".join(ctx.command_path.split()[1:]) or str(ctx.info_name)
        raise SettingsProblem(exc, command) from None
