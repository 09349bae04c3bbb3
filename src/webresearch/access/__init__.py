"""Which URLs the tools may touch: the domain policy and robots.txt (RFC 9309).

:class:`AccessPolicy` is the one place both per-URL gates run (see :mod:`.policy` for where
each tool calls it); :class:`DomainPolicy` is the pure domain rule the browser's request
policy shares; :mod:`.robots_rules` is the pure RFC 9309 part, :mod:`.robots` its fetching
and caching.
"""

from __future__ import annotations

from .domains import DomainPolicy
from .policy import AccessPolicy
from .robots import RobotsChecker

__all__ = ["AccessPolicy", "DomainPolicy", "RobotsChecker"]
