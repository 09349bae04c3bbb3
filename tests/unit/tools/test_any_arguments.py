"""No argument of any shape makes ``Toolkit.call`` raise (issue 20 item 4), and the forms
models send are understood (issue 21 item 1).

Property test per tool: any JSON value for each of its arguments (and extra names, and
arguments that are not an object at all) gives a ``ToolResult`` — never an exception, never
an ``internal`` error — and a journal record of the call. The examples are bounded so the
suite stays fast; ``bench/fuzz_arguments.py`` runs the same strategies for minutes
(BENCHMARKS.md, "Argument fuzzing").
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import webresearch
from tests.support.argument_fuzz import arguments_for, fuzz_run, fuzz_toolkit, searxng_server
from webresearch import Settings, Toolkit, ToolResult
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.arguments import MAX_DEPTH, ArgumentValidator, json_shape, lenient
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.browser_actions import BROWSER, normalize_arguments
from webresearch.tools.catalog import ALL_SPECS, SPECS_BY_NAME
from webresearch.tools.web_fetch import WEB_FETCH
from webresearch.tools.web_search import WEB_SEARCH

#: Examples per tool in the suite (the long run is bench/fuzz_arguments.py).
EXAMPLES = 40


def _check(result: object) -> ToolResult:
    assert isinstance(result, ToolResult)
    error = result.error
    assert error is None or error.code != "internal", result.text
    assert "Traceback" not in result.text
    result.text.encode("utf-8")  # what a model reads is valid Unicode
    return result


@pytest.mark.parametrize("tool", [spec.name for spec in ALL_SPECS])
def test_any_arguments_give_a_result(tool: str, tmp_path: Path) -> None:
    spec = SPECS_BY_NAME[tool]
    with searxng_server() as searxng, asyncio.Runner() as runner:

        async def start() -> Any:
            manager = fuzz_toolkit(searxng.base, tmp_path)
            return manager, await manager.__aenter__()

        manager, toolkit = runner.run(start())
        run = fuzz_run(tmp_path)
        calls = 0

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(arguments=arguments_for(spec))
        def call_with(arguments: object) -> None:
            nonlocal calls
            calls += 1
            result = runner.run(toolkit.call(tool, arguments, run=run))  # type: ignore[arg-type,unused-ignore]
            _check(result)

        try:
            call_with()
            events = runner.run(toolkit.journal.query(run_id=run.run_id, kind="tool.started"))
            assert len(events) == calls  # every call was journaled, however odd
        finally:
            runner.run(manager.__aexit__(None, None, None))


ODD_SHAPES: list[object] = [
    None,
    [],
    "url",
    42,
    {1: "a"},
    {"url": {1, 2}},
    {"url": object()},
    {"url": b"http://a.example/"},
    {"url": 10**5000},
    {"url": "http://a.example/", "max_bytes": 10**400},
    {"url": float("nan")},
    {"url": "\ud800", "\udfff": "\x00"},
]


def _nested(depth: int) -> object:
    value: object = "leaf"
    for _ in range(depth):
        value = {"url": [value]}
    return value


def _echo(services: Any) -> ToolEntry[Any]:
    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        return ToolResult(json.dumps(arguments, sort_keys=True))

    return ToolEntry(spec=WEB_FETCH, run=run)


@pytest.mark.parametrize(
    "arguments",
    [*ODD_SHAPES, _nested(5000), _nested(MAX_DEPTH + 1)],
    ids=lambda a: type(a).__name__,
)
async def test_python_objects_that_are_not_json_are_refused_not_raised(
    arguments: object,
) -> None:
    async with Toolkit(
        Settings.load(environ={}), journal=MemoryJournal(), builders=[_echo]
    ) as toolkit:
        result = _check(await toolkit.call("web_fetch", arguments))  # type: ignore[arg-type]
        assert result.error is not None and result.error.code == "invalid_arguments"
        kinds = [e.kind for e in await toolkit.journal.query()]
        assert kinds == ["tool.started", "tool.failed"]


async def test_a_name_or_operation_id_of_another_type_is_a_result() -> None:
    async with Toolkit(
        Settings.load(environ={}), journal=MemoryJournal(), builders=[_echo]
    ) as toolkit:
        odd: Any = ["web_fetch"]
        result = _check(await toolkit.call(odd, {}))
        assert result.error is not None and result.error.code == "tool_unavailable"
        ok = _check(await toolkit.call("web_fetch", {"url": "u"}, operation_id=odd))
        assert ok.ok


def test_a_refusal_names_at_most_three_problems() -> None:
    shape = json_shape({"items": [{1, 2}] * 10_000})
    assert (
        shape.problem
        == "items[0]: a set is not a JSON value; items[1]: a set is not a JSON value; items[2]: a set is not a JSON value"
    )


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"maxBytes": 100}, "(did you mean 'max_bytes'?)"),  # camelCase, as models write
        ({"max-bytes": 100}, "(did you mean 'max_bytes'?)"),
        ({"ofset": 3}, "(did you mean 'offset'?)"),  # a close name
        (
            {"maxBytes": 100, "Query": "x"},
            "(did you mean 'max_bytes' for 'maxBytes', 'query' for 'Query'?)",
        ),
    ],
)
def test_an_unexpected_argument_names_the_one_meant(extra: dict[str, Any], said: str) -> None:
    """New-user test 16, L3: ``Additional properties are not allowed`` alone left the
    model to guess the spelling."""
    with pytest.raises(webresearch.InvalidArguments) as refused:
        ArgumentValidator(WEB_FETCH).validate({"url": "https://example.org/", **extra})
    assert refused.value.message.endswith(said)


def test_an_unexpected_argument_unlike_any_gets_no_guess() -> None:
    with pytest.raises(webresearch.InvalidArguments) as refused:
        ArgumentValidator(WEB_FETCH).validate({"url": "https://example.org/", "zzqqxx": 1})
    assert "did you mean" not in refused.value.message


def test_json_shape_keeps_json_as_it_is() -> None:
    args = {"url": "http://a.example/", "n": [1, 2.5, None, True, {"k": "é😀"}]}
    assert json_shape(args).value == args and json_shape(args).problem is None
    odd = {"url": "a\udcffb"}
    shape = json_shape(odd)  # kept (it is hashed and journaled as given), and refused
    assert (
        shape.value == odd
        and shape.problem == "url: not valid Unicode text (it holds a lone surrogate)"
    )


# --- issue 21 item 1: the forms models send -------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("300", 300),
        (" 300 ", 300),
        ("+300", 300),
        ("300.0", 300),
        ("300.", 300),
        (300.0, 300),
        (-0.0, 0),
        ("0", 0),
    ],
)
def test_whole_numbers_as_text_or_floats_are_integers(given: object, expected: int) -> None:
    validator = ArgumentValidator(WEB_FETCH)
    args = {"url": "u", "offset": given, **({"max_bytes": given} if expected >= 1 else {})}
    valid = validator.validate(args)
    assert valid["offset"] == expected and type(valid["offset"]) is int
    assert valid.get("max_bytes", expected) == expected


@pytest.mark.parametrize(
    ("given", "needle"),
    [
        ("3.5", "max_bytes: '3.5' is not of type 'integer'"),
        ("12px", "max_bytes: '12px' is not of type 'integer'"),
        ("1e3", "max_bytes: '1e3' is not of type 'integer'"),
        ("0x10", "max_bytes: '0x10' is not of type 'integer'"),
        ("١٢", "max_bytes: '١٢' is not of type 'integer'"),  # digits, but not ASCII ones
        ("", "max_bytes: '' is not of type 'integer'"),
        (3.5, "max_bytes: 3.5 is not of type 'integer'"),
        (float("inf"), "max_bytes: inf is not of type 'integer'"),
        (True, "max_bytes: True is not of type 'integer'"),
        ("0", "max_bytes: 0 is less than the minimum of 1"),
        ("-5", "max_bytes: -5 is less than the minimum of 1"),
        ("999999999", "max_bytes: 999999999 is greater than the maximum of 131072"),
        ("9" * 40, "max_bytes: '99999"),  # too many digits to be a count: left as text
        (1e300, "max_bytes: 1e+300 is greater than the maximum"),
    ],
)
async def test_numbers_that_are_not_whole_or_in_range_are_refused_naming_the_field(
    given: object, needle: str
) -> None:
    async with Toolkit(
        Settings.load(environ={}), journal=MemoryJournal(), builders=[_echo]
    ) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "u", "max_bytes": given})
        assert result.error is not None and result.error.code == "invalid_arguments"
        assert needle in result.text, result.text


@pytest.mark.parametrize(
    ("given", "expected"),
    [("true", True), ("false", False), ("True", True), (" FALSE ", False), (True, True)],
)
def test_booleans_as_text_are_booleans(given: object, expected: bool) -> None:
    valid = ArgumentValidator(BROWSER).validate({"action": "screenshot", "full_page": given})
    assert valid["full_page"] is expected


@pytest.mark.parametrize("given", ["yes", "1", 1, 0, "t", "", None])
def test_other_boolean_spellings_are_refused_naming_the_field(given: object) -> None:
    with pytest.raises(Exception, match="full_page") as caught:
        ArgumentValidator(BROWSER).validate({"action": "screenshot", "full_page": given})
    assert getattr(caught.value, "code", None) == "invalid_arguments"


def test_every_integer_and_boolean_field_of_every_tool_takes_the_lenient_forms() -> None:
    """The rule is the schema's, not a list of fields: every tool gets it."""
    seen = 0
    for spec in ALL_SPECS:
        for name, prop in spec.input_schema["properties"].items():  # type: ignore[union-attr]
            assert isinstance(prop, dict)
            if prop.get("type") == "integer":
                low = int(prop.get("minimum", 0))  # type: ignore[arg-type]
                out = lenient({name: f"{low}"}, spec.input_schema, spec.aliases)
                assert out[name] == low and type(out[name]) is int
                assert lenient({name: float(low)}, spec.input_schema, spec.aliases)[name] == low
                seen += 1
            elif prop.get("type") == "boolean":
                assert lenient({name: "true"}, spec.input_schema, spec.aliases)[name] is True
                seen += 1
    assert seen >= 5  # max_bytes, offset, max_results, amount, ms, full_page


