"""bench/extraction.py's tables: a figure against trafilatura reads "–" when trafilatura was
not among ``--tools`` (it printed ``+nan`` and ``nan``)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "extraction.py"


@pytest.fixture(scope="module")
def extraction() -> Iterator[ModuleType]:
    name = "bench_extraction_under_test"
    saved = list(sys.path)  # the script puts src/ and bench/ first on the path
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    yield module
    sys.modules.pop(name, None)


def summary(extraction: ModuleType, f1: float, ms: float) -> object:
    s = extraction.Summary()
    s.precision, s.recall, s.f1, s.ms = [f1], [f1], [f1], [ms, ms]
    return s


def test_ratios_without_the_reference_tool_are_a_dash(extraction: ModuleType) -> None:
    table = extraction.render_table("dev", {"webresearch": summary(extraction, 0.8, 10.0)})
    assert "nan" not in table
    row = table.splitlines()[-1]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:5] == ["webresearch", "1", "0.800", "0.800", "0.800"]
    assert cells[5] == cells[7] == cells[9] == "–"


def test_ratios_against_the_reference_tool_are_figures(extraction: ModuleType) -> None:
    table = extraction.render_table(
        "dev",
        {
            "webresearch": summary(extraction, 0.8, 10.0),
            extraction.REFERENCE_TOOL: summary(extraction, 0.7, 20.0),
        },
    )
    first = [c.strip() for c in table.splitlines()[4].strip("|").split("|")]
    assert first[5] == "+0.100" and first[7] == "0.50" and first[9] == "0.50"
