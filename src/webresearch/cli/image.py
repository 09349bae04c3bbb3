"""``webresearch image URL|PATH…``: prepare images as a vision model would get them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from webresearch import InvalidArguments, ToolResult

from ..wording import count
from .batch import batch_exit_code, concurrency_option, json_line, run_batch
from .files import output_problem, write_file
from .local_hints import Exemptions, refusal_step, scheme_typo
from .logs import say, say_error
from .options import guard_options, load_settings, robots_option
from .render import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    Progress,
    emit_result,
    reports_own_tool,
    show_error,
    unavailable_exit,
)
from .signals import run_stoppable
from .targets import (
    empty_problem,
    file_problem,
    is_url,
    local_targets,
    scheme_hint,
    unreadable,
)


@click.command("image")
@click.argument("targets", nargs=-1, required=True, metavar="URL|PATH...")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the prepared image (PNG, JPEG or WebP bytes) to this file (one input only).",
)
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Read PATH inside this directory, with view_image's confinement "
    "(default: the file's own directory).",
)
@click.option(
    "--clip",
    metavar="X,Y,W,H",
    default=None,
    help="Only this region of PATH (px of the image as shown), enlarged up to 4× — "
    "view_image's clip, to read small print.",
)
@concurrency_option("Images prepared")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the result's metadata as JSON (several inputs: JSON Lines, in input order).",
)
@guard_options
@robots_option
@click.pass_context
def image(
    ctx: click.Context,
    targets: tuple[str, ...],
    output: str | None,
    workspace: str | None,
    clip: str | None,
    concurrency: int,
    as_json: bool,
    allow_private: bool,
    allow_network: tuple[str, ...],
    respect_robots: bool,
) -> None:
    """Prepare images from URL (fetch_image) or PATH (view_image) and print their metadata.

    The image goes through the same pipeline a model gets: format from the bytes, pixel
    limit before decoding, EXIF orientation applied, first frame of animations, long side
    at most 1568 px, at most 1.5 MiB. Several inputs run --concurrency at a time and print
    in input order.

    \b
    Examples:
      webresearch image https://example.org/photo.jpg -o photo-for-model.jpg
      webresearch image screenshots/page.png --workspace ./run-42
      webresearch image scan.jpg --clip 0,2400,1200,300 -o small-print.png
      webresearch image http://127.0.0.1:8000/a.png --allow-network 127.0.0.1/32 --json
      webresearch image shots/*.png --json > images.jsonl

    Exit codes: 0 ok (every input), 1 tool error, 2 usage error, 3 refused by policy;
    several inputs exit with the code of the first failure. 130 interrupted (Ctrl-C), 143
    terminated (SIGTERM).
    """
    from webresearch import RunContext, Toolkit

    settings = load_settings(
        ctx,
        allow_private=allow_private,
        allow_network=allow_network,
        respect_robots=respect_robots,
        in_process_cpu=True,
    )
    exempt = Exemptions.of(settings)  # named in the next step toward a local address
    if (empty := empty_problem(targets)) is not None:  # ``image ""``: not the current dir
        raise click.UsageError(empty)
    try:  # ``file:///…`` (the path: line's file as a URL) is that file's path
        targets = tuple(local_targets(list(targets)))
    except InvalidArguments as exc:
        raise click.UsageError(f"{exc.message}; {exc.hint}") from None
    if output is not None and len(targets) > 1:
        raise click.UsageError("-o/--output takes one input; give one URL or PATH")
    problem = output_problem(output) if output is not None else None
    if problem is not None:  # before any work: one line, no traceback
        say_error(f"webresearch image: {problem}", command="image", code="usage")
        ctx.exit(EXIT_USAGE)

    def plan(target: str) -> tuple[str, dict[str, object], RunContext]:
        if is_url(target):  # decided as fetch decides: ' http://…', 'ftp://…' are URLs
            if clip is not None:
                raise click.UsageError("--clip is for a workspace file (PATH), not a URL")
            return "fetch_image", {"url": target}, RunContext(network_access=True)
        if workspace is not None:
            root, path = Path(workspace), target
        else:  # a person named the file: its directory is the workspace
            file = Path(target).absolute()
            root, path = file.parent, file.name
        arguments: dict[str, object] = {"path": path}
        if clip is not None:
            arguments["clip"] = clip
        return "view_image", arguments, RunContext(network_access=False, workspace=root)

    tools_used = {plan(t)[0] for t in targets}

    def missing(target: str) -> InvalidArguments | None:
        """A PATH that cannot be read, worded as ``fetch`` words it (``cannot read X: …``,
        with the URL meant for ``example.org/a.png``), not as the model's view_image words
        a workspace problem. Inside ``--workspace`` view_image's own words (paths relative
        to the workspace) stay, unless the target is a URL typed without its scheme."""
        if workspace is None:
            return file_problem(target, "an image file", exempt)
        if scheme_hint(target) is not None and not (Path(workspace) / target).exists():
            missing = FileNotFoundError(2, "No such file or directory")
            return unreadable(target, missing, "an image file", exempt)
        return None

    def emit(index: int, target: str, result: ToolResult) -> None:
        step = refusal_step(target, result.error, exempt)  # the address typed, exempted
        if as_json:
            click.echo(json_line(target, result, hint=step))
        elif result.ok:
            click.echo(result.text)
        else:
            assert result.error is not None
            show_error("image", result.error, suffix=f" [{target}]", hint=step)

    async def call() -> int:
        with reports_own_tool(*tools_used):
            toolkit = Toolkit(settings)
        async with toolkit:
            for tool in sorted(tools_used):
                if (code := unavailable_exit("image", toolkit, tool)) is not None:
                    return code

            async def one(target: str) -> ToolResult:
                tool, arguments, run = plan(target)
                if tool == "view_image" and (problem := missing(target)) is not None:
                    return ToolResult.failure(problem)  # worded as fetch words it
                if tool == "fetch_image" and (typo := scheme_typo(target, exempt)) is not None:
                    return ToolResult.failure(typo)  # ``http:/127.0.0.1/a.png``
                return await toolkit.call(tool, arguments, run=run)

            if len(targets) > 1:
                results = await run_batch(
                    targets, one, emit, concurrency=concurrency, label="preparing"
                )
                return batch_exit_code(results)
            target = targets[0]
            with Progress(f"preparing {target}"):
                result = await one(target)
        written: dict[str, Any] | None = None
        if output is not None and result.ok and result.images:
            data = result.images[0].data
            problem = write_file(output, data)
            if problem is not None:
                say_error(f"webresearch image: {problem}", command="image")
                return EXIT_TOOL_ERROR
            written = {"file": output, "bytes": len(data)}
        if as_json and written is not None:
            payload = result.to_dict()
            payload["written"] = written
            click.echo(json.dumps(payload, ensure_ascii=False, indent=2, default=str))
            return EXIT_OK
        step = refusal_step(target, result.error, exempt)
        code = emit_result("image", result, as_json=as_json, hint=step)
        if written is not None:
            say(f"wrote {written['file']} ({count(written['bytes'], 'byte')})", prefix="")
        return code

    ctx.exit(run_stoppable(call()))
