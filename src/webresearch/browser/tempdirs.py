"""The one temporary directory a backend writes to, and reaping those of dead processes.

Everything a backend writes to disk lives under one private directory per backend
(:class:`RunDir`, in the system's temporary directory): Chromium's profile, and a ``tmp``
directory that is the ``TMPDIR`` of the browser (Chromium puts its shared-memory files,
``org.chromium.Chromium.*``, there) and of the Playwright driver (its
``playwright-artifacts-*``). The backend removes it when it closes. A process killed outright
(SIGKILL, power loss) cannot: the next backend first removes every such directory whose owner
— the process id written in it — is gone (:func:`remove_orphans`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["OWNER_FILE", "RUN_DIR_PREFIXES", "RunDir", "new_run_dir", "remove_orphans"]

#: Prefixes of the directories in the temporary directory: the current one first, then the
#: one earlier versions used for Chromium profiles (still reaped).
RUN_DIR_PREFIXES = ("webresearch-browser-", "webresearch-chromium-")
#: The file in each that names the process which made it.
OWNER_FILE = "webresearch-owner.pid"


@dataclass(frozen=True, slots=True)
class RunDir:
    """A backend's private directory (mode 0700).

    Attributes:
        root: the directory (removed with everything in it by :meth:`remove`).
    """

    root: Path

    @property
    def profile(self) -> Path:
        """Chromium's user data directory."""
        return self.root / "profile"

    @property
    def tmp(self) -> Path:
        """``TMPDIR`` of the browser and of the Playwright driver."""
        return self.root / "tmp"

    def remove(self) -> None:
        """Remove the directory and everything in it (idempotent, never raises)."""
        shutil.rmtree(self.root, ignore_errors=True)


def new_run_dir() -> RunDir:
    """A fresh private directory naming this process as its owner, with ``profile`` and
    ``tmp`` inside; orphans of dead processes are removed first."""
    temp_root = Path(tempfile.gettempdir())
    remove_orphans(temp_root)
    run = RunDir(Path(tempfile.mkdtemp(prefix=RUN_DIR_PREFIXES[0], dir=temp_root)))
    (run.root / OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
    run.profile.mkdir(mode=0o700)
    run.tmp.mkdir(mode=0o700)
    return run


def remove_orphans(temp_root: Path) -> list[Path]:
    """Remove run directories under ``temp_root`` whose owner process is gone.

    Only directories of this user that hold an owner file naming a dead process are
    removed; anything else (another user's, one still being created, a live owner's) is
    left alone. Returns the directories removed.
    """
    removed: list[Path] = []
    if not Path("/proc/self/stat").exists():  # no way to tell a live owner: remove nothing
        return removed
    for prefix in RUN_DIR_PREFIXES:
        for candidate in temp_root.glob(f"{prefix}*"):
            try:
                if candidate.is_symlink() or candidate.stat().st_uid != os.getuid():
                    continue
                owner = int((candidate / OWNER_FILE).read_text(encoding="ascii"))
            except (OSError, ValueError):
                continue
            if owner == os.getpid() or _running(owner):
                continue
            shutil.rmtree(candidate, ignore_errors=True)
            removed.append(candidate)
    return removed


def _running(pid: int) -> bool:
    """True while ``pid`` runs (not gone, not a zombie)."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return data[data.rfind(")") + 2 :].split()[:1] != ["Z"]
