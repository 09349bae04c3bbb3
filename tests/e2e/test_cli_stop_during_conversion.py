"""A one-shot ``fetch`` stopped by SIGTERM / Ctrl-C while it converts a large page exits at once.

Before the fix the signal waited for the whole conversion (about a minute for a 1.3 MB
page then; this 6.3 MB page converts in about 30 s since its quadratic steps went): a saved file was converted in ``asyncio.to_thread``, whose thread ``asyncio.run``'s
shutdown joined; a served page was converted on the event loop's thread (the CLI's
in-process CPU pool), where the loop's signal handling cannot run until it returns.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli_runs import cli_env, reap, sigint_default
from tests.support.http_server import LocalServer, Route

pytestmark = pytest.mark.slow

#: Seconds after the start when the conversion is under way (imports, reading and parsing
#: take about 2 s; the conversion of the page about 30 s on the test machine).
CONVERTING_AFTER_S = 6.0
#: Seconds the stopped command may take to exit.
STOP_WITHIN_S = 8.0


def _big_page() -> bytes:
    blocks = [
        f"<h2>Section {i}</h2><p>Paragraph {i} with <a href='/l{i}'>a link</a> and "
        f"<em>text</em>.</p><ul><li>one {i}</li><li>two</li></ul>"
        f"<table><tr><th>a</th><th>b</th></tr><tr><td>{i}</td><td>x</td></tr></table>"
        for i in range(30000)
    ]
    return ("<html><head><title>Big</title></head><body>" + "".join(blocks)).encode()


@pytest.mark.parametrize(
    ("source", "signum", "code", "word"),
    [
        ("file", signal.SIGTERM, 143, "terminated"),
        ("url", signal.SIGTERM, 143, "terminated"),
        ("url", signal.SIGINT, 130, "interrupted"),
    ],
)
def test_a_fetch_stopped_during_a_long_conversion_exits_at_once(
    source: str, signum: int, code: int, word: str, tmp_path: Path
) -> None:
    page = _big_page()
    (tmp_path / "big.html").write_bytes(page)
    env = cli_env(tmp_path) | {"WEBRESEARCH_DOWNLOAD_CAP_BYTES": "16000000", "HOME": str(tmp_path)}
    route = Route(headers=[("Content-Type", "text/html")], body=page)
    with LocalServer({"/big.html": route}) as site:
        if source == "file":
            target = [str(tmp_path / "big.html"), "--base-url", f"{site.base}/big.html"]
        else:
            target = [f"{site.base}/big.html", "--allow-network", "127.0.0.1/32"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "webresearch", "fetch", *target],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: ours to end, by PID
            preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
        )
        try:
            time.sleep(CONVERTING_AFTER_S)
            assert proc.poll() is None, "the conversion ended before the signal"
            os.kill(proc.pid, signum)
            sent = time.monotonic()
            try:
                _, err = proc.communicate(timeout=STOP_WITHIN_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"still running {STOP_WITHIN_S} s after the signal")
            took = time.monotonic() - sent
        finally:
            reap(proc)
    assert proc.returncode == code, err
    assert err.decode().strip().endswith(word), err
    assert "Traceback" not in err.decode()
    assert took < STOP_WITHIN_S
