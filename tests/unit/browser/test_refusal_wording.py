"""Refusals of requests the model did not choose name what the request was (review issue 2:
every refusal read "the redirect target …", even an image or a link click), never the
internal address itself."""

from __future__ import annotations

import pytest

from webresearch.addresses import AddressPolicy
from webresearch.browser.policy import (
    DomainPolicy,
    RequestPolicy,
    describe_request,
    reword_refusal,
)
from webresearch.errors import WebResearchError
from webresearch.net.guard import SSRFGuard

INTERNAL = ("10.0.0.1", "169.254.169.254", "127.0.0.2", "::1", "192.168.1.5")


def _policy() -> RequestPolicy:
    async def resolver(host: str) -> list[str]:
        return {"rebind.example": ["10.1.2.3"]}.get(host) or ["93.184.216.34"]

    guard = SSRFGuard(AddressPolicy(), resolver=resolver)
    return RequestPolicy(
        guard, DomainPolicy.from_settings(None, ["blocked.example"]), clock=lambda: 0.0
    )


@pytest.mark.parametrize(
    ("resource_type", "redirect_hop", "want"),
    [
        ("Document", False, "a navigation"),
        ("Document", True, "a redirect of a navigation"),
        ("Image", False, "a request of the page (image)"),
        ("XHR", False, "a request of the page (XHR)"),
        ("Fetch", True, "a redirect of a request of the page (fetch)"),
        ("Script", False, "a request of the page (script)"),
        ("WebSocket", False, "a WebSocket of the page"),
        ("Connection", False, "a connection of the page"),
        ("", False, "a request of the page"),
        ("Other", False, "a request of the page"),
    ],
)
def test_describe_request(resource_type: str, redirect_hop: bool, want: str) -> None:
    assert describe_request(resource_type, redirect_hop=redirect_hop) == want


def _refusal(url: str) -> WebResearchError:
    policy = _policy()
    verdict = policy.check_static(url, redirect=True)
    assert verdict is not None and verdict.error is not None, url
    return verdict.error


@pytest.mark.parametrize("host", INTERNAL)
@pytest.mark.parametrize("resource_type", ["Document", "Image", "XHR", "Connection", "Other"])
def test_address_refusals_name_the_request_not_the_address(host: str, resource_type: str) -> None:
    literal = f"[{host}]" if ":" in host else host
    error = _refusal(f"http://{literal}:8080/secret?token=abc")
    what = describe_request(resource_type)
    reworded = reword_refusal(error, what)
    assert reworded.message.startswith(f"refused: {what} to an internal or reserved address")
    assert "redirect target" not in reworded.message
    assert host not in reworded.message and "secret" not in reworded.message
    assert (reworded.code, reworded.hint, reworded.retryable, reworded.details) == (
        error.code,
        error.hint,
        error.retryable,
        error.details,
    )


@pytest.mark.parametrize(
    ("url", "want"),
    [
        ("http://blocked.example/x", "refused a request of the page (image): blocked.example is"),
        (
            "http://user:pw@site.example/",
            "a request of the page (image) carries credentials (user@ or user:password@)",
        ),
        ("http://localhost/", "refused a request of the page (image): the host name is reserved"),
    ],
)
def test_every_static_refusal_is_reworded(url: str, want: str) -> None:
    reworded = reword_refusal(_refusal(url), describe_request("Image"))
    assert want in reworded.message, reworded.message
    assert "redirect target" not in reworded.message
    assert "pw" not in reworded.message


async def test_a_name_resolving_to_an_internal_address_keeps_its_name_not_the_address() -> None:
    verdict = await _policy().check("http://rebind.example/x", redirect=True)
    assert verdict.error is not None
    reworded = reword_refusal(verdict.error, describe_request("Document"))
    assert reworded.message.startswith(
        "refused: a navigation to rebind.example, which resolves to an internal or reserved"
    ), reworded.message
    assert "10.1.2.3" not in reworded.message


def test_a_message_naming_nothing_is_kept() -> None:
    error = WebResearchError("the browser may only load http(s) pages, not ftp:")
    assert reword_refusal(error, "a navigation") is error
