"""Getting the bytes of a screenshot a service returned (inline or by URL).

A URL is downloaded through the guarded client (the SSRF guard on every hop and every
resolved address) with the seed notes' limits: at most 3 redirects, 20 s for the whole
download, ``image/*`` only, at most the image source cap (5 MiB). Callers turn any failure
into "screenshot no longer available" text: the model never gets an exception for a
picture that did not arrive.
"""

from __future__ import annotations

from ..errors import FetchError, TooLarge, UnsupportedContent
from ..net.client import GuardedClient
from ..net.http_status import WallClock, status_error, utc_now
from ..wording import count
from .base import Capture

__all__ = ["SCREENSHOT_ACCEPT", "load_screenshot"]

#: Accept header of a screenshot download: only what the image pipeline decodes first.
SCREENSHOT_ACCEPT = "image/png,image/jpeg,image/webp,image/*;q=0.8"


async def load_screenshot(
    capture: Capture,
    client: GuardedClient,
    *,
    max_bytes: int,
    max_redirects: int,
    timeout_s: float,
    now: WallClock = utc_now,
) -> bytes:
    """The screenshot's bytes.

    Args:
        capture: what the service returned.
        client: the guarded client (downloads of a URL the service gave).
        max_bytes: largest screenshot accepted (bytes).
        max_redirects: redirects followed by the download.
        timeout_s: seconds for the whole download.
        now: wall clock (Retry-After dates of an error status).

    Raises:
        FetchError: no screenshot, or the download failed (``blocked_address``,
            ``too_many_redirects``, ``timeout``, ``http_status`` …); ``TooLarge`` over
            ``max_bytes``; ``UnsupportedContent`` when the answer is not ``image/*``.
    """
    if capture.image is not None:
        if len(capture.image) > max_bytes:
            raise TooLarge(
                f"the screenshot is larger than {count(max_bytes, 'byte')}", cap_bytes=max_bytes
            )
        return capture.image
    if capture.image_url is None:
        raise FetchError("the service returned no screenshot", reason="missing")
    response = await client.get(
        capture.image_url,
        headers={"Accept": SCREENSHOT_ACCEPT},
        cap=max_bytes,
        max_redirects=max_redirects,
        timeout_s=timeout_s,
    )
    if response.status >= 400:
        raise status_error(response, "the screenshot", now=now())
    mime = (response.content_type or "").split(";", 1)[0].strip().lower()
    if not mime.startswith("image/"):
        raise UnsupportedContent(f"the screenshot download answered {mime or 'no type'}")
    return response.body
