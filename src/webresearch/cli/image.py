"""``webresearch image URL|PATH``: prepare an image as a vision model would get it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import click

from .files import output_problem, write_file
from .options import guard_options, load_settings, robots_option
from .render import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    Progress,
    emit_result,
    reports_own_tool,
    unavailable_exit,
)


def _is_url(target: str) -> bool:
    return target.lower().startswith(("http://", "https://"))


@click.command("image")
@click.argument("target", metavar="URL|PATH")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the prepared image (PNG, JPEG or WebP bytes) to this file.",
)
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Read PATH inside this directory, with view_image's confinement "
    "(default: the file's own directory).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result's metadata as JSON.")
@guard_options
@robots_option
@click.pass_context
def image(
    ctx: click.Context,
    target: str,
    output: str | None,
    workspace: str | None,
    as_json: bool,
    allow_private: bool,
    allow_network: tuple[str, ...],
    respect_robots: bool,
) -> None:
    """Prepare an image from URL (fetch_image) or PATH (view_image) and print its metadata.

    The image goes through the same pipeline a model gets: format from the bytes, pixel
    limit before decoding, EXIF orientation applied, first frame of animations, long side
    at most 1568 px, at most 1.5 MiB.

    \b
    Examples:
      webresearch image https://example.org/photo.jpg -o photo-for-model.jpg
      webresearch image screenshots/page.png --workspace ./run-42
      webresearch image http://127.0.0.1:8000/a.png --allow-network 127.0.0.0/8 --json

    Exit codes: 0 ok, 1 tool error, 2 usage error, 3 refused by policy.
    """
    from webresearch import RunContext, Toolkit

    settings = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=True,
    )
    problem = output_problem(output) if output is not None else None
    if problem is not None:  # before any work: one line, no traceback
        click.echo(f"webresearch image: {problem}", err=True)
        ctx.exit(EXIT_USAGE)
    if _is_url(target):
        tool, arguments = "fetch_image", {"url": target}
        run = RunContext(network_access=True)
    else:
        if workspace is not None:
            root, path = Path(workspace), target
        else:  # a person named the file: its directory is the workspace
            file = Path(target).absolute()
            root, path = file.parent, file.name
        tool, arguments = "view_image", {"path": path}
        run = RunContext(network_access=False, workspace=root)

    async def call() -> int:
        with reports_own_tool(tool):
            toolkit = Toolkit(settings)
        async with toolkit:
            if (code := unavailable_exit("image", toolkit, tool)) is not None:
                return code
            with Progress(f"preparing {target}"):
                result = await toolkit.call(tool, arguments, run=run)
        written: dict[str, Any] | None = None
        if output is not None and result.ok and result.images:
            data = result.images[0].data
            problem = write_file(output, data)
            if problem is not None:
                click.echo(f"webresearch image: {problem}", err=True)
                return EXIT_TOOL_ERROR
            written = {"file": output, "bytes": len(data)}
        if as_json and written is not None:
            payload = result.to_dict()
            payload["written"] = written
            click.echo(json.dumps(payload, ensure_ascii=False, indent=2, default=str))
            return EXIT_OK
        code = emit_result("image", result, as_json=as_json)
        if written is not None:
            click.echo(f"wrote {written['file']} ({written['bytes']} bytes)", err=True)
        return code

    ctx.exit(asyncio.run(call()))
