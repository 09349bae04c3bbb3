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

from webresearch.browser.tempdirs import (
    CHROMIUM_TEMP_PREFIX,
    OWNER_FILE,
    RUN_DIR_PREFIXES,
    SHORT_TEMP_ROOT,
    RunDir,
    chromium_temp_root,
    new_run_dir,
    remove_orphans,
)

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


def _chromium_run(root: Path, owner: str) -> tuple[RunDir, Path]:
    """A run directory whose profile links to a Chromium lock directory next to it."""
    run = _run_dir(root, "with-lock", owner)
    lock = root / f"{CHROMIUM_TEMP_PREFIX}Ab12Cd"
    lock.mkdir()
    (run / "profile" / "SingletonSocket").symlink_to(lock / "SingletonSocket")
    return RunDir(run), lock


def test_chromiums_lock_directory_goes_with_its_run(tmp_path: Path) -> None:
    run, lock = _chromium_run(tmp_path, str(os.getpid()))
    run.note_chromium_temp()
    (run.profile / "SingletonSocket").unlink()  # Chromium may drop the link first
    assert run.chromium_temp() == lock
    run.remove()
    assert not lock.exists() and not run.root.exists()


def test_an_orphans_chromium_lock_directory_is_reaped_too(tmp_path: Path) -> None:
    run, lock = _chromium_run(tmp_path, str(_dead_pid()))
    run.note_chromium_temp()
    assert remove_orphans(tmp_path) == [run.root]
    assert not lock.exists()


def test_a_named_lock_directory_elsewhere_or_misnamed_is_never_removed(tmp_path: Path) -> None:
    run = RunDir(_run_dir(tmp_path, "tampered", str(os.getpid())))
    for target in (tmp_path / "precious", tmp_path / "sub" / f"{CHROMIUM_TEMP_PREFIX}x"):
        target.mkdir(parents=True)
        (run.root / "chromium-temp").write_text(str(target))
        assert run.chromium_temp() is None
        run.remove()
        assert target.exists()
        run.root.mkdir()


def test_chromium_gets_a_short_temporary_directory_when_tmpdir_is_too_long() -> None:
    # <TMPDIR>/org.chromium.Chromium.XXXXXX/SingletonSocket must fit a Unix socket path
    # (107 bytes): Chromium exited at start-up with a 71-character TMPDIR.
    short = Path("/tmp/wr-short")
    assert chromium_temp_root(short) == short
    assert chromium_temp_root(Path("/tmp/" + "x" * 57)) == Path("/tmp/" + "x" * 57)
    assert chromium_temp_root(Path("/tmp/" + "x" * 58)) == SHORT_TEMP_ROOT
