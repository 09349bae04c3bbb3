"""Start-up cost of the CLI and the package (issue 14), measured in one run.

Each command runs in a fresh child process, repeated ``--reps`` times in interleaved order;
the table shows the median CPU time (user + system of the child, from ``wait4``), the
median wall time, and the modules the process had imported when it exited
(``len(sys.modules)``, counted by a wrapper that runs the same entry point), with the heavy
packages among them. Ratios are against ``python -c 'import httpx'`` — the HTTP library the
issue names — and ``import httpx2`` (the fork webresearch uses).

Targets: ``webresearch --version`` ≤ 1.5 × ``import httpx`` CPU; ``import webresearch``
≤ 1.5 ×. ``webresearch fetch`` runs against a loopback page (1 MB), converting in-process
(the CLI's default) and with ``WEBRESEARCH_CPU_WORKERS=2`` (worker processes), so the cost
of starting a pool for one call is visible.

    .venv/bin/python bench/startup.py            # 7 repetitions
    .venv/bin/python bench/startup.py --reps 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from concurrency import article, loopback_server  # bench/ is the script's directory

HEAVY = (
    "pydantic",
    "jsonschema",
    "httpx2",
    "httpcore2",
    "lxml",
    "trafilatura",
    "PIL",
    "playwright",
    "mcp",
    "pypdf",
)
BIN = Path(sys.executable).parent
TARGET_RATIO = 1.5

#: Runs an entry point like its console script and records the imported modules at exit.
COUNTER = """
import atexit, json, sys
def _count(path=sys.argv.pop(1)):
    names = sorted(sys.modules)
    with open(path, "w") as fh:
        json.dump(names, fh)
atexit.register(_count)
kind = sys.argv.pop(1)
if kind == "import":
    __import__(sys.argv.pop(1))
else:
    sys.argv[0] = "webresearch"
    from webresearch.cli.main import main
    main()
"""


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(CPU seconds of the child, wall seconds, exit code)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, wall, proc.returncode


def imported(kind: str, target: list[str], env: dict[str, str]) -> list[str]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [sys.executable, "-c", COUNTER, out.name, kind, *target],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        names: list[str] = json.loads(Path(out.name).read_text())
        return names


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=7, help="repetitions (at least 3)")
    args = parser.parse_args()
    if args.reps < 3:
        parser.error("--reps: at least 3 (medians of interleaved repetitions)")
    script = str(BIN / "webresearch")
    with (
        tempfile.TemporaryDirectory() as state,
        loopback_server({"page.html": article(1_000_000)}) as base,
    ):
        url = f"{base}/page.html"
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL")} | {
            "XDG_STATE_HOME": state,
            "WEBRESEARCH_JOURNAL_URL": f"sqlite:///{state}/journal.sqlite3",
            "WEBRESEARCH_SEARCH_PROVIDER": "none",
            "WEBRESEARCH_RENDER": "never",
        }
        pool_env = env | {"WEBRESEARCH_CPU_WORKERS": "2"}
        fetch = ["fetch", url, "--allow-network", "127.0.0.0/8"]
        # (label, argv for timing, (kind, target) for counting, env)
        cases: list[tuple[str, list[str], tuple[str, list[str]], dict[str, str]]] = [
            ("python -c pass", [sys.executable, "-c", "pass"], ("import", ["sys"]), env),
            ("import httpx", [sys.executable, "-c", "import httpx"], ("import", ["httpx"]), env),
            ("import httpx2", [sys.executable, "-c", "import httpx2"], ("import", ["httpx2"]), env),
            (
                "import webresearch",
                [sys.executable, "-c", "import webresearch"],
                ("import", ["webresearch"]),
                env,
            ),
        ]
        for cli_args in (
            ["--version"],
            ["--help"],
            *(
                [c, "--help"]
                for c in ("fetch", "image", "browse", "search", "mcp", "journal", "tools")
            ),
        ):
            cases.append(
                (f"webresearch {' '.join(cli_args)}", [script, *cli_args], ("cli", cli_args), env)
            )
        cases += [
            ("webresearch tools", [script, "tools"], ("cli", ["tools"]), env),
            ("webresearch journal", [script, "journal"], ("cli", ["journal"]), env),
            ("webresearch fetch 1MB (in-process)", [script, *fetch], ("cli", fetch), env),
            ("webresearch fetch 1MB (2 workers)", [script, *fetch], ("cli", fetch), pool_env),
        ]
        cpu: dict[str, list[float]] = {label: [] for label, *_ in cases}
        wall: dict[str, list[float]] = {label: [] for label, *_ in cases}
        for rep in range(args.reps):
            order = cases if rep % 2 == 0 else cases[::-1]
            for label, argv, _count, case_env in order:
                c, w, _ = run_once(argv, case_env)
                cpu[label].append(c)
                wall[label].append(w)
        modules = {
            label: imported(kind, target, case_env)
            for label, _argv, (kind, target), case_env in cases
        }

    med = {label: statistics.median(values) for label, values in cpu.items()}
    print(
        f"webresearch bench/startup.py: {args.reps} repetitions, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"yardsticks: httpx {version('httpx')} (the issue's), httpx2 {version('httpx2')} "
        "(webresearch's HTTP stack)"
    )
    print(
        "CPU = user + system seconds of the process (median); wall = median seconds; modules = len(sys.modules) at exit\n"
    )
    header = f"{'command':<38} {'CPU s':>6} {'/httpx':>7} {'/httpx2':>8} {'wall s':>7} {'modules':>8}  heavy packages imported"
    print(header)
    print("-" * len(header))
    for label, *_ in cases:
        heavy = sorted({m.split(".")[0] for m in modules[label]} & set(HEAVY))
        print(
            f"{label:<38} {med[label]:6.3f} {med[label] / med['import httpx']:7.2f} "
            f"{med[label] / med['import httpx2']:8.2f} {statistics.median(wall[label]):7.3f} "
            f"{len(modules[label]):8d}  {', '.join(heavy) or '-'}"
        )
    print()
    for label in ("webresearch --version", "import webresearch"):
        ratio = med[label] / med["import httpx"]
        print(
            f"{label}: {ratio:.2f} x the CPU of `python -c 'import httpx'` -> target <= {TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'NOT met'}"
        )
    inproc, pooled = "webresearch fetch 1MB (in-process)", "webresearch fetch 1MB (2 workers)"
    print(
        f"one fetch: in-process {statistics.median(wall[inproc]):.2f} s wall vs 2 workers "
        f"{statistics.median(wall[pooled]):.2f} s wall (the workers' CPU is not in the CPU column: "
        "they are children of the forkserver)"
    )


if __name__ == "__main__":
    main()
