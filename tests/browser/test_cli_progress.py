"""A progress line on stderr while a browser starts or a page renders (issue 15, fault 6):
shown to a person at a terminal, hidden by ``--quiet`` and when stderr is not a terminal.

The command runs as a child process whose stderr is a pseudo-terminal (or a pipe); the
browser is Lightpanda (the fastest to start)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from tests.browser.conftest import Sites
from tests.support.cli_runs import cli_env, sigint_default


def _run(args: list[str], tmp: Path, *, tty: bool) -> tuple[int, str, str]:
    """Run ``webresearch ARGS``; (exit code, stdout, everything written to stderr)."""
    env = {**cli_env(tmp), "WEBRESEARCH_BROWSER_BACKEND": "lightpanda"}
    command = [sys.executable, "-m", "webresearch", *args]
    if not tty:
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
            preexec_fn=sigint_default,
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()
    leader, follower = pty.openpty()
    try:
        with subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=follower,
            preexec_fn=sigint_default,
        ) as proc:
            os.close(follower)
            follower = -1
            err = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # EIO: the child closed its end
                    break
                if not chunk:
                    break
                err += chunk
            out = proc.stdout.read() if proc.stdout else b""
            code = proc.wait(timeout=120)
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    return code, out.decode(), err.decode(errors="replace")


ALLOW = ["--allow-network", "127.0.0.1/32"]


def test_browse_shows_the_browser_starting_at_a_terminal(sites: Sites, tmp_path: Path) -> None:
    args = ["browse", f"{sites.site.base}/plain", "--do", "content", *ALLOW]
    code, out, err = _run(args, tmp_path, tty=True)
    assert code == 0, err
    assert "plain page" in out
    assert re.search(r"starting (Chromium|Lightpanda)…", err) and "loading the page…" in err
    assert err.rstrip().endswith("\x1b[K")  # the line is cleared once the step is done


def test_fetch_says_when_it_renders_in_a_browser(sites: Sites, tmp_path: Path) -> None:
    code, out, err = _run(["fetch", f"{sites.site.base}/shell", *ALLOW], tmp_path, tty=True)
    assert code == 0, err
    assert "Quarterly report Q3" in out  # rendered
    assert "rendering the page in a browser…" in err
    assert re.search(r"starting (Chromium|Lightpanda)…", err)


def test_quiet_hides_the_line_at_a_terminal(sites: Sites, tmp_path: Path) -> None:
    code, out, err = _run(
        ["fetch", f"{sites.site.base}/plain", "--quiet", *ALLOW], tmp_path, tty=True
    )
    assert code == 0 and "plain page" in out
    assert "…" not in err and "\x1b[K" not in err
