"""Session 10 review: a wrong Redis password in ``state_url`` gave the next step "retry in a
few seconds"; retrying cannot help until the setting changes. Now the step names the
setting (``WEBRESEARCH_STATE_URL`` / ``state_url``), the error is not retryable, and the
password is never printed. A real ``redis-server`` on 127.0.0.1 with a password of its own."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.exceptions import AuthenticationError, ResponseError

from tests.support.cli_runs import cli_env, sigint_default
from tests.support.fleet_servers import RedisServer
from tests.support.http_server import LocalServer, Route
from webresearch.backends.redis_state import storage_error

WRONG = "wrong-secret-5d2c"


@pytest.fixture
def redis() -> Iterator[RedisServer]:
    server = RedisServer(password="right-secret-8e1b")
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.mark.parametrize(
    "raised",
    [
        AuthenticationError("invalid username-password pair"),
        ResponseError("WRONGPASS invalid username-password pair or user is disabled."),
        ResponseError("NOAUTH Authentication required."),
    ],
)
def test_refused_credentials_are_a_setting_to_fix_not_a_retry(raised: Exception) -> None:
    error = storage_error(raised, 2.0)
    assert error.message == "the Redis state backend rejected the credentials"
    assert error.retryable is False
    assert error.hint is not None
    assert "WEBRESEARCH_STATE_URL" in error.hint and "state_url" in error.hint
    assert "retry in" not in error.hint


def test_a_wrong_redis_password_names_the_setting_on_the_command_line(
    redis: RedisServer, tmp_path: Path
) -> None:
    page = Route(headers=[("Content-Type", "text/html")], body=b"<p>A page.</p>")
    with LocalServer({"/": page}) as site:
        env = {
            **cli_env(tmp_path),
            "HOME": str(tmp_path),
            "WEBRESEARCH_STATE_URL": f"redis://:{WRONG}@127.0.0.1:{redis.port}/0",
            "WEBRESEARCH_FETCH_RATE_LIMIT": "100",  # the limiter fails closed
        }
        done = subprocess.run(
            [sys.executable, "-m", "webresearch", "fetch", f"{site.base}/",
             "--allow-network", "127.0.0.1/32"],
            env=env, capture_output=True, text=True, timeout=60, preexec_fn=sigint_default,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr
    line = done.stderr.splitlines()[-1]
    assert line.startswith("webresearch fetch: error[storage]: the Redis state backend rejected")
    assert "(next step: check the user and password in the state_url setting" in line
    assert "WEBRESEARCH_STATE_URL" in line
    assert "retry in" not in done.stderr
    assert WRONG not in done.stderr and redis.password not in done.stderr
