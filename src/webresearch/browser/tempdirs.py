"""The temporary directories a backend writes to, and reaping those of dead processes.

Everything a backend writes to disk is under one private directory per backend
(:class:`RunDir`, in the system's temporary directory): Chromium's profile, and a ``tmp``
directory that is the ``TMPDIR`` of the Playwright driver (its ``playwright-artifacts-*``).
One thing lives outside it: Chromium's own ``org.chromium.Chromium.*`` directory in the
system's temporary directory, which holds the profile's ``SingletonSocket`` — a Unix socket,
whose path may not exceed 107 bytes, so it is not moved deeper (a long ``TMPDIR`` would stop
Chromium from starting). The profile's ``SingletonSocket`` link names it; the run directory
writes that down once Chromium runs and removes it with itself. (When ``TMPDIR`` is too long
for the socket — Chromium would exit at start-up — Chromium gets ``/tmp`` instead:
:func:`chromium_temp_root`.)

The backend removes its run directory when it closes. A process killed outright (SIGKILL,
power loss) cannot: the next backend first removes every such directory whose owner — the
process id written in it — is gone (:func:`remove_orphans`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .launch_args import chromium_preferences

__all__ = [
    "CHROMIUM_TEMP_PREFIX",
    "OWNER_FILE",
    "RUN_DIR_PREFIXES",
    "SHORT_TEMP_ROOT",
    "RunDir",
    "chromium_temp_root",
    "new_run_dir",
    "remove_orphans",
]

#: Prefixes of the directories in the temporary directory: the current one first, then the
#: one earlier versions used for Chromium profiles (still reaped).
RUN_DIR_PREFIXES = ("webresearch-browser-", "webresearch-chromium-")
#: The file in each that names the process which made it.
OWNER_FILE = "webresearch-owner.pid"
#: Prefix of the directory Chromium makes in the temporary directory for its profile lock.
CHROMIUM_TEMP_PREFIX = "org.chromium.Chromium."
#: The file in a run directory naming that directory.
CHROMIUM_TEMP_FILE = "chromium-temp"
#: Longest path of a Unix socket (``sun_path`` holds 108 bytes with its final NUL).
UNIX_SOCKET_MAX = 107
#: ``<TMPDIR>`` + this is the path of Chromium's singleton socket.
_SOCKET_TAIL = len("/org.chromium.Chromium.XXXXXX/SingletonSocket")
#: Where Chromium's directory goes when ``TMPDIR`` is too long for that socket.
SHORT_TEMP_ROOT = Path("/tmp")


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

    def xdg_env(self) -> dict[str, str]:
        """The XDG base directories (config, cache, data) inside this directory, for the
        browser's environment: what a browser writes "in the user's home" — Chromium's
        crash database (``~/.config/chromium/Crash Reports``), dconf's cache
        (``~/.cache/dconf``), Lightpanda's installation id (``~/.local/share/lightpanda``)
        — is removed with the run (XDG Base Directory Specification)."""
        return {
            "XDG_CONFIG_HOME": str(self.root / "config"),
            "XDG_CACHE_HOME": str(self.root / "cache"),
            "XDG_DATA_HOME": str(self.root / "data"),
        }

    def seed_profile(self, preferences: str) -> None:
        """Write the profile's ``Default/Preferences`` (JSON text) before Chromium's first
        start (see :func:`~.launch_args.chromium_preferences`)."""
        default = self.profile / "Default"
        default.mkdir(mode=0o700, exist_ok=True)
        (default / "Preferences").write_text(preferences, encoding="utf-8")

    @property
    def tmp(self) -> Path:
        """``TMPDIR`` of the Playwright driver."""
        return self.root / "tmp"

    def note_chromium_temp(self) -> None:
        """Write down Chromium's ``org.chromium.Chromium.*`` directory (named by the
        profile's ``SingletonSocket`` link once Chromium runs), so it is removed even when
        Chromium drops the link before it is read."""
        try:
            target = os.readlink(self.profile / "SingletonSocket")
        except OSError:
            return
        (self.root / CHROMIUM_TEMP_FILE).write_text(str(Path(target).parent), encoding="utf-8")

    def chromium_temp(self) -> Path | None:
        """Chromium's ``org.chromium.Chromium.*`` directory of this run, or ``None``: only a
        directory of this user, named so, in the same temporary directory as this one."""
        try:
            target = Path((self.root / CHROMIUM_TEMP_FILE).read_text(encoding="utf-8"))
        except OSError:
            return None
        if not target.name.startswith(CHROMIUM_TEMP_PREFIX) or target.parent not in (
            self.root.parent,
            SHORT_TEMP_ROOT,
        ):
            return None
        try:
            if target.is_symlink() or target.stat().st_uid != os.getuid():
                return None
        except OSError:
            return None
        return target

    def remove(self) -> None:
        """Remove the directory, everything in it and Chromium's temporary directory
        (idempotent, never raises)."""
        chromium = self.chromium_temp()
        if chromium is not None:
            shutil.rmtree(chromium, ignore_errors=True)
        shutil.rmtree(self.root, ignore_errors=True)


def chromium_temp_root(temp_root: Path) -> Path:
    """The temporary directory to give Chromium: ``temp_root``, unless its singleton socket
    there (``<temp_root>/org.chromium.Chromium.XXXXXX/SingletonSocket``) would be longer
    than a Unix socket path may be — Chromium then exits at start-up — in which case
    :data:`SHORT_TEMP_ROOT`."""
    if len(os.fsencode(temp_root)) + _SOCKET_TAIL <= UNIX_SOCKET_MAX:
        return temp_root
    return SHORT_TEMP_ROOT


def new_run_dir() -> RunDir:
    """A fresh private directory naming this process as its owner, with ``profile`` (its
    Chromium preferences seeded: :func:`~.launch_args.chromium_preferences`) and ``tmp``
    inside; orphans of dead processes are removed first."""
    temp_root = Path(tempfile.gettempdir())
    remove_orphans(temp_root)
    run = RunDir(Path(tempfile.mkdtemp(prefix=RUN_DIR_PREFIXES[0], dir=temp_root)))
    (run.root / OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
    run.profile.mkdir(mode=0o700)
    run.seed_profile(chromium_preferences())
    run.tmp.mkdir(mode=0o700)
    return run


def remove_orphans(temp_root: Path) -> list[Path]:
    """Remove run directories under ``temp_root`` whose owner process is gone, with the
    Chromium directory each names (:meth:`RunDir.chromium_temp`).

    Only directories of this user that hold an owner file naming a dead process are
    removed; anything else (another user's, one still being created, a live owner's) is
    left alone. Returns the run directories removed.
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
            RunDir(candidate).remove()
            removed.append(candidate)
    return removed


def _running(pid: int) -> bool:
    """True while ``pid`` runs (not gone, not a zombie)."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return data[data.rfind(")") + 2 :].split()[:1] != ["Z"]
