"""robots.txt rules (RFC 9309), pure: what a fetch outcome means, and what a file says.

* **Outcome → entry** (RFC 9309 §2.3.1): a 2xx answer is the file (at most
  :data:`ROBOTS_MAX_BYTES` of it is parsed, §2.5, cut at the last whole line); a 4xx answer,
  more than five redirects, or a redirect we may not follow means "unavailable": everything
  is allowed; a 5xx answer or a network failure means "unreachable": everything is disallowed
  until a later fetch succeeds, which is tried again after :data:`UNREACHABLE_RETRY_S`.
* **Entries** are JSON (:meth:`RobotsEntry.to_json`), so the shared state backends store them
  and a fleet fetches each origin's file once per :data:`ROBOTS_TTL_S` (§2.4: at most 24 h).
* **Matching** is `Protego <https://github.com/scrapy/protego>`_'s (Scrapy's RFC 9309
  parser): the group of our product token, else ``*``; the longest matching rule wins, and
  ``Allow`` wins a tie; ``*`` and ``$`` in paths; ``/robots.txt`` is always allowed.
  :func:`decisive_rule` names the rule that disallowed a URL for the refusal message.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from protego import Protego

from ..runtime.scope import scope_key
from ..types import JSONObject

__all__ = [
    "ROBOTS_MAX_BYTES",
    "ROBOTS_MAX_REDIRECTS",
    "ROBOTS_TTL_S",
    "UNREACHABLE_RETRY_S",
    "Refused",
    "RobotsEntry",
    "RobotsRules",
    "decisive_rule",
    "decode_body",
    "entry_for_answer",
    "entry_unavailable",
    "entry_unreachable",
    "origin_of",
    "with_product_token",
]

#: Bytes of a robots.txt that are parsed (RFC 9309 §2.5: at least 500 KiB).
ROBOTS_MAX_BYTES = 500 * 1024
#: Redirects followed to reach a robots.txt (RFC 9309 §2.3.1.2: at least five).
ROBOTS_MAX_REDIRECTS = 5
#: Longest a fetched robots.txt is used (RFC 9309 §2.4: no more than 24 hours).
ROBOTS_TTL_S = 86400.0
#: Seconds until an unreachable robots.txt (5xx, network failure) is fetched again; until
#: then the whole site counts as disallowed.
UNREACHABLE_RETRY_S = 60.0

Kind = Literal["rules", "allow_all", "disallow_all"]


def origin_of(url: str) -> str | None:
    """The origin a robots.txt governs: ``scheme://host[:port]`` (lower case; the default
    port left out, as the fetch scope normalises URLs), or ``None`` for a URL that is not
    http(s) or has no host."""
    key = scope_key(url)
    if key is None:
        return None
    parts = urlsplit(key)
    return f"{parts.scheme}://{parts.netloc}"


def with_product_token(user_agent: str, token: str) -> str:
    """The User-Agent holding the product token (RFC 9309 §2.2.1: it SHOULD be a substring
    of what the crawler sends): unchanged when it already does, else the token appended."""
    if token.lower() in user_agent.lower():
        return user_agent
    return f"{user_agent} {token}".strip()


@dataclass(frozen=True, slots=True)
class RobotsEntry:
    """What is known about one origin's robots.txt.

    Attributes:
        kind: ``rules`` (a file to obey), ``allow_all`` (unavailable: 4xx, too many
            redirects) or ``disallow_all`` (unreachable: 5xx, network failure).
        reason: how the fetch ended, for messages (``HTTP 503``, ``timeout`` …).
        body: the file (``rules`` only).
        fetched_at: wall-clock seconds (epoch) of the fetch.
        expires_at: wall-clock seconds after which the file is fetched again.
    """

    kind: Kind
    reason: str
    fetched_at: float
    expires_at: float
    body: str = ""

    def to_json(self) -> JSONObject:
        """A JSON object for the shared cache."""
        return {
            "kind": self.kind,
            "reason": self.reason,
            "fetched_at": self.fetched_at,
            "expires_at": self.expires_at,
            "body": self.body,
        }

    @classmethod
    def from_json(cls, value: object) -> RobotsEntry | None:
        """An entry from the shared cache, or ``None`` for anything malformed (a miss)."""
        if not isinstance(value, dict):
            return None
        kind, reason, body = value.get("kind"), value.get("reason"), value.get("body", "")
        fetched, expires = value.get("fetched_at"), value.get("expires_at")
        if kind not in ("rules", "allow_all", "disallow_all") or not isinstance(reason, str):
            return None
        if not isinstance(body, str):
            return None
        if not all(isinstance(t, (int, float)) and math.isfinite(t) for t in (fetched, expires)):
            return None
        assert isinstance(fetched, (int, float)) and isinstance(expires, (int, float))
        return cls(kind, reason, float(fetched), float(expires), body)

    def fresh(self, now: float) -> bool:
        """Still to be used at wall-clock time ``now``."""
        return now < self.expires_at


def decode_body(body: bytes, capped: bool) -> str:
    """The file as text: UTF-8 (RFC 9309 §2.3; invalid bytes replaced), without a byte-order
    mark; a body cut by the size cap loses its last, partial line."""
    if capped:
        cut = body.rfind(b"\n")
        body = body[: cut + 1] if cut >= 0 else b""
    return body.decode("utf-8", "replace").removeprefix("\ufeff")


def entry_for_answer(
    status: int, body: bytes, capped: bool, *, now: float, ttl_s: float
) -> RobotsEntry:
    """The entry for an HTTP answer (redirects already followed).

    2xx: the file; 4xx (and a 3xx left over, e.g. without ``Location``): unavailable, every
    path allowed; 5xx and anything else: unreachable, every path disallowed for
    :data:`UNREACHABLE_RETRY_S`.
    """
    reason = f"HTTP {status}"
    if 200 <= status < 300:
        return RobotsEntry("rules", reason, now, now + ttl_s, decode_body(body, capped))
    if 300 <= status < 500:
        return entry_unavailable(reason, now=now, ttl_s=ttl_s)
    return entry_unreachable(reason, now=now, ttl_s=ttl_s)


def entry_unavailable(reason: str, *, now: float, ttl_s: float) -> RobotsEntry:
    """No file to obey (RFC 9309 §2.3.1.3): every path allowed for ``ttl_s``."""
    return RobotsEntry("allow_all", reason, now, now + ttl_s)


def entry_unreachable(reason: str, *, now: float, ttl_s: float) -> RobotsEntry:
    """The file could not be fetched (RFC 9309 §2.3.1.4): every path disallowed until a
    later fetch succeeds (tried again after :data:`UNREACHABLE_RETRY_S`)."""
    return RobotsEntry("disallow_all", reason, now, now + min(ttl_s, UNREACHABLE_RETRY_S))


@dataclass(frozen=True, slots=True)
class Refused:
    """Why robots.txt refuses a URL.

    Attributes:
        rule: the decisive ``Disallow`` path (``None`` when unknown or unreachable).
        unreachable: the file could not be fetched (everything is disallowed).
        reason: how the fetch ended (``HTTP 503`` …).
    """

    rule: str | None
    unreachable: bool
    reason: str


class RobotsRules:
    """One origin's entry, parsed once (Protego), asked per URL.

    Args:
        entry: the entry.
    """

    def __init__(self, entry: RobotsEntry) -> None:
        self.entry = entry
        self.parser = Protego.parse(entry.body) if entry.kind == "rules" else None

    def refusal(self, url: str, token: str) -> Refused | None:
        """Why ``url`` is disallowed for the product token ``token``, or ``None`` when allowed."""
        entry = self.entry
        if entry.kind == "allow_all":
            return None
        if entry.kind == "disallow_all":
            return Refused(None, True, entry.reason)
        assert self.parser is not None
        if self.parser.can_fetch(url, token):
            return None
        return Refused(decisive_rule(self.parser, url, token), False, entry.reason)


def decisive_rule(parser: Protego, url: str, token: str) -> str | None:
    """The path of the ``Disallow`` rule that decided against ``url``, or ``None``.

    Protego answers only yes or no; the rule comes from its rule set for ``token`` (sorted
    by its precedence: longest first, ``Allow`` first on a tie): the first rule that alone
    refuses the URL. Reads Protego's rule objects (not public API): any change there gives
    ``None`` (the refusal then names no rule), never an error; a test pins it.
    """
    try:
        rule_set = parser._get_matching_rule_set(token)
        for rule in list(getattr(rule_set, "_rules", ())):
            pattern = str(rule.value._pattern)
            # Does this rule alone match? A lone Disallow with its pattern says (public API).
            if not Protego.parse(f"User-agent: *\nDisallow: {pattern}\n").can_fetch(url, token):
                return pattern if rule.field == "disallow" else None
    except Exception:
        return None
    return None
