"""Run directories left by a process killed outright are removed by the next launch.

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

from webresearch.browser.tempdirs import OWNER_FILE, RUN_DIR_PREFIXES, new_run_dir, remove_orphans

PREFIX = RUN_DIR_PREFIXES[0]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _run_dir(root: Path, name: str, owner: str | None, prefix: str = PREFIX) -> Path:
    path = root / f"{prefix}{name}"
    path.mkdir()
    (path / "profile").mkdir()
    if owner is not None:
        (path / OWNER_FILE).write_text(owner)
    return path


def test_only_run_dirs_of_dead_owners_are_removed(tmp_path: Path) -> None:
    dead = _run_dir(tmp_path, "dead", str(_dead_pid()))
    legacy = _run_dir(tmp_path, "legacy", str(_dead_pid()), prefix=RUN_DIR_PREFIXES[1])
    mine = _run_dir(tmp_path, "mine", str(os.getpid()))
    live = _run_dir(tmp_path, "live", str(os.getppid()))
    unowned = _run_dir(tmp_path, "unowned", None)  # being created, or not ours to judge
    garbage = _run_dir(tmp_path, "garbage", "not a pid")
    other = tmp_path / "someone-else"
    other.mkdir()
    assert sorted(remove_orphans(tmp_path)) == sorted([dead, legacy])
    assert not dead.exists() and not legacy.exists()
    for kept in (mine, live, unowned, garbage, other):
        assert kept.exists()


def test_a_symlink_named_like_a_run_dir_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (target / OWNER_FILE).write_text(str(_dead_pid()))
    (tmp_path / f"{PREFIX}link").symlink_to(target)
    assert remove_orphans(tmp_path) == []
    assert target.exists()


def test_a_new_run_dir_names_its_owner_and_clears_orphans_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    orphan = _run_dir(tmp_path, "orphan", str(_dead_pid()))
    fresh = new_run_dir()
    assert fresh.root.parent == tmp_path and fresh.root.name.startswith(PREFIX)
    assert (fresh.root / OWNER_FILE).read_text() == str(os.getpid())
    assert fresh.profile.is_dir() and fresh.tmp.is_dir()
    assert fresh.root.stat().st_mode & 0o077 == 0, "private to this user"
    assert not orphan.exists()
    fresh.remove()
    assert not fresh.root.exists()
