"""Encrypted PDFs on the core install (issue 21 item 3, case 36).

Publishers encrypt PDFs only to set "no copy / no print" flags: the user password is empty and
every viewer opens them. Both AES strengths and RC4 read on the install without extras; a PDF
that cannot be decrypted here says why (the algorithm, a password, a missing library), never
"no text layer … scanned images" and never ``internal``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from tests.conftest import CASES
from tests.support.cli_runs import sigint_default
from tests.support.http_server import LocalServer, Route, load_case
from webresearch import Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal

CASE = CASES / "36-encrypted-pdf-core-install"
ROOT = Path(__file__).resolve().parents[2]
MARKER = "ENCRYPTED-PDF-TEXT marker sentence."
#: Every optional dependency (the extras): blocked, the child process is a core-only install.
EXTRAS = "PIL,playwright,ddgs,mcp,mcp_types,starlette,uvicorn,redis,psycopg,lightpanda"


def _encrypted(algorithm: str, user_password: str = "") -> bytes:
    """The case's one-page text PDF, encrypted with ``algorithm`` (pypdf's names)."""
    source = PdfReader(CASE / "enc-aes-128.pdf")
    source.decrypt("")
    writer = PdfWriter()
    writer.append(source)
    writer.encrypt(user_password=user_password, owner_password="owner-only", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def pdf_server() -> Iterator[LocalServer]:
    with LocalServer(load_case(CASE)) as srv:
        for algorithm in ("RC4-40", "RC4-128", "AES-128", "AES-256"):
            srv.routes[f"/{algorithm}.pdf"] = Route(
                headers=[("Content-Type", "application/pdf")], body=_encrypted(algorithm)
            )
            srv.routes[f"/{algorithm}-password.pdf"] = Route(
                headers=[("Content-Type", "application/pdf")],
                body=_encrypted(algorithm, user_password="secret"),
            )
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings, journal=MemoryJournal()) as tk:
        yield tk


@pytest.mark.parametrize("path", ["/enc-aes-128.pdf", "/enc-aes-256.pdf"])
async def test_case_36_aes_pdfs_read(toolkit: Toolkit, pdf_server: LocalServer, path: str) -> None:
    result = await toolkit.call("web_fetch", {"url": pdf_server.base + path})
    assert result.ok, result.text
    assert MARKER in result.text
    assert result.meta["content_type"] == "application/pdf"


@pytest.mark.parametrize("algorithm", ["RC4-40", "RC4-128", "AES-128", "AES-256"])
async def test_every_algorithm_with_an_empty_user_password_reads(
    toolkit: Toolkit, pdf_server: LocalServer, algorithm: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{pdf_server.base}/{algorithm}.pdf"})
    assert result.ok, result.text
    assert MARKER in result.text


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-128", "AES-256"])
async def test_a_real_password_is_named_with_the_algorithm(
    toolkit: Toolkit, pdf_server: LocalServer, algorithm: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{pdf_server.base}/{algorithm}-password.pdf"})
    assert result.error is not None and result.error.code == "unsupported_content"
    assert not result.error.retryable
    assert f"encrypted ({algorithm}) with a password" in result.text
    assert "scanned" not in result.text and "no text layer" not in result.text


def _cli(url: str, pythonpath: list[Path]) -> subprocess.CompletedProcess[str]:
    code = "import sys; from webresearch.cli.main import main; sys.argv[0] = 'webresearch'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, "fetch", url, "--allow-private"],
        preexec_fn=sigint_default,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "PYTHONPATH": ":".join(str(p) for p in pythonpath),
            "PATH": "/usr/bin:/bin",
            "WEBRESEARCH_JOURNAL_URL": "memory://",
            "WEBRESEARCH_SEARCH_PROVIDER": "none",
        },
    )


@pytest.mark.parametrize(
    ("path", "algorithm"), [("/enc-aes-128.pdf", "AES-128"), ("/enc-aes-256.pdf", "AES-256")]
)
def test_without_the_crypto_library_the_cause_is_named(
    pdf_server: LocalServer, path: str, algorithm: str
) -> None:
    """A broken install (the case's ``no-cryptography`` package shadows the real one)."""
    done = _cli(pdf_server.base + path, [CASE / "no-cryptography", ROOT / "src"])
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"error[unsupported_content]: this PDF is encrypted ({algorithm})" in lines[0]
    assert "cryptography package is missing" in lines[0]
    assert "scanned" not in lines[0]


CORE_CHILD = r"""
import asyncio, json, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # not installed (import raises ModuleNotFoundError)
from webresearch import Settings, Toolkit

async def main():
    settings = Settings.load(environ={}, journal_url="memory://", search_provider="none",
                             allow_private=True)
    async with Toolkit(settings) as tk:
        out = {}
        for path in sys.argv[3:]:
            r = await tk.call("web_fetch", {"url": sys.argv[2] + path})
            out[path] = r.text
        print(json.dumps(out))

asyncio.run(main())
"""


def test_the_core_install_reads_both_aes_strengths(pdf_server: LocalServer) -> None:
    paths = ["/enc-aes-128.pdf", "/enc-aes-256.pdf"]
    done = subprocess.run(
        [sys.executable, "-c", CORE_CHILD, EXTRAS, pdf_server.base, *paths],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    texts = json.loads(done.stdout.strip().splitlines()[-1])
    for path in paths:
        assert MARKER in texts[path], texts[path]


def test_the_crypto_library_is_a_core_dependency() -> None:
    """What ``pip install webresearch`` installs: cryptography comes with pypdf[crypto], not
    with an extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = [d.replace(" ", "") for d in project["dependencies"]]
    assert any(d.startswith("pypdf[") and "crypto" in d.split("]")[0] for d in core), core
    for extra, deps in project["optional-dependencies"].items():
        assert not any(d.startswith("cryptography") for d in deps), extra
