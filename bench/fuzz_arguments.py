"""The long argument fuzz run (issue 20 item 4): any JSON for every tool, for minutes.

The same strategies and Toolkit as the suite's property test
(``tests/unit/tools/test_any_arguments.py``; ``tests/support/argument_fuzz.py``): every
built-in tool registered, nothing leaving 127.0.0.1 (host names resolve to one public
address answered by an in-memory fake; a SearXNG on 127.0.0.1; a CDP endpoint on a closed
local port). Tools take turns in rounds of ``--batch`` examples with fresh random seeds until
``--minutes`` are up. A failure is an exception out of ``Toolkit.call``, an ``internal``
error, a traceback in the text or text that is not valid Unicode; each is printed with its
(shrunk) input and the run goes on.

    python bench/fuzz_arguments.py --minutes 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from tests.support.argument_fuzz import (  # noqa: E402
    arguments_for,
    fuzz_run,
    fuzz_toolkit,
    searxng_server,
)

from webresearch import ToolResult  # noqa: E402
from webresearch.tools.catalog import ALL_SPECS  # noqa: E402


def _problem(result: object) -> str | None:
    if not isinstance(result, ToolResult):
        return f"returned {type(result).__name__}, not a ToolResult"
    if result.error is not None and result.error.code == "internal":
        return f"internal error: {result.text[:200]}"
    if "Traceback" in result.text:
        return "a traceback in the text"
    try:
        result.text.encode("utf-8")
    except UnicodeEncodeError:
        return "text that is not valid Unicode"
    return None


def _fuzz(name: str, strategy: Any, examples: int, call: Any) -> None:
    """``examples`` calls of tool ``name`` with arguments from ``strategy`` (fresh seeds);
    raises AssertionError with the shrunk input when one fails."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(arguments=strategy)
    def call_with(arguments: object) -> None:
        call(name, arguments)

    call_with()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="how long (default 20)")
    parser.add_argument("--batch", type=int, default=200, help="examples per tool per round")
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    counts = {spec.name: 0 for spec in ALL_SPECS}
    failures: dict[str, list[str]] = {spec.name: [] for spec in ALL_SPECS}
    started = time.monotonic()
    rounds = 0
    with (
        tempfile.TemporaryDirectory(prefix="fuzz-") as tmp,
        searxng_server() as searxng,
        asyncio.Runner() as runner,
    ):
        workspace = Path(tmp)

        async def start() -> Any:
            manager = fuzz_toolkit(searxng.base, workspace)
            return manager, await manager.__aenter__()

        manager, toolkit = runner.run(start())
        run = fuzz_run(workspace)

        def call(name: str, arguments: object) -> None:
            counts[name] += 1
            try:
                result = runner.run(toolkit.call(name, arguments, run=run))
            except Exception as exc:
                raise AssertionError(f"raised {type(exc).__name__}: {exc}") from exc
            problem = _problem(result)
            assert problem is None, problem
        try:
            while time.monotonic() < deadline:
                rounds += 1
                for spec in ALL_SPECS:
                    if time.monotonic() >= deadline:
                        break
                    try:
                        _fuzz(spec.name, arguments_for(spec), args.batch, call)
                    except AssertionError as exc:
                        failures[spec.name].append(str(exc).splitlines()[0][:300])
                        print(f"FAILURE {spec.name}: {exc}", file=sys.stderr)
        finally:
            runner.run(manager.__aexit__(None, None, None))
    elapsed = time.monotonic() - started
    print(f"argument fuzz run: {elapsed / 60:.1f} min, {rounds} rounds of {args.batch} per tool")
    print(f"{'tool':<16}{'inputs':>10}{'failures':>10}")
    for spec in ALL_SPECS:
        print(f"{spec.name:<16}{counts[spec.name]:>10,}{len(failures[spec.name]):>10}")
    total = sum(counts.values())
    failed = sum(len(f) for f in failures.values())
    print(f"{'all':<16}{total:>10,}{failed:>10}")
    print("exceptions out of Toolkit.call, internal errors, tracebacks, invalid text:", failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
