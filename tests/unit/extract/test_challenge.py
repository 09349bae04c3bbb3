"""Anti-bot challenge pages are recognised; real pages never are."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from webresearch.extract.challenge import is_challenge_page

#: Real pages that mention challenge vendors most often (see the README there).
CORPUS_SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "corpus-sample"

CF_JS = """<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<div class="main-content"><h1 class="zone-name-title h1">www.example.com</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript>
</div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "www.example.com",cType: 'managed'};
var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8a';
document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>"""

CF_BLOCK = """<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>
<div id="cf-wrapper"><div id="cf-error-details"><h1>Sorry, you have been blocked</h1>
<h2>You are unable to access example.com</h2><p>Cloudflare Ray ID: 8a1b2c3d4e5f</p></div></div></body></html>"""

DATADOME = """<html><head><title>example.com</title></head><body style="margin:0">
<p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2013457ADA70C67D6A4123E0A76873','t':'fe','host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>"""

PERIMETERX = """<!DOCTYPE html><html lang="en"><head><title>Access to this page has been denied</title></head>
<body><div class="container"><h1>Before we continue...</h1><p>Press &amp; Hold to confirm you are a human (and not a bot).</p>
<div id="px-captcha"></div><p>Reference ID 3b2c</p></div>
<script src="/xyz/captcha/captcha.js?a=c&u=abc"></script></body></html>"""

AKAMAI = """<HTML><HEAD>
<TITLE>Access Denied</TITLE>
</HEAD><BODY>
<H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;www&#46;example&#46;com&#47;" on this server.<P>
Reference&#32;&#35;18&#46;5e2c1402&#46;1700000000&#46;2b3c4d5e
<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;5e2c1402&#46;1700000000&#46;2b3c4d5e</P>
</BODY>
</HTML>"""

HCAPTCHA = """<html><head><title>Security check</title><script src="https://hcaptcha.com/1/api.js" async defer></script></head>
<body><h1>One more step</h1><p>Please complete the security check to continue.</p>
<form method="post"><div class="h-captcha" data-sitekey="10000000-ffff"></div><input type="submit"></form></body></html>"""

RECAPTCHA = """<html><head><title>Verification</title><script src="https://www.google.com/recaptcha/api.js"></script></head>
<body><p>Our systems need to verify you are human before you continue.</p>
<div class="g-recaptcha" data-sitekey="6Le"></div></body></html>"""

IMPERVA = """<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></head>
<body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=1" frameborder=0>
Request unsuccessful. Incapsula incident ID: 1234</iframe></body></html>"""

GOOGLE_SORRY = """<html><head><title>https://www.google.com/search?q=x</title></head><body>
<div>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.</div>
<div id="captcha-form"></div></body></html>"""


@pytest.mark.parametrize(
    ("status", "html", "kind"),
    [
        (403, CF_JS, "cloudflare"),
        (200, CF_JS, "cloudflare"),
        (403, CF_BLOCK, "cloudflare"),
        (403, DATADOME, "datadome"),
        (403, PERIMETERX, "perimeterx"),
        (403, AKAMAI, "akamai"),
        (200, HCAPTCHA, "hcaptcha"),
        (200, RECAPTCHA, "recaptcha"),
        (200, IMPERVA, "imperva"),
        (429, GOOGLE_SORRY, "google-unusual-traffic"),
    ],
)
def test_challenge_pages_are_recognised(status: int, html: str, kind: str) -> None:
    assert is_challenge_page(status, {}, html) == kind


@pytest.mark.parametrize(
    ("headers", "status", "kind"),
    [
        ({"CF-Mitigated": "challenge"}, 403, "cloudflare"),
        ({"x-amzn-waf-action": "captcha"}, 405, "aws-waf"),
        ({"X-Vercel-Mitigated": "challenge"}, 429, "vercel"),
        ({"X-DataDome": "protected"}, 403, "datadome"),
    ],
)
def test_challenge_headers(headers: dict[str, str], status: int, kind: str) -> None:
    assert is_challenge_page(status, headers, "<html><body></body></html>") == kind


ARTICLE = "<p>" + "Real text about bot protection vendors and how they work. " * 80 + "</p>"


@pytest.mark.parametrize(
    "html",
    [
        # a contact form with reCAPTCHA on a real page
        f"<html><head><title>Contact</title><script src='https://www.google.com/recaptcha/api.js'></script></head>"
        f"<body>{ARTICLE}<form><div class='g-recaptcha'></div></form></body></html>",
        # an article about challenges quoting their texts
        f"<html><head><title>How Cloudflare works</title></head><body><h1>Just a moment...</h1>"
        f"<p>Checking your browser before accessing, Press & Hold, px-captcha, Incapsula incident ID.</p>{ARTICLE}</body></html>",
        # passive bot sensors on a normal page
        f"<html><head><script src='/cdn-cgi/challenge-platform/scripts/jsd/main.js'></script>"
        f"<script>window._pxAppId='PXabc';</script><script src='/x/ips.js?KPSDK'></script></head><body>{ARTICLE}</body></html>",
        # an ordinary 403 of a web server
        "<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>You don't have permission.</p></body></html>",
        "",
    ],
)
def test_real_pages_are_not_challenges(html: str) -> None:
    assert is_challenge_page(200, {"Content-Type": "text/html"}, html) is None
    assert is_challenge_page(403, {}, html) is None


@pytest.mark.parametrize(
    "path",
    sorted(CORPUS_SAMPLE.glob("*/*.html.gz")),
    ids=lambda path: f"{path.parent.name}/{path.name[:12]}",
)
def test_no_corpus_page_is_a_challenge(path: Path) -> None:
    html = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    assert is_challenge_page(200, {}, html) is None
    assert is_challenge_page(403, {}, html) is None


def test_the_corpus_sample_is_there() -> None:
    assert len(list(CORPUS_SAMPLE.glob("*/*.html.gz"))) == 16
