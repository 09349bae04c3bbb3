"""Profile directories left by a process killed outright are removed by the next launch.

Before the fix every SIGKILLed run left its Chromium profile (a few MB) in the temporary
directory for good (a reviewer found 26 of them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from webresearch.browser.launch import (
    PROFILE_OWNER_FILE,
    PROFILE_PREFIX,
    new_profile_dir,
    remove_orphan_profiles,
)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _profile(root: Path, name: str, owner: str | None) -> Path:
    path = root / f"{PROFILE_PREFIX}{name}"
    path.mkdir()
    (path / "Default").mkdir()
    if owner is not None:
        (path / PROFILE_OWNER_FILE).write_text(owner)
    return path


def test_only_profiles_of_dead_owners_are_removed(tmp_path: Path) -> None:
    dead = _profile(tmp_path, "dead", str(_dead_pid()))
    mine = _profile(tmp_path, "mine", str(os.getpid()))
    live = _profile(tmp_path, "live", str(os.getppid()))
    unowned = _profile(tmp_path, "unowned", None)  # being created, or not ours to judge
    garbage = _profile(tmp_path, "garbage", "not a pid")
    other = tmp_path / "someone-else"
    other.mkdir()
    assert remove_orphan_profiles(tmp_path) == [dead]
    assert not dead.exists()
    for kept in (mine, live, unowned, garbage, other):
        assert kept.exists()


def test_a_symlink_named_like_a_profile_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (target / PROFILE_OWNER_FILE).write_text(str(_dead_pid()))
    (tmp_path / f"{PROFILE_PREFIX}link").symlink_to(target)
    assert remove_orphan_profiles(tmp_path) == []
    assert target.exists()


def test_a_new_profile_names_its_owner_and_clears_orphans_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    orphan = _profile(tmp_path, "orphan", str(_dead_pid()))
    fresh = Path(new_profile_dir())
    assert fresh.parent == tmp_path and fresh.name.startswith(PROFILE_PREFIX)
    assert (fresh / PROFILE_OWNER_FILE).read_text() == str(os.getpid())
    assert not orphan.exists()
