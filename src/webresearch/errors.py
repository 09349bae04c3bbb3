"""The one error hierarchy of webresearch.

Every failure a tool can report is a subclass of :class:`WebResearchError` with a stable
``code`` (what programs switch on), a ``retryable`` flag (whether the same call may succeed
later) and, where one exists, a ``hint``: the next step a model should take. The ``message``
is short, model-facing and never holds keys, internal addresses or stack traces; callers pass
already-redacted URLs.

Tree::

    WebResearchError                     error
    ├── InvalidArguments                 invalid_arguments
    ├── ConfigurationError               configuration
    ├── Refusal                          (policy said no; the CLI exits with 3)
    │   ├── ToolUnavailable              tool_unavailable  (not registered for this run)
    │   ├── BlockedAddress               blocked_address
    │   ├── BlockedDomain                blocked_domain
    │   ├── RobotsDisallowed             robots_disallowed (RFC 9309; a person's own command may fetch it)
    │   ├── ScopeDenied                  scope_denied
    │   ├── ApprovalDenied               approval_denied
    │   ├── RateLimited                  rate_limited      (retry_after seconds)
    │   └── BudgetExceeded               budget_exceeded
    ├── FetchError                       (the remote side or the transfer failed)
    │   ├── HTTPStatusError              http_status       (status; retryable for 429/5xx)
    │   ├── TooManyRedirects             too_many_redirects
    │   ├── TooLarge                     too_large
    │   ├── Timeout                      timeout
    │   ├── NetworkError                 network
    │   ├── TLSError                     tls
    │   ├── UnsupportedContent           unsupported_content
    │   └── AntiBotChallenge             anti_bot_challenge
    ├── SearchError                      (a search provider failed; SPEC §1.2)
    │   ├── SearchAuthError              auth
    │   ├── SearchQuotaError             quota
    │   ├── SearchRateError              rate              (retry_after seconds)
    │   ├── SearchBadRequest             bad_request
    │   ├── SearchUpstreamError          upstream
    │   ├── SearchNetworkError           network
    │   ├── SearchTimeout                timeout
    │   └── SearchProtocolError          protocol
    ├── StorageError                     storage           (journal/limit/cache backend)
    ├── InternalError                    internal          (a bug: details go to the log only)
    └── BrowserError                     browser
        └── StaleRef                     stale_ref

The codes are part of the public contract (SPEC §3 "Errors"): never rename one.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "BLOCKED_HINT",
    "BLOCKED_HINT_NO_BROWSER",
    "AntiBotChallenge",
    "ApprovalDenied",
    "BlockedAddress",
    "BlockedDomain",
    "BrowserError",
    "BudgetExceeded",
    "ConfigurationError",
    "FetchError",
    "HTTPStatusError",
    "InternalError",
    "InvalidArguments",
    "NetworkError",
    "RateLimited",
    "Refusal",
    "RobotsDisallowed",
    "ScopeDenied",
    "SearchAuthError",
    "SearchBadRequest",
    "SearchError",
    "SearchNetworkError",
    "SearchProtocolError",
    "SearchQuotaError",
    "SearchRateError",
    "SearchTimeout",
    "SearchUpstreamError",
    "StaleRef",
    "StorageError",
    "TLSError",
    "Timeout",
    "TooLarge",
    "TooManyRedirects",
    "ToolUnavailable",
    "UnsupportedContent",
    "WebResearchError",
    "error_from_dict",
]


#: The next step where a site refuses automated clients (a 403, an anti-bot challenge): a
#: real browser often gets through.
BLOCKED_HINT = "the site blocks automated clients; try the browser tool or another source"
#: The same where no browser can run (turned off, or not installed): the Toolkit swaps
#: :data:`BLOCKED_HINT` for it, so a model gets no advice it cannot follow.
BLOCKED_HINT_NO_BROWSER = "the site blocks automated clients; try another source"


class WebResearchError(Exception):
    """Base of every webresearch error.

    Attributes:
        code: stable machine-readable code (class attribute, never changes).
        retryable: whether repeating the same call later may succeed.
        message: short, model-facing text (no secrets, no internal addresses).
        hint: the suggested next step for a model, or ``None`` when there is none.
        details: extra structured context for programs (JSON-serialisable values only).
    """

    code: ClassVar[str] = "error"
    retryable_default: ClassVar[bool] = False

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        retryable: bool | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.retryable = self.retryable_default if retryable is None else retryable
        self.details: dict[str, Any] = details

    def to_text(self) -> str:
        """The model-facing text: ``error[code]: message`` plus the hint on its own line."""
        text = f"error[{self.code}]: {self.message}"
        if self.hint:
            text += f"\nnext step: {self.hint}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view: code, message, retryable, hint and details."""
        return {
            "code": self.code,
            "message": self.message,
            "retryable": self.retryable,
            "hint": self.hint,
            **self.details,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors come back from worker processes by pickle (runtime/cpu_pool.py). The
        # default rebuilds through __init__, whose keyword-only arguments differ per class
        # (``status=``, ``retry_after=``); rebuild from the attributes instead.
        return (_restore_error, (type(self), self.args), self.__dict__)


class InvalidArguments(WebResearchError):
    """The tool arguments do not match the tool's schema or rules."""

    code = "invalid_arguments"


class ConfigurationError(WebResearchError):
    """The operator's configuration is missing or wrong (names the setting to fix)."""

    code = "configuration"


class Refusal(WebResearchError):
    """A policy of ours said no. Never looks like a site's own 403."""

    code = "refusal"


class ToolUnavailable(Refusal):
    """The tool is not registered for this run (unknown name, gate closed, or denied)."""

    code = "tool_unavailable"


class BlockedAddress(Refusal):
    """The target resolves to (or is spelled as) an internal address: the SSRF guard refused it."""

    code = "blocked_address"


class BlockedDomain(Refusal):
    """The target's domain is not allowed by the configured domain policy."""

    code = "blocked_domain"


class RobotsDisallowed(Refusal):
    """The site's robots.txt disallows the URL for our product token (RFC 9309), or could not
    be fetched (5xx, unreachable: everything is disallowed until a later fetch succeeds).

    Not retryable when a rule disallows the path (``rule`` in the details names it);
    retryable when robots.txt could not be fetched (``reason: "unreachable"``).
    """

    code = "robots_disallowed"


class ScopeDenied(Refusal):
    """The run's fetch scope does not include this URL (SPEC §1.5)."""

    code = "scope_denied"


class ApprovalDenied(Refusal):
    """The approval policy (or the person supervising) denied this call."""

    code = "approval_denied"


class RateLimited(Refusal):
    """Our own limiter refused the call; ``retry_after`` says in how many seconds to retry."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float, **kwargs: Any) -> None:
        kwargs.setdefault("hint", f"retry after {max(1, round(retry_after))} s")
        super().__init__(message, retry_after=retry_after, **kwargs)
        self.retry_after = retry_after


class BudgetExceeded(Refusal):
    """The run's spending budget does not cover another paid call."""

    code = "budget_exceeded"


class FetchError(WebResearchError):
    """Fetching a URL failed on the remote side or in transfer."""

    code = "fetch_error"


class HTTPStatusError(FetchError):
    """The server answered with an error status (retryable for 408, 425, 429 and 5xx)."""

    code = "http_status"

    def __init__(self, message: str, *, status: int, **kwargs: Any) -> None:
        kwargs.setdefault("retryable", status in (408, 425, 429) or status >= 500)
        super().__init__(message, status=status, **kwargs)
        self.status = status


class TooManyRedirects(FetchError):
    """More redirects than allowed (SPEC §1.1: at most 5)."""

    code = "too_many_redirects"


class TooLarge(FetchError):
    """The body or the input exceeds a size cap."""

    code = "too_large"


class Timeout(FetchError):
    """Connecting or reading took longer than the configured timeout."""

    code = "timeout"
    retryable_default = True


class NetworkError(FetchError):
    """The connection could not be made or broke (DNS failure, refused, reset)."""

    code = "network"
    retryable_default = True


class TLSError(FetchError):
    """The TLS handshake failed (certificate not valid for the host, protocol error)."""

    code = "tls"


class UnsupportedContent(FetchError):
    """The content type is not one this tool can turn into text or an image."""

    code = "unsupported_content"


class AntiBotChallenge(FetchError):
    """The server answered with a bot challenge or captcha instead of the page."""

    code = "anti_bot_challenge"


class SearchError(WebResearchError):
    """A search provider failed (SPEC §1.2 classification)."""

    code = "search_error"


class SearchAuthError(SearchError):
    """The provider rejected the credentials (HTTP 401/403)."""

    code = "auth"


class SearchQuotaError(SearchError):
    """The provider's quota or plan is exhausted (HTTP 402)."""

    code = "quota"


class SearchRateError(SearchError):
    """The provider rate-limited us (HTTP 429); ``retry_after`` in seconds when known."""

    code = "rate"
    retryable_default = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        if retry_after is not None:
            kwargs.setdefault("hint", f"retry after {max(1, round(retry_after))} s")
        super().__init__(message, retry_after=retry_after, **kwargs)
        self.retry_after = retry_after


class SearchBadRequest(SearchError):
    """The provider rejected the query or its options (HTTP 400/422)."""

    code = "bad_request"


class SearchUpstreamError(SearchError):
    """The provider failed on its side (HTTP 5xx)."""

    code = "upstream"
    retryable_default = True


class SearchNetworkError(SearchError):
    """The provider could not be reached."""

    code = "network"
    retryable_default = True


class SearchTimeout(SearchError):
    """The provider did not answer within the search timeout."""

    code = "timeout"
    retryable_default = True


class SearchProtocolError(SearchError):
    """The provider's answer could not be understood (not the documented format)."""

    code = "protocol"


class StorageError(WebResearchError):
    """A journal, limit or cache backend (SQLite, Redis, PostgreSQL) failed."""

    code = "storage"
    retryable_default = True


class InternalError(WebResearchError):
    """An unexpected failure inside a tool (a bug); the model sees no details."""

    code = "internal"


class BrowserError(WebResearchError):
    """The browser backend failed or the action could not be performed."""

    code = "browser"


class StaleRef(BrowserError):
    """An element ref from an earlier snapshot was used after the page changed."""

    code = "stale_ref"


def _all_subclasses(cls: type[WebResearchError]) -> list[type[WebResearchError]]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_all_subclasses(sub))
    return out


def error_from_dict(data: dict[str, Any]) -> WebResearchError:
    """Rebuild an error from :meth:`WebResearchError.to_dict` (e.g. a replayed result).

    The class is the first one with the recorded ``code`` (fetch errors win over the search
    errors that share ``network``/``timeout``); unknown codes give a plain WebResearchError.
    """
    code = data.get("code", "error")
    cls: type[WebResearchError] = WebResearchError
    for candidate in _all_subclasses(WebResearchError):
        if candidate.code == code:
            cls = candidate
            break
    extra = {k: v for k, v in data.items() if k not in ("code", "message", "retryable", "hint")}
    err = cls.__new__(cls)
    WebResearchError.__init__(
        err,
        str(data.get("message", "")),
        hint=data.get("hint"),
        retryable=data.get("retryable"),
        **extra,
    )
    for key in ("status", "retry_after"):
        if key in extra:
            setattr(err, key, extra[key])
    return err


def _restore_error(cls: type[WebResearchError], args: tuple[Any, ...]) -> WebResearchError:
    """An error of class ``cls`` with ``args``, its attributes set by pickle afterwards."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    return error
