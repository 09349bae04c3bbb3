"""A public IPv4 address written in IPv6 is refused as such (not as an internal address),
with its plain IPv4 URL when the caller typed the literal, never a resolved address."""

from __future__ import annotations

import pytest

from tests.support.fake_net import ScriptedResolver
from webresearch.addresses import AddressPolicy
from webresearch.errors import BlockedAddress
from webresearch.net.guard import SSRFGuard


def guard(answers: dict[str, list[str]] | None = None) -> SSRFGuard:
    return SSRFGuard(AddressPolicy(), resolver=ScriptedResolver(answers or {}))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "form", "plain"),
    [
        ("http://[::ffff:8.8.8.8]:81/a?b=1", "IPv4-mapped", "http://8.8.8.8:81/a?b=1"),
        ("https://[::ffff:808:808]/", "IPv4-mapped", "https://8.8.8.8/"),
        ("http://[64:ff9b::808:808]/", "IPv4-embedding", "http://8.8.8.8/"),
    ],
)
async def test_a_public_ipv4_address_in_ipv6_is_refused_as_such_with_its_plain_url(
    url: str, form: str, plain: str
) -> None:
    with pytest.raises(BlockedAddress) as info:
        await guard().check(url)
    assert f"{form} IPv6 is refused even when the IPv4 address inside is public" in (
        info.value.message
    )
    assert "internal" not in info.value.message
    assert info.value.hint == f"use the plain IPv4 URL: {plain}"


async def test_a_name_resolving_to_a_mapped_public_address_never_shows_the_address() -> None:
    with pytest.raises(BlockedAddress) as info:
        await guard({"mapped.example": ["::ffff:8.8.8.8"]}).check("http://mapped.example/")
    shown = f"{info.value.message} {info.value.hint}"
    assert "IPv4-mapped IPv6" in shown
    assert "8.8.8.8" not in shown and "ffff" not in shown


def test_a_redirect_to_a_mapped_public_address_names_no_url() -> None:
    with pytest.raises(BlockedAddress) as info:
        guard().check_url("http://[::ffff:8.8.8.8]/", redirect=True)
    assert "8.8.8.8" not in f"{info.value.message} {info.value.hint}"
