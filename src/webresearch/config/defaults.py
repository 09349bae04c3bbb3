"""Named defaults of the settings (units in the names: bytes, seconds, px).

Each constant cites the rule it comes from. A provider's own defaults (its API origin, for
example) live with the provider's options model, not here.
"""

from __future__ import annotations

import ipaddress

__all__ = [
    "DEFAULT_BROWSER_ACTION_TIMEOUT_S",
    "DEFAULT_BROWSER_IDLE_S",
    "DEFAULT_BROWSER_MAX_SESSIONS",
    "DEFAULT_BROWSER_MAX_TIMEOUT_S",
    "DEFAULT_BROWSER_RATE_LIMIT",
    "DEFAULT_BROWSER_READY_TIMEOUT_S",
    "DEFAULT_BROWSER_SNAPSHOT_MAX_BYTES",
    "DEFAULT_BROWSER_VIEWPORT",
    "DEFAULT_CONNECT_TIMEOUT_S",
    "DEFAULT_DOWNLOAD_CAP_BYTES",
    "DEFAULT_FETCH_CACHE_SIZE",
    "DEFAULT_FETCH_CACHE_TTL_S",
    "DEFAULT_IMAGE_CACHE_SIZE",
    "DEFAULT_IMAGE_MAX_OUTPUT_BYTES",
    "DEFAULT_IMAGE_MAX_PIXELS",
    "DEFAULT_IMAGE_MAX_SIDE_PX",
    "DEFAULT_IMAGE_SOURCE_CAP_BYTES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MCP_APPROVAL_TIMEOUT_S",
    "DEFAULT_MCP_MAX_SESSIONS",
    "DEFAULT_MCP_PROGRESS_INTERVAL_S",
    "DEFAULT_MCP_SESSION_IDLE_S",
    "DEFAULT_RATE_WINDOW_S",
    "DEFAULT_READER_TIMEOUT_S",
    "DEFAULT_REDIS_PREFIX",
    "DEFAULT_REQUEST_TIMEOUT_S",
    "DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S",
    "DEFAULT_SCREENSHOT_MAX_REDIRECTS",
    "DEFAULT_SEARCH_CACHE_SIZE",
    "DEFAULT_SEARCH_CACHE_TTL_S",
    "DEFAULT_SEARCH_RATE_LIMIT",
    "DEFAULT_SEARCH_TIMEOUT_S",
    "DEFAULT_SPENDING_WINDOW_S",
    "DEFAULT_STATE_URL",
    "DEFAULT_STORAGE_CONNECT_TIMEOUT_S",
    "DEFAULT_STORAGE_TIMEOUT_S",
    "DEFAULT_USER_AGENT",
    "ENV_PREFIX",
    "FIX_SETTING",
    "MAX_MAX_BYTES",
    "MAX_PRICE_UNITS",
    "STATE_URL_SCHEMES",
    "IPNetwork",
]

#: Every environment variable of ours starts with this (``WEBRESEARCH_ALLOW_PRIVATE``).
ENV_PREFIX = "WEBRESEARCH_"

#: The next step after a setting with a wrong value (the message names where it was given).
FIX_SETTING = "give a valid value, or leave the setting out to use its default"

#: Largest price per call, spending limit or session budget (price units). Spending is counted
#: in whole nano-units in 64-bit integers (runtime.spending: SQLite, Redis INCRBY), whose
#: largest value is about 9.2e18: a limit of 1e9 units (1e18 nano-units) plus one more price
#: of 1e9 still fits. Far above any real bill.
MAX_PRICE_UNITS = 1e9

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
#: Ceiling (seconds) of a browser call's own ``timeout_ms`` (a slow page).
DEFAULT_BROWSER_MAX_TIMEOUT_S = 120.0
#: Seconds the MCP server waits for a person to answer a supervised call's approval
#: question (an MCP elicitation) before treating it as denied. Five minutes: long enough to
#: read the question, short enough that a forgotten prompt does not hold a call forever.
DEFAULT_MCP_APPROVAL_TIMEOUT_S = 300.0
#: Streamable-HTTP sessions open at once; one more is refused with 503 until one ends or
#: expires (issue 16: abandoned sessions were never reclaimed).
DEFAULT_MCP_MAX_SESSIONS = 100
#: Seconds a streamable-HTTP session may go without any request in flight before it is
#: closed (the MCP SDK's own default, 30 minutes; its id then answers 404).
DEFAULT_MCP_SESSION_IDLE_S = 1800.0
#: Seconds between progress notifications of a running call (issue 16: at least every 5 s,
#: so a client that extends its 60 s timeout on progress never gives up on working calls).
DEFAULT_MCP_PROGRESS_INTERVAL_S = 4.0
#: A spending window: one UTC day (issue 16: "a day's budget shared by every worker").
DEFAULT_SPENDING_WINDOW_S = 86400.0
#: web_search: provider timeout (seconds), cache lifetime (seconds) and size (entries). SPEC §1.2.
DEFAULT_SEARCH_TIMEOUT_S = 10.0
DEFAULT_SEARCH_CACHE_TTL_S = 300.0
DEFAULT_SEARCH_CACHE_SIZE = 256
#: Seconds a page-reader or screenshot service may take for one page. Firecrawl's own
#: default scrape timeout is 30 s (its API reference); screenshots need rendering, so 45 s.
DEFAULT_READER_TIMEOUT_S = 45.0
#: A screenshot the service returns by URL is downloaded with these limits (the seed notes
#: of issue 8): ≤ 3 redirects, 20 s for the whole download, image/* only, ≤ the image
#: source cap (5 MiB).
DEFAULT_SCREENSHOT_MAX_REDIRECTS = 3
DEFAULT_SCREENSHOT_DOWNLOAD_TIMEOUT_S = 20.0

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
