"""view_image's path confinement: a model-given path may only name a file inside the run's
workspace (SPEC §1.3).

Two halves:

* :func:`split_workspace_path` — pure: the model's string → path components. Accepted:
  relative paths, a leading ``/workspace/`` (the path agents see inside sandboxes), and an
  absolute path under the workspace's own location. Refused: empty paths, NUL bytes, any
  ``..`` component, other absolute paths, ``~``-expansion is never done.
* :func:`read_workspace_file` — the open, by a walk over directory file descriptors
  (``openat`` semantics via ``dir_fd``) with ``O_NOFOLLOW`` at every step: a symbolic link is
  never followed by the kernel. Links are resolved here, component by component, against
  the same walk (so a link that stays inside the workspace works and one that leads out —
  absolute elsewhere, or ``..`` past the root — is refused). Because every step opens
  relative to a directory descriptor already held and refuses to follow links, a component
  swapped for a symlink between any check and the open cannot redirect the open outside:
  the kernel answers ``ELOOP`` and the link is judged like any other.

Residual risks (documented, not handled): a hard link inside the workspace to a file
outside is the same file to the kernel and is read; renaming a directory out of the
workspace during a walk lets the walk finish inside that directory. Both need write access
to the workspace *and* to the outside location.

Every refusal is :class:`~webresearch.errors.InvalidArguments`: the rule is a property of
the argument (a path must name a file in the workspace), the model's fix is the same in
every case (name a workspace file), and the message repeats only the model's own path —
never the workspace's location on the host or a link's target.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath

from ..errors import InvalidArguments, TooLarge
from .rules import human_bytes

__all__ = [
    "MAX_SYMLINKS",
    "WORKSPACE_PREFIX",
    "read_workspace_file",
    "read_workspace_head",
    "split_workspace_path",
]

#: The prefix sandboxes mount the workspace at; ``/workspace/a.png`` means ``a.png``.
WORKSPACE_PREFIX = "/workspace"
#: Symbolic links followed in one lookup before giving up (Linux's own limit is 40).
MAX_SYMLINKS = 40
_HINT = "give a path relative to the workspace, e.g. screenshots/page.png"
_SHOWN_CHARS = 200


def _shown(path: str) -> str:
    return repr(path if len(path) <= _SHOWN_CHARS else path[:_SHOWN_CHARS] + "…")


def _outside(path: str, why: str) -> InvalidArguments:
    return InvalidArguments(
        f"the path {_shown(path)} {why}; only files inside the workspace can be viewed",
        hint=_HINT,
        refusal="workspace",
    )


def split_workspace_path(path: str, workspace: str | None = None) -> list[str]:
    """The components of a model-given ``path`` inside the workspace.

    Args:
        path: what the model passed (``shots/a.png``, ``/workspace/shots/a.png``, …).
        workspace: the workspace's absolute location, so that an absolute path under it is
            accepted too (optional).

    Returns:
        non-empty components, none of them ``.``, ``..`` or empty.

    Raises:
        InvalidArguments: empty, NUL byte, not a file name's text, ``..`` component, absolute path elsewhere, or a
            path ending in ``/`` or ``/.`` (POSIX: it names a directory, so ``ok.png/``
            never reads the file ``ok.png``).
    """
    if not path or not path.strip():
        raise InvalidArguments("the path is empty", hint=_HINT)
    if "\x00" in path:
        raise InvalidArguments("the path contains a NUL byte", hint=_HINT)
    try:
        os.fsencode(path)  # a file name's bytes (a non-UTF-8 name from a CLI argument works)
    except UnicodeEncodeError:
        raise InvalidArguments("the path is not valid text (a lone surrogate)", hint=_HINT) from None
    text = path.replace("\\", "/")
    if _names_a_directory(text):
        raise InvalidArguments(
            f"the path {_shown(path)} ends with '/', so it names a directory, not a file",
            hint=_HINT,
        )
    if text.startswith("/"):
        rest = _strip_root(text, WORKSPACE_PREFIX)
        if rest is None and workspace:
            rest = _strip_root(text, workspace.rstrip("/") or "/")
        if rest is None:  # not echoed: an absolute path is a host detail
            raise InvalidArguments(
                "an absolute path outside the workspace was given; only files inside the "
                "workspace can be viewed",
                hint=_HINT,
                refusal="workspace",
            )
        text = rest
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise _outside(path, "goes up with '..'")
    if not parts:
        raise InvalidArguments(
            f"the path {_shown(path)} names the workspace itself, not a file", hint=_HINT
        )
    return parts


def _names_a_directory(text: str) -> bool:
    """POSIX path resolution: a path ending in ``/`` or ``/.`` (or ``.``) is a directory."""
    return text in (".", "") or text.endswith(("/", "/."))


def _strip_root(text: str, root: str) -> str | None:
    """``text`` relative to ``root`` (lexically), or ``None`` when it is not under it."""
    norm = str(PurePosixPath(text))
    if norm == root:
        return ""
    if norm.startswith(root.rstrip("/") + "/"):
        return norm[len(root.rstrip("/")) + 1 :]
    return None


def read_workspace_file(workspace: Path, path: str, *, max_bytes: int) -> bytes:
    """Read the file a model-given ``path`` names inside ``workspace``.

    Args:
        workspace: the run's workspace directory.
        path: the model's path (see :func:`split_workspace_path`).
        max_bytes: largest file read (bytes); checked with ``fstat`` before reading.

    Returns:
        the file's bytes.

    Raises:
        InvalidArguments: the path is refused, leads out of the workspace (through ``..`` or
            a symbolic link), does not exist, or is not a regular file.
        TooLarge: the file is larger than ``max_bytes``.
    """
    root_text = os.fspath(workspace)
    roots = (os.path.abspath(root_text), os.path.realpath(root_text))
    parts = split_workspace_path(path, roots[0])
    try:
        root_fd = os.open(root_text, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        raise InvalidArguments(
            "the workspace is not available", hint="tell the person the workspace is missing"
        ) from None
    stack = [root_fd]  # directory fds from the root to the current directory
    try:
        fd = _walk(stack, parts, path, roots)
        try:
            return _read_regular(fd, path, max_bytes)
        finally:
            os.close(fd)
    finally:
        for dir_fd in stack:
            os.close(dir_fd)


def read_workspace_head(workspace: Path, path: str, *, max_bytes: int) -> tuple[int, bytes]:
    """The size and the first ``max_bytes`` bytes of a workspace file (image_info).

    The same confinement as :func:`read_workspace_file` (the same walk, the same refusals);
    a file larger than ``max_bytes`` is not an error here: only its beginning is read.

    Args:
        workspace: the run's workspace directory.
        path: the model's path (see :func:`split_workspace_path`).
        max_bytes: most bytes read from the start of the file.

    Returns:
        (the file's size in bytes, its first bytes).

    Raises:
        InvalidArguments: as :func:`read_workspace_file`.
    """
    root_text = os.fspath(workspace)
    roots = (os.path.abspath(root_text), os.path.realpath(root_text))
    parts = split_workspace_path(path, roots[0])
    try:
        root_fd = os.open(root_text, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        raise InvalidArguments(
            "the workspace is not available", hint="tell the person the workspace is missing"
        ) from None
    stack = [root_fd]
    try:
        fd = _walk(stack, parts, path, roots)
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise InvalidArguments(
                    f"the path {_shown(path)} names a directory, not a file", hint=_HINT
                )
            if not stat.S_ISREG(info.st_mode):
                raise InvalidArguments(f"the path {_shown(path)} is not a regular file", hint=_HINT)
            chunks = []
            remaining = max_bytes
            while remaining > 0:
                chunk = os.read(fd, min(remaining, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            return info.st_size, b"".join(chunks)
        finally:
            os.close(fd)
    finally:
        for dir_fd in stack:
            os.close(dir_fd)


def _walk(stack: list[int], parts: list[str], path: str, roots: tuple[str, ...]) -> int:
    """Resolve ``parts`` from ``stack[-1]``; return an fd of the final file (caller closes).

    ``stack`` holds directory fds from the workspace root down; ``..`` from a link target
    pops it (never past the root). ``roots`` are the workspace's absolute locations: an
    absolute link target under one of them (or under ``/workspace``) restarts at the root.
    """
    pending = list(reversed(parts))  # a stack of components still to resolve
    links = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":  # only from a link's target: our own stack, never the kernel's ..
            if len(stack) == 1:
                raise _outside(path, "leads out of the workspace through a symbolic link")
            os.close(stack.pop())
            continue
        last = not pending
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
        if not last:
            flags |= os.O_DIRECTORY
        elif _is_special(stack[-1], name):
            # Never open a device, FIFO or socket (opening alone can have effects).
            raise InvalidArguments(f"the path {_shown(path)} is not a regular file", hint=_HINT)
        try:
            fd = os.open(name, flags, dir_fd=stack[-1])
        except OSError as exc:
            target = (
                _link_target(stack[-1], name) if exc.errno in (errno.ELOOP, errno.ENOTDIR) else None
            )
            if target is None:
                raise _not_found(path, exc) from None
            links += 1
            if links > MAX_SYMLINKS:
                raise InvalidArguments(
                    f"the path {_shown(path)} has too many symbolic links", hint=_HINT
                ) from None
            if last and _names_a_directory(target):  # a link to "ok.png/" is no file either
                raise InvalidArguments(
                    f"the path {_shown(path)} names a directory, not a file", hint=_HINT
                ) from None
            if target.startswith("/"):
                inside = _under_roots(target, roots)
                if inside is None:
                    raise _outside(
                        path, "leads out of the workspace through a symbolic link"
                    ) from None
                while len(stack) > 1:  # restart at the workspace root
                    os.close(stack.pop())
                target = inside
            pending.extend(reversed([p for p in target.split("/") if p not in ("", ".")]))
            continue
        if last:
            return fd
        stack.append(fd)
    raise InvalidArguments(f"the path {_shown(path)} names a directory, not a file", hint=_HINT)


def _under_roots(target: str, roots: tuple[str, ...]) -> str | None:
    """An absolute link target relative to the workspace, or ``None`` when outside it."""
    for root in (*roots, WORKSPACE_PREFIX):
        rest = _strip_root(target, root)
        if rest is not None:
            return rest
    return None


def _is_special(dir_fd: int, name: str) -> bool:
    """True when ``name`` exists in ``dir_fd`` and is neither a file, directory nor link."""
    try:
        info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return False
    mode = info.st_mode
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def _link_target(dir_fd: int, name: str) -> str | None:
    """The target of the symbolic link ``name`` in ``dir_fd``, or ``None`` when not a link."""
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except OSError:
        return None


def _not_found(path: str, exc: OSError) -> InvalidArguments:
    if exc.errno == errno.ENOENT:
        return InvalidArguments(
            f"no file {_shown(path)} in the workspace",
            hint="check the file name (paths are relative to the workspace)",
        )
    if exc.errno == errno.ENOTDIR:
        return InvalidArguments(
            f"the path {_shown(path)} goes through something that is not a directory", hint=_HINT
        )
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InvalidArguments(
            f"the file {_shown(path)} cannot be read (permission denied)", hint=_HINT
        )
    return InvalidArguments(f"the file {_shown(path)} cannot be opened", hint=_HINT)


def _read_regular(fd: int, path: str, max_bytes: int) -> bytes:
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise InvalidArguments(f"the path {_shown(path)} names a directory, not a file", hint=_HINT)
    if not stat.S_ISREG(info.st_mode):
        raise InvalidArguments(f"the path {_shown(path)} is not a regular file", hint=_HINT)
    if info.st_size > max_bytes:
        raise TooLarge(
            f"the file is {human_bytes(info.st_size)}, over the {human_bytes(max_bytes)} image size cap",
            hint="make a smaller copy of the image first",
            source_bytes=info.st_size,
            cap_bytes=max_bytes,
        )
    chunks = []
    remaining = max_bytes + 1  # the file may grow after fstat: never read past the cap
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise TooLarge(
            f"the file is over the {human_bytes(max_bytes)} image size cap",
            hint="make a smaller copy of the image first",
            cap_bytes=max_bytes,
        )
    return data
