"""webresearch: safe, observable web access for AI agents.

    from webresearch import Settings, Toolkit

    async with Toolkit(Settings.load()) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://example.org"})
        print(result.text)

The public surface is exactly ``__all__`` (pinned by a test). Importing the package loads
only the error classes: every other name is imported on first use (PEP 562), so
``import webresearch`` and ``webresearch --version`` stay cheap (``bench/startup.py``).
"""

import logging as _logging
from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING

from .errors import (
    AntiBotChallenge,
    ApprovalDenied,
    BlockedAddress,
    BlockedDomain,
    BrowserError,
    BudgetExceeded,
    ConfigurationError,
    FetchError,
    HTTPStatusError,
    InvalidArguments,
    NetworkError,
    RateLimited,
    Refusal,
    RobotsDisallowed,
    ScopeDenied,
    SearchError,
    StaleRef,
    StorageError,
    Timeout,
    TLSError,
    TooLarge,
    ToolUnavailable,
    TooManyRedirects,
    UnsupportedContent,
    WebResearchError,
)

if _TYPE_CHECKING:
    from .config import Settings
    from .extract.html import html_to_markdown
    from .runtime.run import ApprovalRequest, RunContext
    from .search.health import check_provider, check_search
    from .tools.browser_table import browser_actions
    from .tools.browser_usage import ActionParam, BrowserActionInfo
    from .tools.local_page import read_page
    from .tools.registry import Toolkit
    from .tools.specs import ToolSpec
    from .types import ImageBlock, ToolResult

#: The distribution's version (``pyproject.toml`` has the same; a test keeps them equal).
__version__ = "0.1.0"

#: Public name → the module that defines it, imported on first access.
_LAZY = {
    "ActionParam": ".tools.browser_usage",
    "ApprovalRequest": ".runtime.run",
    "BrowserActionInfo": ".tools.browser_usage",
    "ImageBlock": ".types",
    "RunContext": ".runtime.run",
    "Settings": ".config",
    "ToolResult": ".types",
    "ToolSpec": ".tools.specs",
    "Toolkit": ".tools.registry",
    "check_provider": ".search.health",
    "check_search": ".search.health",
    "browser_actions": ".tools.browser_table",
    "html_to_markdown": ".extract.html",
    "read_page": ".tools.local_page",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'webresearch' has no attribute {name!r}")
    value = getattr(_import_module(module, __name__), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


# A library logs; the application decides where logs go (no output unless it configures
# logging). The CLI shows warnings, and INFO with -v.
_logging.getLogger("webresearch").addHandler(_logging.NullHandler())

__all__ = [
    "ActionParam",
    "AntiBotChallenge",
    "ApprovalDenied",
    "ApprovalRequest",
    "BlockedAddress",
    "BlockedDomain",
    "BrowserActionInfo",
    "BrowserError",
    "BudgetExceeded",
    "ConfigurationError",
    "FetchError",
    "HTTPStatusError",
    "ImageBlock",
    "InvalidArguments",
    "NetworkError",
    "RateLimited",
    "Refusal",
    "RobotsDisallowed",
    "RunContext",
    "ScopeDenied",
    "SearchError",
    "Settings",
    "StaleRef",
    "StorageError",
    "TLSError",
    "Timeout",
    "TooLarge",
    "TooManyRedirects",
    "ToolResult",
    "ToolSpec",
    "ToolUnavailable",
    "Toolkit",
    "UnsupportedContent",
    "WebResearchError",
    "__version__",
    "browser_actions",
    "check_provider",
    "check_search",
    "html_to_markdown",
    "read_page",
]
