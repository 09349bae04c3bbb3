"""Where the CLI finds its settings file, the commented example ``config init`` writes, and
the rows ``config show`` prints. Pure (the environment is passed in).

The file is the one TOML format of :mod:`webresearch.config` (``Settings.load(path=…)``):
``--config FILE`` → ``$WEBRESEARCH_CONFIG`` → ``$XDG_CONFIG_HOME/webresearch/config.toml``
(``~/.config/webresearch/config.toml`` without ``XDG_CONFIG_HOME``, per the XDG Base
Directory specification) when that file exists. Precedence of values is the library's:
``WEBRESEARCH_*`` variables > the file > defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

__all__ = ["EXAMPLE", "config_rows", "default_path", "format_rows", "settings_path"]


def default_path(environ: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/webresearch/config.toml``; a relative or empty ``XDG_CONFIG_HOME``
    is ignored (the specification says so) for ``$HOME/.config``."""
    xdg = environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else None
    if base is None:
        home = environ.get("HOME") or str(Path.home())
        base = Path(home) / ".config"
    return base / "webresearch" / "config.toml"


def settings_path(given: str | None, environ: Mapping[str, str]) -> tuple[str | None, str]:
    """The settings file to read and why: ``(path, "--config" | "WEBRESEARCH_CONFIG" |
    "default")``, or ``(None, "none")`` when no file is given and the default one does not
    exist. ``given`` is ``--config`` (click also fills it from ``WEBRESEARCH_CONFIG``)."""
    if given:
        how = "WEBRESEARCH_CONFIG" if environ.get("WEBRESEARCH_CONFIG") == given else "--config"
        return given, how
    path = default_path(environ)
    return (str(path), "default") if path.is_file() else (None, "none")


def config_rows(
    public: Mapping[str, object], origins: Mapping[str, str], *, changed_only: bool = False
) -> list[tuple[str, str, str]]:
    """``(name, value as JSON, source)`` for each setting; secrets are already masked in
    ``public`` (``Settings.public_dict``). ``changed_only``: the ones not at their default."""
    rows = []
    for name, value in public.items():
        source = origins.get(name, "default")
        if changed_only and source == "default":
            continue
        rows.append((name, json.dumps(value, ensure_ascii=False, default=str), source))
    return rows


def format_rows(rows: list[tuple[str, str, str]]) -> list[str]:
    """Aligned ``name  value  (source)`` lines."""
    if not rows:
        return []
    name_w = max(len(r[0]) for r in rows)
    value_w = min(max(len(r[1]) for r in rows), 40)
    return [f"{n.ljust(name_w)}  {v.ljust(value_w)}  ({s})" for n, v, s in rows]


#: What ``webresearch config init`` writes: every line a valid setting once uncommented
#: (a test uncomments them all and loads the file).
EXAMPLE = """\
# webresearch settings (TOML). Found at $XDG_CONFIG_HOME/webresearch/config.toml
# (~/.config/webresearch/config.toml), or given with --config FILE / WEBRESEARCH_CONFIG.
# Precedence: WEBRESEARCH_* environment variables > this file > defaults.
# Every setting is also an environment variable: search_timeout_s is
# WEBRESEARCH_SEARCH_TIMEOUT_S; "provider" under [search] is WEBRESEARCH_SEARCH_PROVIDER.
# See what is in effect, and where each value came from: webresearch config show
# Secrets (API keys, tokens, URLs with passwords) are never printed; keep this file private
# (config init creates it readable by you only) or give them as environment variables.
# Plain settings come first; tables ([search] …) last: in TOML a key belongs to the table
# above it.

# --- network and the SSRF guard ------------------------------------------------------------
# Internal addresses are refused; exempt a network you trust (e.g. an internal doc server):
# allowed_networks = ["10.20.0.0/16"]
# allow_private = false
# user_agent = "webresearch"
# request_timeout_s = 30.0
# outbound_proxy = "http://proxy.internal:3128"

# --- which sites tools may reach ----------------------------------------------------------
# allowed_domains = ["docs.python.org", "*.wikipedia.org"]
# blocked_domains = ["example.com"]
# robots = "respect"

# --- limits and spending ------------------------------------------------------------------
# fetch_rate_limit = 60
# spending_limit = 1.0

# --- the journal and shared state ---------------------------------------------------------
# journal_url = "sqlite:///var/lib/webresearch/journal.sqlite3"
# state_url = "memory://"

# --- the browser and logs -----------------------------------------------------------------
# browser_backend = "chromium"
# browser_max_sessions = 4
# log_format = "text"

# --- search: providers in order, each provider's own table ---------------------------------
# [search]
# providers = ["searxng", "ddgs"]
# max_results = 8
# safesearch = "moderate"

# [search.searxng]
# url = "http://127.0.0.1:8888"

# [search.brave]
# api_key = "your-brave-key"

# --- what a paid call costs (price units per call, for spending_limit) ---------------------
# [prices]
# brave = 0.005
"""
