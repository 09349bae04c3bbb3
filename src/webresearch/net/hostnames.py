"""Hostname rules of the SSRF guard that need no DNS (SPEC §2). Pure functions.

Refused without resolving:

* ``localhost`` and ``*.localhost`` (RFC 6761), ``*.local`` (mDNS, RFC 6762),
  ``*.internal`` (ICANN private use), ``*.lan`` and ``*.home.arpa`` (RFC 8375 home networks);
* single-label names (resolved through search domains to internal hosts);
* numeric IPv4 spellings other than plain dotted decimal: a decimal integer
  (``2130706433``), octal (``0177.0.0.1``), hex (``0x7f.0.0.1``), shortened (``127.1``) and
  leading zeros (``127.000.0.1``). The WHATWG URL standard, browsers and ``inet_aton`` read
  these as IPv4 addresses, so a check that treats them as names is bypassed. Detection follows
  the WHATWG "ends in a number" rule: a host whose last label is numeric is an IPv4 spelling.

Trailing dots and letter case do not change the verdict.

Invalid without resolving (RFC 1035 §2.3.4, RFC 1123 §2.1): a name over 253 characters, a
label over 63 characters, an empty label (``a..b``), or characters other than letters,
digits, ``-`` and ``_`` (the ASCII form: IDNs arrive as ``xn--`` labels).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from ..addresses import IPAddress
from ..url_text import INTERNAL_SUFFIXES

__all__ = [
    "INTERNAL_SUFFIXES",
    "MAX_LABEL_LENGTH",
    "MAX_NAME_LENGTH",
    "HostVerdict",
    "classify_host",
    "name_problem",
    "normalize_host",
]


_DOTTED_DECIMAL = re.compile(
    r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$"
)
_NUMERIC_LABEL = re.compile(r"^(?:\d+|0[xX][0-9a-fA-F]*)$")
_HOST_CHARS = re.compile(r"^[a-z0-9_.-]+$")

#: RFC 1035 §2.3.4: a name is at most 253 characters (255 octets on the wire), a label 63.
MAX_NAME_LENGTH = 253
MAX_LABEL_LENGTH = 63


@dataclass(frozen=True, slots=True)
class HostVerdict:
    """What a URL host is.

    Attributes:
        host: the normalised host (lower case, no trailing dot, no IPv6 brackets).
        address: the IP address when the host is an IP literal, else ``None``.
        refusal: why the host is refused without resolving, else ``None``.
        invalid: why the host is not a valid name at all (length, characters), else ``None``.
    """

    host: str
    address: IPAddress | None = None
    refusal: str | None = None
    invalid: str | None = None


def normalize_host(host: str) -> str:
    """Lower-case, strip IPv6 brackets and trailing dots."""
    h = host.strip().lower()
    if h.startswith("[") and h.endswith("]"):
        h = h[1:-1]
    return h.rstrip(".")


def classify_host(host: str) -> HostVerdict:
    """Classify a URL host (ASCII form, as the HTTP client will use it).

    Returns:
        a verdict with ``address`` for IP literals, ``refusal`` for hosts refused by rule,
        ``invalid`` for a string that is no host name, or none of them for a name that must
        be resolved and checked.
    """
    h = normalize_host(host)
    if not h:
        return HostVerdict(h, refusal="the URL has no host")
    if ":" in h:
        if "%" in h:
            return HostVerdict(h, refusal="IPv6 zone identifiers are not allowed")
        try:
            return HostVerdict(h, address=ipaddress.IPv6Address(h))
        except ValueError:
            return HostVerdict(h, refusal="the host is not a valid IPv6 address")
    last_label = h.rsplit(".", 1)[-1]
    if _NUMERIC_LABEL.match(last_label):
        if _DOTTED_DECIMAL.match(h):
            return HostVerdict(h, address=ipaddress.IPv4Address(h))
        return HostVerdict(
            h,
            refusal="numeric IPv4 spellings other than plain dotted decimal (a.b.c.d) are refused",
        )
    if h == "localhost" or h.endswith(INTERNAL_SUFFIXES):
        return HostVerdict(h, refusal="the host name is reserved for internal networks")
    if "." not in h:
        return HostVerdict(
            h, refusal="single-label host names are refused (they resolve internally)"
        )
    return HostVerdict(h, invalid=name_problem(h))


def name_problem(host: str) -> str | None:
    """Why ``host`` (normalised, ASCII) is not a valid DNS name, or ``None`` when it is."""
    if len(host) > MAX_NAME_LENGTH:
        return f"the host name is longer than {MAX_NAME_LENGTH} characters"
    labels = host.split(".")
    if any(len(label) > MAX_LABEL_LENGTH for label in labels):
        return f"a label of the host name is longer than {MAX_LABEL_LENGTH} characters"
    if not all(labels) or not _HOST_CHARS.match(host):
        return "not a valid host name"
    return None
