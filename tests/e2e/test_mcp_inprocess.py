"""The MCP server with the SDK's own client, in process: listing, images, errors, approval.

Every test runs against both protocol eras: ``legacy`` (the 2025-11-25 initialize
handshake, elicitation as a server-to-client request) and ``auto`` (2026-07-28, stateless,
elicitation inside an ``input_required`` result).
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, MCPError
from mcp.client.session import ClientRequestContext

from tests.support.http_server import LocalServer
from tests.support.tiny_png import png_bytes
from webresearch import ImageBlock, RunContext, Settings, Toolkit, ToolResult
from webresearch.mcp_server import WebResearchServer
from webresearch.mcp_server.approval import APPROVAL_INPUT_KEY
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.image_tools import FETCH_IMAGE, VIEW_IMAGE
from webresearch.tools.services import Services
from webresearch.types import JSONObject

from .conftest import PAGE_SENTENCE

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])
PNG = png_bytes(2, 3, (0, 128, 255))


def image_tool(services: Services) -> ToolEntry[JSONObject]:
    """fetch_image that returns a tiny real PNG (the image pipeline is another branch's)."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        image = ImageBlock(PNG, "image/png", {"width": 2, "height": 3})
        return ToolResult(text="image/png 2×3 px", images=(image,))

    return ToolEntry(spec=FETCH_IMAGE, run=run)


def workspace_tool(services: Services) -> ToolEntry[JSONObject]:
    """view_image, offered only when the run has a workspace; echoes it."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        return ToolResult(text=f"workspace={ctx.run.workspace} run={ctx.run.run_id}")

    return ToolEntry(
        spec=VIEW_IMAGE,
        run=run,
        gate=lambda run: None if run.workspace is not None else "no workspace",
    )


def make_server(
    settings: Settings, *, workspace: Path | None = None, timeout_s: float | None = None
) -> tuple[Toolkit, WebResearchServer]:
    toolkit = Toolkit(
        settings,
        journal=MemoryJournal(),
        builders=[web_fetch.build, image_tool, workspace_tool],
    )
    return toolkit, WebResearchServer(toolkit, workspace=workspace, approval_timeout_s=timeout_s)


@pytest.fixture
async def served(settings: Settings) -> AsyncIterator[tuple[Toolkit, WebResearchServer]]:
    toolkit, web = make_server(settings)
    async with toolkit:
        yield toolkit, web
        await web.aclose()


@pytest.fixture
def supervised(settings: Settings) -> Settings:
    return settings.replace(approval={"fetch_image": "supervised"})


def text_of(result: types.CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


def kinds(toolkit: Toolkit) -> list[str]:
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    return [e.kind for e in journal.events]


# --- listing ---------------------------------------------------------------------------------


@MODES
async def test_lists_exactly_the_registered_tools_with_titles_and_annotations(
    mode: str, settings: Settings, tmp_path: Path
) -> None:
    for workspace in (None, tmp_path):
        toolkit, web = make_server(settings, workspace=workspace)
        async with toolkit, Client(web.server, mode=mode) as client:
            listed = (await client.list_tools()).tools
            specs = toolkit.tools(RunContext(workspace=workspace))
            assert [t.name for t in listed] == [s.name for s in specs]
            for tool, spec in zip(listed, specs, strict=True):
                assert tool.description == spec.description
                assert tool.input_schema == spec.input_schema
                assert tool.title == spec.title
                assert tool.annotations is not None
                assert tool.annotations.title == spec.title
                assert tool.annotations.read_only_hint is spec.read_only
                assert tool.annotations.destructive_hint is spec.destructive
                assert tool.annotations.idempotent_hint is spec.idempotent
                assert tool.annotations.open_world_hint is spec.open_world
        expected = ["web_fetch", "fetch_image"] + (["view_image"] if workspace else [])
        assert [s.name for s in specs] == expected


@MODES
async def test_the_session_run_has_the_workspace_and_one_run_id(
    mode: str, settings: Settings, tmp_path: Path
) -> None:
    toolkit, web = make_server(settings, workspace=tmp_path)
    async with toolkit, Client(web.server, mode=mode) as client:
        first = text_of(await client.call_tool("view_image", {"path": "a.png"}))
        second = text_of(await client.call_tool("view_image", {"path": "b.png"}))
    assert first == second == f"workspace={tmp_path} run={web.run_id}"
    assert web.run_id.startswith("mcp-")


# --- results ---------------------------------------------------------------------------------


@MODES
async def test_images_arrive_as_image_content(
    mode: str, served: tuple[Toolkit, WebResearchServer]
) -> None:
    _, web = served
    async with Client(web.server, mode=mode) as client:
        result = await client.call_tool("fetch_image", {"url": "https://example.org/a.png"})
    assert result.is_error is False
    assert [c.type for c in result.content] == ["text", "image"]
    image = result.content[1]
    assert isinstance(image, types.ImageContent)
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data) == PNG


@MODES
async def test_tool_failures_are_is_error_results_with_the_code(
    mode: str, served: tuple[Toolkit, WebResearchServer], page_server: LocalServer
) -> None:
    _, web = served
    async with Client(web.server, mode=mode) as client:
        page = await client.call_tool("web_fetch", {"url": f"{page_server.base}/page"})
        assert page.is_error is False and PAGE_SENTENCE in text_of(page)
        cases: dict[str, tuple[str, dict[str, Any]]] = {
            "blocked_address": ("web_fetch", {"url": "http://169.254.169.254/latest/meta-data"}),
            "http_status": ("web_fetch", {"url": f"{page_server.base}/missing"}),
            "invalid_arguments": ("web_fetch", {"url": "x", "offset": -1}),
            "tool_unavailable": ("browser", {"action": "open"}),
        }
        for code, (name, arguments) in cases.items():
            result = await client.call_tool(name, arguments)
            assert result.is_error is True, code
            assert text_of(result).startswith(f"error[{code}]: "), text_of(result)
            assert [c.type for c in result.content] == ["text"]


# --- supervised approval through elicitation ---------------------------------------------------


class Person:
    """An elicitation callback answering like a person would, recording what it was asked."""

    def __init__(self, action: str = "accept", approve: bool | None = True) -> None:
        self.action, self.approve = action, approve
        self.asked: list[types.ElicitRequestFormParams] = []

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.asked.append(params)
        content = None if self.approve is None else {"approve": self.approve}
        return types.ElicitResult(action=self.action, content=content)  # type: ignore[arg-type]


@MODES
async def test_an_approved_supervised_call_runs(mode: str, supervised: Settings) -> None:
    toolkit, web = make_server(supervised)
    person = Person()
    async with toolkit, Client(web.server, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool(
            "fetch_image", {"url": "https://example.org/a.png?token=s3cr3t"}
        )
        unsupervised = await client.call_tool("web_fetch", {"url": "http://10.0.0.1/"})
    assert result.is_error is False
    assert [c.type for c in result.content] == ["text", "image"]
    assert len(person.asked) == 1  # web_fetch is not supervised: nobody was asked for it
    question = person.asked[0]
    assert question.message.startswith(
        "Allow this low-risk call? fetch_image url=https://example.org/a.png?"
    )
    assert "s3cr3t" not in question.message  # the person sees the call, never its secrets
    assert question.requested_schema["required"] == ["approve"]
    assert unsupervised.is_error and text_of(unsupervised).startswith("error[blocked_address]")
    assert kinds(toolkit).count("approval.granted") == 1
    assert "approval.denied" not in kinds(toolkit)


@MODES
@pytest.mark.parametrize(
    ("action", "approve"),
    [("decline", None), ("cancel", None), ("accept", False), ("accept", None)],
)
async def test_anything_but_an_explicit_yes_denies(
    mode: str, action: str, approve: bool | None, supervised: Settings
) -> None:
    toolkit, web = make_server(supervised)
    person = Person(action, approve)
    async with toolkit, Client(web.server, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("fetch_image", {"url": "https://example.org/a.png"})
    assert len(person.asked) == 1
    assert result.is_error is True
    assert text_of(result).startswith("error[approval_denied]: ")
    assert "approval.denied" in kinds(toolkit) and "approval.granted" not in kinds(toolkit)


@MODES
async def test_a_client_without_elicitation_is_denied(mode: str, supervised: Settings) -> None:
    toolkit, web = make_server(supervised)
    async with toolkit, Client(web.server, mode=mode) as client:
        result = await client.call_tool("fetch_image", {"url": "https://example.org/a.png"})
    assert result.is_error and text_of(result).startswith("error[approval_denied]: ")
    assert len(web.pending) == 0


async def test_an_unanswered_question_is_denied_after_the_timeout(supervised: Settings) -> None:
    # Handshake era: the server waits for the elicitation answer at most the timeout.
    toolkit, web = make_server(supervised, timeout_s=0.05)
    never = asyncio.Event()

    async def silent(context: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        await never.wait()

    async with toolkit, Client(web.server, mode="legacy", elicitation_callback=silent) as client:
        result = await asyncio.wait_for(
            client.call_tool("fetch_image", {"url": "https://example.org/a.png"}), 10
        )
    assert text_of(result).startswith("error[approval_denied]: ")
    assert "approval.denied" in kinds(toolkit)


# --- 2026-07-28 rounds, driven by hand -----------------------------------------------------------


def answer(approve: bool) -> types.InputResponses:
    return {APPROVAL_INPUT_KEY: types.ElicitResult(action="accept", content={"approve": approve})}


async def test_input_required_round_trip_and_its_state_is_single_use(supervised: Settings) -> None:
    toolkit, web = make_server(supervised)
    args = {"url": "https://example.org/a.png"}
    async with toolkit, Client(web.server, elicitation_callback=Person()) as client:
        session = client.session
        # An answer nobody asked for is ignored: the server asks its own question.
        first = await session.call_tool(
            "fetch_image", args, input_responses=answer(True), allow_input_required=True
        )
        assert isinstance(first, types.InputRequiredResult)
        assert first.input_requests is not None and APPROVAL_INPUT_KEY in first.input_requests
        assert first.request_state and len(web.pending) == 1
        assert kinds(toolkit).count("tool.started") == 1  # suspended inside the Toolkit

        done = await session.call_tool(
            "fetch_image",
            args,
            input_responses=answer(True),
            request_state=first.request_state,
            allow_input_required=True,
        )
        assert isinstance(done, types.CallToolResult) and done.is_error is False
        assert len(web.pending) == 0

        again = await session.call_tool(
            "fetch_image",
            args,
            input_responses=answer(True),
            request_state=first.request_state,
            allow_input_required=True,
        )
        assert isinstance(again, types.CallToolResult) and again.is_error is True
        assert text_of(again).startswith("error[approval_denied]: ")
    assert kinds(toolkit).count("approval.granted") == 1
    assert kinds(toolkit).count("tool.completed") == 1


async def test_forged_or_moved_state_is_refused(supervised: Settings) -> None:
    toolkit, web = make_server(supervised)
    args = {"url": "https://example.org/a.png"}
    async with toolkit, Client(web.server, elicitation_callback=Person()) as client:
        session = client.session
        first = await session.call_tool("fetch_image", args, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult) and first.request_state
        for name, arguments, state in [
            ("fetch_image", args, "v1.forged"),
            ("fetch_image", {"url": "https://example.org/other.png"}, first.request_state),
        ]:
            with pytest.raises(MCPError, match="requestState"):
                await session.call_tool(
                    name,
                    arguments,
                    input_responses=answer(True),
                    request_state=state,
                    allow_input_required=True,
                )
        assert len(web.pending) == 1  # the real question still waits for its answer
    await web.aclose()
    assert len(web.pending) == 0


async def test_a_question_never_answered_expires_as_denied(supervised: Settings) -> None:
    toolkit, web = make_server(supervised, timeout_s=0.05)
    args = {"url": "https://example.org/a.png"}
    async with toolkit, Client(web.server, elicitation_callback=Person()) as client:
        first = await client.session.call_tool("fetch_image", args, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult) and first.request_state
        # The client never retries: after the timeout the Toolkit records a denial.
        async with asyncio.timeout(10):
            while "tool.failed" not in kinds(toolkit):
                await asyncio.sleep(0.01)
        assert "approval.denied" in kinds(toolkit)
        late = await client.session.call_tool(
            "fetch_image",
            args,
            input_responses=answer(True),
            request_state=first.request_state,
            allow_input_required=True,
        )
    assert isinstance(late, types.CallToolResult) and late.is_error
    assert "expired" in text_of(late)
    assert kinds(toolkit).count("tool.started") == 1  # the late answer ran nothing


@MODES
async def test_a_cancelled_call_stops_its_tool(mode: str, settings: Settings) -> None:
    started, stopped = asyncio.Event(), asyncio.Event()

    def slow_tool(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            started.set()
            try:
                await asyncio.Event().wait()
            finally:
                stopped.set()
            raise AssertionError("unreachable")

        return ToolEntry(spec=FETCH_IMAGE, run=run)

    toolkit = Toolkit(settings, journal=MemoryJournal(), builders=[slow_tool])
    web = WebResearchServer(toolkit)
    async with toolkit, Client(web.server, mode=mode) as client:
        call = asyncio.create_task(client.call_tool("fetch_image", {"url": "https://e.org/a.png"}))
        await asyncio.wait_for(started.wait(), 10)
        call.cancel()
        await asyncio.wait_for(stopped.wait(), 10)
    assert call.cancelled()
