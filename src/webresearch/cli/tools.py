"""``webresearch tools``: the tools a run would be offered, with their human titles."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .install_hint import Installation, fit_install_hints
from .options import load_settings
from .render import reports_own_tool
from .signals import run_stoppable

#: The heading above the list, per ``tool_titles_language`` (titles come from the Toolkit).
HEADINGS = {"en": "Tools", "ru": "Инструменты", "zh": "工具"}


@click.command("tools")
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Offer the workspace tools (view_image, image_info) for this directory.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="List tools for a run without network access (only workspace tools remain).",
)
@click.option(
    "--no-vision",
    is_flag=True,
    help="List tools for a model that cannot see images (the image tools are then not offered).",
)
@click.option(
    "--language",
    type=click.Choice(["en", "ru", "zh"]),
    default=None,
    help="Title language (default: WEBRESEARCH_TOOL_TITLES_LANGUAGE, else en).",
)
@click.option("--json", "as_json", is_flag=True, help="Print name, title and schema as JSON.")
@click.pass_context
def tools(
    ctx: click.Context,
    workspace: str | None,
    offline: bool,
    no_vision: bool,
    language: str | None,
    as_json: bool,
) -> None:
    """List the tools a run is offered, with their titles for people.

    Titles follow the tool_titles_language setting (en, ru, zh); the names, descriptions
    and schemas a model sees never change with it.

    \b
    Examples:
      webresearch tools
      webresearch tools --language ru --workspace ./run-42
      webresearch tools --offline --json
    """
    from webresearch import RunContext, Toolkit

    settings = load_settings(ctx)
    if language is not None:
        settings = settings.replace(tool_titles_language=language)
    run = RunContext(
        network_access=not offline,
        workspace=Path(workspace) if workspace else None,
        can_see_images=not no_vision,
    )

    async def listing() -> tuple[list[dict[str, object]], dict[str, str]]:
        with reports_own_tool():  # the "Not available" list says it, once
            toolkit = Toolkit(settings)
        async with toolkit:
            rows: list[dict[str, object]] = [
                {"name": s.name, "title": s.title, "description": s.description}
                | ({"input_schema": s.input_schema} if as_json else {})
                for s in toolkit.tools(run)
            ]
            return rows, toolkit.not_offered(run)

    rows, missing = run_stoppable(listing())
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    click.echo(HEADINGS.get(settings.tool_titles_language, HEADINGS["en"]))
    if not rows:
        click.echo("  (none: this run is offered no tool; without network access only the")
        click.echo("   workspace tools remain, and they need --workspace)")
    width = max((len(str(r["name"])) for r in rows), default=0)
    for row in rows:
        click.echo(f"  {str(row['name']).ljust(width)}  {row['title']}")
    if missing:  # after the offered tools, with the fix for each
        _print_missing(missing)


#: What a run's gate reason owes to this command line, after the reason.
_OPTION_FOR = {
    "no workspace": "offered with --workspace DIR",
    "no network access": "because of --offline",
    "cannot see images": "because of --no-vision",
}


def _print_missing(missing: dict[str, str]) -> None:
    """Tools this installation, these settings or this run do not offer, and why."""
    click.echo("Not available:")
    width = max(len(name) for name in missing)
    where = Installation.of()
    for name, reason in sorted(missing.items()):
        option = next((o for words, o in _OPTION_FOR.items() if words in reason), None)
        reason = fit_install_hints(reason, where)
        click.echo(f"  {name.ljust(width)}  {reason}" + (f" ({option})" if option else ""))
