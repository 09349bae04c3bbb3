"""The built-in page readers and screenshot services, registered through the plugin hook
shape (``hook(register)``), declared in pyproject under the ``webresearch.page_readers`` and
``webresearch.screenshot_services`` entry-point groups exactly like a plugin would be.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import PageReader, ScreenshotService
from .firecrawl import FirecrawlReader, FirecrawlScreenshots
from .jina import JinaReader
from .local import LocalReader

__all__ = [
    "BUILTIN_READERS",
    "BUILTIN_SCREENSHOT_SERVICES",
    "register_readers",
    "register_screenshots",
]

BUILTIN_READERS: tuple[type[PageReader], ...] = (LocalReader, FirecrawlReader, JinaReader)
BUILTIN_SCREENSHOT_SERVICES: tuple[type[ScreenshotService], ...] = (FirecrawlScreenshots,)


def register_readers(register: Callable[[type[PageReader]], type[PageReader]]) -> None:
    """Register every built-in page reader with ``register``."""
    for reader in BUILTIN_READERS:
        register(reader)


def register_screenshots(
    register: Callable[[type[ScreenshotService]], type[ScreenshotService]],
) -> None:
    """Register every built-in screenshot service with ``register``."""
    for service in BUILTIN_SCREENSHOT_SERVICES:
        register(service)
