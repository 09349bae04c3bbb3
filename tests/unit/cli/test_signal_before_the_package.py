"""Session 10 review: SIGINT or SIGTERM in the first ~0.15 s of ``webresearch …`` — while
the console script imported the ``webresearch`` package itself (its ``__init__`` loads
``logging``: 60-120 ms), before :mod:`webresearch.cli.entry` could install its handlers —
printed a ``KeyboardInterrupt`` traceback (SIGINT) or ended the process silently by the
signal (exit -15). Now the console script's own module installs them before the package
loads.

The console script is run as pip writes it, for the target ``pyproject.toml`` declares (an
editable install's script is only rewritten by a new ``pip install``). A ``sitecustomize``
holds the package's import (a meta-path finder that sleeps when ``webresearch`` is looked
up) and says so on a pipe; this test then sends the signal: it lands inside that import
every time. Local only: no network.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.cli_runs import sigint_default

ROOT = Path(__file__).resolve().parents[3]

#: Imported by the interpreter's ``site`` before the console script runs.
SITECUSTOMIZE = """
import os, sys, time
class HoldThePackage:
    def find_spec(self, name, path=None, target=None):
        if name == "webresearch":
            sys.meta_path.remove(self)
            os.write(int(os.environ["HELD_FD"]), b"!")
            for _ in range(200):  # at most 10 s: the signal ends the wait
                time.sleep(0.05)
        return None
sys.meta_path.insert(0, HoldThePackage())
"""


def console_script() -> str:
    """The console script pip generates for ``webresearch`` (setuptools' template)."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = target["webresearch"].split(":")
    return (
        "import re, sys\n"
        f"from {module} import {function}\n"
        "if __name__ == '__main__':\n"
        "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
        f"    sys.exit({function}())\n"
    )


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_stop_signal_while_the_package_loads_is_one_line(
    signum: int, code: int, word: str, tmp_path: Path
) -> None:
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    script = tmp_path / "webresearch"
    script.write_text(console_script())
    read_end, write_end = os.pipe()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")]),
        "HELD_FD": str(write_end),
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
    }
    proc = subprocess.Popen(
        [sys.executable, str(script), "--version"],
        env=env,
        pass_fds=(write_end,),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )
    os.close(write_end)
    try:
        assert os.read(read_end, 1) == b"!", "the package was never imported"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        os.close(read_end)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, err.decode()) == (code, f"webresearch: {word}\n")
