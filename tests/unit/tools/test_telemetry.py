"""One OpenTelemetry span per tool call (GenAI "execute_tool" conventions), metrics, counts.

The SDK's in-memory exporter and metric reader are installed as the global providers once
for this module (an application configures OpenTelemetry the same way; the Toolkit only
uses the API). Without ``opentelemetry`` the calls work the same and are still counted.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit, ToolResult
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.telemetry import CallTelemetry
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject

PAGE = b"<html><head><title>T</title></head><body><p>" + b"Words of the page. " * 30 + b"</p></body></html>"


@pytest.fixture(scope="module")
def otel() -> Iterator[tuple[InMemorySpanExporter, InMemoryMetricReader]]:
    exporter = InMemorySpanExporter()
    reader = InMemoryMetricReader()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(tracer_provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    try:
        yield exporter, reader
    finally:
        exporter.shutdown()  # later tests' spans are dropped, not kept in memory


def hanging(services: Services) -> ToolEntry[JSONObject]:
    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return ToolEntry(spec=WEB_SEARCH, run=run)


def tool_spans(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("execute_tool ")]


async def test_one_span_per_call_with_the_genai_attributes(
    otel: tuple[InMemorySpanExporter, InMemoryMetricReader], settings: Settings
) -> None:
    exporter, reader = otel
    exporter.clear()
    routes: dict[str, Any] = {
        "/page": Route(headers=[("Content-Type", "text/html; charset=utf-8")], body=PAGE),
        "/gone": Route(status=404, headers=[("Content-Type", "text/plain")], body=b"no"),
    }
    with LocalServer(routes) as site:
        async with Toolkit(
            settings, journal=MemoryJournal(), builders=[web_fetch.build, hanging]
        ) as tk:
            fresh = await tk.call("web_fetch", {"url": f"{site.base}/page"})
            cached = await tk.call("web_fetch", {"url": f"{site.base}/page"})
            gone = await tk.call("web_fetch", {"url": f"{site.base}/gone"})
            refused = await tk.call("web_fetch", {"url": "http://10.1.2.3/"})
            call = asyncio.ensure_future(tk.call("web_search", {"query": "q"}))
            await asyncio.sleep(0.05)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            counts = tk.call_counts()

    spans = tool_spans(exporter)
    assert len(spans) == 5  # one per call, nothing else named execute_tool
    by_call = dict(zip(["fresh", "cached", "gone", "refused", "cancelled"], spans, strict=True))
    for name, span in by_call.items():
        attrs = dict(span.attributes or {})
        assert span.kind is SpanKind.INTERNAL
        assert attrs["gen_ai.operation.name"] == "execute_tool"
        assert attrs["gen_ai.tool.type"] == "function"
        assert span.name == f"execute_tool {attrs['gen_ai.tool.name']}"
        assert float(attrs["webresearch.duration_ms"]) >= 0, name  # type: ignore[arg-type]
        assert span.end_time is not None and span.start_time is not None
    results = {"fresh": fresh, "cached": cached, "gone": gone, "refused": refused}
    for name, result in results.items():
        attrs = dict(by_call[name].attributes or {})
        assert attrs["gen_ai.tool.name"] == "web_fetch"
        assert attrs["gen_ai.tool.call.id"] == result.meta["operation_id"]
        assert attrs["gen_ai.tool.description"] == web_fetch.WEB_FETCH.description
        assert attrs["webresearch.bytes"] == len(result.text.encode("utf-8"))
        assert "gen_ai.tool.call.arguments" not in attrs  # may hold what the journal redacts

    ok = dict(by_call["fresh"].attributes or {})
    assert ok["webresearch.outcome"] == "ok" and ok["webresearch.cached"] is False
    assert "error.type" not in ok and by_call["fresh"].status.status_code is not StatusCode.ERROR
    assert dict(by_call["cached"].attributes or {})["webresearch.cached"] is True
    for name, outcome, code in (
        ("gone", "error", "http_status"),
        ("refused", "refused", "blocked_address"),
        ("cancelled", "cancelled", "cancelled"),
    ):
        attrs = dict(by_call[name].attributes or {})
        assert (attrs["webresearch.outcome"], attrs["error.type"]) == (outcome, code)
        assert by_call[name].status.status_code is StatusCode.ERROR
    assert dict(by_call["cancelled"].attributes or {})["gen_ai.tool.name"] == "web_search"

    assert counts == {
        "web_fetch": {"ok": 2, "http_status": 1, "blocked_address": 1},
        "web_search": {"cancelled": 1},
    }
    points = metric_points(reader)
    calls = {
        (p["gen_ai.tool.name"], p.get("error.type")): p["value"]
        for p in points["webresearch.tool.calls"]
    }
    assert calls[("web_fetch", None)] >= 2 and calls[("web_fetch", "http_status")] >= 1
    assert calls[("web_search", "cancelled")] >= 1
    assert sum(p["count"] for p in points["gen_ai.execute_tool.duration"]) >= 5


def metric_points(reader: InMemoryMetricReader) -> dict[str, list[dict[str, Any]]]:
    """Metric name → its data points as dicts (attributes plus ``value`` or ``count``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    data = reader.get_metrics_data()
    assert data is not None
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            if scope.scope.name != "webresearch":
                continue
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    entry: dict[str, Any] = dict(point.attributes or {})
                    entry["value"] = getattr(point, "value", None)
                    entry["count"] = getattr(point, "count", None)
                    out.setdefault(metric.name, []).append(entry)
    return out


async def test_replays_are_spans_too(
    otel: tuple[InMemorySpanExporter, InMemoryMetricReader], settings: Settings
) -> None:
    exporter, _ = otel
    exporter.clear()
    async with Toolkit(settings, journal=MemoryJournal(), builders=[web_fetch.build]) as tk:
        first = await tk.call("web_fetch", {"url": "http://10.9.9.9/"}, operation_id="op-1")
        again = await tk.call("web_fetch", {"url": "http://10.9.9.9/"}, operation_id="op-1")
    assert again.meta.get("replayed") is True and first.text == again.text
    spans = tool_spans(exporter)
    assert len(spans) == 2
    assert dict(spans[1].attributes or {})["webresearch.replayed"] is True
    assert all(dict(s.attributes or {})["gen_ai.tool.call.id"] == "op-1" for s in spans)


async def test_without_opentelemetry_calls_work_and_are_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes `import opentelemetry` fail as if it were not installed.
    for name in [m for m in sys.modules if m == "opentelemetry" or m.startswith("opentelemetry.")]:
        monkeypatch.setitem(sys.modules, name, None)
    telemetry = CallTelemetry()
    with telemetry.call("web_fetch", "op", "d") as facts:
        facts.outcome = "ok"
    with pytest.raises(RuntimeError), telemetry.call("web_fetch", "op2", None) as facts:
        facts.outcome, facts.error_code = "error", "internal"
        raise RuntimeError("boom")
    assert telemetry.counts() == {"web_fetch": {"internal": 1, "ok": 1}}
