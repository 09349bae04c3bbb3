"""A redirect's Location is read as a browser reads it (WHATWG URL), then guarded as always."""

from __future__ import annotations

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch.addresses import AddressPolicy
from webresearch.errors import BlockedAddress
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.net.locations import browser_location


@pytest.mark.parametrize(
    ("location", "base", "expected"),
    [
        ("http:/\\127.0.0.2:18711/r7", "http", "http://127.0.0.2:18711/r7"),
        ("http:\\\\h/a\\b", "http", "http://h/a/b"),
        ("\\\\h\\a?q=\\x#\\y", "https", "//h/a?q=\\x#\\y"),  # query and fragment kept
        ("/\\h/p", "http", "//h/p"),
        ("https:h/p", "http", "https://h/p"),  # another special scheme: an authority
        ("https:///h/p", "http", "https://h/p"),
        ("http:p/q", "http", "p/q"),  # the base's scheme: a relative path
        ("http:/p", "http", "/p"),
        ("/a\\b", "http", "/a/b"),
        (" \thttp://h/\np ", "http", "http://h/p"),  # C0 and space trimmed, tab/newline gone
        ("http://h/ok?x=1", "http", "http://h/ok?x=1"),
        ("mailto:a@b", "http", "mailto:a@b"),  # not special: left as it is
    ],
)
def test_locations_read_as_the_whatwg_url_parser_reads_them(
    location: str, base: str, expected: str
) -> None:
    assert browser_location(location, base) == expected


def _client(*networks: str) -> GuardedClient:
    return GuardedClient(SSRFGuard(AddressPolicy.from_strings(allowed_networks=networks)))


async def test_a_backslash_redirect_goes_to_the_host_a_browser_goes_to_and_is_guarded() -> None:
    with LocalServer() as srv:
        port = srv.base.rsplit(":", 1)[1]
        srv.routes["/start"] = Route(
            status=302, headers=[("Location", f"http:/\\127.0.0.2:{port}/r7")]
        )
        srv.routes["/r7"] = Route(headers=[("Content-Type", "text/plain")], body=b"r7")
        async with _client("127.0.0.1/32") as client:
            with pytest.raises(BlockedAddress):
                await client.get(f"{srv.base}/start")
        assert srv.count("/r7") == 0
        assert srv.count("/\\") == 0  # never the same-host path an RFC 3986 join makes


async def test_a_backslash_redirect_to_an_exempt_host_is_followed() -> None:
    with LocalServer() as srv:
        port = srv.base.rsplit(":", 1)[1]
        srv.routes["/start"] = Route(
            status=302, headers=[("Location", f"http:/\\127.0.0.1:{port}\\r7")]
        )
        srv.routes["/r7"] = Route(headers=[("Content-Type", "text/plain")], body=b"r7 reached")
        async with _client("127.0.0.1/32") as client:
            result = await client.get(f"{srv.base}/start")
        assert result.url.endswith("/r7") and b"r7 reached" in result.body
