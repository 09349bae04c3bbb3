"""Tool specs are constant, lean, and pinned byte for byte (SPEC §1)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from webresearch import Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.catalog import ALL_SPECS
from webresearch.tools.specs import specs_size

SNAPSHOT = Path(__file__).parents[2] / "snapshots" / "tool_specs.json"


def test_specs_match_the_snapshot() -> None:
    # To change a spec on purpose: regenerate the snapshot and say why in the commit.
    assert [s.to_dict() for s in ALL_SPECS] == json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def test_all_specs_together_stay_lean() -> None:
    # SPEC §1: all tool specs together (the full set, workspace tools included) within 4,000
    # characters of JSON with the standard separators, as clients forward them.
    assert specs_size(ALL_SPECS) <= 4000, specs_size(ALL_SPECS)


def test_every_tool_states_all_four_hints_truthfully() -> None:
    # Issue 16: clients assume MCP's defaults (destructive, not idempotent) for unset hints,
    # and some connector scans refuse tools that leave any unset.
    by_name = {s.name: s for s in ALL_SPECS}
    for spec in ALL_SPECS:
        hints = spec.hints()
        assert set(hints) == {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
        assert all(isinstance(v, bool) for v in hints.values())
        if spec.read_only:  # a tool that changes nothing destroys nothing, repeats harmlessly
            assert not spec.destructive and spec.idempotent, spec.name
    # click/fill/press/evaluate act on pages: the browser is not read-only.
    browser = by_name["browser"]
    assert (browser.read_only, browser.destructive, browser.idempotent) == (False, True, False)
    # Workspace tools never reach the internet; the rest do.
    closed = {s.name for s in ALL_SPECS if not s.open_world}
    assert closed == {"view_image", "image_info"}


def test_hints_and_titles_are_not_model_facing_characters() -> None:
    spec = ALL_SPECS[0]
    renamed = dataclasses.replace(
        spec, title="x" * 500, read_only=not spec.read_only, annotations={"a": "b" * 500}
    )
    assert specs_size([renamed]) == specs_size([spec])


def test_every_schema_is_strict() -> None:
    for spec in ALL_SPECS:
        assert spec.input_schema["type"] == "object"
        assert spec.input_schema["additionalProperties"] is False
        required, properties = spec.input_schema["required"], spec.input_schema["properties"]
        assert isinstance(required, list) and isinstance(properties, dict)
        assert set(map(str, required)) <= set(properties)


async def test_specs_do_not_depend_on_configuration(tmp_path: Path) -> None:
    variants = [
        Settings.load(environ={}, journal_url="memory://"),
        Settings.load(
            environ={},
            journal_url="memory://",
            allow_private=True,
            fetch_rate_limit=3,
            render="never",
        ),
        Settings.load(
            environ={"WEBRESEARCH_ALLOWED_NETWORKS": "10.0.0.0/8"}, journal_url="memory://"
        ),
    ]
    seen = []
    for settings in variants:
        async with Toolkit(settings, journal=MemoryJournal()) as tk:
            seen.append({s.name: s.to_dict() for s in tk.tools()})
    by_name = {s.name: s.to_dict() for s in ALL_SPECS}
    for specs in seen:
        for name, spec in specs.items():
            assert spec == by_name[name]
