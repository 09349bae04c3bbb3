"""Secret redaction for everything shown to a model or written to the journal.

Two kinds of secrets are handled:

* secrets carried in URLs: query (and fragment) parameters whose name marks a credential
  (``token``, ``key``, ``passkey``, ``password``, ``sig``, ``auth`` … SPEC §1.1) and the
  password of a ``user:pass@`` userinfo. Their values become ``[REDACTED]``; the rest of the
  URL is kept byte for byte.
* known secret values (API keys from the settings): :class:`Redactor` replaces every
  occurrence in any text.

Pure functions, no I/O.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import unquote

__all__ = [
    "REDACTED",
    "RedactingFilter",
    "Redactor",
    "install_log_redaction",
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
_NAME_SPLIT = re.compile(r"[_\-.\s\[\]]+")
# camelCase boundaries: apiKey -> api key, accessToken -> access token
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_parameter(name: str) -> bool:
    """Whether a query parameter name marks a credential (e.g. ``api_key``, ``X-Amz-Signature``).

    Args:
        name: the raw (possibly percent-encoded) parameter name.
    """
    decoded = unquote(name)
    spaced = _CAMEL.sub(" ", decoded)
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


def _redact_params(params: str) -> str:
    pieces = params.split("&")
    out = []
    for piece in pieces:
        name, sep, value = piece.partition("=")
        if sep and value and is_secret_parameter(name) and not _is_redacted(value):
            out.append(f"{name}={REDACTED}")
        else:
            out.append(piece)
    return "&".join(out)


_USERINFO = re.compile(r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^/?#@:]*)(?::[^/?#@]*)?@")


def redact_url(url: str) -> str:
    """Return ``url`` with secret parameter values and any userinfo password replaced.

    ``https://u:pw@h/p?q=1&token=abc#x`` → ``https://u:[REDACTED]@h/p?q=1&token=[REDACTED]#x``.
    Everything else is kept exactly as given (no re-encoding).
    """
    m = _USERINFO.match(url)
    if m and ":" in url[len(m.group("scheme")) : m.end()]:
        url = f"{m.group('scheme')}{m.group('user')}:{REDACTED}@{url[m.end() :]}"
    head, hash_sep, fragment = url.partition("#")
    base, q_sep, query = head.partition("?")
    if q_sep:
        head = f"{base}?{_redact_params(query)}"
    if hash_sep and "=" in fragment:
        fragment = _redact_params(fragment)
    return f"{head}{hash_sep}{fragment}"


# A URL inside free text: scheme, then anything up to whitespace or a closing delimiter.
_URL_IN_TEXT = re.compile(r"""[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"'`)\]]+""")


def redact_text(text: str) -> str:
    """Redact every URL found inside free text (see :func:`redact_url`)."""
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


class Redactor:
    """Replaces known secret values (API keys, tokens from settings) and URL secrets in text.

    Args:
        secrets: secret values to hide; values shorter than 4 characters are ignored because
            replacing them would mangle ordinary text.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in values)) if values else None

    def __call__(self, text: str) -> str:
        """Return ``text`` with URL secrets and every known secret value replaced."""
        text = redact_text(text)
        if self._pattern is not None:
            text = self._pattern.sub(REDACTED, text)
        return text


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
