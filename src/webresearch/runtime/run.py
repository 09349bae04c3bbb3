"""The run context: what one agent run may do."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["RunContext"]


@dataclass(frozen=True, slots=True)
class RunContext:
    """Per-run capabilities and identity.

    Attributes:
        run_id: identifies the agent run in the journal (a random id by default).
        network_access: web tools and the browser are registered only when True.
        workspace: directory view_image may read; ``None`` disables view_image.
    """

    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    network_access: bool = True
    workspace: Path | None = None
