"""Local inputs of the CLI (review of session 7): only a regular file is read as a PATH, a
blocking local read never makes the command deaf to SIGINT / SIGTERM, a local binary file
gets advice for a local file, and option errors are our own words.

Before the fixes ``fetch FIFO`` hung forever and ignored SIGINT and SIGTERM (opening a FIFO
waits for a writer; reading stdin in ``asyncio.to_thread`` kept ``asyncio.run``'s shutdown
waiting for the thread), a local binary file was told to ``curl -L -o /workspace/<file
name> '<url>'``, and ``--allow-network notacidr`` printed pydantic's ``Value error, …``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.cli_runs import cli_env, reap, sigint_default, wait_for
from webresearch.cli.main import cli

ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}


def run_child(
    args: list[str], tmp: Path, *, module: bool = True, **popen: object
) -> subprocess.Popen[bytes]:
    """``webresearch ARGS`` (or, without ``module``, ``python ARGS``) as a child in its own
    process group (ours to end, by PID)."""
    env = {**cli_env(tmp), "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "config")}
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, *(["-m", "webresearch"] if module else []), *args],
        env=env,
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
        **popen,
    )


@pytest.mark.parametrize("command", ["fetch", "image"])
def test_a_fifo_is_refused_up_front_instead_of_waiting_for_a_writer(
    command: str, tmp_path: Path
) -> None:
    fifo = tmp_path / "ff.html"
    os.mkfifo(fifo)
    proc = run_child([command, "ff.html"], tmp_path)
    try:
        _, err = proc.communicate(timeout=30)  # before: never returned
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} on a FIFO still waits for a writer")
    finally:
        reap(proc)
    assert proc.returncode == 2, err
    assert "cannot read ff.html: it is a named pipe (FIFO), not a regular file" in err.decode()
    assert "Traceback" not in err.decode()


@pytest.mark.parametrize("command", ["fetch", "image"])
def test_a_device_and_a_socket_are_refused_as_not_regular_files(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # /dev/null read as an empty page before; a socket failed with "No such device or address"
    result = CliRunner().invoke(cli, [command, os.devnull], env=ENV)
    assert result.exit_code == 2, result.output
    assert f"cannot read {os.devnull}: it is a character device, not a regular file" in (
        result.stderr
    )
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("s.html")
        result = CliRunner().invoke(cli, [command, "s.html"], env=ENV)
    assert result.exit_code == 2, result.output
    assert "cannot read s.html: it is a socket, not a regular file" in result.stderr


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_ends_fetch_while_it_waits_for_stdin(
    signum: int, code: int, tmp_path: Path
) -> None:
    read_end, write_end = os.pipe()  # we hold the writing end open: stdin never ends
    try:
        proc = run_child(
            ["fetch", "-", "--base-url", "http://127.0.0.1:9/p", "--quiet"], tmp_path,
            stdin=read_end,
        )  # fmt: skip
        try:
            # Up and reading stdin: the read runs in a thread of its own (before the fix
            # too: asyncio.to_thread), so the process has a second thread by then.
            assert wait_for(lambda: len(os.listdir(f"/proc/{proc.pid}/task")) >= 2, 60.0)
            time.sleep(0.5)
            assert proc.poll() is None, "fetch - ended before stdin did"
            os.kill(proc.pid, signum)
            _, err = proc.communicate(timeout=20)  # before: waited for stdin's end
        except subprocess.TimeoutExpired:
            pytest.fail("fetch - ignored the signal while reading stdin")
        finally:
            reap(proc)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert proc.returncode == code, err
    assert "Traceback" not in err.decode()
    assert "Fatal Python error" not in err.decode()


def test_a_file_far_over_the_cap_is_not_read_whole(tmp_path: Path) -> None:
    """A 200 MB file (sparse: no disk used) is read one byte past the 2 MiB cap: the
    command's peak RSS stays far below the file's size (session 8 review: 269 MB before,
    the file was read whole and only then cut; about 70 MB after). The peak is the child's
    own ``VmHWM`` at exit: its rusage would count the forking test process's memory too."""
    huge = tmp_path / "huge.pdf"
    with huge.open("wb") as file:
        file.write(b"%PDF-1.4\n")
        file.truncate(200_000_000)
    report = (
        "import atexit, re, sys\n"
        "def peak():\n"
        "    status = open('/proc/self/status').read()\n"
        "    sys.stderr.write('peak ' + re.search(r'VmHWM:\\s*(\\d+)', status).group(1))\n"
        "atexit.register(peak)\n"
        "sys.argv = ['webresearch', 'fetch', 'huge.pdf']\n"
        "from webresearch.cli.entry import main\n"
        "main()\n"
    )
    proc = run_child(["-c", report], tmp_path, module=False)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        reap(proc)
    text = err.decode()
    assert proc.returncode == 1, text
    assert "huge.pdf is larger than the 2 MiB limit" in text
    peak_kib = int(text.rsplit("peak ", 1)[1])
    assert peak_kib < 150 * 1024, f"peak RSS {peak_kib // 1024} MiB"


def test_a_local_binary_file_gets_advice_for_a_local_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rand.bin").write_bytes(bytes(range(256)) * 8)
    result = CliRunner().invoke(cli, ["fetch", "rand.bin"], env=ENV)
    assert result.exit_code == 1, result.output
    assert "this is not text" in result.stderr
    assert "curl" not in result.stderr and "/workspace" not in result.stderr
    assert "<url>" not in result.stderr
    assert "already local (nothing to download)" in result.stderr
    (tmp_path / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    result = CliRunner().invoke(cli, ["fetch", "dot.png"], env=ENV)
    assert "webresearch image PATH" in result.stderr and "curl" not in result.stderr


@pytest.mark.parametrize("bad", ["notacidr", "10.0.0.1/40"])
def test_a_bad_allow_network_is_our_own_one_line_usage_error(bad: str) -> None:
    result = CliRunner().invoke(
        cli, ["fetch", "http://127.0.0.1:9/", "--allow-network", bad], env=ENV
    )
    assert result.exit_code == 2
    assert f"--allow-network: not a CIDR network: '{bad}' (e.g. 127.0.0.1/32" in result.stderr
    for leak in ("Value error,", "Input should be", "type=", "pydantic"):
        assert leak not in result.stderr


def test_a_bad_setting_from_the_environment_has_no_pydantic_wording() -> None:
    result = CliRunner().invoke(
        cli,
        ["fetch", "http://127.0.0.1:9/"],
        env={**ENV, "WEBRESEARCH_ALLOWED_NETWORKS": "notacidr", "WEBRESEARCH_FETCH_MAX_BYTES": "x"},
    )
    assert result.exit_code == 2
    assert "WEBRESEARCH_ALLOWED_NETWORKS: not a CIDR network: 'notacidr'" in result.stderr
    assert "WEBRESEARCH_FETCH_MAX_BYTES: must be a whole number, e.g. 49152" in result.stderr
    assert "Usage:" not in result.stderr  # a setting is no usage error (session 8 review)
    for leak in ("Value error,", "Input should be", "type=", "valid integer"):
        assert leak not in result.stderr


def test_fetch_help_says_stdin_needs_base_url() -> None:
    result = CliRunner().invoke(cli, ["fetch", "--help"], env=ENV)
    text = " ".join(result.output.split())
    assert "'-' reads a page's HTML from stdin and needs --base-url URL" in text
    assert "Required with '-'" in text
