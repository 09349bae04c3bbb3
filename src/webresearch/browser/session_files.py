"""Kept browser sessions: a named session's Playwright storage state (cookies and each
origin's local storage) in the run's workspace, opt-in (``browser_persist_sessions``).

The model chooses the name, so the name is a file name and nothing more: letters, digits,
``.``, ``_`` and ``-`` (at most 64, not starting with ``.``; :func:`check_session_name`). The
file is ``<workspace>/.webresearch/browser-sessions/<name>.json``, reached like view_image
reaches a file: a walk over directory descriptors with ``O_NOFOLLOW`` at every step, so a
symbolic link planted anywhere on that path (the directory, or the file) is refused instead
of followed out of the workspace. Files are written whole (a temporary file renamed over
the old one) with mode 0600; the directories are created with mode 0700.

Blocking file I/O: async callers run these functions in a worker thread.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any

from ..errors import BrowserError, InvalidArguments

__all__ = [
    "MAX_STATE_BYTES",
    "STATE_DIR",
    "check_session_name",
    "load_session_state",
    "save_session_state",
]

#: Where kept sessions live, relative to the workspace.
STATE_DIR = (".webresearch", "browser-sessions")
#: Largest state file read (bytes): cookies and local storage of a few sites fit easily.
MAX_STATE_BYTES = 5 * 1024 * 1024

_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def check_session_name(name: str) -> str:
    """``name`` when it can name a kept session's file.

    Raises:
        InvalidArguments: it holds anything but letters, digits, ``.``, ``_``, ``-``,
            starts with ``.``, or is longer than 64 characters.
    """
    if not _NAME.match(name):
        raise InvalidArguments(
            f"the session name {name[:80]!r} cannot be kept: a kept session's name is a file name",
            hint="use 1 to 64 letters, digits, '.', '_' or '-' (not starting with '.'), e.g. shop",
        )
    return name


def _unsafe(why: str) -> BrowserError:
    return BrowserError(
        f"kept browser sessions: {'/'.join(STATE_DIR)} in the workspace {why}",
        hint="ask the person to check the workspace; the session runs without its saved state",
    )


def _open_dir(parent: int, name: str, *, create: bool) -> int | None:
    """The directory ``name`` in ``parent`` (never through a link), created when asked;
    ``None`` when it does not exist and is not created."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        if not create:
            return None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _unsafe("is a link or not a directory") from None
        raise _unsafe(f"cannot be opened ({exc.strerror})") from None
    with contextlib.suppress(FileExistsError):  # made meanwhile: opened with the same checks
        os.mkdir(name, 0o700, dir_fd=parent)
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        raise _unsafe(f"cannot be opened ({exc.strerror})") from None


def _state_dir(workspace: Path, *, create: bool) -> int | None:
    """A descriptor of the kept-sessions directory (the caller closes it), or ``None``."""
    try:
        fd = os.open(workspace, _DIR_FLAGS & ~os.O_NOFOLLOW)
    except OSError as exc:
        raise BrowserError(
            f"kept browser sessions: the workspace cannot be opened ({exc.strerror})"
        ) from None
    try:
        for part in STATE_DIR:
            inner = _open_dir(fd, part, create=create)
            os.close(fd)
            if inner is None:
                return None
            fd = inner
        return fd
    except BaseException:
        os.close(fd)
        raise


def load_session_state(workspace: Path, name: str) -> dict[str, Any] | None:
    """The kept state of session ``name``, or ``None`` when there is none.

    Raises:
        InvalidArguments: the name cannot name a file (:func:`check_session_name`).
        BrowserError: the path holds a link or something other than a regular file, or the
            file is too large or not a storage state.
    """
    check_session_name(name)
    dfd = _state_dir(workspace, create=False)
    if dfd is None:
        return None
    try:
        try:
            fd = os.open(f"{name}.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise _unsafe(f"holds a link for {name}.json") from None
            raise _unsafe(f"cannot be read ({exc.strerror})") from None
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _unsafe(f"holds something other than a file for {name}.json")
            if info.st_size > MAX_STATE_BYTES:
                raise _unsafe(f"holds a {name}.json over {MAX_STATE_BYTES // 2**20} MiB")
            data = file.read(MAX_STATE_BYTES + 1)
    finally:
        os.close(dfd)
    try:
        state = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        state = None
    if not (
        isinstance(state, dict)
        and isinstance(state.get("cookies", []), list)
        and isinstance(state.get("origins", []), list)
    ):
        raise _unsafe(f"holds a {name}.json that is not a browser storage state")
    return state


def save_session_state(workspace: Path, name: str, state: dict[str, Any]) -> None:
    """Write the state of session ``name`` (whole, mode 0600), creating the directories.

    Raises:
        InvalidArguments: the name cannot name a file.
        BrowserError: the path holds a link or cannot be written.
    """
    check_session_name(name)
    data = json.dumps(state, ensure_ascii=False).encode("utf-8")
    dfd = _state_dir(workspace, create=True)
    assert dfd is not None  # created
    temp = f".{name}.json.{secrets.token_hex(4)}.tmp"
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(temp, flags, 0o600, dir_fd=dfd)
        except OSError as exc:
            raise _unsafe(f"cannot be written ({exc.strerror})") from None
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            # A link named like the file is replaced, never followed: rename acts on names.
            os.replace(temp, f"{name}.json", src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=dfd)
            raise
    finally:
        os.close(dfd)
