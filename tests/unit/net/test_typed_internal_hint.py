"""A URL typed without its scheme (or its ``//``) whose host is internal gets no URL to
retry from the model-facing tools: the error says the address is not allowed (review,
session 13: ``localhost:8080/x`` was answered with ``http://localhost:8080/x``,
``169.254.169.254/x`` with ``https://169.254.169.254/x``). A public host keeps the
``https://`` suggestion, and an address the operator exempted keeps its URL."""

from __future__ import annotations

import pytest

from tests.support.fake_net import ScriptedResolver
from webresearch import Settings, Toolkit
from webresearch.addresses import AddressPolicy
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.errors import InvalidArguments
from webresearch.net.guard import SSRFGuard

#: (typed, its host): the host must not come back in the next step
INTERNAL = [
    ("localhost:8080/x", "localhost"),
    ("localhost./x", "localhost"),
    ("169.254.169.254/latest/meta-data", "169.254.169.254"),
    ("127.0.0.1:8765/x", "127.0.0.1"),
    ("[::1]:80/x", "::1"),
    ("10.0.0.5/admin", "10.0.0.5"),
    ("0.0.0.0:80/", "0.0.0.0"),
    ("metadata.google.internal/x", "metadata.google.internal"),
    ("http:/127.0.0.1:8765/x", "127.0.0.1"),  # the scheme without its //
    ("http:169.254.169.254/x", "169.254.169.254"),
    ("https:localhost/x", "localhost"),
    # review r-13a: spellings the guard reads as 127.0.0.1, and a host before a backslash
    ("127.1:8080/x", "127.1"),
    ("2130706433:8080/x", "2130706433"),
    ("127.0.0.1\\@example.org/x", "127.0.0.1"),
    ("example.org@127.0.0.1/x", "127.0.0.1"),
    ("http:/127.0.0.1\\@example.org/x", "127.0.0.1"),
    # review n-15: the scheme without its colon
    ("http//169.254.169.254/x", "169.254.169.254"),
    ("https//localhost:8080/x", "localhost"),
]


def guard(**policy: object) -> SSRFGuard:
    return SSRFGuard(AddressPolicy(**policy), resolver=ScriptedResolver({}))  # type: ignore[arg-type]


@pytest.mark.parametrize(("typed", "host"), INTERNAL)
def test_an_internal_host_typed_without_scheme_gets_no_url(typed: str, host: str) -> None:
    with pytest.raises(InvalidArguments) as info:
        guard().check_url(typed)
    error = info.value
    assert error.hint is not None
    assert "not allowed" in error.hint
    assert "://" not in error.hint and host not in error.hint
    # the message names what the caller typed, nothing more
    assert error.message.endswith(typed)


def test_a_public_host_typed_without_scheme_keeps_its_url() -> None:
    with pytest.raises(InvalidArguments) as info:
        guard().check_url("example.org/page")
    assert info.value.hint == "a URL needs its scheme: https://example.org/page"


@pytest.mark.parametrize(
    "typed",
    ["example.org\\@example.net/x", "user@example.org/x", "http:/example.org\\@example.net/x"],
)
def test_no_url_with_credentials_or_a_backslash_in_its_authority_is_suggested(typed: str) -> None:
    """review r-13a: ``127.0.0.1\\@example.org/x`` was answered with the URL
    ``https://127.0.0.1\\@example.org/x``: credentials to Python, the host 127.0.0.1 to a
    browser."""
    with pytest.raises(InvalidArguments) as info:
        guard().check_url(typed)
    hint = info.value.hint or ""
    assert "@" not in hint and "\\" not in hint, hint


def test_a_word_is_not_called_an_internal_address() -> None:
    with pytest.raises(InvalidArguments) as info:
        guard().check_url("weather")
    assert "not allowed" not in (info.value.hint or "")


def test_an_exempted_address_keeps_its_url() -> None:
    exempted = guard(
        allowed_networks=AddressPolicy.from_strings(
            allowed_networks=["127.0.0.1/32"]
        ).allowed_networks
    )
    with pytest.raises(InvalidArguments) as info:
        exempted.check_url("127.0.0.1:8765/x")
    assert info.value.hint == "a URL needs its scheme: http://127.0.0.1:8765/x"
    with pytest.raises(InvalidArguments) as other:
        exempted.check_url("169.254.169.254/x")  # not exempted: still no URL
    assert "169.254" not in (other.value.hint or "")


async def test_web_fetch_and_the_browser_word_it_alike() -> None:
    settings = Settings.load(
        environ={}, journal_url="memory://", search_provider="none", render="never"
    )
    async with Toolkit(settings) as toolkit:
        for typed, host in INTERNAL:
            result = await toolkit.call("web_fetch", {"url": typed})
            assert result.error is not None and result.error.code == "invalid_arguments"
            said = result.text + str(result.meta)
            assert "not allowed" in said
            assert f"://{host}" not in said and f"://[{host}]" not in said, said
        public = await toolkit.call("web_fetch", {"url": "example.org/x"})
        assert "https://example.org/x" in public.text
    policy = RequestPolicy(guard(), DomainPolicy())
    with pytest.raises(InvalidArguments) as info:
        await policy.check_navigation("localhost:8765")
    assert "not allowed" in (info.value.hint or "")
    assert "localhost" not in (info.value.hint or "")
