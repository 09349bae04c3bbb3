"""Which (model, provider) pairs refused a picture: the memory behind the adapters' image
fallback (issue 17, the seeds' "tool images" behaviour).

When a provider refuses a request because of an image and the same request sent again with
text instead succeeds, the pair gets text from then on: the pair is kept in the state
backend's cool-down store (key ``images:<provider>:<model>``) for ``ttl_s`` seconds, so every
process sharing the backend learns it together and a restart of an in-process backend
forgets it. Remembering writes ONE journal event, ``model.images_refused`` (details: model,
provider, HTTP status, the TTL and the provider's reason, redacted and cut to 300
characters).

The store fails open (``backends.state.FailOpenCooldowns``): when the backend is down a pair
reads as "not refused", so the picture is tried again and the fallback still answers.
"""

from __future__ import annotations

import logging

from ..runtime.cooldowns import REASON_MAX_CHARS
from ..runtime.journal import JournalEvent
from .redaction import redact_json
from .services import Services

__all__ = ["DEFAULT_TTL_S", "EVENT_KIND", "ImageRefusals", "pair_key"]

log = logging.getLogger("webresearch")

#: How long a refusing pair gets text (seconds): a day, then the picture is tried again
#: (providers add vision to models).
DEFAULT_TTL_S = 86_400.0
#: The journal event written once when a pair is remembered.
EVENT_KIND = "model.images_refused"
#: Code stored with the cool-down.
_CODE = "images_refused"


def pair_key(model: str, provider: str) -> str:
    """The state key of a (model, provider) pair, e.g. ``images:openrouter:glm-5``."""
    return f"images:{provider}:{model}"


class ImageRefusals:
    """Remembered refusals, shared through the state backend (see the module docstring).

    Args:
        services: the Toolkit's services (cool-down store, journal, redactor).
    """

    def __init__(self, services: Services) -> None:
        self._services = services

    async def refused(self, model: str, provider: str) -> bool:
        """Whether ``model`` at ``provider`` gets text instead of pictures now."""
        return await self._services.cooldowns.get(pair_key(model, provider)) is not None

    async def remember(
        self,
        model: str,
        provider: str,
        *,
        status: int,
        reason: str,
        ttl_s: float = DEFAULT_TTL_S,
        run_id: str = "",
    ) -> None:
        """Give the pair text for ``ttl_s`` seconds and journal it once.

        Args:
            model: the model name as the caller sends it.
            provider: the caller's name for the provider (``openai``, ``anthropic`` …).
            status: the HTTP status of the refusal (400, 415 or 422).
            reason: the provider's error text (redacted and cut before it is stored).
            ttl_s: seconds the pair gets text (``<= 0``: not remembered).
            run_id: the agent run the refusal happened in (journal field).
        """
        if ttl_s <= 0:
            return
        shown = self._services.redact(reason)[:REASON_MAX_CHARS]
        await self._services.cooldowns.start(pair_key(model, provider), ttl_s, _CODE, shown)
        details = redact_json(
            {"model": model, "provider": provider, "status": status, "ttl_s": ttl_s,
             "reason": shown},
            self._services.redact,
        )  # fmt: skip
        event = JournalEvent(
            kind=EVENT_KIND,
            run_id=run_id,
            outcome="refused",
            details=details if isinstance(details, dict) else {},
        )
        try:
            await self._services.journal.append(event)
        except Exception as exc:  # the model already answered: a journal outage loses a note
            log.warning("journal: cannot record %s (%s)", EVENT_KIND, type(exc).__name__)
