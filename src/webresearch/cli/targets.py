"""What a command-line target is: a URL (for a network tool) or a PATH (a local file).

``fetch`` and ``image`` decide alike and word the same problems alike; ``browse``, web_fetch,
fetch_image and the browser tool word a URL without its scheme the same way
(:func:`webresearch.url_text.scheme_hint`).
"""

from __future__ import annotations

import os
import re

from webresearch import InvalidArguments

from ..url_text import clean_url, scheme_hint

__all__ = [
    "EMPTY_URL",
    "empty_problem",
    "file_problem",
    "is_url",
    "path_hint",
    "scheme_hint",
    "unreadable",
]

#: The usage error of an empty URL where only a URL is taken (``browse ""``).
EMPTY_URL = "an empty URL was given"

#: ``scheme:`` at the start of a target, not followed by a port (``example.org:8080/x`` is a
#: URL typed without its scheme): ``javascript:…``, ``data:…``, ``mailto:…`` (RFC 3986 §3.1).
_SCHEME_ONLY = re.compile(r"[A-Za-z][A-Za-z0-9+-]*:(?!\d)")
#: A Windows path: a drive (``C:\\x``, ``C:/x``) or a UNC share (``\\\\server\\share``).
_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]|\\\\[^\\]")


def empty_problem(targets: tuple[str, ...] | list[str], what: str = "URL or PATH") -> str | None:
    """The usage error of an empty or blank target (``fetch ""``, ``image "$UNSET"``),
    else ``None``."""
    if any(not clean_url(target) for target in targets):
        return f"an empty {what} was given"
    return None


def is_url(target: str) -> bool:
    """Whether ``target`` is read as a URL (through a network tool) rather than a file: once
    cleaned (:func:`clean_url`) it has ``://``, or starts with a scheme (``javascript:``,
    ``data:``, ``ftp:``) and names no file — so a non-http(s) URL is refused as one
    (invalid_arguments), not as a missing file."""
    cleaned = clean_url(target)
    if "://" in cleaned:
        return True
    if _WINDOWS_PATH.match(cleaned):  # ``C:\\page.html``: a drive letter is no scheme
        return False
    return _SCHEME_ONLY.match(cleaned) is not None and not os.path.lexists(target)


def path_hint(target: str, exc: OSError, what: str = "an HTML file") -> str:
    """The next step after a target could not be read as a file: a URL typed without its
    scheme (``example.org/page``) or with only its ``//`` (``//example.org/page``, RFC 3986
    §4.2's network-path reference) gets its URL form; a Windows path (``C:\\x.html``,
    ``\\\\server\\share``) on another system says so, with the drive's WSL mount; a path
    gets the file's problem (``what`` names the file a directory should hold: ``an image
    file`` for ``image``)."""
    if isinstance(exc, IsADirectoryError):
        return f"give {what} inside it, not the directory"
    cleaned = clean_url(target)
    hint = scheme_hint(cleaned[2:] if cleaned.startswith("//") else cleaned)
    if hint is not None:
        return hint
    if os.name != "nt" and (windows := _WINDOWS_PATH.match(cleaned)) is not None:
        return _windows_hint(cleaned, windows.group())
    if isinstance(exc, FileNotFoundError):
        return "check the file's path, or give a URL with its scheme (https://…)"
    return "check that the file can be read"


def _windows_hint(path: str, start: str) -> str:
    """The next step for a Windows path given on a system that names files otherwise."""
    hint = "that is a Windows path: give the file's path on this system"
    if start[0] != "\\":  # a drive: where WSL mounts it (``C:\\x`` -> ``/mnt/c/x``)
        rest = path[2:].replace("\\", "/").lstrip("/")
        hint += f" (under WSL: /mnt/{path[0].lower()}/{rest})"
    return hint


def unreadable(target: str, exc: OSError, what: str = "an HTML file") -> InvalidArguments:
    """``cannot read TARGET: <reason>`` with :func:`path_hint`'s next step — the one wording
    of a PATH that cannot be read, in ``fetch`` and ``image`` alike."""
    return InvalidArguments(
        f"cannot read {target}: {exc.strerror or type(exc).__name__}",
        hint=path_hint(target, exc, what),
    )


def file_problem(target: str, what: str) -> InvalidArguments | None:
    """:func:`unreadable`'s error when ``target`` cannot be opened as a file (missing, a
    directory, no permission), else ``None``. Opens and closes it; reads nothing."""
    try:
        with open(target, "rb"):
            pass
    except OSError as exc:
        return unreadable(target, exc, what)
    return None
