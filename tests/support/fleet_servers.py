"""Real Redis and PostgreSQL servers on 127.0.0.1, started from the installed Debian packages.

Used by the fleet tests (session fixtures in ``tests/fleet/conftest.py``) and by
``bench/fleet.py``. Each server runs in a temporary directory on a free port, with a
password (so tests also prove the password never leaks), and is stopped by its PID.

PostgreSQL refuses to run as root; when the tests run as root (CI), ``initdb`` and
``postgres`` run as the ``postgres`` OS user (``subprocess`` ``user=``: the PID we hold is the
postmaster itself, no wrapper), with the temporary directory owned by that user. As a normal
user they run as that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["PostgresServer", "RedisServer", "SilentServer", "free_port", "postgres_bin_dir"]

#: Longest wait for a server to accept connections (seconds); a cold start takes < 1 s.
START_TIMEOUT_S = 30.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until(check: Any, what: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}: {_tail(log)}")
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.02)
    raise RuntimeError(f"{what} did not start within {START_TIMEOUT_S} s: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-2000:]
    except OSError:
        return "(no log)"


def _stop(proc: subprocess.Popen[bytes] | None, sig: int) -> None:
    """Stop one process we started, by its PID: ``sig``, then SIGKILL after 10 s."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGCONT)  # a paused server must be able to exit
        os.kill(proc.pid, sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class RedisServer:
    """``redis-server`` on 127.0.0.1 with a password, no persistence.

    Args:
        password: the ``requirepass`` value (part of :attr:`url`).
    """

    def __init__(self, password: str = "redis-test-secret") -> None:
        self.password = password
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="webresearch-redis-"))
        self.log = self.dir / "redis.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://:password@127.0.0.1:port/0``."""
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int | None:
        """The server's PID while it runs."""
        return self.proc.pid if self.proc and self.proc.poll() is None else None

    def start(self) -> None:
        """Start (or restart, on the same port) and wait until it answers PING."""
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--requirepass",
                self.password,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                "--logfile",
                str(self.log),
                "--daemonize",
                "no",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            process_group=0,
        )
        _wait_until(self._answers, "redis-server", self.proc, self.log)

    def _answers(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
            sock.sendall(f"AUTH {self.password}\r\nPING\r\n".encode())
            data = b""
            while data.count(b"\r\n") < 2:
                chunk = sock.recv(100)
                if not chunk:
                    return False
                data += chunk
            return b"+PONG" in data

    def stop(self) -> None:
        """Stop the server (SIGTERM to its PID) and wait for it to exit."""
        _stop(self.proc, signal.SIGTERM)

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): connections stay open but nothing answers."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """Undo :meth:`pause` (SIGCONT)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def close(self) -> None:
        """Stop and remove the temporary directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def postgres_bin_dir() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` (Debian layout), or ``pg_config``'s."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return candidates[-1].parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True)
        return Path(out.stdout.strip())
    raise RuntimeError("PostgreSQL is not installed (run ./scripts/install-system-deps)")


class PostgresServer:
    """A private PostgreSQL cluster on 127.0.0.1 with password (SCRAM) authentication.

    Args:
        user: the superuser created by ``initdb``.
        password: its password (part of :attr:`url`).
    """

    def __init__(self, user: str = "webresearch", password: str = "pg-test-secret") -> None:
        self.user = user
        self.password = password
        self.port = free_port()
        self.bin = postgres_bin_dir()
        self.dir = Path(tempfile.mkdtemp(prefix="webresearch-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: run as the OS user the package created.
            account = pwd.getpwnam("postgres")
            os.chown(self.dir, account.pw_uid, account.pw_gid)
            self._as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        pwfile = self.dir / "pwfile"
        pwfile.write_text(password + "\n")
        if self._as:
            os.chown(pwfile, self._as["user"], self._as["group"])
        subprocess.run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                user,
                f"--pwfile={pwfile}",
                "--auth=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            cwd=self.dir,
            **self._as,
        )
        pwfile.unlink()

    @property
    def url(self) -> str:
        """``postgresql://user:password@127.0.0.1:port/postgres``."""
        return f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/postgres"

    @property
    def pid(self) -> int | None:
        """The postmaster's PID while it runs."""
        return self.proc.pid if self.proc and self.proc.poll() is None else None

    def start(self) -> None:
        """Start (or restart, same port and data) and wait until it accepts a login."""
        log = self.log.open("ab")
        try:
            self.proc = subprocess.Popen(
                [
                    str(self.bin / "postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.dir),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "fsync=off",  # test data: durability across an OS crash is moot
                    "-c",
                    "max_connections=60",
                    "-c",
                    "shared_buffers=16MB",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=self.dir,
                process_group=0,
                **self._as,
            )
        finally:
            log.close()
        _wait_until(self._answers, "postgres", self.proc, self.log)

    def _answers(self) -> bool:
        import psycopg

        with psycopg.connect(self.url, connect_timeout=2):
            return True

    def stop(self) -> None:
        """Fast shutdown (SIGINT to the postmaster: clients are disconnected) and wait."""
        _stop(self.proc, signal.SIGINT)

    def close(self) -> None:
        """Stop and remove the cluster."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class SilentServer:
    """A TCP listener on 127.0.0.1 that accepts connections and never answers (a hung service).

    ``with SilentServer() as port: …``; every accepted socket is held open until exit.
    """

    def __init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self._sock.settimeout(0.05)
        self.port = int(self._sock.getsockname()[1])
        self._held: list[socket.socket] = []
        self._stop = False
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self._held.append(conn)

    def __enter__(self) -> int:
        self._thread.start()
        return self.port

    def __exit__(self, *exc: object) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        for conn in self._held:
            conn.close()
        self._sock.close()
