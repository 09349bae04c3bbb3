"""Install hints that fit how webresearch was installed.

The library's messages name the extra as ``pip install 'webresearch[browser]'`` (right for an
install from PyPI). Someone running from a source checkout (``pip install -e .``) needs
``pip install -e '<checkout>[browser]'`` instead: the package index form would install a
second copy. :func:`fit_install_hints` rewrites the hints in a line the CLI prints when the
installation is editable (PEP 610 ``direct_url.json``: ``dir_info.editable``), and names
both forms when it cannot tell.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from urllib.parse import unquote, urlsplit

__all__ = ["editable_checkout", "fit_install_hints"]

_HINT = re.compile(r"(?:pip )?install '?webresearch\[([\w,-]+)\]'?")


def editable_checkout(distribution: str = "webresearch") -> str | None:
    """The checkout directory of an editable install, ``None`` for a regular install;
    ``""`` when the package has no installed metadata (run from a source tree on
    ``PYTHONPATH``)."""
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
    if not (isinstance(data, dict) and (data.get("dir_info") or {}).get("editable")):
        return None
    url = str(data.get("url") or "")
    return unquote(urlsplit(url).path) if url.startswith("file:") else ""


def fit_install_hints(line: str, checkout: str | None) -> str:
    """``line`` with each ``pip install 'webresearch[X]'`` fitted to the installation.

    Args:
        line: a message that may hold install hints.
        checkout: :func:`editable_checkout`'s answer: ``None`` keeps the PyPI form, a path
            gives ``pip install -e '<path>[X]'``, ``""`` (unknown checkout) names both forms.
    """
    if checkout is None:
        return line

    def fit(match: re.Match[str]) -> str:
        extra = match.group(1)
        if checkout:
            return f"pip install -e '{checkout}[{extra}]'"
        return (
            f"pip install 'webresearch[{extra}]', or from a checkout: pip install -e '.[{extra}]'"
        )

    return _HINT.sub(fit, line)
