"""Every MCP client snippet in README.md is valid and launches this package's server.

For each ``<!-- mcp-config: NAME -->`` block: it parses (JSON or TOML), it has the client's
shape, its command is ``uvx --from '/path/to/webresearch[…]'`` (or ``pipx run --spec …``)
naming a checkout's path — never the bare name, which would install whatever a package index
holds under it: webresearch is not published — and extras that exist, the program is this
package's console script, the CLI accepts the arguments, and every ``env`` name is a setting
or an installed provider's option (no typo reaches a user's configuration).
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from webresearch import Settings
from webresearch.cli.main import cli
from webresearch.tools.services import Registries

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
BLOCK = re.compile(r"<!-- mcp-config: ([\w-]+) -->\n```(\w+)\n(.*?)\n```", re.S)
CLIENTS = ("claude-desktop", "claude-code", "vscode", "cursor", "codex")


def blocks() -> dict[str, tuple[str, str]]:
    found = {name: (lang, body) for name, lang, body in BLOCK.findall(README)}
    assert len(found) == len(BLOCK.findall(README)), "a snippet name is used twice"
    return found


def server_entry(name: str, lang: str, body: str) -> dict[str, Any]:
    """The webresearch server's entry in a client's configuration (parsed)."""
    if lang == "toml":
        return dict(tomllib.loads(body)["mcp_servers"]["webresearch"])
    assert lang == "json", name
    config = json.loads(body)
    key = "servers" if name == "vscode" else "mcpServers"
    entry: dict[str, Any] = config[key]["webresearch"]
    if name in ("claude-code", "vscode"):
        assert entry["type"] == "stdio"
    if name == "vscode":  # every ${input:…} the entry uses is declared
        declared = {i["id"] for i in config["inputs"]}
        used = set(re.findall(r"\$\{input:([\w-]+)\}", json.dumps(entry)))
        assert used <= declared, used - declared
    return entry


def check_launch(argv: list[str]) -> None:
    """``uvx --from SPEC webresearch ARGS`` / ``pipx run --spec SPEC webresearch ARGS``."""
    if argv[0] == "uvx":
        assert argv[1] == "--from", argv
        spec, program, args = argv[2], argv[3], argv[4:]
    else:
        assert argv[:3] == ["pipx", "run", "--spec"], argv
        spec, program, args = argv[3], argv[4], argv[5:]
    # a checkout's absolute path, never the bare name (a package index's, not ours)
    match = re.fullmatch(r"/[^\[\]\s]*/webresearch\[([\w,]+)\]", spec)
    assert match, spec
    extras = set(match.group(1).split(","))
    assert "mcp" in extras and extras <= set(PYPROJECT["project"]["optional-dependencies"])
    assert program in PYPROJECT["project"]["scripts"]  # the console script pip installs
    # The CLI accepts the arguments (parsed, not run).
    assert args[0] == "mcp", args
    ctx = click.Context(cli, info_name=program)
    command = cli.get_command(ctx, args[0])
    assert command is not None
    command.make_context(args[0], list(args[1:]), parent=ctx)


def test_there_is_one_snippet_per_client_and_an_inspector_line() -> None:
    assert set(blocks()) == {*CLIENTS, "inspector"}


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_snippet_parses_and_launches_the_server(client: str) -> None:
    lang, body = blocks()[client]
    entry = server_entry(client, lang, body)
    check_launch([entry["command"], *entry["args"]])
    env = entry["env"]
    assert env, "keys go in the env block"
    # Only names webresearch knows: a setting or an installed provider's option.
    values = {k: "x" for k in env}
    settings = Settings.load(environ=values)
    assert settings.unknown_names(Registries().options_catalog()) == []
    assert all(k.startswith("WEBRESEARCH_") for k in env)


def test_the_inspector_line_and_the_one_line_launches_run_the_server() -> None:
    lang, body = blocks()["inspector"]
    argv = shlex.split(body)
    assert lang == "bash" and argv[:2] == ["npx", "@modelcontextprotocol/inspector"]
    check_launch(argv[2:])
    launches = re.findall(r"^((?:uvx|pipx) .*?webresearch mcp)", README, re.M)
    assert launches
    for line in launches:
        check_launch(shlex.split(line))
    # the pip route: install the checkout, then its program
    assert re.search(r"^cd /path/to/webresearch && .*pip install '\.\[mcp\]'$", README, re.M)
    assert re.search(r"^/path/to/webresearch/\.venv/bin/webresearch mcp\b", README, re.M)


def test_no_install_line_names_the_bare_package() -> None:
    """README and ``webresearch mcp --help`` never send anyone to a package index for
    webresearch: the name is not ours there (review, session 13)."""
    bare = re.compile(r"(?<![/\w.-])webresearch\[")  # ``webresearch[mcp]`` without a path
    help_text = CliRunner().invoke(cli, ["mcp", "--help"]).output
    assert "/path/to/webresearch[mcp]" in help_text
    for text in (README, help_text):
        assert not bare.search(text), bare.search(text)


def test_a_bad_snippet_would_fail() -> None:
    # The checks can fail: an unknown extra, another program, an option mcp does not have.
    for argv in (
        ["uvx", "--from", "/path/to/webresearch[mcp,nope]", "webresearch", "mcp"],
        ["uvx", "--from", "/path/to/webresearch[mcp]", "other", "mcp"],
        ["uvx", "--from", "webresearch[mcp]", "webresearch", "mcp"],  # the bare name
    ):
        with pytest.raises(AssertionError):
            check_launch(argv)
    with pytest.raises(click.UsageError):
        check_launch(["uvx", "--from", "/path/to/webresearch[mcp]", "webresearch", "mcp", "--x"])
