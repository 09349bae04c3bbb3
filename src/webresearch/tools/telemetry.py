"""Telemetry of tool calls: one OpenTelemetry span per call, metrics, and in-process counts.

Spans follow the OpenTelemetry GenAI semantic conventions for tool execution ("Execute tool
span", semantic-conventions ``docs/gen-ai/gen-ai-agent-spans.md`` and ``execute-tool.md``,
status Development): name ``execute_tool {gen_ai.tool.name}``, kind ``INTERNAL``, with

==============================  ==========================================================
``gen_ai.operation.name``       ``execute_tool``
``gen_ai.tool.name``            the tool (``web_fetch`` …)
``gen_ai.tool.call.id``         the call's operation id (the journal's)
``gen_ai.tool.type``            ``function`` (the application runs the model's call)
``gen_ai.tool.description``     the spec's description
``error.type``                  the error code (``http_status``, ``cancelled`` …) when the
                                call did not succeed; the span's status is then ``ERROR``
``webresearch.outcome``         ``ok`` · ``refused`` · ``error`` · ``cancelled``
``webresearch.cached``          served from a cache
``webresearch.bytes``           UTF-8 bytes of the result text plus the image bytes
``webresearch.duration_ms``     the call's duration, as journaled
``webresearch.cost``            what the call spent (price units), when it paid
``webresearch.replayed``        an idempotent replay of a recorded result
==============================  ==========================================================

Arguments and results (the conventions' opt-in ``gen_ai.tool.call.arguments`` / ``.result``)
are never recorded: they may hold what the journal redacts. Metrics: the conventions'
``gen_ai.execute_tool.duration`` histogram (seconds) and a ``webresearch.tool.calls`` counter,
both by tool and ``error.type``.

``opentelemetry-api`` is optional (``pip install -e '.[otel]'`` in the webresearch checkout):
without it every span is a no-op and only the in-process counts
(:meth:`CallTelemetry.counts`) are kept.
With the API but no SDK configured, the API's own no-op provider applies; an application
that configures a tracer or meter provider (even after the Toolkit was built) gets the spans.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..types import ToolResult

__all__ = ["CallTelemetry", "SpanFacts"]

_SCOPE = "webresearch"
#: ``gen_ai.tool.type`` of every tool: the model chose the call, the application runs it.
_TOOL_TYPE = "function"


@dataclass
class SpanFacts:
    """What the pipeline learns about a call while it runs, set on its span at the end.

    Attributes:
        outcome: ``ok``, ``refused``, ``error`` or ``cancelled``.
        error_code: the error code when the call did not succeed.
        cached: served from a cache.
        size: result bytes (text as UTF-8 plus images).
        duration_ms: the call's duration.
        cost: what the call spent.
        replayed: a replay of a recorded result.
    """

    outcome: str = "ok"
    error_code: str | None = None
    cached: bool = False
    size: int = 0
    duration_ms: float = 0.0
    cost: float = 0.0
    replayed: bool = False

    def from_result(self, result: ToolResult, outcome: str) -> None:
        """Outcome, error code, cached flag and size of a finished call."""
        self.outcome = outcome
        self.error_code = result.error.code if result.error is not None else None
        self.cached = bool(result.meta.get("cached"))
        self.replayed = bool(result.meta.get("replayed"))
        self.size = len(result.text.encode("utf-8", "surrogatepass")) + sum(
            len(image.data) for image in result.images
        )


class CallTelemetry:
    """Spans, metrics and counts of the calls of one Toolkit.

    The OpenTelemetry API is imported on the first call (never at import time), so a
    program that makes no call pays nothing for it.
    """

    def __init__(self) -> None:
        self._counts: Counter[tuple[str, str]] = Counter()
        self._otel: _Otel | bool | None = False  # False: not looked up yet

    def _instruments(self) -> _Otel | None:
        if self._otel is False:
            self._otel = _Otel.load()
        return self._otel if isinstance(self._otel, _Otel) else None

    @contextlib.contextmanager
    def call(self, tool: str, operation_id: str, description: str | None) -> Iterator[SpanFacts]:
        """A span around one call: the pipeline fills the yielded facts; at the end they
        become the span's attributes, one count and the metrics."""
        facts = SpanFacts()
        otel = self._instruments()
        span_cm = otel.span(tool, operation_id, description) if otel else contextlib.nullcontext()
        with span_cm as span:
            try:
                yield facts
            finally:
                code = facts.error_code or ("cancelled" if facts.outcome == "cancelled" else None)
                self._counts[(tool, code or facts.outcome)] += 1
                if otel is not None:
                    otel.finish(span, tool, facts, code)

    def counts(self) -> dict[str, dict[str, int]]:
        """Calls per tool, by outcome: ``{"web_fetch": {"ok": 3, "http_status": 1}}`` (an
        error code for a failed or refused call, ``cancelled``, else ``ok``)."""
        table: dict[str, dict[str, int]] = {}
        for (tool, key), count in sorted(self._counts.items()):
            table.setdefault(tool, {})[key] = count
        return table


class _Otel:
    """The OpenTelemetry tracer and instruments (only built when the API is installed)."""

    def __init__(self, trace: Any, metrics: Any, status: Any, version: str | None) -> None:
        self._trace = trace
        self._status = status
        self.tracer = trace.get_tracer(_SCOPE, version)
        meter = metrics.get_meter(_SCOPE, version)
        self.duration = meter.create_histogram(
            "gen_ai.execute_tool.duration", unit="s", description="Duration of tool executions."
        )
        self.calls = meter.create_counter(
            "webresearch.tool.calls", unit="{call}", description="Tool calls by tool and outcome."
        )

    @classmethod
    def load(cls) -> _Otel | None:
        try:
            from opentelemetry import metrics, trace
            from opentelemetry.trace import Status, StatusCode
        except ImportError:
            return None
        return cls(trace, metrics, (Status, StatusCode), _version())

    def span(self, tool: str, operation_id: str, description: str | None) -> Any:
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "gen_ai.tool.call.id": operation_id,
            "gen_ai.tool.type": _TOOL_TYPE,
        }
        if description:
            attributes["gen_ai.tool.description"] = description
        return self.tracer.start_as_current_span(
            f"execute_tool {tool}",
            kind=self._trace.SpanKind.INTERNAL,
            attributes=attributes,
            record_exception=False,
            set_status_on_exception=False,
        )

    def finish(self, span: Any, tool: str, facts: SpanFacts, code: str | None) -> None:
        attributes: dict[str, Any] = {
            "webresearch.outcome": facts.outcome,
            "webresearch.cached": facts.cached,
            "webresearch.bytes": facts.size,
            "webresearch.duration_ms": facts.duration_ms,
        }
        if facts.cost:
            attributes["webresearch.cost"] = facts.cost
        if facts.replayed:
            attributes["webresearch.replayed"] = True
        if code is not None:
            attributes["error.type"] = code
        span.set_attributes(attributes)
        status_cls, status_code = self._status
        if code is not None:
            span.set_status(status_cls(status_code.ERROR, code))
        labels = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool}
        if code is not None:
            labels["error.type"] = code
        self.duration.record(facts.duration_ms / 1000.0, labels)
        self.calls.add(1, labels)


def _version() -> str | None:
    """The installed package's version (the instrumentation scope's), if known."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("webresearch")
    except PackageNotFoundError:
        return None
