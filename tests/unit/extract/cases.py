"""The regression cases copied into ``tests/fixtures/cases``: bodies and their headers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "cases"


@dataclass(frozen=True)
class Route:
    """One route of a case: what the stub server answers (status, headers, body bytes)."""

    path: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def content_type(self) -> str | None:
        """The Content-Type header value, or ``None`` when the route sends none."""
        for name, value in self.headers:
            if name.lower() == "content-type":
                return value
        return None


def route(case: str, path: str) -> Route:
    """The route ``path`` of the case folder ``case`` (e.g. ``"01-charset-meta-only-cp1251"``)."""
    folder = CASES / case
    spec = json.loads((folder / "headers.json").read_text(encoding="utf-8"))["routes"][path]
    body_file = spec.get("body_file")
    body = (folder / body_file).read_bytes() if body_file else b""
    headers = [(str(n), str(v)) for n, v in spec.get("headers", [])]
    return Route(path, int(spec.get("status", 200)), headers, body)
