"""A URL string as a browser reads it, before any parsing (foundation: pure, no imports).

The SSRF guard, every tool taking a URL and the command line's URL-or-PATH decision use
the one rule, so what is decided on, checked, fetched and shown is the same string.
The words for a URL typed without its scheme whose host is internal
(:data:`INTERNAL_TYPED_HINT`) and the names of internal networks (:data:`INTERNAL_SUFFIXES`)
live here too, so the guard's step for a model and the command line's for a person agree.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote, urlsplit

__all__ = [
    "INTERNAL_SUFFIXES",
    "INTERNAL_TYPED_HINT",
    "clean_url",
    "host_as_read",
    "not_web_url",
    "scheme_hint",
    "suggested_url",
    "typed_host",
]

#: Name suffixes that always point inside a network (the SSRF guard refuses them whatever
#: the settings: :mod:`webresearch.net.hostnames`).
INTERNAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa")

#: The next step after a URL typed without its scheme (or its ``//``) whose host the guard
#: refuses and no setting the person may type opens (``metadata.google.internal/x``,
#: ``169.254.169.254/x``): no URL to retry is suggested — the one wording of the command
#: line and of web_fetch, fetch_image and the browser for a model (review, session 13).
INTERNAL_TYPED_HINT = "this address is internal and not allowed (SSRF guard); use a public URL"

#: ASCII tab and newline, which the WHATWG URL parser removes anywhere in the input.
_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")
#: C0 controls (U+0000–U+001F) and space, stripped from both ends by the WHATWG URL parser.
_C0_OR_SPACE = "".join(map(chr, range(0x21)))

#: ``http:`` / ``https:`` typed without ``//`` (``http:127.0.0.1:8765/``, ``https:/x.org``,
#: ``https:x.org``, ``http:\\x.org``): WHATWG reads the slashes (or backslashes) as optional
#: for these special schemes ("special authority ignore slashes state").
_WEB_SCHEME_NO_SLASHES = re.compile(r"(https?):(?!//)[/\\]*", re.IGNORECASE)
#: ``http//`` / ``https//`` before a host: the scheme typed without its colon
#: (``http//example.org/x``, review n-15). No parser reads it as a URL (a relative path to
#: WHATWG and to the command line's PATH), so it is only ever a suggestion's source.
_WEB_SCHEME_NO_COLON = re.compile(r"(https?)//(?=[^/\\])", re.IGNORECASE)

#: Endings of a file name (no top-level domain is spelled so): ``page.html`` and
#: ``IMG_0042.jpg`` are paths. Pictures and documents too: ``image`` reads the former.
_FILE_SUFFIXES = (
    ".html", ".htm", ".xhtml", ".txt", ".md", ".json", ".xml", ".pdf", ".csv",
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".avif", ".heic",
    ".svg", ".ico", ".doc", ".docx", ".xlsx", ".odt", ".rtf", ".yaml", ".yml", ".toml",
    ".ini", ".log", ".rst", ".epub",
)  # fmt: skip

#: What a host may hold once read (WHATWG: any other character is a forbidden domain code
#: point, or none a DNS name has): letters, digits, ``.``, ``-`` and ``_``.
_HOST_READ = re.compile(r"[a-z0-9._-]+")

#: A host (a name with a dot, ``localhost`` or an IP literal) and an optional decimal port.
_HOST_PORT = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:@\[\]]+)(?::(?P<port>\d{1,5}))?")


def clean_url(url: str) -> str:
    """``url`` as a browser reads it: leading and trailing C0 controls and spaces stripped,
    ASCII tab and newline removed anywhere (WHATWG URL Standard, "basic URL parser", the
    first two steps). ``' http://x/'``, ``'http://x/ '`` and ``'\\thttp://x/'`` all mean
    ``http://x/`` (a space inside the URL is kept and percent-encoded as usual).
    """
    return url.strip(_C0_OR_SPACE).translate(_TAB_OR_NEWLINE)


def host_as_read(host: str) -> str:
    """``host`` (a URL's host, without port or brackets) as a browser reads it before judging
    it: percent-escapes decoded as UTF-8 and the name made ASCII (IDNA), in lower case —
    the WHATWG URL Standard's "host parser" (steps 4-5: ``169%2e254.169.254`` is
    ``169.254.169.254``, ``169.254.169.254%2e`` ``169.254.169.254.``, ``%31%32%37.0.0.1``
    ``127.0.0.1``, ``１２７．０．０．１`` ``127.0.0.1``). An IPv6 literal (it holds ``:``) is
    not decoded there, and a host that reads as no name (``a%2fb``: a ``/``) is returned
    as given, in lower case: a browser fails to parse it, so it names no host."""
    lowered = host.lower()
    if ":" in host or (host.isascii() and "%" not in host):
        return lowered
    read = unquote(host, errors="replace")
    if not read.isascii():
        try:
            read = read.encode("idna").decode("ascii")
        except UnicodeError:
            return lowered
    read = read.lower()
    return read if _HOST_READ.fullmatch(read) else lowered


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _authority_ok(rest: str) -> tuple[str, bool] | None:
    """``(host, local)`` of the authority at the start of ``rest`` when it is one a URL could
    have without credentials (a dotted name, ``localhost`` or an IP literal, an optional
    decimal port), else ``None``; ``local`` is ``localhost`` or an IP literal as read
    (:func:`host_as_read`)."""
    if re.search(r"[\\@]", re.split(r"[/?#]", rest, maxsplit=1)[0]):
        # ``127.0.0.1\@example.org``: credentials to urlsplit, the host 127.0.0.1 to a
        # browser (a backslash ends its authority): no such URL is suggested (review r-13a)
        return None
    authority = re.split(r"[/\\?#]", rest, maxsplit=1)[0]
    match = _HOST_PORT.fullmatch(authority)
    if match is None:  # ``git@github.com:foo/bar`` (credentials), ``host:path``
        return None
    host = match.group("host")
    read = host_as_read(host).rstrip(".")  # ``%31%32%37.0.0.1``, ``loc%61lhost`` (r-15)
    local = read == "localhost" or _is_ip_literal(host) or _is_ip_literal(read)
    if not local and ("." not in host or host.replace(".", "").isdigit()):
        return None  # ``8765``, ``page``: not a host name
    return host, local


def suggested_url(text: str) -> str | None:
    """The http(s) URL meant by ``text`` typed without its scheme or its ``//``, else ``None``.

    ``https:/x.org`` -> ``https://x.org``; ``http:localhost:8765/`` -> ``http://localhost:8765/``;
    ``example.org/page`` -> ``https://example.org/page``; ``http//example.org/x`` (no colon)
    -> ``http://example.org/x``; ``localhost:8765`` and
    ``127.0.0.1:8765`` -> ``http://…`` (a local server with a port speaks plain HTTP far more
    often); ``http:8765`` (no host), ``git@github.com:foo/bar`` (credentials),
    ``page.html``, ``./x``, ``/x`` and ``~/x`` (paths) -> ``None``. Never a URL with
    credentials, and never fetched: only shown as a next step.
    """
    cleaned = clean_url(text)
    web = _WEB_SCHEME_NO_SLASHES.match(cleaned)
    if web is not None:
        rest = cleaned[web.end() :]
        if _authority_ok(rest) is None:
            return None
        return f"{web.group(1).lower()}://{rest}"
    colonless = _WEB_SCHEME_NO_COLON.match(cleaned)
    if colonless is not None:
        rest = cleaned[colonless.end() :]
        return None if _authority_ok(rest) is None else f"{colonless.group(1).lower()}://{rest}"
    if "://" in cleaned or cleaned.startswith((".", "/", "~", "\\")):
        return None
    if cleaned.split("/", 1)[0].lower().endswith(_FILE_SUFFIXES):
        return None
    authority = _authority_ok(cleaned)
    if authority is None:
        return None
    _host, local = authority
    has_port = re.match(r"[^/?#]*:\d", cleaned) is not None
    return f"{'http' if local and has_port else 'https'}://{cleaned}"


def typed_host(text: str) -> str | None:
    """The ``host[:port]`` a browser reads from ``text``, a URL typed without its scheme or
    its ``//`` (``127.1:8080/x`` -> ``127.1:8080``; ``http:/10.0.0.1\\@x.org/`` ->
    ``10.0.0.1``: a backslash ends the authority as ``/`` does; ``user@10.0.0.1/x`` ->
    ``10.0.0.1``), its host as read (:func:`host_as_read`: ``169%2e254.169.254/x`` ->
    ``169.254.169.254``), for the SSRF guard to judge before any URL is suggested. ``None`` for a
    full URL, another scheme (``javascript:x``), a path (``./x``, ``/x``, ``~/x``) and a
    word with neither a dot nor a port (``weather``: a query, not a host)."""
    cleaned = clean_url(text)
    web = _WEB_SCHEME_NO_SLASHES.match(cleaned) or _WEB_SCHEME_NO_COLON.match(cleaned)
    if web is not None:
        rest = cleaned[web.end() :]
    elif "://" in cleaned or cleaned.startswith((".", "/", "~", "\\")):
        return None
    else:
        rest = cleaned
    authority = re.split(r"[/\\?#]", rest, maxsplit=1)[0].rpartition("@")[2]
    match = _HOST_PORT.fullmatch(authority)  # ``javascript:alert(1)``: no port, no host
    if match is None or not ("." in authority or match.group("port") or web is not None):
        return None
    host, port = match.group("host"), match.group("port")
    read = host if host.startswith("[") else host_as_read(host)
    return read if port is None else f"{read}:{port}"


def scheme_hint(text: str) -> str | None:
    """``a URL needs its scheme: …`` (:func:`suggested_url`) for a URL typed without its
    scheme, else ``None`` — the one wording of the command line, web_fetch, fetch_image and
    the browser."""
    url = suggested_url(text)
    return None if url is None else f"a URL needs its scheme: {url}"


def not_web_url(url: str, opener: str = "the browser") -> tuple[str, str] | None:
    """``(message, next step)`` when ``url`` is not an http(s) URL, else ``None`` — the one
    wording of the browser tool (``BrowserPolicy.check_navigation``) and ``webresearch
    browse``. ``example.org`` and ``localhost:8765`` (which ``urlsplit`` reads as the scheme
    ``localhost``) and ``https:/x.org`` (no ``//``) get the URL meant (:func:`scheme_hint`);
    ``javascript:x`` is named by its scheme. A string ``urlsplit`` cannot parse passes (the
    caller's parser says so)."""
    cleaned = clean_url(url)
    shown = cleaned[:200]
    meant = scheme_hint(cleaned) if "://" not in cleaned else None
    if meant is not None:
        return f"{opener} only opens http and https pages; {shown} is not a full URL", meant
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return None
    if scheme in ("http", "https"):
        return None
    if not scheme:
        return (
            f"{opener} only opens http and https pages; {shown} has no scheme",
            "give an http:// or https:// URL",
        )
    return (
        f"{opener} only opens http and https pages, not {scheme[:20]}: URLs",
        "give an http:// or https:// URL",
    )
