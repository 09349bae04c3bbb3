"""The image fallback (seed behaviour, issue 17) through the official SDKs against local stubs
that answer in each provider's documented error format."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from tests.support.examples import load_example
from tests.support.fake_providers import (
    FakeProvider,
    Reply,
    anthropic_error,
    anthropic_text,
    anthropic_tool_use,
    chat_answer,
    chat_tool_call,
    openai_error,
)
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import Settings, Toolkit
from webresearch.adapters import ImageFallback, without_images

pytestmark = pytest.mark.network

MODEL = "text-only-1"
#: What OpenAI answers when a model without vision gets an image part.
OPENAI_REFUSAL = "Invalid content type. image_url is only supported by certain models."
ANTHROPIC_REFUSAL = (
    "messages.2.content.0.tool_result.content.1.image: model does not support images"
)


@pytest.fixture
def image_server() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/shot.png"] = Route(
            headers=[("Content-Type", "image/png")], body=png_bytes(8, 6)
        )
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings) as kit:
        yield kit


def image_parts(body: dict[str, Any]) -> int:
    """Picture parts in a request body (any of the three APIs)."""
    text = repr(body)
    return sum(text.count(f"'type': '{kind}'") for kind in ("image_url", "image", "input_image"))


def refusing_chat(image_url: str, refusal: Reply) -> Any:
    """Turn 1: fetch the image. A request holding a picture: ``refusal``. Else: answer."""

    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/chat/completions"
        if image_parts(body):
            return refusal
        if not any(m["role"] == "tool" for m in body["messages"]):
            return chat_tool_call("call_1", "fetch_image", {"url": image_url})
        return chat_answer("seen as text")

    return model


async def test_chat_refusal_retries_as_text_and_remembers_the_pair(
    toolkit: Toolkit, image_server: LocalServer
) -> None:
    example = load_example("openai_chat")
    refusal = openai_error(400, OPENAI_REFUSAL)
    with FakeProvider(refusing_chat(f"{image_server.base}/shot.png", refusal)) as fake:
        client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
        async with client:
            answer = await example.run_agent("look", client=client, model=MODEL, toolkit=toolkit)
            assert answer == "seen as text"
            # turn 1, turn 2 with the picture (refused), turn 2 again as text
            assert [image_parts(r.body) for r in fake.requests] == [0, 1, 0]
            retry = fake.requests[2].body["messages"]
            assert "refused pictures; read the text instead" in repr(retry)
            assert fake.requests[1].body["messages"][:-1] == retry[:-1]  # the same request
            assert await toolkit.image_refusals.refused(MODEL, "openai")
            assert not await toolkit.image_refusals.refused(MODEL, "other-gateway")

            # Later calls of the pair get text straight away: no picture is sent again.
            fake.requests.clear()
            assert await example.run_agent("again", client=client, model=MODEL, toolkit=toolkit)
            assert [image_parts(r.body) for r in fake.requests] == [0, 0]
    events = await toolkit.journal.query(kind="model.images_refused")
    assert len(events) == 1
    assert events[0].details["status"] == 400 and events[0].details["model"] == MODEL
    assert "image_url is only supported" in str(events[0].details["reason"])


async def test_anthropic_refusal_retries_as_text(
    toolkit: Toolkit, image_server: LocalServer
) -> None:
    example = load_example("anthropic_messages")

    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/messages"
        if image_parts(body):
            return anthropic_error(400, ANTHROPIC_REFUSAL)
        if len(body["messages"]) == 1:
            return anthropic_tool_use(
                "toolu_1", "fetch_image", {"url": f"{image_server.base}/shot.png"}
            )
        return anthropic_text("read the facts")

    with FakeProvider(model) as fake:
        client = anthropic.AsyncAnthropic(base_url=fake.root, api_key="sk-ant-test", max_retries=0)
        async with client:
            answer = await example.run_agent("look", client=client, model=MODEL, toolkit=toolkit)
    assert answer == "read the facts"
    assert [image_parts(r.body) for r in fake.requests] == [0, 1, 0]
    assert await toolkit.image_refusals.refused(MODEL, "anthropic")


# --- the helper alone: one request holding a picture ------------------------------------------------
PICTURE: list[ChatCompletionMessageParam] = [
    {"role": "user", "content": [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ]},
]  # fmt: skip


async def send_once(fallback: ImageFallback, client: openai.AsyncOpenAI) -> ChatCompletion:
    async def send(images: bool) -> ChatCompletion:
        messages = PICTURE if images else without_images(PICTURE)
        return await client.chat.completions.create(model=MODEL, messages=messages)

    return await fallback.send(send, model=MODEL, provider="openai", has_images=True)


def scripted(*replies: Reply) -> Any:
    queue = list(replies)
    return lambda path, body: queue.pop(0)


async def test_413_gets_text_for_this_request_only(toolkit: Toolkit) -> None:
    fallback = ImageFallback(toolkit)
    too_large = openai_error(413, "Request Entity Too Large")
    with FakeProvider(scripted(too_large, chat_answer("a"), chat_answer("b"))) as fake:
        client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
        async with client:
            assert (await send_once(fallback, client)).choices[0].message.content == "a"
            assert not await toolkit.image_refusals.refused(MODEL, "openai")
            assert (await send_once(fallback, client)).choices[0].message.content == "b"
    assert [image_parts(r.body) for r in fake.requests] == [1, 0, 1]
    assert await toolkit.journal.query(kind="model.images_refused") == []


async def test_a_failed_retry_remembers_nothing_and_its_error_goes_on(toolkit: Toolkit) -> None:
    fallback = ImageFallback(toolkit)
    refusal = openai_error(422, "image input is not supported")
    with FakeProvider(scripted(refusal, openai_error(500, "upstream broke"))) as fake:
        client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
        async with client:
            with pytest.raises(openai.InternalServerError, match="upstream broke"):
                await send_once(fallback, client)
    assert [image_parts(r.body) for r in fake.requests] == [1, 0]
    assert not await toolkit.image_refusals.refused(MODEL, "openai")


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (openai_error(400, "This model's maximum context length is 8192 tokens (text and image)",
                      "context_length_exceeded"), openai.BadRequestError),
        (openai_error(400, "Invalid 'tools[0].function.name': string too long"),
         openai.BadRequestError),
        (openai_error(401, "Incorrect API key provided: image-key"), openai.AuthenticationError),
        (openai_error(429, "Rate limit reached for image requests"), openai.RateLimitError),
    ],
)  # fmt: skip
async def test_other_errors_pass_through_unchanged(
    toolkit: Toolkit, reply: Reply, error: type[Exception]
) -> None:
    fallback = ImageFallback(toolkit)
    with FakeProvider(scripted(reply)) as fake:
        client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
        async with client:
            with pytest.raises(error):
                await send_once(fallback, client)
    assert len(fake.requests) == 1
    assert not await toolkit.image_refusals.refused(MODEL, "openai")


async def test_a_sync_client_through_send_sync(toolkit: Toolkit) -> None:
    fallback = ImageFallback(toolkit)
    refusal = openai_error(415, "Unsupported media type: image/png")
    with (
        FakeProvider(scripted(refusal, chat_answer("ok"))) as fake,
        openai.OpenAI(base_url=fake.base, api_key="sk-test", max_retries=0) as client,
    ):

        def send(images: bool) -> ChatCompletion:
            messages = PICTURE if images else without_images(PICTURE)
            return client.chat.completions.create(model=MODEL, messages=messages)

        done = await fallback.send_sync(send, model=MODEL, provider="openai")
    assert done.choices[0].message.content == "ok"
    assert await toolkit.image_refusals.refused(MODEL, "openai")


async def test_the_pair_is_shared_through_the_state_backend(tmp_path: Path) -> None:
    shared = Settings.load(
        environ={}, journal_url="memory://", search_provider="none",
        state_url=f"sqlite:///{tmp_path / 'state.sqlite3'}",
    )  # fmt: skip
    refusal = openai_error(400, OPENAI_REFUSAL)
    async with Toolkit(shared) as one, Toolkit(shared) as two:
        with FakeProvider(scripted(refusal, chat_answer("a"), chat_answer("b"))) as fake:
            client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
            async with client:
                await send_once(ImageFallback(one), client)
                assert await two.image_refusals.refused(MODEL, "openai")  # another process
                await send_once(ImageFallback(two), client)
    assert [image_parts(r.body) for r in fake.requests] == [1, 0, 0]


async def test_the_pair_gets_pictures_again_after_the_ttl(settings: Settings) -> None:
    now = [1000.0]
    async with Toolkit(settings, clock=lambda: now[0]) as toolkit:
        refusal = openai_error(400, OPENAI_REFUSAL)
        with FakeProvider(scripted(refusal, chat_answer("a"), chat_answer("b"))) as fake:
            client = openai.AsyncOpenAI(base_url=fake.base, api_key="sk-test", max_retries=0)
            async with client:
                await send_once(ImageFallback(toolkit, ttl_s=60), client)
                now[0] += 59.0
                assert await toolkit.image_refusals.refused(MODEL, "openai")
                now[0] += 1.0
                assert not await toolkit.image_refusals.refused(MODEL, "openai")
                await send_once(ImageFallback(toolkit, ttl_s=60), client)
    assert [image_parts(r.body) for r in fake.requests] == [1, 0, 1]
