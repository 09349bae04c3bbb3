"""The public surface is exactly what we mean to support (STYLE: explicit public surface)."""

from __future__ import annotations

import webresearch


def test_all_is_sorted_and_complete() -> None:
    names = list(webresearch.__all__)
    assert names == sorted(names)
    for name in names:
        assert hasattr(webresearch, name), name


def test_public_members_are_exactly_these() -> None:
    public = {n for n in dir(webresearch) if not n.startswith("_")} - {
        # subpackages are importable but not part of the flat facade
        "access",
        "addresses",
        "adapters",
        "backends",
        "browser",
        "call_sink",
        "cli",
        "config",
        "daemon_thread",
        "errors",
        "extract",
        "hosted",
        "images",
        "integrations",
        "invisible",
        "mcp_server",
        "net",
        "plugins",
        "progress",
        "readers",
        "redact",
        "runtime",
        "search",
        "tools",
        "trace",
        "types",
        "url_text",
        "wording",
    }
    assert public == {n for n in webresearch.__all__ if not n.startswith("_")}
