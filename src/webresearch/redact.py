"""Secret redaction for everything shown to a model or written to the journal.

Two kinds of secrets are handled:

* secrets carried in URLs: query (and fragment) parameters whose name marks a credential
  (``token``, ``key``, ``passkey``, ``password``, ``sig``, ``auth`` … SPEC §1.1) and the
  password of a ``user:pass@`` userinfo. Their values become ``[REDACTED]``; the rest of the
  URL is kept byte for byte. Some names are credentials only as a whole name (``code``,
  ``ticket``, ``hash``), and ``state`` only beside an OAuth response (see
  :func:`is_secret_parameter`).
* known secret values (API keys from the settings): :class:`Redactor` replaces every
  occurrence in any text.

Pure functions, no I/O.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

__all__ = [
    "REDACTED",
    "RedactingFilter",
    "Redactor",
    "install_log_redaction",
    "is_secret_key",
    "is_secret_parameter",
    "redact_text",
    "redact_url",
]

REDACTED = "[REDACTED]"

# Name parts (after splitting a parameter name on "_", "-", "." and case folding) that mark a
# credential. Sources: SPEC §1.1; common API conventions (AWS X-Amz-Signature/Credential,
# Azure SAS "sig", OAuth access_token/refresh_token/client_secret/code_verifier, JWT).
_SECRET_PARTS = frozenset(
    {
        "token",
        "key",
        "apikey",
        "passkey",
        "password",
        "passwd",
        "pwd",
        "pass",
        "secret",
        "sig",
        "signature",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "jwt",
        "session",
        "sessionid",
        "sid",
        "otp",
        "verifier",
        "accesstoken",
        "apitoken",
        "authtoken",
    }
)
# Whole parameter names (case folded) that carry a credential, though as a part of a longer
# name they do not (``country_code``, ``zip_code``, ``hashtag``):
# * ``code``: the OAuth 2.0 authorization code, returned in the redirect URI's query
#   (RFC 6749 §4.1.2); exchanged for an access token, so it is a bearer credential until used.
# * ``ticket``: a CAS service or proxy ticket appended to the service URL (Apereo CAS
#   Protocol 3.0 §2.2.4, §2.7); whoever presents it is logged in as the user.
# * ``hash``: the HMAC or token of a signed one-time link (e-mail confirmation, password
#   reset, download links) in many web frameworks; a content hash loses nothing by hiding.
_SECRET_NAMES = frozenset({"code", "ticket", "hash"})
# ``state`` is an opaque value, not a credential by RFC 6749 (§4.1.1), but §10.12 asks that
# it bind the request to the user agent's authenticated state (a CSRF token or a hash of
# the session cookie), and clients often carry a session or return URL in it. Redacted
# beside an OAuth response's parameters (``code``, ``access_token``, ``id_token``), kept
# elsewhere: ``?state=CA`` on a listing page is a filter a model must see to follow it.
_OAUTH_STATE = "state"
_OAUTH_RESPONSE = re.compile(
    r"(?:[?&;#]|%3[Ff]|%26|%23|%3[Bb])(?:code|access_token|id_token)(?:=|%3[Dd])", re.I
)
# How far either side of a ``state`` parameter its URL is looked for (characters).
_URL_WINDOW = 4096
_URL_END = re.compile(r"[\s\"'<>`]")
_NAME_SPLIT = re.compile(r"[_\-.\s\[\]]+")
# camelCase boundaries: apiKey -> api key, accessToken -> access token
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_parameter(name: str) -> bool:
    """Whether a query parameter name marks a credential (e.g. ``api_key``, ``X-Amz-Signature``).

    Args:
        name: the raw (possibly percent-encoded) parameter name.

    ``code``, ``ticket`` and ``hash`` count as a whole name only (module constants give the
    sources); ``state`` is judged with its URL by :func:`redact_text`, not here.
    """
    decoded = unquote(name)
    return decoded.lower() in _SECRET_NAMES or is_secret_key(decoded)


def is_secret_key(name: str) -> bool:
    """Whether a key of a structured value (a JSON object's member name, a header name)
    marks a credential: :func:`is_secret_parameter`'s rule without the names that are
    credentials only as URL parameters (``code``, ``ticket``, ``hash``): a journal detail's
    ``code`` is an error code such as ``blocked_address``, a result's ``hash`` a digest.

    Args:
        name: the key as written (not percent-decoded).
    """
    spaced = _CAMEL.sub(" ", name)
    parts = [p for p in _NAME_SPLIT.split(spaced.lower()) if p]
    if not parts:
        return False
    if any(p in _SECRET_PARTS for p in parts):
        return True
    joined = "".join(parts)
    return joined in _SECRET_PARTS


def _is_redacted(value: str) -> bool:
    # Already replaced (also when a URL in free text was cut at the marker's "]", or the
    # marker is markdown-escaped): redacting again would leave a stray "]" behind.
    return value.lstrip("\\").startswith("[REDACTED")


# A credential carried as ``name=value`` after a query/fragment/parameter separator, raw or
# percent-encoded (a URL nested in another URL's parameter: ``?next=https%3A%2F%2Fx%2F%3Ftoken%3D…``).
# The value ends at the next separator, whitespace, a quote or a closing bracket (markdown
# link syntax stays intact).
_SEP = r"(?:[?&;#]|%3[Ff]|%26|%23|%3[Bb])"
_PARAM = re.compile(
    rf"(?P<sep>{_SEP})(?P<name>[A-Za-z0-9_.~\-\[\]]+)(?P<eq>=|%3[Dd])"
    r"(?P<value>(?:(?!%26|%3[Ff]|%23|%3[Bb])[^\s\"'<>`)\]&;#?])*(?:\[REDACTED\])?)"
)
_USERINFO = re.compile(
    r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^/?#@\s:]*):(?P<password>[^/?#@\s]*)@"
)


def _in_oauth_response(m: re.Match[str]) -> bool:
    """Whether the URL holding the parameter matched by ``m`` also carries an OAuth
    response parameter (the URL: the run of text without whitespace or quotes around it)."""
    text = m.string
    lo = max(0, m.start() - _URL_WINDOW)
    before = text[lo : m.start()]
    starts = [i for i in (before.rfind(c) for c in " \t\n\r\"'<>`") if i >= 0]
    lo += max(starts) + 1 if starts else 0
    end = _URL_END.search(text, m.end(), m.end() + _URL_WINDOW)
    hi = end.start() if end else min(len(text), m.end() + _URL_WINDOW)
    return _OAUTH_RESPONSE.search(text, lo, hi) is not None


def _redact_param(m: re.Match[str]) -> str:
    value = m.group("value")
    if not value or _is_redacted(value):
        return m.group(0)
    name = m.group("name")
    if not is_secret_parameter(name) and not (
        unquote(name).lower() == _OAUTH_STATE and _in_oauth_response(m)
    ):
        return m.group(0)
    return f"{m.group('sep')}{m.group('name')}{m.group('eq')}{REDACTED}"


def _redact_userinfo(m: re.Match[str]) -> str:
    if not m.group("password") or _is_redacted(m.group("password")):
        return m.group(0)
    return f"{m.group('scheme')}{m.group('user')}:{REDACTED}@"


def redact_text(text: str) -> str:
    """Redact URL secrets anywhere in ``text``: credential parameters and userinfo passwords.

    Works on bare URLs, URLs inside prose or markdown (parentheses before the query do not
    hide it), ``;``-separated parameters and URLs nested (percent-encoded) in another URL's
    parameter. Everything else is kept exactly as given (no re-encoding). Idempotent.
    """
    if "=" not in text and "%3" not in text and "@" not in text:
        return text
    text = _USERINFO.sub(_redact_userinfo, text)
    return _PARAM.sub(_redact_param, text)


def redact_url(url: str) -> str:
    """Return ``url`` with secret parameter values and any userinfo password replaced.

    ``https://u:pw@h/p?q=1&token=abc#x`` → ``https://u:[REDACTED]@h/p?q=1&token=[REDACTED]#x``.
    """
    return redact_text(url)


class Redactor:
    """Replaces known secret values (API keys, tokens from settings) and URL secrets in text.

    Args:
        secrets: secret values to hide; values shorter than 4 characters are ignored because
            replacing them would mangle ordinary text.

    A key or password is hidden wherever it appears, even inside a longer word. A secret
    that is a URL (an operator endpoint such as ``http://127.0.0.1:8080``) is hidden only
    where it ends: not when the text goes on with its host or port (``http://127.0.0.1:80``
    must not turn ``http://127.0.0.1:8080/page`` into ``[REDACTED]80/page``, which hides
    nothing and garbles the URL a model needs to see).
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)
        self._pattern = re.compile("|".join(_secret_pattern(v) for v in values)) if values else None

    def __call__(self, text: str) -> str:
        """Return ``text`` with URL secrets and every known secret value replaced."""
        text = redact_text(text)
        if self._pattern is not None:
            text = self._pattern.sub(REDACTED, text)
        return text


def _secret_pattern(value: str) -> str:
    """The regular expression for one secret value (see :class:`Redactor`).

    Only an endpoint that ends with its authority (``scheme://host[:port]``, no path or
    query) gets a boundary: after a port, no further digit; after a host name, no further
    name character (a letter or digit, or ``.``/``-`` followed by one). Anything else —
    keys, passwords, URLs with a path or query — is hidden wherever it appears.
    """
    escaped = re.escape(value)
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return escaped
    if not parts.scheme or not parts.netloc or parts.path not in ("", "/") or parts.query:
        return escaped
    if value.endswith("/"):
        return escaped
    if port is not None:
        return escaped + r"(?!\d)"
    return escaped + r"(?![0-9A-Za-z]|[.-][0-9A-Za-z])"


class RedactingFilter(logging.Filter):
    """A logging filter that redacts URL secrets in a record's final message.

    Third-party libraries we call (the extractor, the HTTP stack) log the URLs they were given;
    this keeps tokens in those URLs out of every log line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record is left to logging's own handling
            return True
        redacted = redact_text(message)
        if redacted != message:
            record.msg = redacted
            record.args = None
        return True


_FILTER = RedactingFilter()


def install_log_redaction(prefixes: Iterable[str]) -> None:
    """Attach the redacting filter to every existing logger whose name starts with a prefix.

    Call it right after importing the library (its loggers then exist). Idempotent.

    Args:
        prefixes: top-level logger names, e.g. ``("trafilatura", "htmldate")``.
    """
    wanted = tuple(prefixes)
    names = [n for n in list(logging.Logger.manager.loggerDict) if n.split(".")[0] in wanted]
    for name in {*names, *wanted}:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
