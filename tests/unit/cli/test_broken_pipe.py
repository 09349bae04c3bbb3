"""A batch whose reader stops early (``| head``) ends without a traceback.

Found by a newcomer trial: ``webresearch fetch a.html b.html c.html --json | head -c 10``
printed an ``ExceptionGroup`` with a ``BrokenPipeError`` per task (56 lines on stderr).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.cli_runs import sigint_default

PAGE = "<html><body><main><h1>Long</h1>" + "<p>word " * 20000 + "</p></main></body></html>"


def test_a_batch_piped_into_a_reader_that_stops_ends_quietly(tmp_path: Path) -> None:
    pages = []
    for n in range(4):
        page = tmp_path / f"p{n}.html"
        page.write_text(PAGE)
        pages.append(str(page))
    code = "import sys; from webresearch.cli.main import main; sys.argv[0] = 'webresearch'; main()"
    command = [sys.executable, "-c", code, "fetch", *pages, "--json", "--concurrency", "2"]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        preexec_fn=sigint_default,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(10)  # the reader takes a little, then goes away
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
