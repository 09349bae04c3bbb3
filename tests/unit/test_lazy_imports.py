"""Importing the package and starting the CLI stay cheap (issue 14): the facade loads its
names on first use, and ``--version`` / ``--help`` import none of the heavy libraries.
Each check runs in a fresh interpreter (this one has imported everything already)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import pytest

import webresearch

#: Libraries a command that does no work must not pay for.
HEAVY = ("pydantic", "jsonschema", "httpx2", "httpcore2", "lxml", "trafilatura", "PIL", "pebble")

_PROBE = """
import json, sys
{setup}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}})))
"""


def top_level_modules_after(setup: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(setup=setup)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_importing_the_package_loads_no_heavy_library() -> None:
    loaded = top_level_modules_after("import webresearch")
    assert loaded.isdisjoint(HEAVY), loaded & set(HEAVY)


def test_a_public_name_is_imported_on_first_use() -> None:
    loaded = top_level_modules_after("from webresearch import Settings")
    assert "pydantic" in loaded and "lxml" not in loaded


@pytest.mark.parametrize(
    "argv",
    [
        ["--version"],
        ["--help"],
        ["fetch", "--help"],
        ["browse", "--help"],  # its list of actions comes from the light table
        ["mcp", "--help"],
        ["image", "--help"],
        ["journal", "--help"],
        ["config", "--help"],
        ["tools", "--help"],
    ],
)
def test_version_and_help_import_nothing_heavy(argv: list[str]) -> None:
    setup = (
        "import contextlib, io\n"
        f"sys.argv = ['webresearch', *{argv!r}]\n"
        "from webresearch.cli.main import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    cli.main(prog_name='webresearch')"
    )
    loaded = top_level_modules_after(setup)
    assert "click" in loaded
    assert loaded.isdisjoint(HEAVY), loaded & set(HEAVY)


def test_the_version_is_the_installed_distributions() -> None:
    assert webresearch.__version__ == version("webresearch")


def test_unknown_attributes_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Tolkit'"):
        webresearch.Tolkit  # noqa: B018
