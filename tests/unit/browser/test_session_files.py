"""Kept browser sessions (issue 15, fault 8): the model names the session, so the name is a
file name only, and the file is reached without following any link out of the workspace."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from webresearch import BrowserError, InvalidArguments
from webresearch.browser.session_files import (
    check_session_name,
    load_session_state,
    save_session_state,
)

STATE = {"cookies": [{"name": "sid", "value": "abc"}], "origins": []}


def test_a_state_is_saved_privately_and_read_back(tmp_path: Path) -> None:
    assert load_session_state(tmp_path, "shop") is None  # nothing yet, nothing created
    assert not (tmp_path / ".webresearch").exists()
    save_session_state(tmp_path, "shop", STATE)
    folder = tmp_path / ".webresearch" / "browser-sessions"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "shop.json").stat().st_mode) == 0o600
    assert load_session_state(tmp_path, "shop") == STATE
    save_session_state(tmp_path, "shop", {"cookies": [], "origins": []})  # replaced whole
    assert load_session_state(tmp_path, "shop") == {"cookies": [], "origins": []}
    assert sorted(os.listdir(folder)) == ["shop.json"]  # no temporary file left


@pytest.mark.parametrize(
    "name",
    ["../x", "a/b", ".hidden", "", "x" * 65, "a b", "..", "shop\x00", "/etc/passwd", "é"],
)
def test_names_that_are_not_plain_file_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(InvalidArguments, match="cannot be kept"):
        check_session_name(name)
    with pytest.raises(InvalidArguments):
        save_session_state(tmp_path, name, STATE)
    assert not (tmp_path / ".webresearch").exists()


@pytest.mark.parametrize("link", [".webresearch", ".webresearch/browser-sessions"])
def test_a_link_on_the_way_is_refused_not_followed(tmp_path: Path, link: str) -> None:
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / link).parent.mkdir(parents=True, exist_ok=True)
    (workspace / link).symlink_to(outside, target_is_directory=True)
    with pytest.raises(BrowserError, match="link"):
        save_session_state(workspace, "shop", STATE)
    with pytest.raises(BrowserError, match="link"):
        load_session_state(workspace, "shop")
    assert list(outside.iterdir()) == []


def test_a_link_in_place_of_the_file_is_neither_read_nor_written_through(tmp_path: Path) -> None:
    folder = tmp_path / ".webresearch" / "browser-sessions"
    folder.mkdir(parents=True)
    secret = tmp_path.parent / f"{tmp_path.name}-secret.json"
    secret.write_text('{"cookies": [], "origins": []}')
    (folder / "shop.json").symlink_to(secret)
    with pytest.raises(BrowserError, match="link"):
        load_session_state(tmp_path, "shop")
    save_session_state(tmp_path, "shop", STATE)  # replaces the link itself
    assert secret.read_text() == '{"cookies": [], "origins": []}'
    assert not (folder / "shop.json").is_symlink()


def test_a_file_that_is_no_storage_state_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / ".webresearch" / "browser-sessions"
    folder.mkdir(parents=True)
    (folder / "a.json").write_text("[1, 2]")
    (folder / "b.json").write_bytes(b"\xff\xfe")
    (folder / "c").mkdir()
    for name in ("a", "b"):
        with pytest.raises(BrowserError, match="not a browser storage state"):
            load_session_state(tmp_path, name)
