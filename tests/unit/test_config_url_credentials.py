"""Fresh review, session 9: ``config show`` printed a provider's ``base_url`` with its
password (``WEBRESEARCH_BRAVE_BASE_URL=http://u:SEKRET@127.0.0.1:18761`` → the password in
the ``brave_base_url`` row), and the redactor did not know it."""

from __future__ import annotations

import pytest

from webresearch import Settings, Toolkit
from webresearch.config.urls import has_userinfo, without_userinfo

URL = "http://u:SEKRET-bpw@127.0.0.1:18761/api"


def test_a_url_option_with_credentials_is_shown_without_them() -> None:
    settings = Settings.load(environ={"WEBRESEARCH_BRAVE_BASE_URL": URL}, journal_url="memory://")
    catalog = Toolkit(settings, builders=[]).services.options_catalog
    shown = settings.public_dict(catalog)["brave_base_url"]
    assert shown == "http://***@127.0.0.1:18761/api"
    assert "SEKRET" not in repr(settings.public_dict(catalog))


def test_the_redactor_hides_a_url_options_password() -> None:
    settings = Settings.load(environ={"WEBRESEARCH_BRAVE_BASE_URL": URL}, journal_url="memory://")
    toolkit = Toolkit(settings, builders=[])
    assert "SEKRET-bpw" in settings.secret_values(toolkit.services.options_catalog)
    assert "SEKRET" not in toolkit.services.redact(f"cannot reach {URL}: refused")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://api.search.brave.com", "https://api.search.brave.com"),
        ("http://user@127.0.0.1/", "http://***@127.0.0.1/"),
        ("http://a:b@c@127.0.0.1:9/x?q=1", "http://***@127.0.0.1:9/x?q=1"),
        ("plain text with @ sign", "plain text with @ sign"),
    ],
)
def test_without_userinfo(text: str, shown: str) -> None:
    assert without_userinfo(text) == shown
    assert has_userinfo(text) == (text != shown)
