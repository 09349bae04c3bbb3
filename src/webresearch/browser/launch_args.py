"""Which browser binary to launch, and its command line (pure, apart from looking at files).

Chromium is launched headless with CDP on a free loopback port, no startup window, and every
kind of background traffic and helper process a fresh profile would start switched off: the
browser talks only to the pages it is told to open, and runs one renderer process per page
(no spare renderer, no omnibox WebUI per window). Lightpanda is launched with ``serve``.
Both send every connection through the guarded proxy (:func:`proxy_args`, ``--http-proxy``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

__all__ = [
    "CHROMIUM_CANDIDATES",
    "CHROMIUM_DISABLED_FEATURES",
    "CHROMIUM_SETTING",
    "DEFAULT_CHROMIUM",
    "PROXY_ENV",
    "chromium_args",
    "chromium_preferences",
    "chromium_problem",
    "find_chromium",
    "find_lightpanda",
    "free_port",
    "lightpanda_args",
    "proxy_args",
]

#: The binary a Debian or Ubuntu ``chromium`` package installs: the default named in messages.
DEFAULT_CHROMIUM = "/usr/bin/chromium"
#: Where a Chromium is looked for when ``chromium_path`` is not set, in order. The Debian
#: launcher ``/usr/bin/chromium`` is a shell script that sources /etc/chromium.d (it exports
#: Google API keys and extra flags); the binary it execs is used directly.
CHROMIUM_CANDIDATES = (
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
)
#: The candidates besides the default, in the message of a missing Chromium.
_OTHER_PLACES = tuple(c for c in CHROMIUM_CANDIDATES if c != DEFAULT_CHROMIUM)

#: Chromium features switched off (one ``--disable-features`` switch: Chromium reads only
#: the last one given). Background traffic: Translate, OptimizationHints, MediaRouter,
#: DialMediaRouteProvider, AutofillServerCommunication,
#: CertificateTransparencyComponentUpdater, InterestFeedContentSuggestions,
#: NetworkTimeServiceQuerying, PreconnectToSearch. Processes: a spare renderer kept ready
#: for the next navigation (SpareRendererForSitePerProcess) and the omnibox popups each
#: new window preloads in a renderer of its own (WebUIOmniboxPopup, WebUIOmniboxAimPopup:
#: ``chrome://omnibox-popup.top-chrome/…`` targets) — measured with Chromium 156: 3 pages
#: ran 7 renderers with them, 3 without. AvoidCorsURLLoaderRestartOnRedirect: Chromium 155+ aborts preflighted
#: cross-origin redirects while the Fetch domain intercepts (as Playwright notes).
CHROMIUM_DISABLED_FEATURES = (
    "Translate",
    "OptimizationHints",
    "MediaRouter",
    "DialMediaRouteProvider",
    "AutofillServerCommunication",
    "CertificateTransparencyComponentUpdater",
    "InterestFeedContentSuggestions",
    "NetworkTimeServiceQuerying",
    "PreconnectToSearch",
    "SpareRendererForSitePerProcess",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "AvoidCorsURLLoaderRestartOnRedirect",
)


#: The setting choosing the binary, and its environment variable (``config.sources.env_name``).
CHROMIUM_SETTING = "chromium_path (WEBRESEARCH_CHROMIUM_PATH, or chromium_path in the config file)"


def chromium_problem(explicit: str | None = None) -> str | None:
    """Why no Chromium can be launched, or ``None`` when :func:`find_chromium` finds one.

    A configured ``chromium_path`` is judged on its own (never replaced by another binary):
    the message says that path does not exist, or is not an executable file, and suggests
    unsetting it only when :func:`find_chromium` finds a binary without it, naming that one
    (it said "the default /usr/bin/chromium" though /usr/lib/chromium/chromium is looked at
    first, and when no Chromium was installed at all: review). Every message names the
    paths and the setting that matter on this machine (:data:`CHROMIUM_SETTING`) — never a
    path of another machine.
    """
    if explicit:
        path = Path(explicit)
        if not path.exists():
            what = "does not exist"
        elif not path.is_file() or not os.access(path, os.X_OK):
            what = "is not an executable file"
        else:
            return None
        found = find_chromium()
        instead = (
            f", or unset it to use {found}"
            if found
            else " (none is installed where one is looked for without it: install it, "
            "apt-get install chromium)"
        )
        return (
            f"chromium_path is set to {explicit}, which {what}: point {CHROMIUM_SETTING} at "
            f"a Chromium binary{instead}"
        )
    if find_chromium() is None:
        return (
            f"no Chromium found at {DEFAULT_CHROMIUM} (nor {', '.join(_OTHER_PLACES)}, on "
            "PATH or among Playwright's browsers): install it (apt-get install chromium), or "
            f"set {CHROMIUM_SETTING} to the path of a Chromium binary"
        )
    return None


def find_chromium(explicit: str | None = None) -> str | None:
    """The Chromium binary to launch, or ``None`` when none is installed.

    Args:
        explicit: the ``chromium_path`` setting (used as is when set and executable).

    Order: ``explicit``, :data:`CHROMIUM_CANDIDATES`, ``chromium`` on ``PATH``, then a
    Playwright-managed Chromium when one is installed (``~/.cache/ms-playwright``).
    """
    if explicit:
        return explicit if os.path.isfile(explicit) and os.access(explicit, os.X_OK) else None
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    for chrome in sorted(cache.glob("chromium-*/chrome-linux*/chrome"), reverse=True):
        if os.access(chrome, os.X_OK):
            return str(chrome)
    return None


def find_lightpanda() -> str | None:
    """The Lightpanda binary shipped by the ``lightpanda`` PyPI package, or ``None``."""
    try:
        from lightpanda.client import find_binary  # type: ignore[import-untyped,unused-ignore]
        from lightpanda.errors import LightpandaError  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return None
    try:
        return str(find_binary())
    except (LightpandaError, OSError):
        return None


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chromium_args(
    binary: str,
    *,
    user_data_dir: str,
    viewport: tuple[int, int],
    no_sandbox: bool,
    proxy_url: str | None = None,
) -> list[str]:
    """The Chromium command line: headless, CDP on a free loopback port, quiet, no window
    until a session opens one.

    The flags switch off every kind of background traffic a fresh profile starts (component
    updates, safe browsing, metrics, translation, sync) and the helper processes a session
    does not need (:data:`CHROMIUM_DISABLED_FEATURES`). List after Playwright's own
    ``chromiumSwitches``.

    Args:
        binary: the Chromium executable.
        user_data_dir: a fresh profile directory.
        viewport: (width, height) in CSS px.
        no_sandbox: add ``--no-sandbox`` (Chromium refuses to run its sandbox as root).
        proxy_url: the guarded proxy (``http://127.0.0.1:<port>``) every connection must go
            through; see :func:`proxy_args`.
    """
    width, height = viewport
    args = [
        binary,
        "--headless",
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        f"--user-data-dir={user_data_dir}",
        f"--window-size={width},{height}",
        "--no-startup-window",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--disable-breakpad",
        "--disable-client-side-phishing-detection",
        "--disable-domain-reliability",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-features=" + ",".join(CHROMIUM_DISABLED_FEATURES),
        # WebRTC may not send UDP outside the proxy (no host/STUN candidates). Chromium 156
        # honours this switch; the often-quoted --force-webrtc-ip-handling-policy is a no-op.
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        # No QUIC: HTTP/3 to an origin would be UDP outside the proxy.
        "--disable-quic",
        "--metrics-recording-only",
        "--no-pings",
        "--password-store=basic",
        "--use-mock-keychain",
        "--hide-scrollbars",
        "--mute-audio",
        "--safebrowsing-disable-auto-update",
        *(proxy_args(proxy_url) if proxy_url else []),
    ]
    if no_sandbox:
        args.insert(1, "--no-sandbox")
    return args


def chromium_preferences() -> str:
    """A fresh profile's ``Default/Preferences`` (JSON), written before Chromium starts.

    ``intl.charset_default`` is UTF-8: a page that declares no charset is decoded as UTF-8
    unless Chromium's encoding detector finds another encoding. Chromium's own default is
    the locale's legacy encoding (windows-1252 here), which made UTF-8 pages served without
    a charset read as mojibake ("Loadingâ€¦"); the WHATWG Encoding Standard leaves this
    fallback to the user agent. A legacy windows-1252 page is still detected as such.
    """
    return json.dumps({"intl": {"charset_default": "UTF-8"}})


def proxy_args(proxy_url: str) -> list[str]:
    """Chromium switches that send EVERY connection through ``proxy_url`` and nothing else.

    * ``--proxy-server``: all http, https, ws and wss traffic of every context, worker and
      service worker goes to the proxy (https/ws/wss as ``CONNECT`` tunnels);
    * ``--proxy-bypass-list=<-loopback>``: Chromium bypasses proxies for loopback targets
      unless told not to (``<-loopback>`` removes the implicit rule), so 127.0.0.0/8 and
      [::1] go through the proxy's checks too;
    * ``--host-resolver-rules``: the browser resolves no name itself (every name maps to
      NOTFOUND, the proxy's own literal address excepted), so DNS prefetching and any
      connection outside the proxy have nothing to reach.
    """
    return [
        f"--proxy-server={proxy_url}",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]


#: Environment variables that would make a libcurl-based browser (Lightpanda) bypass or
#: replace its configured proxy (``NO_PROXY=127.0.0.1,10.0.0.0/8`` is common on servers);
#: they are removed from a launched browser's environment.
PROXY_ENV = (
    "no_proxy",
    "NO_PROXY",
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
)


def lightpanda_args(
    binary: str, *, port: int, max_connections: int, proxy_url: str | None = None
) -> list[str]:
    """The ``lightpanda serve`` command line on 127.0.0.1:``port``.

    Args:
        binary: the Lightpanda executable.
        port: the CDP port.
        max_connections: CDP connections it accepts (one per session).
        proxy_url: the guarded proxy for every HTTP request and WebSocket
            (``--http-proxy``; Lightpanda 1.0 sends http in absolute form, https and
            WebSockets as ``CONNECT``).
    """
    args = [
        binary,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--cdp-max-connections",
        str(max_connections),
        "--log-level",
        "error",
        "--load-resources",
        "iframe",
    ]
    if proxy_url:
        args += ["--http-proxy", proxy_url]
    return args
