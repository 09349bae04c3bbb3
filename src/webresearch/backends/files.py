"""Private files for journals and state: the journal holds what agents did (URLs, outputs).

New files are created readable by their owner only (0600), new directories 0700; existing
files keep the permissions an operator gave them.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ensure_private_file"]


def ensure_private_file(path: Path) -> None:
    """Create ``path`` (and missing parent directories) with owner-only permissions.

    Raises:
        OSError: the directory or file cannot be created.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
    os.close(fd)
