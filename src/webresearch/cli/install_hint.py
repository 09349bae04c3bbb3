"""Install hints that fit how webresearch was installed.

webresearch is not published on PyPI — a package of that name there is someone else's —, so
no message names the bare ``pip install 'webresearch[browser]'``. The library's messages
name the extra as run in the checkout: ``pip install -e '.[browser]' in the webresearch
checkout``. :func:`fit_install_hints` rewrites such a hint (or an older bare one) in a line
the CLI prints to fit the installation it runs from (PEP 610 ``direct_url.json``): the
checkout's own path for an install from a directory (``pip install -e
'<checkout>[browser]'``), the checkout form when it cannot tell where the checkout is, and
for an install from a wheel, a git URL or an index — no checkout to name — ``install the
extra browser from where you installed webresearch``.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from urllib.parse import unquote, urlsplit

__all__ = ["fit_install_hints", "source_checkout"]

#: The library's form (``pip install -e '.[X]' in the webresearch checkout``), or a bare one.
_HINT = re.compile(
    r"pip install -e '\.\[([\w,-]+)\]' in the webresearch checkout"
    r"|(?:pip )?install '?webresearch\[([\w,-]+)\]'?"
)


def source_checkout(distribution: str = "webresearch") -> str | None:
    """The checkout directory webresearch was installed from (editable or not), ``None``
    for an install from a package index, a wheel or an archive, or a git URL; ``""`` when
    the package has no installed metadata (run from a source tree on ``PYTHONPATH``) or the
    directory is not a local path."""
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
        return None  # a wheel, an archive or a git URL: no checkout to name
    url = str(data.get("url") or "")
    return unquote(urlsplit(url).path) if url.startswith("file:") else ""


def fit_install_hints(line: str, checkout: str | None) -> str:
    """``line`` with each install hint (module docstring) fitted to the installation.

    Args:
        line: a message that may hold install hints.
        checkout: :func:`source_checkout`'s answer: a path gives ``pip install -e
            '<path>[X]'``, ``""`` (unknown checkout) the checkout form run in it: ``pip
            install -e '.[X]' in the checkout``, ``None`` (no checkout) ``install the extra X
            from where you installed webresearch``.
    """

    def fit(match: re.Match[str]) -> str:
        extra = match.group(1) or match.group(2)
        if checkout is None:
            return f"install the extra {extra} from where you installed webresearch"
        if checkout:
            return f"pip install -e '{checkout}[{extra}]'"
        return f"pip install -e '.[{extra}]' in the checkout"

    return _HINT.sub(fit, line)
