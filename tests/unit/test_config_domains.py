"""The domain policy's settings read as a person means them (fresh review, session 9).

Before: ``WEBRESEARCH_ALLOWED_DOMAINS=`` (empty) was an empty allow list that blocked every
site, and the CLI's refusal said only "use another source", naming no setting; ``a..com``
was taken as a domain; in the file, ``allowed_domains = ["a.example", 1]`` took ``1`` as a
domain and ``blocked_domains = 5`` said "must be a valid tuple".

Decision: an empty text is an error (it may mean "no allow list" or "block all": guessing
either opens or closes every site), naming the three ways to write what is meant; the
explicitly empty list (``[]``) still blocks every site (SPEC §1.4).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch import ConfigurationError, Settings
from webresearch.cli.main import cli

EMPTY = (
    "is empty: leave it unset for no allow list (every site), list the domains (e.g. "
    "example.com,*.example.org), or write [] to block every site"
)


def problem(environ: dict[str, str], path: Path | None = None) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ, path=path)
    return info.value.message


@pytest.mark.parametrize("name", ["ALLOWED_DOMAINS", "BROWSER_ALLOWED_DOMAINS"])
@pytest.mark.parametrize("value", ["", "  ", " , "])
def test_an_empty_allow_list_text_is_an_error_naming_the_choices(name: str, value: str) -> None:
    message = problem({f"WEBRESEARCH_{name}": value})
    assert message == f"invalid setting WEBRESEARCH_{name}: {EMPTY}"


def test_an_empty_text_in_the_file_too(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text('allowed_domains = ""\n', encoding="utf-8")
    assert problem({}, path) == f"invalid setting allowed_domains in {path}: {EMPTY}"


def test_the_explicit_empty_list_still_blocks_every_site(tmp_path: Path) -> None:
    assert Settings.load(environ={"WEBRESEARCH_ALLOWED_DOMAINS": "[]"}).allowed_domains == ()
    path = tmp_path / "w.toml"
    path.write_text("allowed_domains = []\n", encoding="utf-8")
    assert Settings.load(environ={}, path=path).allowed_domains == ()


def test_an_empty_block_list_is_no_block_list() -> None:
    assert Settings.load(environ={"WEBRESEARCH_BLOCKED_DOMAINS": ""}).blocked_domains == ()
    assert Settings.load(environ={"WEBRESEARCH_ALLOWED_NETWORKS": ""}).allowed_networks == ()


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("a..com", "(it has an empty label, '..'; labels are separated by one dot: use "
         "example.com or *.example.com)"),
        ("*.a..com", "(it has an empty label, '..'"),
        (".example.com", "(a name does not start with '.': write *.example.com for its "
         "subdomains, or example.com for the name itself)"),
        ("a" * 64 + ".com", "has 64 characters; a label has at most 63, RFC 1035 §2.3.4)"),
        # second fresh review: accepted before
        ("-a.com", "(the label '-a' starts or ends with '-', which no host name label does"),
        ("xn--", "(the label 'xn--' starts or ends with '-'"),
    ],
)  # fmt: skip
def test_a_malformed_domain_is_refused(value: str, why: str) -> None:
    message = problem({"WEBRESEARCH_ALLOWED_DOMAINS": f"ok.example,{value}"})
    assert message.startswith("invalid setting WEBRESEARCH_ALLOWED_DOMAINS: not a domain pattern: ")
    assert why in message


def test_a_63_character_label_and_a_trailing_dot_are_fine() -> None:
    settings = Settings.load(environ={"WEBRESEARCH_BLOCKED_DOMAINS": "a" * 63 + ".com."})
    assert settings.blocked_domains == ("a" * 63 + ".com",)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('allowed_domains = ["a.example", 1]',
         "item 2 must be a domain in quotes (e.g. \"example.com\"), not int '1'"),
        ("blocked_domains = 5",
         'must be a list, e.g. ["example.com", "*.example.org"] (in an environment variable '
         "also comma-separated: example.com,*.example.org), not a whole number (5)"),
        ("mcp_allowed_hosts = [1]", "item 1 must be text, not a whole number (1)"),
        ('allowed_domains = ["[a.example"]',
         'a list is ["a.example", "*.b.example"] in the settings file (or JSON), '
         "a.example,*.b.example in an environment variable)"),
    ],
)  # fmt: skip
def test_a_list_in_the_file_is_worded_for_the_file(tmp_path: Path, line: str, words: str) -> None:
    path = tmp_path / "w.toml"
    path.write_text(line + "\n", encoding="utf-8")
    message = problem({}, path)
    assert words in message
    assert "valid tuple" not in message and "comma-separated or a JSON list" not in message


def test_the_cli_refusal_names_the_setting_to_change() -> None:
    env = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_ALLOWED_DOMAINS": "[]"}
    result = CliRunner().invoke(cli, ["fetch", "https://x.example/"], env=env)
    assert result.exit_code == 3
    assert result.stderr == (
        "webresearch fetch: error[blocked_domain]: refused https://x.example/: the "
        "allowed-domains list is empty: every site is blocked (next step: this site is "
        "outside the domain policy: use another site, or change the setting "
        "WEBRESEARCH_ALLOWED_DOMAINS / WEBRESEARCH_BLOCKED_DOMAINS (allowed_domains / "
        "blocked_domains in the settings file; webresearch config show says where each is "
        "set))\n"
    )
