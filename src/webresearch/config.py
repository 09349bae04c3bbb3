"""Settings: one frozen, typed object, loaded from ``WEBRESEARCH_*`` variables and a TOML file.

Precedence (highest first): explicit keyword overrides → environment → TOML file → defaults.

* Environment: ``WEBRESEARCH_<FIELD>`` in upper case, e.g. ``WEBRESEARCH_ALLOW_PRIVATE=1``,
  ``WEBRESEARCH_ALLOWED_NETWORKS=127.0.0.0/8,10.1.0.0/16`` (lists are comma-separated).
* TOML: top-level keys are field names; a table flattens with ``_``, so ``[search]
  provider = "searxng"`` sets ``search_provider``. The file is ``path=`` or
  ``WEBRESEARCH_CONFIG``.
* Secrets (API keys, tokens, service URLs with passwords) are :class:`pydantic.SecretStr`:
  their ``repr``/``str`` are masked and :meth:`Settings.public_dict` never shows them.

Errors name the key that is wrong (:class:`~webresearch.errors.ConfigurationError`).
Defaults are the named constants below (units in the names: bytes, seconds).
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from .errors import ConfigurationError

__all__ = [
    "DEFAULT_BRAVE_BASE_URL",
    "DEFAULT_CONNECT_TIMEOUT_S",
    "DEFAULT_DOWNLOAD_CAP_BYTES",
    "DEFAULT_EXA_BASE_URL",
    "DEFAULT_FETCH_CACHE_SIZE",
    "DEFAULT_FETCH_CACHE_TTL_S",
    "DEFAULT_FIRECRAWL_BASE_URL",
    "DEFAULT_IMAGE_CACHE_SIZE",
    "DEFAULT_IMAGE_MAX_OUTPUT_BYTES",
    "DEFAULT_IMAGE_MAX_PIXELS",
    "DEFAULT_IMAGE_MAX_SIDE_PX",
    "DEFAULT_IMAGE_SOURCE_CAP_BYTES",
    "DEFAULT_JINA_BASE_URL",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MCP_APPROVAL_TIMEOUT_S",
    "DEFAULT_READER_TIMEOUT_S",
    "DEFAULT_REDIS_PREFIX",
    "DEFAULT_REQUEST_TIMEOUT_S",
    "DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S",
    "DEFAULT_SCREENSHOT_MAX_REDIRECTS",
    "DEFAULT_SEARCH_CACHE_SIZE",
    "DEFAULT_SEARCH_CACHE_TTL_S",
    "DEFAULT_SEARCH_TIMEOUT_S",
    "DEFAULT_STATE_URL",
    "DEFAULT_STORAGE_CONNECT_TIMEOUT_S",
    "DEFAULT_STORAGE_TIMEOUT_S",
    "DEFAULT_TAVILY_BASE_URL",
    "DEFAULT_USER_AGENT",
    "ENV_PREFIX",
    "MAX_MAX_BYTES",
    "STATE_URL_SCHEMES",
    "IPNetwork",
    "Settings",
    "normalize_domain_pattern",
]

ENV_PREFIX = "WEBRESEARCH_"

_log = logging.getLogger("webresearch.config")

#: web_fetch output budget (bytes of UTF-8 text) when the call gives none. SPEC §1.1.
DEFAULT_MAX_BYTES = 48 * 1024
#: Largest ``max_bytes`` a call may ask for. SPEC §1.1.
MAX_MAX_BYTES = 128 * 1024
#: Cap on downloaded body bytes, counted after decompression. SPEC §1.1.
DEFAULT_DOWNLOAD_CAP_BYTES = 2 * 1024 * 1024
#: Seconds to establish a TCP (and TLS) connection. SPEC §1.1.
DEFAULT_CONNECT_TIMEOUT_S = 15.0
#: Seconds for the whole request, redirects included. SPEC §1.1.
DEFAULT_REQUEST_TIMEOUT_S = 30.0
#: Redirects followed before ``too_many_redirects``. SPEC §1.1.
DEFAULT_MAX_REDIRECTS = 5
#: web_fetch cache lifetime (seconds) and size (entries, LRU). SPEC §1.1.
DEFAULT_FETCH_CACHE_TTL_S = 600.0
DEFAULT_FETCH_CACHE_SIZE = 64
DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (compatible; webresearch/0.1; +https://pypi.org/project/webresearch/)"
)

#: Sliding-window length (seconds) and default limits per window. SPEC §1.2, §1.4.
DEFAULT_RATE_WINDOW_S = 60.0
DEFAULT_SEARCH_RATE_LIMIT = 30
DEFAULT_BROWSER_RATE_LIMIT = 60

#: Shared state (limits, caches, scopes): in-process unless configured. SPEC §3.
DEFAULT_STATE_URL = "memory://"
#: URL schemes ``state_url`` accepts (``webresearch.backends.open_state`` routes them).
STATE_URL_SCHEMES = ("memory", "sqlite", "redis", "rediss")
#: Prefix of every Redis key we write.
DEFAULT_REDIS_PREFIX = "webresearch:"
#: Connect and per-operation timeouts (seconds) for Redis and PostgreSQL: a storage outage
#: is a fast, clear ``storage`` error, never a hang (issue 7: "≤ 2 s by default").
DEFAULT_STORAGE_CONNECT_TIMEOUT_S = 2.0
DEFAULT_STORAGE_TIMEOUT_S = 2.0
#: Images (SPEC §1.3). Source bytes accepted by fetch_image / view_image / the pipeline.
DEFAULT_IMAGE_SOURCE_CAP_BYTES = 5 * 1024 * 1024
#: Largest pixel count (width × height, from the header, before any decode) the pipeline
#: decodes. Our own limit, independent of Pillow's process-wide ``MAX_IMAGE_PIXELS``
#: (89.5 Mpx): 50 Mpx covers 48/50-Mpx phone photos and bounds a decode to ~200 MB (4 bytes
#: per pixel in RGBA) while one vision API already refuses above 75 Mpx (case 28).
DEFAULT_IMAGE_MAX_PIXELS = 50_000_000
#: Long side (px) of an image shown to a model; larger ones are downscaled. SPEC §1.3.
DEFAULT_IMAGE_MAX_SIDE_PX = 1568
#: Largest image block (bytes) sent to a model: 1.5 MiB. SPEC §1.3.
DEFAULT_IMAGE_MAX_OUTPUT_BYTES = 1536 * 1024
#: fetch_image keeps this many prepared images (≤ 1.5 MiB each) for ``fetch_cache_ttl_s``.
DEFAULT_IMAGE_CACHE_SIZE = 16

#: Browser (SPEC §1.4): action bound, load-readiness budget (seconds), open sessions per
#: process, idle expiry (seconds), viewport (CSS px), snapshot budget (bytes of UTF-8).
DEFAULT_BROWSER_ACTION_TIMEOUT_S = 45.0
DEFAULT_BROWSER_READY_TIMEOUT_S = 15.0
DEFAULT_BROWSER_MAX_SESSIONS = 12
DEFAULT_BROWSER_IDLE_S = 600.0
DEFAULT_BROWSER_VIEWPORT = "1280x800"
DEFAULT_BROWSER_SNAPSHOT_MAX_BYTES = 16 * 1024
#: Seconds the MCP server waits for a person to answer a supervised call's approval
#: question (an MCP elicitation) before treating it as denied. Five minutes: long enough to
#: read the question, short enough that a forgotten prompt does not hold a call forever.
DEFAULT_MCP_APPROVAL_TIMEOUT_S = 300.0
#: web_search: provider timeout (seconds), cache lifetime (seconds) and size (entries). SPEC §1.2.
DEFAULT_SEARCH_TIMEOUT_S = 10.0
DEFAULT_SEARCH_CACHE_TTL_S = 300.0
DEFAULT_SEARCH_CACHE_SIZE = 256
#: Public API origins of the paid providers (tests point them at 127.0.0.1 servers).
DEFAULT_BRAVE_BASE_URL = "https://api.search.brave.com"
DEFAULT_TAVILY_BASE_URL = "https://api.tavily.com"
DEFAULT_EXA_BASE_URL = "https://api.exa.ai"
#: Hosted services (issue 8). Public origins of Firecrawl and Jina Reader (a self-hosted or
#: proxied base URL is set instead; tests point them at 127.0.0.1 servers).
DEFAULT_FIRECRAWL_BASE_URL = "https://api.firecrawl.dev"
DEFAULT_JINA_BASE_URL = "https://r.jina.ai"
#: Seconds a page-reader or screenshot service may take for one page. Firecrawl's own
#: default scrape timeout is 30 s (its API reference); screenshots need rendering, so 45 s.
DEFAULT_READER_TIMEOUT_S = 45.0
#: A screenshot the service returns by URL is downloaded with these limits (the seed notes
#: of issue 8): ≤ 3 redirects, 20 s for the whole download, image/* only, ≤ the image
#: source cap (5 MiB).
DEFAULT_SCREENSHOT_MAX_REDIRECTS = 3
DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S = 20.0

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def normalize_domain_pattern(pattern: str) -> str:
    """A browser domain pattern, normalised: ``"*.Example.COM."`` → ``"*.example.com"``.

    Exact names match themselves; ``*.example.com`` matches every subdomain (not the apex).

    Raises:
        ValueError: empty, or a wildcard anywhere but a leading ``*.`` (names the pattern).
    """
    p = pattern.strip().lower().rstrip(".")
    body = p[2:] if p.startswith("*.") else p
    if not body or "*" in body or "/" in body or ":" in body or " " in body:
        raise ValueError(f"not a domain pattern: {pattern!r} (use example.com or *.example.com)")
    return p


class Settings(BaseModel):
    """Process configuration. Frozen: build a new one with :meth:`replace`.

    Every field may come from ``WEBRESEARCH_<FIELD>``; see the module docstring.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    # --- SSRF guard (SPEC §2) -------------------------------------------------------------
    allow_private: bool = Field(
        False,
        description="Exempt every private/reserved address from the SSRF guard (internal doc servers).",
    )
    allowed_networks: tuple[IPNetwork, ...] = Field(
        (),
        description="CIDR networks exempted from the SSRF block list, e.g. 127.0.0.0/8.",
    )
    # Outbound proxy (issue 20): trusted configuration, a secret (it may hold credentials).
    outbound_proxy: SecretStr | None = Field(
        None,
        description=(
            "Proxy for model-chosen URLs (web_fetch, fetch_image, the browser's connections): "
            "http://, https:// or socks5://[user:password@]host:port. Each target is still "
            "checked by the SSRF guard and reached through the proxy by its checked address "
            "(CONNECT / SOCKS5 to the IP). Proxy environment variables are never used."
        ),
    )

    @field_validator("outbound_proxy")
    @classmethod
    def _check_outbound_proxy(cls, value: SecretStr | None) -> SecretStr | None:
        # The message never repeats the value: it may hold a password.
        if value is None or not value.get_secret_value().strip():
            return None
        try:
            parts = urlsplit(value.get_secret_value().strip())
            port = parts.port
        except ValueError:
            raise ValueError("is not a URL with a valid port") from None
        if parts.scheme.lower() not in ("http", "https", "socks5", "socks5h"):
            raise ValueError("must start with http://, https:// or socks5://")
        if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError("must be scheme://[user:password@]host[:port] and nothing else")
        if port == 0:
            raise ValueError("needs a port from 1 to 65535")
        return SecretStr(value.get_secret_value().strip())

    # --- web_fetch (SPEC §1.1) ------------------------------------------------------------
    user_agent: str = DEFAULT_USER_AGENT
    fetch_max_bytes: int = Field(DEFAULT_MAX_BYTES, ge=1, le=MAX_MAX_BYTES)
    download_cap_bytes: int = Field(DEFAULT_DOWNLOAD_CAP_BYTES, ge=1024)
    connect_timeout_s: float = Field(DEFAULT_CONNECT_TIMEOUT_S, gt=0)
    request_timeout_s: float = Field(DEFAULT_REQUEST_TIMEOUT_S, gt=0)
    max_redirects: int = Field(DEFAULT_MAX_REDIRECTS, ge=0, le=20)
    fetch_cache_ttl_s: float = Field(DEFAULT_FETCH_CACHE_TTL_S, ge=0)
    fetch_cache_size: int = Field(DEFAULT_FETCH_CACHE_SIZE, ge=0)
    render: Literal["auto", "never", "always"] = Field(
        "auto", description="web_fetch browser rendering of app-shell pages (SPEC §1.1)."
    )

    # --- runtime (SPEC §3) ----------------------------------------------------------------
    journal_url: SecretStr | None = Field(
        None,
        description=(
            "Where events go: sqlite:///path, jsonl:///path, memory://, postgresql://… "
            "Default: sqlite in $XDG_STATE_HOME/webresearch/journal.sqlite3. A secret: a "
            "PostgreSQL URL may hold a password."
        ),
    )
    rate_window_s: float = Field(DEFAULT_RATE_WINDOW_S, gt=0)
    search_rate_limit: int | None = Field(DEFAULT_SEARCH_RATE_LIMIT, ge=0)
    browser_rate_limit: int | None = Field(DEFAULT_BROWSER_RATE_LIMIT, ge=0)
    fetch_rate_limit: int | None = Field(
        None, ge=0, description="web_fetch calls per window; none by default."
    )
    prices: dict[str, float] = Field(
        default_factory=dict,
        description='Price per call by provider or tool, e.g. {"brave": 0.005}. Units are yours.',
    )
    approval: dict[str, Literal["allow", "supervised", "deny"]] = Field(
        default_factory=dict, description="Default approval mode per tool (a run may override)."
    )
    app_domains: tuple[str, ...] = Field(
        (),
        description="Domains on which a bare name in the person's message is a link (user_links scope).",
    )
    user_link_views: int = Field(
        3, ge=0, description="Views per conversation in the user_links scope."
    )

    # --- images: fetch_image, view_image, screenshots (SPEC §1.3) ---------------------------
    image_max_source_bytes: int = Field(
        DEFAULT_IMAGE_SOURCE_CAP_BYTES,
        ge=1024,
        description="Largest image (bytes, as downloaded or read) the pipeline accepts.",
    )
    image_max_pixels: int = Field(
        DEFAULT_IMAGE_MAX_PIXELS,
        ge=1,
        description="Largest width × height (px, read from the header before decoding).",
    )
    image_max_side_px: int = Field(
        DEFAULT_IMAGE_MAX_SIDE_PX, ge=16, description="Long side (px) of images shown to a model."
    )
    image_max_output_bytes: int = Field(
        DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
        ge=16 * 1024,
        description="Largest image block (bytes) sent to a model.",
    )
    image_cache_size: int = Field(
        DEFAULT_IMAGE_CACHE_SIZE,
        ge=0,
        description="Prepared images fetch_image keeps (entries, LRU; lifetime fetch_cache_ttl_s).",
    )

    # --- browser (SPEC §1.4) ---------------------------------------------------------------
    browser_backend: Literal["chromium", "lightpanda", "cdp"] = Field(
        "chromium",
        description="chromium (launched locally), lightpanda (launched locally) or cdp "
        "(browser_cdp_url; the default when browser_cdp_url is set).",
    )
    browser_cdp_url: SecretStr | None = Field(
        None,
        description="CDP endpoint for browser_backend=cdp: http(s)://host:port or ws(s)://… (may hold a token).",
    )
    chromium_path: str | None = Field(
        None, description="Chromium binary; default: Debian chromium, then a Playwright one."
    )
    browser_allowed_domains: tuple[str, ...] | None = Field(
        None,
        description="Only these domains (example.com, *.example.com); empty = block all; unset = no allow list.",
    )
    browser_blocked_domains: tuple[str, ...] = Field(
        (), description="Domains the browser never loads (example.com, *.example.com)."
    )
    browser_action_timeout_s: float = Field(DEFAULT_BROWSER_ACTION_TIMEOUT_S, gt=0)
    browser_ready_timeout_s: float = Field(DEFAULT_BROWSER_READY_TIMEOUT_S, gt=0)
    browser_max_sessions: int = Field(DEFAULT_BROWSER_MAX_SESSIONS, ge=1)
    browser_idle_s: float = Field(DEFAULT_BROWSER_IDLE_S, gt=0)
    browser_dialog_policy: Literal["dismiss", "accept"] = Field(
        "dismiss", description="How JavaScript dialogs are answered (each is journaled)."
    )
    browser_viewport: str = Field(
        DEFAULT_BROWSER_VIEWPORT,
        pattern=r"^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$",
        description="WIDTHxHEIGHT in CSS px.",
    )
    browser_snapshot_max_bytes: int = Field(DEFAULT_BROWSER_SNAPSHOT_MAX_BYTES, ge=1024)
    browser_screenshot_fallback_url: SecretStr | None = Field(
        None,
        description="CDP endpoint of a pixel-capable browser for screenshots when the backend draws none.",
    )

    # --- MCP server (SPEC §4) ------------------------------------------------------------
    mcp_token: SecretStr | None = Field(
        None,
        description=(
            "Bearer token the MCP HTTP transport requires (WEBRESEARCH_MCP_TOKEN); "
            "a secret: never printed or logged."
        ),
    )
    mcp_allowed_hosts: tuple[str, ...] = Field(
        (),
        description=(
            "More NAME[:PORT] authorities MCP HTTP clients may name in Host/Origin (the bind "
            "address with its port is always accepted; PORT * means any port), e.g. "
            "mcp.example.org,127.0.0.1:*. Others get 421/403 (DNS-rebinding protection)."
        ),
    )
    mcp_approval_timeout_s: float = Field(
        DEFAULT_MCP_APPROVAL_TIMEOUT_S,
        gt=0,
        description="Seconds to wait for the person to answer a supervised call's MCP elicitation.",
    )

    # --- web_search (SPEC §1.2) -----------------------------------------------------------
    search_provider: str | None = Field(
        None,
        description=(
            "web_search provider id: searxng, brave, ddgs, tavily, exa, firecrawl or a plugin's id; "
            "'none' turns web_search off. Unset: searxng when searxng_url is set, else ddgs "
            "when installed, else none (web_search is then not registered)."
        ),
    )
    searxng_url: SecretStr | None = Field(
        None,
        description=(
            "Base URL of a self-hosted SearXNG instance, e.g. http://searxng:8080 "
            "(its address is internal: it is kept out of every message and log line)."
        ),
    )
    brave_base_url: str = Field(DEFAULT_BRAVE_BASE_URL, description="Brave Search API origin.")
    tavily_base_url: str = Field(DEFAULT_TAVILY_BASE_URL, description="Tavily API origin.")
    exa_base_url: str = Field(DEFAULT_EXA_BASE_URL, description="Exa API origin.")
    brave_api_key: SecretStr | None = Field(
        None, description="Brave Search API subscription token."
    )
    tavily_api_key: SecretStr | None = Field(None, description="Tavily API key (tvly-…).")
    exa_api_key: SecretStr | None = Field(None, description="Exa API key.")
    search_timeout_s: float = Field(
        DEFAULT_SEARCH_TIMEOUT_S, gt=0, description="Seconds for one whole provider request."
    )
    search_cache_ttl_s: float = Field(DEFAULT_SEARCH_CACHE_TTL_S, ge=0)
    search_cache_size: int = Field(DEFAULT_SEARCH_CACHE_SIZE, ge=0)
    search_safesearch: Literal["off", "moderate", "strict"] = Field(
        "moderate", description="Safe-search level asked of every provider that has one."
    )

    # --- fleet: shared state and storage services (SPEC §3, DESIGN "Scaling out") ---------
    state_url: SecretStr = Field(
        SecretStr(DEFAULT_STATE_URL),
        description=(
            "Where limits, caches and fetch scopes live: memory:// (this process), "
            "sqlite:///path (several processes on one host), redis://… or rediss://… (a fleet). "
            "A secret: a Redis URL may hold a password."
        ),
    )
    redis_prefix: str = Field(
        DEFAULT_REDIS_PREFIX,
        min_length=1,
        max_length=100,
        description="Prefix of every Redis key webresearch writes (several deployments may share one Redis).",
    )
    storage_connect_timeout_s: float = Field(
        DEFAULT_STORAGE_CONNECT_TIMEOUT_S,
        gt=0,
        description="Seconds to connect to Redis or PostgreSQL before a storage error.",
    )
    storage_timeout_s: float = Field(
        DEFAULT_STORAGE_TIMEOUT_S,
        gt=0,
        description="Seconds one Redis or PostgreSQL operation may take before a storage error.",
    )

    # --- hosted services: page readers, screenshots, Firecrawl search, titles (issue 8) ----
    reader: Literal["local", "firecrawl", "jina"] = Field(
        "local",
        description=(
            "Who turns a page into text for web_fetch: local (our own pipeline), firecrawl "
            "(its scrape API) or jina (Jina Reader). The SSRF guard checks the URL first."
        ),
    )
    screenshot_service: Literal["none", "firecrawl"] = Field(
        "none",
        description=(
            "Screenshot service behind page_screenshot (and the browser's screenshots when "
            "the browser draws no pixels): none or firecrawl."
        ),
    )
    firecrawl_api_key: SecretStr | None = Field(
        None, description="Firecrawl API key (fc-…); optional for a self-hosted instance."
    )
    firecrawl_base_url: SecretStr | None = Field(
        None,
        description=(
            "Base URL of a self-hosted Firecrawl or a proxy in front of it; unset: the "
            "hosted API (https://api.firecrawl.dev). A secret: it may be an internal address."
        ),
    )
    firecrawl_headers: dict[str, SecretStr] = Field(
        default_factory=dict,
        description=(
            'Extra headers sent to Firecrawl, e.g. {"X-Proxy-Token": "…"} for a proxy '
            "(JSON in WEBRESEARCH_FIRECRAWL_HEADERS); values are secrets."
        ),
    )
    firecrawl_credit_price: float = Field(
        0.0,
        ge=0,
        description=(
            "Price of one Firecrawl credit in your units (the spending ledger): a page or a "
            "screenshot costs 1 credit, a search 2 credits per 10 results."
        ),
    )
    jina_api_key: SecretStr | None = Field(
        None, description="Jina Reader API key (optional: without one the rate limit is lower)."
    )
    jina_base_url: SecretStr | None = Field(
        None,
        description="Base URL of a Jina Reader proxy or instance; unset: https://r.jina.ai.",
    )
    reader_timeout_s: float = Field(
        DEFAULT_READER_TIMEOUT_S,
        gt=0,
        description="Seconds a reader or screenshot service may take for one page.",
    )
    screenshot_max_redirects: int = Field(
        DEFAULT_SCREENSHOT_MAX_REDIRECTS,
        ge=0,
        le=10,
        description="Redirects followed when downloading a screenshot the service gave by URL.",
    )
    screenshot_download_timeout_s: float = Field(
        DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S,
        gt=0,
        description="Seconds for downloading a screenshot the service gave by URL.",
    )
    tool_titles_language: Literal["en", "ru", "zh"] = Field(
        "en",
        description=(
            "Language of the human-facing tool titles (MCP titles, CLI headings); names, "
            "descriptions and schemas the model sees never change."
        ),
    )

    @model_validator(mode="before")
    @classmethod
    def _cdp_url_chooses_the_cdp_backend(cls, data: Any) -> Any:
        """A configured CDP endpoint is used: ``browser_cdp_url`` without an explicit
        ``browser_backend`` means ``cdp`` (never a silently launched local browser)."""
        if isinstance(data, dict) and data.get("browser_cdp_url") and "browser_backend" not in data:
            return {**data, "browser_backend": "cdp"}
        return data

    @field_validator("state_url")
    @classmethod
    def _check_state_url(cls, value: SecretStr) -> SecretStr:
        # The message never repeats the value: it may hold a password.
        scheme = value.get_secret_value().partition("://")[0].lower()
        if scheme not in STATE_URL_SCHEMES:
            raise ValueError("must start with " + ", ".join(f"{s}://" for s in STATE_URL_SCHEMES))
        return value

    @field_validator("browser_allowed_domains", "browser_blocked_domains", mode="before")
    @classmethod
    def _parse_domain_patterns(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, (list, tuple)):
            return tuple(normalize_domain_pattern(str(v)) for v in value)
        return value

    @field_validator("app_domains", mode="before")
    @classmethod
    def _parse_domains(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("allowed_networks", mode="before")
    @classmethod
    def _parse_networks(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [v for v in (p.strip() for p in value.split(",")) if v]
        if isinstance(value, (list, tuple)):
            out = []
            for item in value:
                if isinstance(item, str):
                    text = item.strip()
                    try:
                        out.append(ipaddress.ip_network(text))
                    except ValueError as exc:
                        try:
                            widened = ipaddress.ip_network(text, strict=False)
                        except ValueError:
                            raise ValueError(f"not a CIDR network: {item!r}") from exc
                        # 127.0.0.5/8 would silently open all of 127.0.0.0/8: say so.
                        raise ValueError(
                            f"{text} has host bits set; did you mean {widened} "
                            f"(or {text.split('/')[0]}/{widened.max_prefixlen} for one address)?"
                        ) from exc
                else:
                    out.append(item)
            return tuple(out)
        return value

    # --- loading --------------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        *,
        environ: Mapping[str, str] | None = None,
        path: str | os.PathLike[str] | None = None,
        **overrides: Any,
    ) -> Settings:
        """Build settings from defaults, a TOML file, the environment and overrides.

        Args:
            environ: the environment to read (default ``os.environ``); tests pass a dict.
            path: TOML file; default ``$WEBRESEARCH_CONFIG`` when set, else none.
            **overrides: field values that win over everything else.

        Raises:
            ConfigurationError: an unknown key, a value of the wrong type, or an unreadable
                file; the message names the key (``WEBRESEARCH_X`` or the TOML key).
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        toml_path = path if path is not None else env.get(f"{ENV_PREFIX}CONFIG")
        if toml_path:
            for key, value in _read_toml(Path(toml_path)).items():
                values[key] = value
                sources[key] = f"{key} in {toml_path}"
        fields = cls.model_fields
        for name, raw in env.items():
            if not name.startswith(ENV_PREFIX) or name == f"{ENV_PREFIX}CONFIG":
                continue
            key = name[len(ENV_PREFIX) :].lower()
            if key not in fields:
                # Not an error (a newer or older version may set it), but a typo such as
                # WEBRESEARCH_ALLOW_PRIVAT must not pass unnoticed. Names only, never values.
                close = difflib.get_close_matches(key, list(fields), n=1)
                _log.warning(
                    "unknown setting %s ignored%s",
                    name,
                    f" (did you mean {ENV_PREFIX}{close[0].upper()}?)" if close else "",
                )
                continue
            values[key] = _env_value(raw, fields[key].annotation)
            sources[key] = name
        for key, value in overrides.items():
            values[key] = value
            sources[key] = key
        unknown = sorted(k for k in values if k not in fields)
        if unknown:
            where = ", ".join(sources.get(k, k) for k in unknown)
            raise ConfigurationError(f"unknown setting: {where}")
        try:
            return cls(**values)
        except ValidationError as exc:
            raise _config_error(exc, sources) from None

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` applied and validated.

        Raises:
            ConfigurationError: a changed value is invalid.
        """
        # Only what was set explicitly (environment, file, arguments) is carried over, so
        # defaults that follow other settings (a CDP URL choosing the cdp backend) follow
        # the changes too.
        data = {name: getattr(self, name) for name in self.model_fields_set}
        data.update(changes)
        try:
            return type(self)(**data)
        except ValidationError as exc:
            raise _config_error(exc, {k: k for k in changes}) from None

    def secret_values(self) -> list[str]:
        """Every secret's plain value (for the redactor); never show these anywhere."""
        out = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, SecretStr):
                out.extend(_secret_parts(value.get_secret_value()))
            elif isinstance(value, dict):  # e.g. firecrawl_headers: names plain, values secret
                for item in value.values():
                    if isinstance(item, SecretStr):
                        out.extend(_secret_parts(item.get_secret_value()))
        return out

    def public_dict(self) -> dict[str, Any]:
        """Settings as JSON-friendly values with every secret shown as ``"***"`` (or null)."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, SecretStr):
                out[name] = "***" if value.get_secret_value() else None
            elif isinstance(value, tuple):
                out[name] = [str(v) for v in value]
            elif isinstance(value, dict):
                out[name] = {
                    k: ("***" if isinstance(v, SecretStr) else v) for k, v in value.items()
                }
            else:
                out[name] = value
        return out


def _secret_parts(secret: str) -> list[str]:
    """What the redactor must hide of one secret value.

    The whole value always (an API key; a service URL is an internal address). For a URL
    with credentials (``redis://:pw@host/0``) also the password on its own, raw and
    percent-decoded: URL redaction rewrites the URL before the whole value could match, and
    a password may show up anywhere.
    """
    if not secret:
        return []
    out = [secret]
    if "://" in secret:
        try:
            parts = urlsplit(secret)
            password = parts.password
        except ValueError:
            return out
        if password:
            out += [password, unquote(password)]
        out += [v for k, v in parse_qsl(parts.query) if k.lower() == "password" and v]
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigurationError(f"cannot read config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(f"config file {path} is not valid TOML: {exc}") from None
    flat: dict[str, Any] = {}

    def walk(prefix: str, table: Mapping[str, Any]) -> None:
        for key, value in table.items():
            name = f"{prefix}_{key}" if prefix else key
            if isinstance(value, dict):
                walk(name, value)
            else:
                flat[name.replace("-", "_")] = value

    walk("", data)
    return flat


def _env_value(raw: str, annotation: Any) -> Any:
    """Environment strings: comma-separated lists for tuple fields, JSON for dict fields."""
    origin = getattr(annotation, "__origin__", None)
    if origin is tuple or (isinstance(annotation, type) and issubclass(annotation, tuple)):
        return [p.strip() for p in raw.split(",") if p.strip()]
    if origin is dict:
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw  # validation then names the key
    return raw


def _config_error(exc: ValidationError, sources: Mapping[str, str]) -> ConfigurationError:
    problems = []
    for err in exc.errors():
        key = str(err["loc"][0]) if err["loc"] else "?"
        where = sources.get(key, f"{ENV_PREFIX}{key.upper()}")
        msg = err["msg"]
        problems.append(f"{where}: {msg}")
    return ConfigurationError("invalid setting " + "; ".join(problems))
