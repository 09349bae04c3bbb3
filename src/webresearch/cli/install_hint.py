"""Install hints that fit how webresearch was installed.

webresearch is not published on PyPI — a package of that name there is someone else's —, so
no message names the bare ``pip install 'webresearch[browser]'``. The library's messages
name the extra as run in the checkout: ``pip install -e '.[browser]' in the webresearch
checkout``. :func:`fit_install_hints` rewrites such a hint (or an older bare one) in a line
the CLI prints to fit the installation it runs from (:class:`Installation`, read from PEP
610's ``direct_url.json``): the checkout's own path for an install from a directory —
``pip install -e '<checkout>[browser]'`` for an editable install, ``pip install
'<checkout>[browser]'`` for a copy (``pip install .``: an ``-e`` would swap it for a link to
the checkout) —, the checkout form when it cannot tell where the checkout is, and for an
install from a wheel, a git URL or an index — no checkout to name — ``install the extra
browser from where you installed webresearch``. The pip named is the one of the Python
running webresearch (``/path/.venv/bin/pip``, else ``python -m pip``): a bare ``pip`` on
the ``PATH`` may install into another environment.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["Installation", "environment_pip", "fit_install_hints", "source_checkout"]

#: The library's form (``pip install -e '.[X]' in the webresearch checkout``), or a bare one.
_HINT = re.compile(
    r"pip install -e '\.\[([\w,-]+)\]' in the webresearch checkout"
    r"|(?:pip )?install '?webresearch\[([\w,-]+)\]'?"
)


@dataclass(frozen=True, slots=True)
class Installation:
    """How webresearch was installed, for the install hints.

    Attributes:
        checkout: the checkout directory it was installed from (:func:`source_checkout`),
            ``""`` when unknown, ``None`` when it came from no checkout.
        editable: installed as a link to the checkout (``pip install -e``), not a copy.
        pip: the command running this environment's pip (:func:`environment_pip`).
    """

    checkout: str | None
    editable: bool = True
    pip: str = "pip"

    @classmethod
    def of(cls, distribution: str = "webresearch") -> Installation:
        """The installation of ``distribution`` in the running Python."""
        data = _direct_url(distribution)
        dir_info = data.get("dir_info") if data is not None else None
        editable = not isinstance(dir_info, dict) or dir_info.get("editable") is True
        return cls(source_checkout(distribution), editable, environment_pip())


def environment_pip() -> str:
    """The pip of the Python running webresearch: its virtual environment's ``bin/pip``
    (``Scripts\\pip.exe`` on Windows) when there is one, else ``<python> -m pip`` — shell-
    quoted, ready to paste."""
    if sys.prefix != sys.base_prefix:
        pip = (
            Path(sys.prefix, "Scripts", "pip.exe")
            if os.name == "nt"
            else Path(sys.prefix, "bin", "pip")
        )
        if pip.is_file():
            return shlex.quote(str(pip))
    return f"{shlex.quote(sys.executable or 'python3')} -m pip"


def _direct_url(distribution: str) -> dict[str, object] | None:
    """PEP 610's ``direct_url.json`` of ``distribution``, ``None`` when it has none (or no
    installed metadata, or it is not a JSON object)."""
    try:
        text = metadata.distribution(distribution).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def source_checkout(distribution: str = "webresearch") -> str | None:
    """The checkout directory webresearch was installed from (editable or not), ``None``
    for an install from a package index, a wheel or an archive, or a git URL; ``""`` when
    the package has no installed metadata (run from a source tree on ``PYTHONPATH``) or the
    directory is not a local path."""
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return ""
    data = _direct_url(distribution)
    if data is None or not isinstance(data.get("dir_info"), dict):
        return None  # a wheel, an archive or a git URL: no checkout to name
    url = str(data.get("url") or "")
    return unquote(urlsplit(url).path) if url.startswith("file:") else ""


def fit_install_hints(line: str, where: Installation) -> str:
    """``line`` with each install hint (module docstring) fitted to the installation.

    Args:
        line: a message that may hold install hints.
        where: the installation (:meth:`Installation.of`): a checkout path gives ``<pip>
            install -e '<path>[X]'`` (``-e`` only for an editable install), ``""`` (unknown
            checkout) the checkout form run in it: ``<pip> install -e '.[X]' in the
            checkout``, ``None`` (no checkout) ``install the extra X from where you
            installed webresearch``.
    """

    def fit(match: re.Match[str]) -> str:
        extra = match.group(1) or match.group(2)
        if where.checkout is None:
            return f"install the extra {extra} from where you installed webresearch"
        if where.checkout:
            link = "-e " if where.editable else ""
            return f"{where.pip} install {link}'{where.checkout}[{extra}]'"
        return f"{where.pip} install -e '.[{extra}]' in the checkout"

    return _HINT.sub(fit, line)
