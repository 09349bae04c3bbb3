"""Image fallback: a provider that refuses a picture gets the same request as text.

Wrap the app's own send function (the seeds' "tool images" behaviour, issue 17):

    fallback = ImageFallback(toolkit)
    response = await fallback.send(
        lambda images: client.chat.completions.create(
            model=model, tools=tools, messages=messages if images else without_images(messages)
        ),
        model=model,
        provider="openai",
    )

Rules (:func:`refusal_kind` decides from the HTTP status and the provider's error text):

* **refused because of an image** — HTTP 400, 415 or 422 whose error text is about the image
  (``image``, ``vision``, ``multimodal``, ``image_url`` …): the same request goes again at
  once with text instead of the pictures (``send(False)``). If that retry succeeds, the
  (model, provider) pair is remembered in the state backend for ``ttl_s`` seconds (one
  journal event, ``model.images_refused``) and every later request of the pair goes as text
  straight away. If the retry fails, nothing is remembered and the retry's error goes on.
* **413 (too large)** — text for that request only; nothing is remembered.
* **context overflow** and every other refusal pass through unchanged (no retry).

A request that had no pictures is never retried (its text form is the same request).
``send`` receives ``True`` for the request with pictures, ``False`` for its text form;
:meth:`ImageFallback.send` takes an async function, :meth:`ImageFallback.send_sync` a plain
one (a sync SDK client; it runs in a worker thread so the event loop is never blocked).

:func:`without_images` turns a message history of any of the three APIs (chat completions,
Responses, Anthropic Messages) into its text form: every image part becomes a text part of
the same API naming the picture's type and size, so the model knows a picture was there and
reads the page text that came with it.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Literal, Protocol, TypeVar

from webresearch import Toolkit
from webresearch.wording import count

__all__ = [
    "IMAGE_REFUSED_NOTE",
    "ImageFallback",
    "RefusalKind",
    "RefusalMemory",
    "contains_images",
    "error_status_and_text",
    "refusal_kind",
    "without_images",
]

R = TypeVar("R")
M = TypeVar("M")

RefusalKind = Literal["image", "too_large", "other"]

#: What stands where a picture was, in a request sent as text.
IMAGE_REFUSED_NOTE = "not shown: the model's provider refused pictures; read the text instead"

#: Statuses a provider uses to refuse content it cannot take (seed rule).
_IMAGE_STATUSES = frozenset({400, 415, 422})
#: Error text that says the refusal is about a picture.
_ABOUT_IMAGES = re.compile(
    r"image|vision|multi-?modal|picture|screenshot|\bimg\b|media[_ ]type", re.IGNORECASE
)
#: Error text of a context overflow: passes through even when it names images.
_CONTEXT_OVERFLOW = re.compile(
    r"context[_ ](length|window)|maximum context|too many tokens|prompt is too long"
    r"|token limit|reduce the length",
    re.IGNORECASE,
)
#: Part types that carry a picture, and the text part that replaces each (same API).
_TEXT_FOR_IMAGE = {"image_url": "text", "image": "text", "input_image": "input_text"}


def refusal_kind(status: int | None, text: str) -> RefusalKind:
    """How the fallback treats an error answer (pure).

    Args:
        status: the HTTP status of the refusal (``None``: not an HTTP answer).
        text: the provider's error text (message and body).

    Returns:
        ``"image"`` (400/415/422 about a picture, not a context overflow), ``"too_large"``
        (413), else ``"other"``.
    """
    if status == 413:
        return "too_large"
    if status in _IMAGE_STATUSES and not _CONTEXT_OVERFLOW.search(text):
        return "image" if _ABOUT_IMAGES.search(text) else "other"
    return "other"


def error_status_and_text(error: BaseException) -> tuple[int | None, str]:
    """The HTTP status and error text of an exception from an SDK or an HTTP client.

    Reads what the official SDKs and httpx-style clients expose: ``status_code`` (openai,
    anthropic), ``response.status_code`` (httpx ``HTTPStatusError``), ``status``; the text
    is ``str(error)`` plus the JSON ``body`` when there is one, or the response text.
    """
    response = getattr(error, "response", None)
    status = getattr(error, "status_code", None)
    if not isinstance(status, int):
        status = getattr(response, "status_code", None)
    if not isinstance(status, int):
        status = getattr(error, "status", None)
    parts = [str(error)]
    body = getattr(error, "body", None)
    if body is not None:
        parts.append(body if isinstance(body, str) else json.dumps(body, default=str))
    else:
        try:
            text = getattr(response, "text", None)
        except Exception:  # a streamed response that was not read: no text
            text = None
        if isinstance(text, str):
            parts.append(text)
    return (status if isinstance(status, int) else None), "\n".join(parts)


class RefusalMemory(Protocol):
    """Where refusing (model, provider) pairs are kept (:attr:`Toolkit.image_refusals`)."""

    async def refused(self, model: str, provider: str) -> bool:
        """Whether the pair gets text now."""
        ...

    async def remember(
        self,
        model: str,
        provider: str,
        *,
        status: int,
        reason: str,
        ttl_s: float = ...,
        run_id: str = "",
    ) -> None:
        """Give the pair text for ``ttl_s`` seconds (and journal it once)."""
        ...


class ImageFallback:
    """Send with pictures; on a refusal because of them, send the text form (module docs).

    Args:
        toolkit: its state backend remembers refusing pairs and its journal gets the event
            (``Toolkit.image_refusals``); or pass ``memory`` instead.
        memory: another store of refusing pairs (tests, apps without a Toolkit).
        ttl_s: seconds a refusing pair gets text (default: a day).
        run_id: the agent run named in the journal event.

    Raises:
        TypeError: neither ``toolkit`` nor ``memory`` is given.
    """

    def __init__(
        self,
        toolkit: Toolkit | None = None,
        *,
        memory: RefusalMemory | None = None,
        ttl_s: float = 86_400.0,
        run_id: str = "",
    ) -> None:
        store = memory if memory is not None else toolkit.image_refusals if toolkit else None
        if store is None:
            raise TypeError("ImageFallback needs a toolkit or a memory")
        self._memory = store
        self._ttl_s = ttl_s
        self._run_id = run_id

    async def sees_images(self, model: str, provider: str) -> bool:
        """False while the pair is remembered as refusing pictures (build text-only tool
        results for it: ``can_see_images=…`` of the adapters)."""
        return not await self._memory.refused(model, provider)

    async def send(
        self,
        send: Callable[[bool], Awaitable[R]],
        *,
        model: str,
        provider: str,
        has_images: bool = True,
    ) -> R:
        """``await send(True)``, or ``await send(False)`` once when the provider refuses the
        pictures (rules in the module docstring).

        Args:
            send: builds and sends the request (async); its argument says whether pictures
                go (``False``: send :func:`without_images` of the messages).
            model: the model name (the pair's first half).
            provider: your name for the endpoint (``openai``, ``anthropic``, a gateway).
            has_images: False when the request holds no picture (never retried;
                :func:`contains_images` tells).

        Returns:
            what ``send`` returned.

        Raises:
            whatever ``send`` raised: the first error when it is not about a picture (or
            there was none), else the retry's error.
        """
        if await self._memory.refused(model, provider):
            return await send(False)
        try:
            return await send(True)
        except Exception as error:
            status, text = error_status_and_text(error)
            kind = refusal_kind(status, text)
            if not has_images or kind == "other" or status is None:
                raise
        answer = await send(False)  # its error goes on as it is: nothing is remembered
        if kind == "image":
            await self._memory.remember(
                model, provider, status=status, reason=text, ttl_s=self._ttl_s,
                run_id=self._run_id,
            )  # fmt: skip
        return answer

    async def send_sync(
        self,
        send: Callable[[bool], R],
        *,
        model: str,
        provider: str,
        has_images: bool = True,
    ) -> R:
        """:meth:`send` for a synchronous send function (a sync SDK client): it runs in a
        worker thread, so the event loop is never blocked."""

        async def threaded(images: bool) -> R:
            return await asyncio.to_thread(send, images)

        return await self.send(threaded, model=model, provider=provider, has_images=has_images)


def contains_images(messages: Sequence[object]) -> bool:
    """Whether any message (of the three APIs) holds a picture part."""
    return any(_has_image(message) for message in messages)


def _has_image(value: object) -> bool:
    if isinstance(value, Mapping):
        kind = value.get("type")
        if isinstance(kind, str) and kind in _TEXT_FOR_IMAGE:
            return True
        return any(_has_image(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_image(item) for item in value)
    return False


def without_images(messages: Sequence[M]) -> list[M]:
    """``messages`` with every picture replaced by a text note (chat completions, Responses
    input items or Anthropic messages).

    ``image_url`` and Anthropic ``image`` parts become ``{"type": "text", …}``, Responses
    ``input_image`` parts become ``{"type": "input_text", …}``; the note names the picture's
    type and size (``[image/png, 12 KiB: not shown: …]``). Everything else is kept as it is
    (the SDKs' response objects too); the input is not changed.
    """
    return [_strip(message) for message in messages]


def _strip(value: M) -> M:
    """``value`` with image parts replaced (dicts and lists are copied, the rest kept)."""
    if isinstance(value, Mapping):
        kind = value.get("type")
        text_type = _TEXT_FOR_IMAGE.get(kind) if isinstance(kind, str) else None
        if text_type is not None:
            note: object = {"type": text_type, "text": f"[{_facts(value)}: {IMAGE_REFUSED_NOTE}]"}
        else:
            note = {key: _strip(item) for key, item in value.items()}
        return note  # type: ignore[return-value]  # same JSON shape the caller passed
    if isinstance(value, list):
        return [_strip(item) for item in value]  # type: ignore[return-value]
    return value


def _facts(part: Mapping[object, object]) -> str:
    """``image/png, 12 KiB`` from an image part's data URL or base64 source."""
    url = part.get("image_url")
    if isinstance(url, Mapping):
        url = url.get("url")
    source = part.get("source")
    mime, data = "image", ""
    if isinstance(url, str) and url.startswith("data:"):
        head, _, data = url.partition(",")
        mime = head[5:].split(";")[0] or mime
    elif isinstance(source, Mapping):
        mime = str(source.get("media_type") or mime)
        data = str(source.get("data") or "")
    elif isinstance(url, str):
        return "image (linked)"
    try:
        size = len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return mime
    return f"{mime}, {count(size, 'byte')}" if size < 1024 else f"{mime}, {size / 1024:.0f} KiB"
