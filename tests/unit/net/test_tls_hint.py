"""A failed TLS handshake gets a next step like every other error (new-user test 16, L1).

Before: ``fetch https://127.0.0.1:8716/x`` to a plain-HTTP port said only ``error[tls]: TLS
handshake … failed (…)``. The step names the ``http://`` URL only conditionally, and never
for a certificate that could not be verified.
"""

from __future__ import annotations

import ssl

import httpcore2

from webresearch.net.client import translate_transport_error


def _wrapped(cause: BaseException) -> httpcore2.ConnectError:
    exc = httpcore2.ConnectError("handshake")
    exc.__cause__ = cause
    return exc


def test_a_port_that_does_not_speak_tls_gets_the_http_url_conditionally() -> None:
    cause = ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number")
    error = translate_transport_error(_wrapped(cause), "https://127.0.0.1:8716/x?a=1")
    assert error.code == "tls"
    assert error.hint is not None
    assert error.hint.startswith(
        "if this server serves plain HTTP, use http://127.0.0.1:8716/x?a=1"
    )


def test_a_certificate_failure_suggests_no_plain_http() -> None:
    cause = ssl.SSLCertVerificationError(1, "certificate verify failed: self-signed certificate")
    error = translate_transport_error(_wrapped(cause), "https://example.org/")
    assert error.code == "tls"
    assert error.hint is not None
    assert "http://" not in error.hint
    assert "never skipped" in error.hint
