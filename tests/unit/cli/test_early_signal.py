"""Fresh review, session 9: Ctrl-C while the CLI starts (the guard's own module imports
asyncio: 0.3-0.6 s on a loaded machine) printed a ``KeyboardInterrupt`` traceback instead
of the one line ``webresearch: interrupted`` and exit 130 (SIGTERM: 143).

The signal is sent by the process to itself at the moment the guard's module is imported
(a meta-path finder), so the test hits the window every time."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.cli_runs import sigint_default

SCRIPT = """
import os, signal, sys
class Stop:
    def find_spec(self, name, path=None, target=None):
        if name == "webresearch.cli.signals":
            os.kill(os.getpid(), signal.{sig})
        return None
from webresearch.cli.entry import main
sys.meta_path.insert(0, Stop())
sys.argv = ["webresearch", "--version"]
main()
"""


@pytest.mark.parametrize(("sig", "code", "word"), [("SIGINT", 130, "interrupted"),
                                                   ("SIGTERM", 143, "terminated")])  # fmt: skip
def test_a_stop_signal_while_the_guard_loads_is_one_line(sig: str, code: int, word: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(sig=sig)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )
    assert (done.returncode, done.stderr) == (code, f"webresearch: {word}\n")
