"""Anti-bot challenges and captcha walls: never returned as a page's content. Pure functions.

SPEC §3 "Errors" (``anti_bot_challenge``): a page that is a bot check instead of the
requested content must be reported as such. Detection looks for the vendors' own markers
(response headers, script paths, titles) and, for markers a real page may also carry (a
reCAPTCHA on a contact form), also requires that the page has almost no text of its own,
so real articles are never taken for challenges.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["MAX_CHALLENGE_TEXT_CHARS", "is_challenge_page", "visible_text_size"]

#: A challenge page has at most this many characters of visible text.
MAX_CHALLENGE_TEXT_CHARS = 2500
#: Only the start of a page is searched for markers (challenge pages are small).
_SCAN_CHARS = 100_000

# (kind, substrings one of which must occur — a fast filter —, pattern confirming the marker)
_MARKERS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("cloudflare", ("challenge-platform", "_cf_chl_opt", "cf-chl-", "challenge-"), re.compile(r"/cdn-cgi/challenge-platform/(?:h/[a-z]/)?orchestrate/(?:chl_page|managed|jsch|captcha)|window\._cf_chl_opt|cf-chl-(?:widget|bypass)|id=\"challenge-(?:form|stage|running)\"")),
    ("cloudflare", ("just a moment", "attention required", "| cloudflare"), re.compile(r"<title>\s*(?:just a moment|attention required! \| cloudflare|please wait\.\.\. \| cloudflare)")),
    ("cloudflare", ("checking if the site", "checking your browser"), re.compile(r"checking (?:if the site connection is secure|your browser before accessing)")),
    ("datadome", ("captcha-delivery.com", "datadome"), re.compile(r"captcha-delivery\.com|ct\.datadome\.co|datadome captcha")),
    ("perimeterx", ("px-captcha", "/captcha", "human-challenge", " hold"), re.compile(r"id=\"px-captcha\"|/_px\w*/captcha|human-challenge|press (?:&amp;|&) hold")),
    ("imperva", ("incapsula", "imperva"), re.compile(r"_incapsula_resource|incapsula incident id|imperva")),
    ("akamai", ("edgesuite", "reference"), re.compile(r"errors(?:\.|&#46;)edgesuite(?:\.|&#46;)net|reference(?: |&#32;)(?:#|&#35;)\d+(?:\.|&#46;)[0-9a-f]+")),
    ("aws-waf", ("awswaf", "challenge.compact.js"), re.compile(r"awswafintegration|token\.awswaf\.com|challenge\.compact\.js")),
    ("sucuri", ("sucuri",), re.compile(r"sucuri website firewall|cloudproxy\.sucuri\.net|sucuri_cloudproxy")),
    ("kasada", ("149e9513-01fa-4fb0-aad4-566afd725d1b", "kpsdk"), re.compile(r"149e9513-01fa-4fb0-aad4-566afd725d1b|kpsdk")),
    ("ddos-guard", ("ddos-guard",), re.compile(r"ddos-guard")),
    ("vercel", ("vercel security checkpoint",), re.compile(r"<title>\s*vercel security checkpoint")),
    ("google-unusual-traffic", ("unusual traffic from your computer",), re.compile(r"our systems have detected unusual traffic from your computer network")),
    ("amazon-captcha", ("robot check", "opfcaptcha", "characters you see below"), re.compile(r"<title[^>]*>\s*robot check\s*<|opfcaptcha\.amazon|enter the characters you see below")),
    ("hcaptcha", ("h-captcha", "hcaptcha.com"), re.compile(r"class=\"h-captcha\"|hcaptcha\.com/1/api\.js")),
    ("recaptcha", ("g-recaptcha", "/recaptcha/"), re.compile(r"class=\"g-recaptcha\"|google\.com/recaptcha/(?:api|enterprise)\.js")),
    ("captcha", ("captcha", "robot", "bot check", "security check", "human"), re.compile(r"<title>[^<]{0,60}(?:captcha|are you a robot|bot check|security check|verify you are human|human verification)")),
)  # fmt: skip

#: For the generic captcha widgets, the page must also say it is a check.
_CHECK_WORDS = re.compile(
    r"verify (?:that )?you(?:'|&#39;|’)?(?:re| are) (?:a )?human|are you a robot|not a robot|"
    r"security check|unusual traffic|automated (?:requests|queries|access)|complete the captcha|"
    r"solve (?:the|this) (?:captcha|challenge)|to continue, please|access denied|blocked"
)

_SCRIPT_STYLE = re.compile(r"<(script|style|noscript|template)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def visible_text_size(html: str) -> int:
    """Characters of text outside tags, scripts and styles (whitespace not counted)."""
    text = _TAG.sub(" ", _SCRIPT_STYLE.sub(" ", html))
    return len(_SPACE.sub("", text))


def is_challenge_page(status: int, headers: Mapping[str, str], html: str) -> str | None:
    """The kind of bot challenge or captcha wall a response is, or ``None`` for a real page.

    Args:
        status: the HTTP status code (challenges come as 403, 429, 503 and also 200).
        headers: the response headers (any case).
        html: the decoded body (only its first 100,000 characters are searched for markers).

    Returns:
        a short vendor or kind name: ``cloudflare``, ``datadome``, ``perimeterx``,
        ``imperva``, ``akamai``, ``aws-waf``, ``sucuri``, ``kasada``, ``ddos-guard``,
        ``vercel``, ``google-unusual-traffic``, ``amazon-captcha``, ``hcaptcha``,
        ``recaptcha`` or ``captcha``; ``None`` when the page is not a challenge.
    """
    lowered = {k.lower(): v.lower() for k, v in headers.items()}
    if lowered.get("cf-mitigated") == "challenge":
        return "cloudflare"
    if lowered.get("x-amzn-waf-action") in ("challenge", "captcha"):
        return "aws-waf"
    if lowered.get("x-vercel-mitigated") == "challenge":
        return "vercel"
    if "x-datadome" in lowered and status in (403, 429):
        return "datadome"
    if "x-kpsdk-ct" in lowered and status in (403, 429):
        return "kasada"
    page = html[:_SCAN_CHARS].lower()
    small: bool | None = None  # computed once, only when a marker matches
    for kind, keywords, pattern in _MARKERS:
        if not any(k in page for k in keywords) or not pattern.search(page):
            continue
        if small is None:
            small = visible_text_size(html) <= MAX_CHALLENGE_TEXT_CHARS
        if not small:
            return None
        if kind in ("hcaptcha", "recaptcha", "akamai") and not _CHECK_WORDS.search(page):
            continue
        if kind == "kasada" and status < 400:  # its sensor script also runs on real pages
            continue
        return kind
    return None
