"""robots.txt rules without sockets (RFC 9309): what an answer means, which group applies,
which rule decides (longest match, Allow on a tie, ``*`` and ``$``), and the cache entry."""

from __future__ import annotations

import pytest

from webresearch.access.robots_rules import (
    ROBOTS_TTL_S,
    UNREACHABLE_RETRY_S,
    RobotsEntry,
    RobotsRules,
    decode_body,
    entry_for_answer,
    origin_of,
    with_product_token,
)

TOKEN = "webresearch"


def rules(text: str) -> RobotsRules:
    return RobotsRules(RobotsEntry("rules", "HTTP 200", 0.0, 1.0, text))


def refused_rule(text: str, path: str, token: str = TOKEN) -> str | bool | None:
    """The decisive rule's path when ``path`` is refused, ``False`` when it is allowed."""
    verdict = rules(text).refusal(f"https://example.org{path}", token)
    return False if verdict is None else verdict.rule


PRECEDENCE = """\
User-agent: *
Disallow: /private/
Allow: /private/public/
Disallow: /*.pdf$
Disallow: /tmp*/cache
Allow: /same
Disallow: /same
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", False),
        ("/private/", "/private/"),
        ("/private/x/y", "/private/"),
        ("/private/public/page", False),  # the longer Allow wins
        ("/docs/report.pdf", "/*.pdf$"),  # `*` and the `$` anchor
        ("/docs/report.pdf?download=1", False),  # `$`: the path must end there
        ("/docs/report.pdfx", False),
        ("/tmp1/cache/a", "/tmp*/cache"),  # `*` in the middle
        ("/tmp/nocache", False),
        ("/same", False),  # equal length: Allow wins (RFC 9309 §2.2.2)
        ("/robots.txt", False),  # always allowed
    ],
)
def test_allow_disallow_precedence_wildcards_and_anchor(path: str, expected: object) -> None:
    assert refused_rule(PRECEDENCE, path) == expected


def test_the_group_of_our_product_token_wins_over_star_case_insensitively() -> None:
    text = "User-agent: *\nDisallow: /\n\nUser-agent: WebResearch\nDisallow: /secret\n"
    assert refused_rule(text, "/page") is False  # our group replaces the * group
    assert refused_rule(text, "/secret/x") == "/secret"
    assert refused_rule(text, "/page", token="otherbot") == "/"


def test_groups_for_the_same_token_are_combined() -> None:
    text = "User-agent: webresearch\nDisallow: /a\n\nUser-agent: webresearch\nDisallow: /b\n"
    assert refused_rule(text, "/a/1") == "/a"
    assert refused_rule(text, "/b/1") == "/b"


def test_empty_and_comment_only_files_allow_everything() -> None:
    assert refused_rule("", "/x") is False
    assert refused_rule("# nothing here\n", "/x") is False
    assert refused_rule("User-agent: *\nDisallow:\n", "/x") is False


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (200, "rules"),
        (204, "rules"),
        (301, "allow_all"),  # a redirect left over (no Location): unavailable
        (401, "allow_all"),
        (403, "allow_all"),
        (404, "allow_all"),
        (410, "allow_all"),
        (429, "allow_all"),  # RFC 9309 §2.3.1.3: every 4xx is "unavailable"
        (500, "disallow_all"),
        (503, "disallow_all"),
    ],
)
def test_what_an_answer_means(status: int, kind: str) -> None:
    entry = entry_for_answer(status, b"User-agent: *\nDisallow: /\n", False, now=100.0, ttl_s=600)
    assert entry.kind == kind
    assert entry.reason == f"HTTP {status}"
    # a file and "unavailable" last the TTL; "unreachable" is tried again soon
    lifetime = UNREACHABLE_RETRY_S if kind == "disallow_all" else 600
    assert entry.expires_at == 100.0 + lifetime
    verdict = RobotsRules(entry).refusal("https://example.org/page", TOKEN)
    assert (verdict is None) is (kind == "allow_all")
    if kind == "disallow_all":
        assert verdict is not None and verdict.unreachable and verdict.rule is None


def test_a_capped_body_loses_its_partial_last_line_and_the_bom() -> None:
    body = "\ufeffUser-agent: *\nDisallow: /a\nDisallow: /b-cut-in-ha".encode()
    text = decode_body(body, capped=True)
    assert text == "User-agent: *\nDisallow: /a\n"
    assert decode_body(body, capped=False).endswith("/b-cut-in-ha")
    assert decode_body(b"\xffUser-agent: *\n", capped=False).startswith("\ufffd")  # not UTF-8


def test_a_bom_does_not_hide_the_first_group() -> None:
    entry = entry_for_answer(200, "\ufeffUser-agent: *\nDisallow: /\n".encode(), False, now=0, ttl_s=1)
    assert RobotsRules(entry).refusal("https://example.org/x", TOKEN) is not None


def test_entries_round_trip_as_json_and_malformed_ones_are_misses() -> None:
    entry = RobotsEntry("rules", "HTTP 200", 1.5, 2.5, "User-agent: *\n")
    assert RobotsEntry.from_json(entry.to_json()) == entry
    assert entry.fresh(2.0) and not entry.fresh(2.5)
    for bad in (None, "x", {}, {**entry.to_json(), "kind": "maybe"}, {**entry.to_json(), "expires_at": "x"}):
        assert RobotsEntry.from_json(bad) is None


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Example.ORG/a?b#c", "https://example.org"),
        ("https://example.org:443/a", "https://example.org"),
        ("http://example.org:80/a", "http://example.org"),
        ("http://example.org:8080/a", "http://example.org:8080"),
        ("https://example.org./a", "https://example.org"),
        ("http://[::1]:81/x", "http://[::1]:81"),
        ("ftp://example.org/a", None),
        ("data:text/plain,hi", None),
        ("not a url", None),
        ("http://example.org:99999/", None),
    ],
)
def test_origins(url: str, origin: str | None) -> None:
    assert origin_of(url) == origin


def test_the_product_token_is_part_of_the_user_agent() -> None:
    ua = "Mozilla/5.0 (compatible; webresearch/0.1; +https://pypi.org/project/webresearch/)"
    assert with_product_token(ua, "webresearch") == ua  # already there
    assert with_product_token(ua, "WebResearch") == ua  # case-insensitive
    assert with_product_token("Mozilla/5.0", "acmebot") == "Mozilla/5.0 acmebot"


def test_the_default_ttl_is_at_most_a_day() -> None:
    assert ROBOTS_TTL_S == 86400.0

