"""The base of every settings section, and the parsers sections share.

:class:`~webresearch.config.settings.Settings` is composed of small sections (the SSRF guard
and fetching, the runtime, images, the browser, search, hosted services, the MCP server, the
fleet's storage): a new setting goes into the section it belongs to. Field names stay flat
(``browser_action_timeout_s``), so the environment variable of every field is still
``WEBRESEARCH_<FIELD>``.
"""

from __future__ import annotations

import ipaddress
import types
import typing
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    SecretStr,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

__all__ = [
    "HeaderFields",
    "HeaderSecret",
    "Limit",
    "Section",
    "comma_list",
    "header_fields",
    "header_secret",
    "header_value",
    "no_boolean_number",
    "no_limit",
    "normalize_domain_pattern",
    "parse_networks",
]

#: Spellings of "no limit" a count limit takes besides 0 (any case).
NO_LIMIT_WORDS = frozenset({"0", "none", "off", "unlimited"})


class Section(BaseModel):
    """A group of settings (frozen, unknown fields refused, defaults validated; a number is
    finite: ``inf``, ``nan`` and ``1e400``, which overflows to infinity, are refused — an
    infinite timeout or TTL waits forever and ``nan`` compares false with every bound)."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", validate_default=True, allow_inf_nan=False
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_number(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        return no_boolean_number(value, field.annotation if field is not None else None)


def no_boolean_number(value: Any, annotation: Any) -> Any:
    """``value`` unchanged, unless it is a boolean given for a number setting: a TOML
    ``fetch_max_bytes = true`` read as 1 (pydantic's lax mode takes ``True`` for 1), while
    the environment's ``true`` was refused (session 10 review, 14).

    Args:
        value: the value as given.
        annotation: the field's type (``int | None``, ``float``); a type that admits
            ``bool`` itself takes booleans.

    Raises:
        PydanticCustomError: ``int_type`` or ``float_type`` (worded by
            :func:`~webresearch.config.problems.problem_text`: ``must be a whole number,
            e.g. 49152, not a boolean (true)``).
    """
    if not isinstance(value, bool):
        return value
    kinds = _flat_types(annotation)
    if bool in kinds:
        return value
    if int in kinds:
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    if float in kinds:
        raise PydanticCustomError("float_type", "Input should be a valid number")
    return value


def _flat_types(annotation: Any) -> set[Any]:
    """The types of a union (``int | None`` → {int, NoneType}; ``Annotated`` unwrapped)."""
    if typing.get_origin(annotation) is Annotated:
        return _flat_types(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return {t for arg in typing.get_args(annotation) for t in _flat_types(arg)}
    return {annotation}


def comma_list(value: Any) -> Any:
    """``"a, b,,c"`` → ``["a", "b", "c"]`` (environment lists); other values unchanged."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return value


def normalize_domain_pattern(pattern: str) -> str:
    """A browser domain pattern, normalised: ``"*.Example.COM."`` → ``"*.example.com"``.

    Exact names match themselves; ``*.example.com`` matches every subdomain (not the apex).
    A name holds letters, digits, ``-``, ``.`` and ``_`` (RFC 1123 §2.1 host names; ``_``
    for service names), and any non-ASCII letter (an IDN, as typed): ``[a``, ``"a.com"``
    or ``a b`` is a list or a quote taken apart, never a domain: the error shows a list in
    both forms (the value may come from the file or the environment).

    Raises:
        ValueError: empty, a wildcard anywhere but a leading ``*.``, a character no
            domain name has, an empty label (``a..com``, ``.example.com``) or a label over
            63 characters (RFC 1035 §2.3.4) (names the pattern).
    """
    p = pattern.strip().lower().rstrip(".")
    body = p[2:] if p.startswith("*.") else p
    if not body or any(_not_in_a_name(ch) for ch in body):
        listed = ""
        if any(ch in body for ch in "[]\"'"):
            listed = (
                '; a list is ["a.example", "*.b.example"] in the settings file (or JSON), '
                "a.example,*.b.example in an environment variable"
            )
        raise ValueError(
            f"not a domain pattern: {pattern!r} (use example.com or *.example.com{listed})"
        )
    if body.startswith(".") and body.strip("."):  # ``.example.com``, as in a cookie's domain
        name = body.strip(".")
        raise ValueError(
            f"not a domain pattern: {pattern!r} (a name does not start with '.': write "
            f"*.{name} for its subdomains, or {name} for the name itself)"
        )
    labels = body.split(".")
    if "" in labels:
        raise ValueError(
            f"not a domain pattern: {pattern!r} (it has an empty label, '..'; labels are "
            "separated by one dot: use example.com or *.example.com)"
        )
    if edge := next((label for label in labels if label[0] == "-" or label[-1] == "-"), None):
        raise ValueError(
            f"not a domain pattern: {pattern[:80]!r} (the label {edge[:20]!r} starts or ends "
            "with '-', which no host name label does, RFC 1123 §2.1)"
        )
    if long := next((label for label in labels if len(label) > 63 and label.isascii()), None):
        raise ValueError(
            f"not a domain pattern: {pattern[:80]!r} (the label {long[:20]!r}… has "
            f"{len(long)} characters; a label has at most 63, RFC 1035 §2.3.4)"
        )
    return p


def header_value(value: str) -> str:
    """``value`` as an HTTP header field's value (the ``User-Agent``), without the spaces
    around it: visible ASCII characters, with spaces and tabs inside (RFC 9110 §5.5; a CR or
    LF would end the header and start another, and the HTTP client refuses non-ASCII text,
    so the request failed later and the error blamed the server).

    Raises:
        ValueError: a line break, another control character or a non-ASCII character
            (named with its position, never the whole value).
    """
    text = value.strip(" \t")
    for position, ch in enumerate(text, 1):
        if " " <= ch <= "~" or ch == "\t":
            continue
        if ch in "\r\n":
            what = "a line break"
        elif ch.isascii():
            what = f"the control character U+{ord(ch):04X}"
        else:
            what = f"the non-ASCII character {ch!r}"
        raise ValueError(
            "must be visible ASCII characters, spaces and tabs only (it is sent as an HTTP "
            f"header, RFC 9110 §5.5), not {what} (character {position})"
        )
    return text


#: The characters of a header field's name: a token (RFC 9110 §5.1, §5.6.2 ``tchar``).
_TOKEN_CHARS = frozenset(
    "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)


def header_secret(value: SecretStr | None) -> SecretStr | None:
    """A secret sent in an HTTP header (an API key: ``Authorization: Bearer <key>``) checked
    as :func:`header_value` checks the User-Agent, without the white space around it (a
    key file's final line break, which the key's users stripped before); the message
    names the character and its position, never the value.

    Raises:
        ValueError: a line break, another control character or a non-ASCII character.
    """
    if value is None:
        return None
    try:
        return SecretStr(header_value(value.get_secret_value().strip()))
    except ValueError as exc:
        raise ValueError(f"{exc} (the value itself is not shown: it is a secret)") from None


#: Header fields the HTTP client writes from the request itself: an operator's value would
#: send the request elsewhere or break its framing (request smuggling).
_CLIENT_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "trailer",
     "upgrade", "proxy-connection"}
)  # fmt: skip


