"""webresearch: safe, observable web access for AI agents.

    from webresearch import Settings, Toolkit

    async with Toolkit(Settings.load()) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://example.org"})
        print(result.text)

The public surface is exactly ``__all__`` (pinned by a test).
"""

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
from .tools.registry import Toolkit
from .tools.specs import ToolSpec
from .types import ImageBlock, ToolResult

__version__ = "0.1.0"

__all__ = [
    "AntiBotChallenge",
    "ApprovalDenied",
    "ApprovalRequest",
    "BlockedAddress",
    "BlockedDomain",
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
    "html_to_markdown",
]
