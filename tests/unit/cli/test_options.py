"""One-shot commands convert in-process unless the operator chose a worker pool (issue 14)."""

from __future__ import annotations

import click
import pytest

from webresearch.cli.main import cli
from webresearch.cli.options import load_settings


@pytest.fixture
def ctx(monkeypatch: pytest.MonkeyPatch) -> click.Context:
    for name in ("WEBRESEARCH_CONFIG", "WEBRESEARCH_CPU_WORKERS"):
        monkeypatch.delenv(name, raising=False)
    return click.Context(cli)


def test_one_shot_commands_convert_in_process(ctx: click.Context) -> None:
    assert load_settings(ctx, in_process_cpu=True).cpu_workers == 0
    assert load_settings(ctx).cpu_workers is None  # mcp: a pool sized by the cores


def test_a_configured_pool_is_kept(ctx: click.Context, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBRESEARCH_CPU_WORKERS", "3")
    assert load_settings(ctx, in_process_cpu=True).cpu_workers == 3