def header_fields(value: dict[str, SecretStr]) -> dict[str, SecretStr]:
    """An operator's extra request headers (``{"X-Proxy-Token": "…"}``) checked: each name
    a token (RFC 9110 §5.1), each value a header value (:func:`header_value`, without the
    white space around it; a CR or LF inside would end the header and add others of the
    text's choosing: header injection). Values
    are secrets: a message names the header and the character, never the value.

    Raises:
        ValueError: a name or a value that no HTTP header has.
    """
    out = {}
    for name, secret in value.items():
        if name.lower() in _CLIENT_HEADERS:
            raise ValueError(
                f"header {name!r} is set by the HTTP client itself (its framing or routing: "
                "RFC 9110 §7.2, §6.4.1); leave it out"
            )
        bad = next((ch for ch in name if ch not in _TOKEN_CHARS), None)
        if not name or bad is not None:
            what = "it is empty" if bad is None else f"not {_character(bad)}"
            raise ValueError(
                f"header name {name[:60]!r} must be ASCII letters, digits and "
                f"!#$%&'*+-.^_`|~ only (RFC 9110 §5.1), e.g. X-Proxy-Token; {what}"
            )
        try:
            out[name] = SecretStr(header_value(secret.get_secret_value().strip()))
        except ValueError as exc:
            raise ValueError(
                f"header {name!r}: its value {exc} (the value itself is not shown: it is a secret)"
            ) from None
    return out


