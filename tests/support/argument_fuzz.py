"""Any arguments for any tool, and a Toolkit whose every tool can run on them without a
socket leaving this machine (issue 20 item 4: no argument may make ``Toolkit.call`` raise).

Used by the property test (``tests/unit/tools/test_any_arguments.py``, bounded examples)
and by the long fuzz run (``bench/fuzz_arguments.py``, documented in BENCHMARKS.md).

The Toolkit gets every built-in tool, each able to get past validation into its real code:

* web_fetch and fetch_image: every host name resolves to one public address and the TCP
  seam is an in-memory fake answering a small page (no socket is opened; an IP-literal
  URL of a private range is refused by the guard, a public one reaches the fake too);
* web_search: a SearXNG on 127.0.0.1 answering one result;
* browser, browser_open, page_screenshot: a CDP endpoint on a closed 127.0.0.1 port, so
  every action that gets as far as the browser fails fast with ``browser_error``;
* view_image and image_info: a workspace holding one PNG.
"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.support.fake_net import FakeConnector, FakeRequest, http_response
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import RunContext, Settings, Toolkit
from webresearch.tools.catalog import ALL_SPECS
from webresearch.tools.specs import ToolSpec
from webresearch.types import JSONValue

__all__ = [
    "ODD_TEXTS",
    "arguments_for",
    "fuzz_run",
    "fuzz_toolkit",
    "json_values",
    "searxng_server",
]

#: Text that has broken tools like ours: lone surrogates, NUL and other controls, bidi and
#: tag characters, lenient numbers, huge and empty strings, URL tricks.
ODD_TEXTS: tuple[str, ...] = (
    "",
    " ",
    "\ud800",
    "a\udcffb",
    "\x00",
    "http://a.example/\x00",
    "http://a.example/\ud800",
    "\u202eexe.txt",
    "\U000e0041\U000e0042",
    "300",
    "300.0",
    "3.5",
    "12px",
    "-1",
    "true",
    "False",
    "x" * 100_000,
    "http://a.example/" + "a" * 10_000,
    "http://127.0.0.1:1/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "https://user:pw@a.example/?token=secret",
    "http://a.example/page.png",
    "text=Submit",
    "d1e1",
    "../../etc/passwd",
    "/etc/passwd",
    "shot.png",
    "Enter",
)


def _texts() -> st.SearchStrategy[str]:
    any_char = st.characters(exclude_categories=())  # surrogates and controls included
    return st.one_of(st.sampled_from(ODD_TEXTS), st.text(alphabet=any_char, max_size=40))


def json_values() -> st.SearchStrategy[JSONValue]:
    """Any JSON value: scalars of every kind (NaN, infinities, huge integers, odd text),
    nested in lists and objects a few levels deep."""
    scalars: st.SearchStrategy[JSONValue] = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        _texts(),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(_texts(), inner, max_size=3)
        ),
        max_leaves=6,
    )


def _valid_value(prop: dict[str, Any]) -> st.SearchStrategy[JSONValue]:
    """A value the schema accepts for one property (so calls get past validation)."""
    enum = prop.get("enum")
    if isinstance(enum, list):
        return st.sampled_from(enum)
    kind = prop.get("type")
    if kind == "integer":
        low = prop.get("minimum", -5)
        high = prop.get("maximum", 200_000)
        return st.integers(min_value=int(low), max_value=int(high))
    if kind == "boolean":
        return st.booleans()
    return _texts()


def arguments_for(spec: ToolSpec) -> st.SearchStrategy[object]:
    """Arguments for one tool: mostly objects with the tool's own argument names (each a
    valid value or any JSON value), sometimes with other names, sometimes not an object."""
    props = spec.input_schema.get("properties")
    fields: dict[str, Any] = props if isinstance(props, dict) else {}
    per_field = {
        name: st.one_of(_valid_value(prop), json_values())
        for name, prop in fields.items()
        if isinstance(prop, dict)
    }
    own = st.fixed_dictionaries({}, optional=per_field) if per_field else st.just({})
    with_extra = st.tuples(own, st.dictionaries(_texts(), json_values(), max_size=2)).map(
        lambda pair: {**pair[1], **pair[0]}
    )
    return st.one_of(own, own, own, with_extra, json_values())


PAGE = (
    b"<!doctype html><html><head><title>Fuzz page</title></head><body><article>"
    b"<h1>Fuzz</h1><p>" + b"Plain words for the reader. " * 20 + b"</p></article></body></html>"
)


def _page(request: FakeRequest) -> bytes:
    if request.target.endswith((".png", ".jpg")):
        return http_response(200, [("Content-Type", "image/png")], png_bytes())
    return http_response(200, [("Content-Type", "text/html; charset=utf-8")], PAGE)


async def _public_address(host: str) -> list[str]:
    return ["93.184.216.34"]


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def searxng_server() -> LocalServer:
    """A SearXNG on 127.0.0.1 that answers every search with one result."""
    answer = {
        "query": "q",
        "results": [{"title": "A result", "url": "https://a.example/", "content": "text"}],
        "unresponsive_engines": [],
    }
    server = LocalServer()
    server.routes["/search"] = Route(
        headers=[("Content-Type", "application/json")], body=json.dumps(answer).encode()
    )
    return server


@asynccontextmanager
async def fuzz_toolkit(searxng_base: str, workspace: Path) -> AsyncIterator[Toolkit]:
    """A Toolkit with every built-in tool registered (see the module docstring)."""
    (workspace / "shot.png").write_bytes(png_bytes())
    settings = Settings.load(
        environ={},
        journal_url="memory://",
        searxng_url=searxng_base,
        browser_cdp_url=f"http://127.0.0.1:{closed_port()}",
        render="never",
        search_rate_limit=0,
        fetch_rate_limit=0,
        browser_rate_limit=0,
    )
    toolkit = Toolkit(settings, resolver=_public_address, connector=FakeConnector(_page))
    missing = {s.name for s in ALL_SPECS} - {s.name for s in toolkit.tools(fuzz_run(workspace))}
    assert not missing, f"tools not registered for the fuzz run: {missing} {toolkit.unavailable}"
    try:
        yield toolkit
    finally:
        await toolkit.aclose()


def fuzz_run(workspace: Path) -> RunContext:
    """The run every fuzzed call belongs to: network, a workspace, a model that sees images."""
    return RunContext(run_id="fuzz", workspace=workspace, can_see_images=True)
