"""Configuration: the frozen :class:`Settings`, its named defaults, and the base of every
provider's own options model (:class:`ProviderOptions`).

See :mod:`webresearch.config.settings` for loading (environment, TOML file, arguments) and
:mod:`webresearch.config.options` for providers' options.
"""

from __future__ import annotations

from . import defaults
from .defaults import *  # noqa: F403 - the named defaults, listed in defaults.__all__
from .options import OptionsCatalog, ProviderOptions, option_env_var
from .section import HeaderFields, HeaderSecret, normalize_domain_pattern
from .settings import Settings
from .sources import env_name

__all__ = [  # the defaults' names, then these
    *defaults.__all__,
    "HeaderFields",
    "HeaderSecret",
    "OptionsCatalog",
    "ProviderOptions",
    "Settings",
    "env_name",
    "normalize_domain_pattern",
    "option_env_var",
]
