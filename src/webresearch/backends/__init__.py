"""Storage backends for journal, limits, caches and scopes (SQLite, Redis, PostgreSQL, JSON lines)."""