async def test_lenient_forms_reach_the_tool_as_their_types() -> None:
    seen: list[dict[str, Any]] = []

    def search(services: Any) -> ToolEntry[Any]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            seen.append(arguments)
            return ToolResult("ok")

        return ToolEntry(spec=WEB_SEARCH, run=run)

    async with Toolkit(
        Settings.load(environ={}), journal=MemoryJournal(), builders=[search]
    ) as toolkit:
        result = await toolkit.call("web_search", {"query": "q", "max_results": "5"})
        assert result.ok, result.text
        assert seen == [{"query": "q", "max_results": 5}]
        events = await toolkit.journal.query(kind="tool.started")
        assert events[0].details["arguments"] == {"query": "q", "max_results": "5"}


def test_fill_value_is_an_alias_of_text_that_costs_no_schema_characters() -> None:
    validator = ArgumentValidator(BROWSER, normalize_arguments)
    valid = validator.validate({"action": "fill", "ref": "d1e1", "value": "hello"})
    assert valid == {"action": "fill", "ref": "d1e1", "text": "hello"}
    assert "value" not in json.dumps(BROWSER.to_dict())
    both = {"action": "fill", "ref": "d1e1", "value": "a", "text": "b"}
    with pytest.raises(Exception, match="Additional properties"):
        validator.validate(both)


@settings(max_examples=200, deadline=None, database=None)
@given(st.integers(min_value=-(10**17), max_value=10**17))
def test_every_whole_number_text_is_read_exactly(n: int) -> None:
    out = lenient({"offset": str(n)}, WEB_FETCH.input_schema, {})
    assert out == {"offset": n}
    assert lenient({"offset": f"{n}.0"}, WEB_FETCH.input_schema, {}) == {"offset": n}
