"""README "Use it from …": every snippet parses, every name it imports exists in the installed
SDK or framework, every example it links exists, and ``llm -T`` names real tools."""

from __future__ import annotations

import ast
import importlib
import re
import shlex
from pathlib import Path

import pytest

from webresearch import Settings, Toolkit

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Use it from …", 1)[1].split("\n## ", 1)[0]
PYTHON = re.findall(r"```python\n(.*?)\n```", SECTION, re.S)
BASH = re.findall(r"```bash\n(.*?)\n```", SECTION, re.S)


def test_the_section_has_a_block_per_sdk_and_framework() -> None:
    for name in ("chat completions", "Responses", "Anthropic Messages", "LangChain", "llm",
                 "pydantic-ai", "OpenAI Agents SDK", "LlamaIndex"):  # fmt: skip
        assert f"**{name}" in SECTION or f"**OpenAI {name}" in SECTION, name
    assert len(PYTHON) == 7 and BASH


@pytest.mark.parametrize("source", PYTHON, ids=lambda s: s.split("\n")[0][:60])
def test_a_python_snippet_parses_and_its_imports_exist(source: str) -> None:
    tree = compile(source, "<README>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    assert isinstance(tree, ast.Module)
    imports = [node for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert imports
    for node in imports:
        assert node.module is not None
        module = importlib.import_module(node.module)
        for alias in node.names:
            assert hasattr(module, alias.name), f"{node.module}.{alias.name}"


def test_linked_examples_exist() -> None:
    for link in re.findall(r"\]\((examples/[\w/.]+)\)", SECTION):
        assert (ROOT / link).is_file(), link


async def test_llm_commands_name_real_tools() -> None:
    async with Toolkit(Settings.load(environ={}, journal_url="memory://")) as toolkit:
        names = {spec.name for spec in toolkit.tools()} | set(toolkit.not_configured)
    for line in "\n".join(BASH).splitlines():
        words = shlex.split(line)
        assert words[0] == "llm"
        tools = [words[i + 1] for i, word in enumerate(words) if word == "-T"]
        assert tools and set(tools) <= names, tools
