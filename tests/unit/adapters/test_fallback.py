"""The image fallback's pure rules: which refusals are about a picture, and the text form."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar

import pytest

from webresearch.adapters import (
    IMAGE_REFUSED_NOTE,
    anthropic_tool_results,
    chat_tool_messages,
    contains_images,
    error_status_and_text,
    refusal_kind,
    responses_tool_outputs,
    without_images,
)

from .results import make_turn, parts_of_type, plain


@pytest.mark.parametrize(
    ("status", "text", "kind"),
    [
        (400, "Invalid content type. image_url is only supported by certain models.", "image"),
        (400, "This model does not support vision input", "image"),
        (415, "Unsupported Media Type", "image"),  # media type is about the picture
        (422, "input_image parts are not accepted", "image"),
        (400, "messages[1].content: multimodal content is not supported", "image"),
        (413, "Request Entity Too Large", "too_large"),
        (413, "image too large", "too_large"),
        (400, "This model's maximum context length is 8192 tokens (including images)", "other"),
        (400, "prompt is too long: 210000 tokens > 200000 maximum (images included)", "other"),
        (400, "Invalid 'tools[0].function.name'", "other"),
        (401, "bad key for image model", "other"),
        (429, "Rate limit reached for image requests", "other"),
        (500, "image service failed", "other"),
        (None, "image", "other"),
    ],
)
def test_refusal_kind(status: int | None, text: str, kind: str) -> None:
    assert refusal_kind(status, text) == kind


class _Response:
    status_code = 422
    text = '{"detail": "image not allowed"}'


class _HTTPError(Exception):
    response = _Response()


class _SDKError(Exception):
    status_code = 400
    body: ClassVar[dict[str, object]] = {"error": {"message": "image_url unsupported"}}


def test_error_status_and_text_reads_sdk_and_httpx_shapes() -> None:
    assert error_status_and_text(_SDKError("Error code: 400")) == (
        400, "Error code: 400\n" + json.dumps(_SDKError.body)
    )  # fmt: skip
    status, text = error_status_and_text(_HTTPError("422 Unprocessable"))
    assert status == 422 and "image not allowed" in text
    assert error_status_and_text(ValueError("x")) == (None, "x")


def test_without_images_keeps_everything_but_the_pictures() -> None:
    turn = make_turn()
    forms: list[Sequence[object]] = [
        chat_tool_messages(turn),
        responses_tool_outputs(turn),
        [anthropic_tool_results(turn)],
    ]
    for messages in forms:
        before = json.dumps(messages)
        assert contains_images(messages)
        text = without_images(messages)
        assert json.dumps(messages) == before  # the input is not changed
        assert not contains_images(text)
        assert parts_of_type(plain(text), "image_url", "input_image", "image") == []
        notes = [
            p
            for p in parts_of_type(plain(text), "text", "input_text")
            if IMAGE_REFUSED_NOTE in p["text"]
        ]
        assert [n["text"].split(":")[0] for n in notes] == [
            "[image/png, 67 bytes",
            "[image/png, 72 bytes",
        ] or len(notes) == 2
        # Everything else is the same request.
        assert len(json.dumps(text)) < len(before)
