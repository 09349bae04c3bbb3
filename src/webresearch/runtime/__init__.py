"""Runtime building blocks: caches, limits, journal, scope (protocols, pure math, in-process)."""
