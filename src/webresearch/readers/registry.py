"""Which page reader and screenshot service the settings choose (``reader``,
``screenshot_service``), built with their prices.

Prices are in the settings' price units: Firecrawl's come from ``firecrawl_credit_price``
(1 credit per page or screenshot), Jina's from ``prices["jina"]`` per page.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from ..config import Settings
from ..net.client import GuardedClient
from ..net.guard import SSRFGuard
from .base import PageReader, ScreenshotService
from .firecrawl import CREDITS_PER_PAGE, FirecrawlReader, FirecrawlScreenshots, firecrawl_scraper
from .jina import jina_reader
from .local import LocalReader

__all__ = ["create_reader", "create_screenshot_service", "firecrawl_page_price"]


def firecrawl_page_price(settings: Settings) -> float:
    """Price of one Firecrawl page or screenshot (1 credit) in the settings' units."""
    return CREDITS_PER_PAGE * settings.firecrawl_credit_price


def create_reader(
    settings: Settings,
    client: GuardedClient,
    guard: SSRFGuard,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> PageReader:
    """The page reader named by ``settings.reader``.

    Raises:
        ConfigurationError: the chosen service's configuration is missing or invalid.
    """
    if settings.reader == "firecrawl":
        scraper = firecrawl_scraper(settings, guard, now=now)
        return FirecrawlReader(scraper, price=firecrawl_page_price(settings))
    if settings.reader == "jina":
        return jina_reader(settings, guard, now=now)
    return LocalReader(client, now)


def create_screenshot_service(
    settings: Settings,
    guard: SSRFGuard,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> ScreenshotService | None:
    """The screenshot service named by ``settings.screenshot_service`` (``None``: none).

    Raises:
        ConfigurationError: the chosen service's configuration is missing or invalid.
    """
    if settings.screenshot_service == "firecrawl":
        scraper = firecrawl_scraper(settings, guard, now=now)
        return FirecrawlScreenshots(scraper, price=firecrawl_page_price(settings))
    return None
