"""The tests' children start with SIGINT at its default even when the suite itself ignores
it: a suite run as a script's background job (``(./.ci/run &)``) inherits SIGINT ignored,
every child inherits that through ``exec``, and the CLI keeps an inherited ignored SIGINT
ignored, so the tests that stop it with SIGINT failed (CI at c5c3aa5: 17 of them)."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from tests.support.cli_runs import sigint_default

#: Prints the child's SIGINT disposition as it started: "ignored" or "default".
CHILD = "import signal; print('ignored' if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 'default')"


@pytest.fixture
def sigint_ignored_here() -> Iterator[None]:
    """This process ignores SIGINT for the test, as a background job does."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _child_sees(preexec_fn: Callable[[], None] | None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        preexec_fn=preexec_fn,
    )
    return done.stdout.strip()


@pytest.mark.usefixtures("sigint_ignored_here")
def test_a_child_started_with_sigint_default_takes_sigint_though_we_ignore_it() -> None:
    assert _child_sees(sigint_default) == "default"


@pytest.mark.usefixtures("sigint_ignored_here")
def test_without_it_the_child_inherits_the_ignored_sigint() -> None:
    # Why the helper exists: restore_signals (on by default) leaves SIGINT as it was.
    assert _child_sees(None) == "ignored"
