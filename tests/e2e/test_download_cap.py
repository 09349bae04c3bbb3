"""Pages over the download cap (issue 21 item 5, case 39).

HTML and text over the cap are converted as far as they arrived, with
``download_truncated: true`` and a ``note:`` line saying the download was cut (separate from
the output-budget marker); PDFs, images and other binaries over the cap stay ``too_large``;
the download itself stops at the cap (``tests/e2e/test_web_fetch_hostile.py`` holds the
decompression bombs).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.conftest import CASES
from tests.support.http_server import LocalServer, Route, load_case
from tests.support.tiny_png import png_bytes
from webresearch import Settings, Toolkit
from webresearch.addresses import AddressPolicy
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.runtime.journal import MemoryJournal

#: The small cap of the kind tests (bytes): the same rules as 2 MiB, converted quickly.
CAP = 64 * 1024
#: What a reader may take beyond the cap (one read buffer, one decoder piece).
SLACK = 128 * 1024
NOTE = "note: the page is larger than the 64 KiB download cap; only its first 64 KiB were"

ARTICLE = (
    "<!doctype html><html><head><title>Long catalogue</title></head><body>"
    "<main><h1>Catalogue of kettles</h1><p>FIRST-PARAGRAPH: the catalogue opens with the "
    "gooseneck models, then the travel kettles.</p></main><section>"
)


def _padding(n: int) -> str:
    return "".join(f"<div class='card'><a href='/p/{i}'>Item {i}</a></div>\n" for i in range(n))


BODIES: dict[str, tuple[str, bytes]] = {
    "/page.html": ("text/html; charset=utf-8", (ARTICLE + _padding(6000)).encode()),
    "/notes.txt": (
        "text/plain; charset=utf-8",
        b"FIRST-LINE of the notes\n" + b"more words\n" * 30000,
    ),
    "/table.csv": ("text/csv", b"name,price\nFIRST-ROW,1\n" + b"kettle,2\n" * 40000),
    "/rows.jsonl": (
        "application/x-ndjson",
        b'{"id": "FIRST-RECORD"}\n' + b'{"id": "more"}\n' * 20000,
    ),
    "/data.json": (
        "application/json",
        b'{"first": "FIRST-KEY", "rows": [' + b'"x",' * 80000 + b'"y"]}',
    ),
    "/labelled.png": (
        "image/png",
        b"FIRST-LINE of text served as a PNG\n" + b"plain text\n" * 30000,
    ),
}
BINARIES: dict[str, tuple[str, bytes]] = {
    "/doc.pdf": ("application/pdf", b"%PDF-1.7\n" + b"\x00\x01\x02" * 100_000),
    "/photo.png": ("image/png", png_bytes() + b"\x00" * 300_000),
    "/archive.zip": ("application/zip", b"PK\x03\x04" + b"\x00\x01" * 150_000),
    "/blob": ("application/octet-stream", bytes(range(256)) * 1200),
}


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        for path, (kind, body) in {**BODIES, **BINARIES}.items():
            srv.routes[path] = Route(headers=[("Content-Type", kind)], body=body)
            srv.routes[path + "-chunked"] = Route(
                headers=[("Content-Type", kind)], body=body, chunked=True
            )
        srv.routes["/small.html"] = Route(
            headers=[("Content-Type", "text/html")], body=(ARTICLE + _padding(5)).encode()
        )
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    small = settings.replace(download_cap_bytes=CAP, render="never")
    async with Toolkit(small, journal=MemoryJournal()) as tk:
        yield tk


@pytest.mark.parametrize("path", sorted(BODIES))
@pytest.mark.parametrize("chunked", [False, True])
async def test_text_over_the_cap_is_read_as_far_as_the_cap(
    toolkit: Toolkit, site: LocalServer, path: str, chunked: bool
) -> None:
    url = site.base + path + ("-chunked" if chunked else "")
    result = await toolkit.call("web_fetch", {"url": url})
    assert result.ok, result.text
    assert result.meta["download_truncated"] is True
    assert CAP <= result.meta["bytes_downloaded"] <= CAP + SLACK
    assert result.meta["body_bytes"] == CAP
    assert NOTE in result.text
    assert "FIRST-" in result.text  # the start of the document is there


@pytest.mark.parametrize("path", sorted(BINARIES))
@pytest.mark.parametrize("chunked", [False, True])
async def test_binaries_over_the_cap_stay_too_large(
    toolkit: Toolkit, site: LocalServer, path: str, chunked: bool
) -> None:
    url = site.base + path + ("-chunked" if chunked else "")
    result = await toolkit.call("web_fetch", {"url": url})
    assert result.error is not None and result.error.code == "too_large", result.text
    assert "64 KiB download cap" in result.text and not result.error.retryable


async def test_a_page_under_the_cap_says_nothing_about_it(
    toolkit: Toolkit, site: LocalServer
) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/small.html"})
    assert result.ok and result.meta["download_truncated"] is False
    assert "download cap" not in result.text


async def test_the_output_budget_and_offset_still_apply_to_a_cut_download(
    toolkit: Toolkit, site: LocalServer
) -> None:
    url = f"{site.base}/notes.txt"
    first = await toolkit.call("web_fetch", {"url": url, "max_bytes": 1000})
    assert first.ok and NOTE in first.text
    assert first.text.rstrip().endswith(f"of {first.meta['total_bytes']} bytes]")  # its own marker
    following = await toolkit.call("web_fetch", {"url": url, "offset": first.meta["next_offset"]})
    assert following.ok and "FIRST-LINE" not in following.text


async def test_fetch_image_over_its_cap_stays_too_large(
    settings: Settings, site: LocalServer
) -> None:
    async with Toolkit(settings.replace(image_max_source_bytes=CAP), journal=MemoryJournal()) as tk:
        result = await tk.call("fetch_image", {"url": f"{site.base}/photo.png"})
    assert result.error is not None and result.error.code == "too_large", result.text


# --- case 39: a 4.9 MB shop page, main content in the first 0.7 MB ------------------------

CASE = CASES / "39-html-over-download-cap"


@pytest.fixture(scope="module")
def case_39(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalServer, bytes]]:
    folder = tmp_path_factory.mktemp("case39")
    for name in ("gen.py", "headers.json"):
        shutil.copy(CASE / name, folder / name)
    subprocess.run([sys.executable, str(folder / "gen.py")], check=True, capture_output=True)
    page = (folder / "page.html").read_bytes()
    assert len(page) == 4_940_654  # the case's own size (its README)
    with LocalServer(load_case(folder)) as srv:
        yield srv, page


@pytest.mark.slow
async def test_case_39_the_shop_page_is_read_from_its_first_2_mib(
    settings: Settings, case_39: tuple[LocalServer, bytes]
) -> None:
    server, page = case_39
    cap = 2 * 1024 * 1024
    async with Toolkit(settings.replace(render="never"), journal=MemoryJournal()) as tk:
        result = await tk.call("web_fetch", {"url": f"{server.base}/"})
    assert result.ok, result.text
    for needle in (
        "Stillwater KT-420 gooseneck kettle",
        "holds the water temperature within one degree",
        "1200 W",
        "MAIN-CONTENT-END: descaling every four weeks",
    ):
        assert needle in result.text
    assert "window.__STATE__" not in result.text and "grid-template-columns" not in result.text
    assert (
        "note: the page is larger than the 2 MiB download cap; only its first 2 MiB were "
        "downloaded and converted"
    ) in result.text
    assert result.meta["download_truncated"] is True
    assert cap <= result.meta["bytes_downloaded"] <= cap + SLACK  # not 4.9 MB, then cut
    # /chunked (no length in advance) stops at the cap with the same bytes; what is converted
    # is a function of those bytes alone, so the text above is what it gives.
    guard = SSRFGuard(AddressPolicy.from_strings(allowed_networks=["127.0.0.0/8"]))
    async with GuardedClient(guard) as client:
        chunked = await client.get(f"{server.base}/chunked", allow_capped=True)
    assert chunked.capped and chunked.body == page[:cap]
    assert chunked.raw_bytes <= cap + SLACK
    assert chunked.headers.get("transfer-encoding") == "chunked"
