"""``webresearch config init|show|path``: the settings file and the effective settings."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from webresearch import Settings

from .config_file import EXAMPLE, config_rows, default_path, format_rows, settings_path
from .logs import say_error
from .options import load_settings
from .render import EXIT_USAGE
from .signals import run_stoppable


@click.group("config")
def config() -> None:
    """The settings file: write a commented example, show the effective settings.

    The file is --config FILE, else $WEBRESEARCH_CONFIG, else
    $XDG_CONFIG_HOME/webresearch/config.toml (~/.config/webresearch/config.toml) when it
    exists. Precedence: WEBRESEARCH_* environment variables > the file > defaults.

    \b
    Examples:
      webresearch config init
      webresearch config show --changed
      webresearch --config ./team.toml config show --json
    """


@config.command("init")
@click.option("--force", is_flag=True, help="Replace an existing file.")
@click.pass_context
def init(ctx: click.Context, force: bool) -> None:
    """Write a commented example settings file (to --config FILE, or the default path).

    Every setting in it is commented out: uncomment what you need. The file is created
    readable by you only (it may hold keys).
    """
    given = ctx.find_root().params.get("config")
    target = Path(given) if given else default_path(os.environ)
    if target.exists() and not force:
        say_error(
            f"webresearch config: {target} exists; keep it, or replace it with --force",
            command="config",
            code="usage",
        )
        ctx.exit(EXIT_USAGE)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(EXAMPLE)
    except OSError as exc:
        say_error(
            f"webresearch config: cannot write {target}: {exc.strerror}",
            command="config",
            code="usage",
        )
        ctx.exit(EXIT_USAGE)
    click.echo(f"wrote {target}")


@config.command("path")
@click.pass_context
def path(ctx: click.Context) -> None:
    """Print the settings file in use (or the default path, and that it does not exist)."""
    file, how = settings_path(ctx.find_root().params.get("config"), os.environ)
    if file is None:
        click.echo(f"{default_path(os.environ)} (default; does not exist)")
    else:
        click.echo(f"{file} ({how})")


@config.command("show")
@click.option("--changed", is_flag=True, help="Only settings not at their default.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='One JSON object: {"file", "settings": {name: {"value", "source"}}}.',
)
@click.pass_context
def show(ctx: click.Context, changed: bool, as_json: bool) -> None:
    """Print the effective settings, each with where its value came from.

    Sources: WEBRESEARCH_<NAME> (the environment), "<name> in FILE" (the settings file),
    default. Providers' options appear by their flat names (brave_api_key). Secrets — API
    keys, tokens, URLs that may hold passwords — show as "***", never their value.
    """
    settings = load_settings(ctx)
    file, how = settings_path(ctx.find_root().params.get("config"), os.environ)
    public, origins = run_stoppable(_effective(settings))
    rows = config_rows(public, origins, changed_only=changed)
    if as_json:
        data = {name: {"value": json.loads(value), "source": src} for name, value, src in rows}
        click.echo(json.dumps({"file": file, "settings": data}, ensure_ascii=False, indent=2))
        return
    click.echo(f"# settings file: {file} ({how})" if file else "# settings file: none")
    for line in format_rows(rows):
        click.echo(line)


async def _effective(settings: Settings) -> tuple[dict[str, object], dict[str, str]]:
    """Masked values and sources, with every installed provider's options (the same
    catalog the Toolkit uses to know secrets)."""
    from webresearch import Toolkit

    async with Toolkit(settings, builders=[]) as toolkit:
        catalog = toolkit.services.options_catalog
        return settings.public_dict(catalog), settings.origins(catalog)
