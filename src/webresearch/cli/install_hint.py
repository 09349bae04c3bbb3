"""Install hints that fit how webresearch was installed.

The library's messages name the extra as ``pip install 'webresearch[browser]'`` (right for an
install from a package index that holds webresearch). It is not published on PyPI — a package
of that name there is someone else's —, so someone running from a checkout (``pip install
.`` or ``pip install -e .``, as the README says) needs ``pip install -e '<checkout>[browser]'``
instead. :func:`fit_install_hints` rewrites the hints in a line the CLI prints when the
installation came from a directory (PEP 610 ``direct_url.json``: ``dir_info``), and names
the checkout form alone when it cannot tell where the checkout is.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from urllib.parse import unquote, urlsplit

__all__ = ["fit_install_hints", "source_checkout"]

_HINT = re.compile(r"(?:pip )?install '?webresearch\[([\w,-]+)\]'?")


def source_checkout(distribution: str = "webresearch") -> str | None:
    """The checkout directory webresearch was installed from (editable or not), ``None``
    for an install from a package index or an archive; ``""`` when the package has no
    installed metadata (run from a source tree on ``PYTHONPATH``) or the directory is not
    a local path."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return ""
    text = dist.read_text("direct_url.json")
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not (isinstance(data, dict) and isinstance(data.get("dir_info"), dict)):
        return None  # an index's wheel or an archive: no checkout to name
    url = str(data.get("url") or "")
    return unquote(urlsplit(url).path) if url.startswith("file:") else ""


def fit_install_hints(line: str, checkout: str | None) -> str:
    """``line`` with each ``pip install 'webresearch[X]'`` fitted to the installation.

    Args:
        line: a message that may hold install hints.
        checkout: :func:`source_checkout`'s answer: ``None`` keeps the index form, a path
            gives ``pip install -e '<path>[X]'``, ``""`` (unknown checkout) the checkout
            form run in it: ``pip install -e '.[X]' in the checkout``.
    """
    if checkout is None:
        return line

    def fit(match: re.Match[str]) -> str:
        extra = match.group(1)
        if checkout:
            return f"pip install -e '{checkout}[{extra}]'"
        return f"pip install -e '.[{extra}]' in the checkout"

    return _HINT.sub(fit, line)
