"""Files the CLI writes for people (screenshots, prepared images): checked before any work
and written without tracebacks — every problem is one line."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["free_name", "output_problem", "write_file"]


def output_problem(path: str) -> str | None:
    """Why ``path`` cannot be written (checked before the browser or the network is used),
    or ``None`` when it looks writable.

    The check cannot promise the later write (the disk may fill, permissions may change):
    :func:`write_file` reports those failures the same way.
    """
    target = Path(path)
    if target.is_dir():
        return f"cannot write {path}: it is a directory"
    parent = target.parent
    if not parent.exists():
        return f"cannot write {path}: the directory {parent} does not exist"
    if not parent.is_dir():
        return f"cannot write {path}: {parent} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {path}: the directory {parent} is not writable"
    if target.exists() and not os.access(target, os.W_OK):
        return f"cannot write {path}: the file is not writable"
    return None


def write_file(path: str | Path, data: bytes) -> str | None:
    """Write ``data`` to ``path``; returns ``None``, or a one-line reason when it failed."""
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        return f"could not write {path}: {exc.strerror or type(exc).__name__}"
    return None


def free_name(directory: Path, stem: str, suffix: str) -> Path:
    """The first ``<stem>-<n><suffix>`` (n = 1, 2, …) in ``directory`` that does not exist
    (nor its tile siblings ``<stem>-<n>-2<suffix>``…)."""
    n = 1
    while True:
        candidate = directory / f"{stem}-{n}{suffix}"
        if not candidate.exists() and not (directory / f"{stem}-{n}-2{suffix}").exists():
            return candidate
        n += 1
