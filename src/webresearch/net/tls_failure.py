"""A failed TLS handshake as a :class:`~webresearch.errors.TLSError` with a next step.

Two kinds are told apart by the :mod:`ssl` exception in the chain (new-user test 16, L1):

* the certificate could not be verified (:class:`ssl.SSLCertVerificationError`,
  :class:`ssl.CertificateError`): nothing to change in the URL — certificate checks are
  never skipped, so the step is another source;
* any other handshake failure — most often the port serves plain HTTP (OpenSSL's
  ``WRONG_VERSION_NUMBER`` when an HTTP server answers a ClientHello): the step names the
  ``http://`` URL *conditionally* ("if this server serves plain HTTP"), never as a way
  around a certificate.
"""

from __future__ import annotations

import ssl
from urllib.parse import urlsplit

from ..errors import TLSError

__all__ = ["tls_failure"]

#: The step after a certificate that could not be verified.
CERTIFICATE_HINT = (
    "the site's certificate could not be verified (expired, self-signed or for another "
    "name); certificate checks are never skipped: use another source"
)
#: The step after another handshake failure of a URL that is not ``https://``.
RETRY_TLS_HINT = "try again later or use another source"


def tls_failure(exc: BaseException, shown_url: str) -> TLSError | None:
    """The error of ``exc`` when an :mod:`ssl` error is in its chain, else ``None``.

    Args:
        exc: the transport's exception (the ssl error is its cause or context).
        shown_url: the (redacted) URL to name in the message and the step.
    """
    found = _ssl_error(exc)
    if found is None:
        return None
    message = (
        f"TLS handshake with {shown_url} failed (certificate not valid for this host, "
        "or the server does not speak TLS)"
    )
    if isinstance(found, ssl.SSLCertVerificationError | ssl.CertificateError):
        return TLSError(message, hint=CERTIFICATE_HINT)
    plain = _plain_http(shown_url)
    if plain is None:
        return TLSError(message, hint=RETRY_TLS_HINT)
    return TLSError(
        message,
        hint=f"if this server serves plain HTTP, use {plain}; else {RETRY_TLS_HINT}",
    )


def _ssl_error(exc: BaseException) -> BaseException | None:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, ssl.SSLError | ssl.CertificateError):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


def _plain_http(url: str) -> str | None:
    """``url`` with ``http://`` for ``https://``, else ``None``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() != "https":
        return None
    return parts._replace(scheme="http").geturl()
