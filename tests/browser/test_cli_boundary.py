"""The CLI faces of the browser hardening (issue 6 follow-up): the reviewer's commands, run
as a person runs them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.browser.boundary_pages import worker_shell
from tests.browser.conftest import Boundary, Sites
from tests.browser.traps import SECRET
from tests.support.http_server import Route
from tests.support.tiny_png import png_bytes
from webresearch.cli.main import cli

HTML = [("Content-Type", "text/html; charset=utf-8")]


def test_cli_fetch_of_the_worker_shell_leaks_nothing(sites: Sites, boundary: Boundary) -> None:
    forbidden = [f"ws://127.0.0.2:{boundary.ws_v4.port}/x"]
    sites.site.routes["/shell-ws-cli"] = Route(headers=HTML, body=worker_shell(forbidden))
    boundary.reset()
    result = CliRunner().invoke(
        cli,
        ["fetch", f"{sites.site.base}/shell-ws-cli", "--allow-network", "127.0.0.1/32", "--json"],
        env={"WEBRESEARCH_JOURNAL_URL": "memory://"},
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["meta"]["render"] == "browser"
    assert SECRET not in result.stdout
    assert boundary.ws_v4.count == 0


ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://"}


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV, input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_browse_screenshot_into_a_missing_directory_is_one_line_before_any_work(
    sites: Sites, tmp_path: Path
) -> None:
    started = time.monotonic()
    code, out, err = run(
        "browse",
        f"{sites.site.base}/plain",
        "--allow-network",
        "127.0.0.1/32",
        "--screenshot",
        str(tmp_path / "missing" / "x.png"),
    )
    assert code == 2
    line = _one_line(err)
    assert line.startswith("webresearch browse: cannot write") and "does not exist" in line
    assert out == ""
    assert time.monotonic() - started < 5, "refused before a browser was started"


def test_image_output_into_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    picture = tmp_path / "a.png"
    picture.write_bytes(png_bytes(4, 4))
    code, _out, err = run("image", str(picture), "-o", str(tmp_path / "missing" / "x.png"))
    assert code == 2
    line = _one_line(err)
    assert line.startswith("webresearch image: cannot write") and "does not exist" in line
    assert not (tmp_path / "missing").exists()


def test_interactive_screenshots_say_where_they_were_saved(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    script = (
        f"open {sites.site.base}/long\nscreenshot\nscreenshot full\n"
        f"screenshot {tmp_path}/missing/x.png\n"
    )
    code, _out, err = run("browse", "--allow-network", "127.0.0.1/32", input=script)
    assert "saved screenshot-1.png" in err
    assert "saved screenshot-2.png" in err and "saved screenshot-2-2.png" in err  # tiles
    assert (tmp_path / "screenshot-1.png").read_bytes()[:4] == b"\x89PNG"
    assert "screenshot not saved: could not write" in err and "Traceback" not in err
    assert code == 1, "the last action's picture could not be saved"


def test_interactive_screenshot_without_pixels_says_it_was_not_saved(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    script = f"open {sites.site.base}/plain\nscreenshot\n"
    code, out, err = run(
        "browse", "--backend", "lightpanda", "--allow-network", "127.0.0.1/32", input=script
    )
    assert code == 1  # the last step failed: no picture was saved
    assert "screenshot not saved: this browser backend draws no pictures" in err
    assert "--backend chromium" in err
    assert "plain page" in out  # the page text instead
    assert list(tmp_path.iterdir()) == []


def test_a_scripted_screenshot_a_backend_cannot_draw_is_a_failed_step(
    sites: Sites, tmp_path: Path
) -> None:
    shot = tmp_path / "lp.png"
    code, out, err = run(
        "browse", f"{sites.site.base}/plain", "--backend", "lightpanda",
        "--allow-network", "127.0.0.1/32", "--do", f"screenshot {shot}",
    )  # fmt: skip
    assert code == 1  # the person asked for a file and none was written
    assert "screenshot not saved: this browser backend draws no pictures" in err
    assert "plain page" in out
    assert not shot.exists()


@pytest.mark.parametrize(
    "url",
    ["data:text/html,<h1>hi</h1>", "about:blank", "javascript:alert(1)", "file:///etc/passwd"],
)
def test_browse_refuses_non_http_pages_consistently(url: str) -> None:
    """A bad argument (exit 2) as for fetch: no address was refused."""
    code, _out, err = run("browse", url, "--do", "content")
    assert code == 2
    line = _one_line(err)
    assert "error[invalid_arguments]" in line and "only opens http and https pages" in line


def test_browse_eval_of_values_json_cannot_hold(sites: Sites) -> None:
    code, out, err = run(
        "browse",
        f"{sites.site.base}/plain",
        "--allow-network",
        "127.0.0.1/32",
        "--do",
        "eval (()=>{const a={};a.a=a;return a})()",
        "--do",
        "eval window.open('/plain2')",
    )
    assert code == 0, err
    assert 'value: {"a": "[circular]"}' in out
    assert 'value: "[unserializable: Window]"' in out
    assert "internal" not in err


@pytest.mark.parametrize(
    "url",
    [
        "ftp://x/",
        "example.org",
        "localhost:8765",
        "http:example.org",
        "https:/example.org",
        "about:blank",
    ],
)
def test_interactive_open_of_a_bad_url_says_what_the_one_shot_says(url: str) -> None:
    """`open URL` typed at the prompt is the same bad argument, in the same words, as
    `browse URL` (SPEC §1.4: http(s) pages only); it reaches no backend's own URL check."""
    once_code, _out, once_err = run("browse", url)
    code, out, err = run("browse", input=f"open {url}\n")
    assert (code, once_code) == (2, 2)
    assert out == ""
    assert _one_line(err) == _one_line(once_err)
    assert "error[invalid_arguments]" in _one_line(err)