def _character(ch: str) -> str:
    """``a line break``, ``the control character U+0000``, ``the character ' '``."""
    if ch in "\r\n":
        return "a line break"
    if ch.isascii() and not ch.isprintable():
        return f"the control character U+{ord(ch):04X}"
    return f"the character {ch!r}"


#: A secret sent as an HTTP header value (an API key): checked by :func:`header_secret`.
HeaderSecret = Annotated[SecretStr | None, AfterValidator(header_secret)]
#: Extra HTTP headers with secret values: checked by :func:`header_fields`.
HeaderFields = Annotated[dict[str, SecretStr], AfterValidator(header_fields)]


def _not_in_a_name(ch: str) -> bool:
    """Whether ``ch`` never appears in a domain name as typed (``*``, ``/``, ``:``, ``[``,
    quotes, spaces, control characters …)."""
    if ch.isascii():
        return not (ch.isalnum() or ch in "-._")
    return not ch.isprintable() or ch.isspace()


def parse_networks(value: Any) -> Any:
    """CIDR texts → networks; a network with host bits set is refused with the fix named
    (``127.0.0.5/8`` would silently open all of 127.0.0.0/8)."""
    value = comma_list(value)
    if not isinstance(value, (list, tuple)):
        return value
    out = []
    for item in value:
        if not isinstance(item, str):
            out.append(item)
            continue
        text = item.strip()
        try:
            out.append(ipaddress.ip_network(text))
        except ValueError as exc:
            try:
                widened = ipaddress.ip_network(text, strict=False)
            except ValueError:
                raise ValueError(
                    f"not a CIDR network: {item!r} (e.g. 127.0.0.1/32, or ::1/128 for IPv6 loopback)"
                ) from exc
            raise ValueError(
                f"{text} has host bits set; did you mean {widened} "
                f"(or {text.split('/')[0]}/{widened.max_prefixlen} for one address)?"
            ) from exc
    return tuple(out)


def no_limit(value: Any) -> Any:
    """A count limit as given → the limit, or ``None`` for no limit.

    ``0``, ``None`` and the words of :data:`NO_LIMIT_WORDS` (``none``, ``off``,
    ``unlimited`` …) mean no limit, as in the seeds (a limit of 0 used to refuse every call
    and tell the model to retry, which never worked); a whole number above 0 is the limit.

    Raises:
        ValueError: a negative number (the message says what is accepted; the caller
            names the setting).
    """
    if isinstance(value, str):
        text = value.strip().lower()
        if text in NO_LIMIT_WORDS:
            return None
        value = text
    if value is None or (
        isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0
    ):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise ValueError("must be a whole number above 0, or 0 / none for no limit")
    if isinstance(value, str) and value.lstrip("+-").isdigit() and int(value) < 0:
        raise ValueError("must be a whole number above 0, or 0 / none for no limit")
    return value


#: A count limit setting: a whole number above 0, or ``None`` (no limit; also spelled 0,
#: ``none``, ``off``, ``unlimited``). Negative values are refused at start.
Limit = Annotated[int | None, BeforeValidator(no_limit)]
