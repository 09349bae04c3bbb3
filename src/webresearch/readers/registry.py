"""Page readers and screenshot services by id: built-ins and plugins through entry points,
exactly like search providers (:mod:`webresearch.plugins`).

A plugin declares an entry point whose object is a class (or a ``hook(register)``)::

    [project.entry-points."webresearch.page_readers"]
    acme = "acme_reader:AcmeReader"

    [project.entry-points."webresearch.screenshot_services"]
    acme = "acme_reader:AcmeShots"

and is chosen with ``reader = "acme"`` / ``screenshot_service = "acme"``; its own options
(``options_model``) come from ``[reader.acme]`` in the settings file or
``WEBRESEARCH_ACME_<OPTION>``, without any change to webresearch.
"""

from __future__ import annotations

from ..config import ProviderOptions
from ..plugins import EntryPointsOf, Registry
from .base import PageReader, ReaderContext, ScreenshotService
from .builtins import register_readers, register_screenshots

__all__ = [
    "READERS",
    "READER_GROUP",
    "SCREENSHOTS",
    "SCREENSHOT_GROUP",
    "ReaderRegistry",
    "ScreenshotRegistry",
    "create_reader",
    "create_screenshot_service",
]

READER_GROUP = "webresearch.page_readers"
SCREENSHOT_GROUP = "webresearch.screenshot_services"
#: ``screenshot_service`` values meaning "no service".
_NONE = frozenset({"none", "off", ""})
_SHAPE = ("id", "name", "options_model", "from_context", "aclose")


def _checker(kind: str, method: str) -> object:
    def check(cls: object) -> object:
        if not isinstance(cls, type):
            raise TypeError(f"a {kind} must be a class")
        for attr in (*_SHAPE, method):
            if not hasattr(cls, attr):
                raise TypeError(f"{kind} {cls.__name__} has no {attr!r}")
        ident = getattr(cls, "id", None)
        if not isinstance(ident, str) or not ident or ident.lower() in _NONE:
            raise TypeError(f"{kind} {cls.__name__} needs a usable string id")
        model = getattr(cls, "options_model", None)
        if not (isinstance(model, type) and issubclass(model, ProviderOptions)):
            raise TypeError(f"{kind} {ident!r}: options_model is not a ProviderOptions")
        return cls

    return check


class ReaderRegistry(Registry[type[PageReader]]):
    """Page readers by id (the ``reader`` setting)."""

    def __init__(self, entry_points_of: EntryPointsOf | None = None) -> None:
        super().__init__(
            kind="page reader",
            group=READER_GROUP,
            setting="reader",
            builtins=register_readers,
            check=_checker("page reader", "read"),  # type: ignore[arg-type]
            id_of=lambda cls: cls.id,
            entry_points_of=entry_points_of,
        )


class ScreenshotRegistry(Registry[type[ScreenshotService]]):
    """Screenshot services by id (the ``screenshot_service`` setting)."""

    def __init__(self, entry_points_of: EntryPointsOf | None = None) -> None:
        super().__init__(
            kind="screenshot service",
            group=SCREENSHOT_GROUP,
            setting="screenshot_service",
            builtins=register_screenshots,
            check=_checker("screenshot service", "capture"),  # type: ignore[arg-type]
            id_of=lambda cls: cls.id,
            entry_points_of=entry_points_of,
        )


#: The process-wide registries (plugins register into them).
READERS = ReaderRegistry()
SCREENSHOTS = ScreenshotRegistry()


def create_reader(context: ReaderContext, *, registry: ReaderRegistry | None = None) -> PageReader:
    """The page reader named by ``settings.reader``.

    Raises:
        ConfigurationError: an unknown id, or the reader's configuration is missing.
    """
    ident = context.settings.reader.strip().lower()
    return (registry or READERS).get(ident).from_context(context)


def create_screenshot_service(
    context: ReaderContext, *, registry: ScreenshotRegistry | None = None
) -> ScreenshotService | None:
    """The screenshot service named by ``settings.screenshot_service`` (``None``: none).

    Raises:
        ConfigurationError: an unknown id, or the service's configuration is missing.
    """
    ident = context.settings.screenshot_service.strip().lower()
    if ident in _NONE:
        return None
    return (registry or SCREENSHOTS).get(ident).from_context(context)
