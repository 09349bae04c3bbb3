"""Registries fed by ``register`` callbacks, with plugins found through entry points.

One shape for every pluggable kind (search providers, page readers, screenshot services):
a package declares an entry point in the kind's group whose object is either a class or a
hook ``hook(register)`` calling ``register(Class)`` once per class::

    [project.entry-points."webresearch.search_providers"]
    acme = "acme_search:AcmeProvider"

webresearch's own classes are declared the same way (a ``builtins`` hook); the hook is also
called directly, so they are there even without installed package metadata (a source
checkout on ``PYTHONPATH``). A plugin that fails to load is logged (one line) and skipped;
it never breaks the others. Code may also call :meth:`Registry.register` itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

from .errors import ConfigurationError

__all__ = ["EntryPointsOf", "Registry"]

log = logging.getLogger("webresearch")

T = TypeVar("T")

#: ``entry_points_of(group)`` → the installed entry points of a group (a seam for tests).
EntryPointsOf = Callable[[str], Iterable[EntryPoint]]


def _installed(group: str) -> Iterable[EntryPoint]:
    return entry_points(group=group)


class Registry(Generic[T]):
    """Classes of one pluggable kind, by id.

    Args:
        kind: how messages name the kind (``search provider``, ``page reader``).
        group: the entry-point group (``webresearch.search_providers``).
        setting: the setting that chooses one (named in the "unknown id" error).
        builtins: the built-in hook, ``hook(register)``.
        check: returns the class when it has the kind's shape, else raises ``TypeError``
            (names what is missing).
        id_of: the id of a checked class.
        hint: the next step named by the "unknown id" error.
        entry_points_of: entry-point listing (tests pass their own).
    """

    def __init__(
        self,
        *,
        kind: str,
        group: str,
        setting: str,
        builtins: Callable[[Callable[[T], T]], None],
        check: Callable[[object], T],
        id_of: Callable[[T], str],
        hint: str = "tell the operator",
        entry_points_of: EntryPointsOf | None = None,
    ) -> None:
        self.hint = hint
        self.kind = kind
        self.group = group
        self.setting = setting
        self._builtins = builtins
        self._check = check
        self._id_of = id_of
        self._entry_points_of = entry_points_of or _installed
        self._classes: dict[str, T] = {}
        self._loaded = False

    def register(self, cls: T) -> T:
        """Add a class (usable as a decorator); returns it.

        Raises:
            TypeError: it does not have the kind's shape.
            ValueError: another class already has its id.
        """
        self._add(cls)
        return cls

    def _add(self, obj: object) -> None:
        checked = self._check(obj)
        ident = self._id_of(checked)
        known = self._classes.get(ident)
        if known is not None and known is not checked:
            raise ValueError(f"{self.kind} id {ident!r} is already registered")
        self._classes[ident] = checked

    def load(self) -> None:
        """Register the built-ins and every installed plugin (once; later calls do nothing)."""
        if self._loaded:
            return
        self._loaded = True
        self._builtins(self.register)
        builtin = f"{self._builtins.__module__}:{self._builtins.__name__}"
        try:
            found = list(self._entry_points_of(self.group))
        except Exception as exc:  # broken metadata must not break the built-ins
            log.warning("cannot list %s plugins: %s", self.kind, type(exc).__name__)
            return
        for ep in found:
            if ep.value == builtin:
                continue
            try:
                obj = ep.load()
                if isinstance(obj, type):
                    self._add(obj)
                else:
                    obj(self.register)
            except Exception as exc:
                log.warning(
                    "%s plugin %r not loaded: %s: %s", self.kind, ep.name, type(exc).__name__, exc
                )

    def ids(self) -> list[str]:
        """Registered ids, sorted."""
        self.load()
        return sorted(self._classes)

    def classes(self) -> list[T]:
        """Registered classes, by id."""
        self.load()
        return [self._classes[i] for i in sorted(self._classes)]

    def get(self, ident: str) -> T:
        """The class with this id.

        Raises:
            ConfigurationError: no such id (the message lists the known ones).
        """
        self.load()
        try:
            return self._classes[ident]
        except KeyError:
            raise ConfigurationError(
                f"unknown {self.kind} {ident!r}: choose one of " + ", ".join(sorted(self._classes)),
                hint=self.hint,
                setting=self.setting,
            ) from None
