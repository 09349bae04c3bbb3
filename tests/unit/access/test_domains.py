"""The domain policy on whole URLs (pure): how hosts are compared, what a refusal says, and
the gates of :class:`AccessPolicy` without robots.txt."""

from __future__ import annotations

import pytest

from webresearch.access import AccessPolicy, DomainPolicy
from webresearch.errors import BlockedDomain

POLICY = DomainPolicy.from_settings(["example.org", "*.example.org", "bücher.de"], ["ads.example.org"])


@pytest.mark.parametrize(
    ("url", "refused"),
    [
        ("https://example.org/a", False),
        ("https://EXAMPLE.org./a", False),  # case and a trailing dot do not matter
        ("https://example.org:8443/a?b#c", False),  # nor the port
        ("https://www.example.org/", False),
        ("https://ads.example.org/", True),  # the block list wins
        ("https://x.ads.example.org/", False),  # an exact entry is that name only
        ("https://example.org.evil.test/", True),
        ("https://evilexample.org/", True),
        ("https://bücher.de/", False),  # IDN: compared in its ASCII form
        ("https://xn--bcher-kva.de/", False),
        ("https://other.test/", True),
        ("not a url", False),  # no host: the SSRF guard refuses it
        ("data:text/plain,hi", False),
    ],
)
def test_urls_against_the_policy(url: str, refused: bool) -> None:
    if refused:
        with pytest.raises(BlockedDomain):
            POLICY.check(url)
    else:
        POLICY.check(url)


def test_a_refusal_names_the_url_only_when_the_model_chose_it() -> None:
    with pytest.raises(BlockedDomain) as chosen:
        POLICY.check("https://other.test/page?token=s3cr3t")
    assert chosen.value.message.startswith("refused https://other.test/page?token=")
    assert "s3cr3t" not in chosen.value.message  # URL secrets are redacted
    assert chosen.value.details["refusal"] == "domain"
    with pytest.raises(BlockedDomain) as hop:
        POLICY.check("https://other.test/page", redirect=True)
    assert hop.value.message == "refused the redirect target: other.test is not in the allowed domains"


def test_an_empty_allow_list_blocks_everything_and_none_blocks_nothing() -> None:
    with pytest.raises(BlockedDomain, match="every site is blocked"):
        DomainPolicy.from_settings([], []).check("https://example.org/")
    DomainPolicy.from_settings(None, []).check("https://anything.test/")
    assert DomainPolicy().open and not POLICY.open


async def test_the_access_policy_checks_hops_and_provenance() -> None:
    access = AccessPolicy(POLICY)  # robots.txt ignored
    await access.check("https://example.org/")
    await access.hop_gate("https://www.example.org/", 3)
    with pytest.raises(BlockedDomain, match="the redirect target"):
        await access.hop_gate("https://other.test/", 1)
    meta = {
        "redirects": [[301, "https://www.example.org/b"], [302, "https://ads.example.org/c"]],
        "final_url": "https://ads.example.org/c",
    }
    with pytest.raises(BlockedDomain):
        await access.check_provenance(meta)
    await access.check_provenance({"redirects": [], "final_url": "https://example.org/"})
    await access.check_provenance({})  # nothing recorded: nothing to check
