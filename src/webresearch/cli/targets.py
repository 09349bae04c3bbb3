"""What a command-line target is: a URL (for a network tool) or a PATH (a local file).

``fetch`` and ``image`` decide alike and word the same problems alike; ``browse``, web_fetch,
fetch_image and the browser tool word a URL without its scheme the same way
(:func:`webresearch.url_text.scheme_hint`), but the tools name no URL of an internal host to a
model; a person gets it with the exemption it needs (:mod:`.local_hints`).
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from typing import TextIO
from urllib.parse import unquote, urlsplit

from webresearch import InvalidArguments

from ..url_text import clean_url, scheme_hint, suggested_url
from .local_hints import Exemptions, url_step

__all__ = [
    "EMPTY_URL",
    "empty_problem",
    "file_problem",
    "is_url",
    "local_targets",
    "path_hint",
    "read_file",
    "read_stdin",
    "scheme_hint",
    "unreadable",
]

#: The usage error of an empty URL where only a URL is taken (``browse ""``).
EMPTY_URL = "an empty URL was given"

#: ``scheme:`` at the start of a target, not followed by a port (``example.org:8080/x`` is a
#: URL typed without its scheme): ``javascript:…``, ``data:…``, ``mailto:…`` (RFC 3986 §3.1).
_SCHEME_ONLY = re.compile(r"[A-Za-z][A-Za-z0-9+-]*:(?!\d)")
#: A Windows path: a drive (``C:\\x``, ``C:/x``, or ``C:x``, relative to the drive's current
#: folder: one letter is a drive, never a URL's scheme) or a UNC share (``\\\\server\\share``).
_WINDOWS_PATH = re.compile(r"[A-Za-z]:(?:[\\/]|(?!//))|\\\\[^\\]")


def empty_problem(targets: tuple[str, ...] | list[str], what: str = "URL or PATH") -> str | None:
    """The usage error of an empty or blank target (``fetch ""``, ``image "$UNSET"``),
    else ``None``."""
    if any(not clean_url(target) for target in targets):
        return f"an empty {what} was given"
    return None


#: How a ``file:`` URL is written (RFC 8089 §2): ``file:///path`` (empty host),
#: ``file://localhost/path`` or ``file:/path``.
_FILE_URL = re.compile(r"file:", re.IGNORECASE)


def file_url_path(target: str) -> str | None:
    """The local path a ``file:`` URL names (``file:///tmp/a%20b.html`` → ``/tmp/a b.html``,
    also ``file://localhost/…`` and ``file:/…``, RFC 8089), else ``None``. The CLI reads a
    person's own file by path, so the ``url:`` line it prints for one (``file:///…``) is
    taken back as that path; the tools (web_fetch, fetch_image) never take ``file:``.

    Raises:
        InvalidArguments: a ``file:`` URL of another machine (``file://server/x``) or
            without a path.
    """
    cleaned = clean_url(target)
    if not _FILE_URL.match(cleaned) or os.path.lexists(target):
        return None
    parts = urlsplit(cleaned)
    path = unquote(parts.path)
    if parts.netloc.lower() not in ("", "localhost") or not path.startswith("/"):
        raise InvalidArguments(
            f"{cleaned[:200]} is not a file on this machine",
            hint="give the file's path (e.g. /home/me/page.html) or file:///home/me/page.html",
        )
    if "\x00" in path:
        raise InvalidArguments(
            f"{cleaned[:200]} names no file: a path cannot hold a NUL character (%00)",
            hint="give the file's path (e.g. /home/me/page.html) or file:///home/me/page.html",
        )
    if parts.query or parts.fragment:
        raise InvalidArguments(
            f"{cleaned[:200]} has a query or fragment, which a local file does not take",
            hint=f"give the path alone: file://{parts.path}"[:300],
        )
    return path


def local_targets(targets: list[str]) -> list[str]:
    """``targets`` with each ``file:`` URL as the path it names (:func:`file_url_path`).

    Raises:
        InvalidArguments: a ``file:`` URL that names no local file.
    """
    return [path if (path := file_url_path(t)) is not None else t for t in targets]


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


def path_hint(
    target: str, exc: OSError, what: str = "an HTML file", exempt: Exemptions | None = None
) -> str:
    """The next step after a target could not be read as a file: a URL typed without its
    scheme (``example.org/page``) or with only its ``//`` (``//example.org/page``, RFC 3986
    §4.2's network-path reference) gets its URL form; a Windows path (``C:\\x.html``,
    ``\\\\server\\share``) on another system says so, with the drive's WSL mount; a path
    gets the file's problem (``what`` names the file a directory should hold: ``an image
    file`` for ``image``). A local URL's step names the exemption ``exempt`` lacks
    (:func:`~.local_hints.url_step`)."""
    if isinstance(exc, IsADirectoryError):
        return f"give {what} inside it, not the directory"
    cleaned = clean_url(target)
    hint = url_step(cleaned, exempt)
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
    if start[0] == "\\":  # a UNC share: no mount to name
        return hint
    mount = f"/mnt/{path[0].lower()}"
    if len(start) == 2:  # ``C:x``: relative to the drive's current folder, unknown here
        return hint + f" (under WSL, drive {path[0].upper()}: is {mount})"
    rest = path[2:].replace("\\", "/").lstrip("/")  # where WSL mounts it: ``/mnt/c/x``
    return hint + f" (under WSL: {mount}/{rest})"


def unreadable(
    target: str, exc: OSError, what: str = "an HTML file", exempt: Exemptions | None = None
) -> InvalidArguments:
    """``cannot read TARGET: <reason>`` with :func:`path_hint`'s next step — the one wording
    of a PATH that cannot be read, in ``fetch`` and ``image`` alike. A missing "file" that
    is a URL typed without its scheme (``localhost:8765/x``) is named as neither."""
    reason = exc.strerror or type(exc).__name__
    cleaned = clean_url(target)
    if isinstance(exc, FileNotFoundError) and suggested_url(
        cleaned[2:] if cleaned.startswith("//") else cleaned
    ):
        reason = "it is neither a file here nor a URL with its scheme (http:// or https://)"
    return InvalidArguments(
        f"cannot read {target}: {reason}", hint=path_hint(target, exc, what, exempt)
    )


def file_problem(
    target: str, what: str, exempt: Exemptions | None = None
) -> InvalidArguments | None:
    """:func:`unreadable`'s error when ``target`` cannot be opened as a regular file
    (missing, a directory, no permission, a FIFO, device or socket), else ``None``. Opens
    and closes it without blocking; reads nothing."""
    try:
        os.close(_open_regular(target, what))
    except OSError as exc:
        return unreadable(target, exc, what, exempt)
    except InvalidArguments as exc:
        return exc
    return None


def read_file(
    target: str,
    what: str = "an HTML file",
    limit: int | None = None,
    exempt: Exemptions | None = None,
) -> bytes:
    """The bytes of the regular file ``target`` — the one way the CLI reads a PATH.

    Opening never blocks (``O_NONBLOCK``: opening a FIFO for reading would wait for a
    writer), and anything that is not a regular file is refused before a byte is read:
    a FIFO, a device (``/dev/zero`` never ends) or a socket.

    Args:
        limit: read at most this many bytes (``None``: all). The caller passes its cap
            plus one, so a file over the cap is known as such without being read whole (a
            200 MB file was read whole before the 2 MiB cap applied: 269 MB peak RSS).
        exempt: what the settings exempt from the SSRF guard, for the step after a URL
            typed without its scheme (``localhost:8765/x``: :func:`path_hint`).

    Raises:
        InvalidArguments: it cannot be read (:func:`unreadable`'s wording) or is not a
            regular file.
    """
    try:
        fd = _open_regular(target, what)
        with os.fdopen(fd, "rb") as file:
            os.set_blocking(fd, True)
            return file.read() if limit is None else file.read(limit)
    except OSError as exc:
        raise unreadable(target, exc, what, exempt) from None


def read_stdin(limit: int | None = None) -> bytes:
    """Stdin, read from its file descriptor (not through ``sys.stdin``'s buffer, whose lock
    a reading thread left behind at exit would hold); a stream without one (a test
    runner's) is read as a stream.

    Args:
        limit: read at most this many bytes (``None``: to its end); the rest is left
            unread, as :func:`read_file` leaves the rest of a file.
    """
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return sys.stdin.buffer.read(-1 if limit is None else limit)
    chunks: list[bytes] = []
    left = -1 if limit is None else limit
    while left != 0 and (chunk := os.read(fd, 65536 if left < 0 else min(65536, left))):
        chunks.append(chunk)
        left = left - len(chunk) if left > 0 else left
    return b"".join(chunks)


#: What a file that is no regular file is, by its ``stat`` type (``stat.S_IFMT``).
_KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _open_regular(target: str, what: str) -> int:
    """A read-only, non-blocking descriptor of the regular file ``target`` (the caller
    closes it).

    Raises:
        OSError: it cannot be opened (a directory: ``IsADirectoryError``).
        InvalidArguments: it is a FIFO, a device or a socket (nothing is opened).
    """
    info = os.stat(target)  # never blocks, unlike opening a FIFO
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(21, "Is a directory", target)
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(target, info.st_mode, what)
    fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode  # the file opened may have been swapped since stat
        if not stat.S_ISREG(mode):
            raise _not_regular(target, mode, what)
    except BaseException:
        os.close(fd)
        raise
    return fd


def list_file_problem(file: TextIO | None, option: str = "-i") -> str | None:
    """Why a list of URLs cannot be read from ``file``, or ``None``: a device or a socket is
    refused (``-i /dev/zero`` has no end and no line break: it was read until memory ran
    out; fresh review). A regular file, a pipe (``-i <(…)``, a FIFO), stdin and
    ``/dev/null`` (no more inputs) are read."""
    if file is None or file.name == "<stdin>":
        return None
    try:
        info = os.fstat(file.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    mode = info.st_mode
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or _is_dev_null(info):
        return None
    kind = _KINDS.get(stat.S_IFMT(mode), "a special file")
    return (
        f"{option}: cannot read {file.name}: it is {kind}, not a list of URLs "
        "(give a text file with one URL or path per line, or '-' for stdin)"
    )


def _is_dev_null(info: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev


def _not_regular(target: str, mode: int, what: str) -> InvalidArguments:
    kind = _KINDS.get(stat.S_IFMT(mode), "a special file")
    return InvalidArguments(
        f"cannot read {target}: it is {kind}, not a regular file",
        hint=f"give {what} saved on disk (a pipe, a device or a socket is never read)",
    )
