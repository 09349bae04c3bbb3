"""webresearch: safe, observable web access for AI agents.

    from webresearch import Settings, Toolkit

    async with Toolkit(Settings.load()) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://example.org"})
        print(result.text)

The public surface is exactly ``__all__`` (pinned by a test).
"""

import logging as _logging

from .config import Settings
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
from .extract.html import html_to_markdown
from .runtime.run import ApprovalRequest, RunContext
from .search.health import check_provider, check_search
from .tools.browser_actions import browser_actions
from .tools.browser_usage import ActionParam, BrowserActionInfo
from .tools.local_page import read_page
from .tools.registry import Toolkit
from .tools.specs import ToolSpec
from .types import ImageBlock, ToolResult

__version__ = "0.1.0"

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
