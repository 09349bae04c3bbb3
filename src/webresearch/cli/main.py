"""The ``webresearch`` command: one group, one module per command."""

from __future__ import annotations

import click

from webresearch import __version__

from .browse import browse
from .fetch import fetch
from .journal import journal
from .mcp import mcp


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="webresearch")
@click.option(
    "--config",
    type=click.Path(dir_okay=False),
    envvar="WEBRESEARCH_CONFIG",
    default=None,
    help="TOML settings file (default: $WEBRESEARCH_CONFIG). Settings also come from WEBRESEARCH_* variables.",
)
def cli(config: str | None) -> None:
    """Safe, observable web access for AI agents and people.

    \b
    Examples:
      webresearch fetch https://example.org
      webresearch fetch https://example.org --json
      webresearch browse https://example.org --do snapshot
      webresearch mcp
      webresearch journal --since 1h
    """


cli.add_command(fetch)
cli.add_command(browse)
cli.add_command(mcp)
cli.add_command(journal)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="webresearch")
