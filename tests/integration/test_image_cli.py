"""``webresearch image URL|PATH`` end to end (click's runner, a real local server, real files)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from tests.support.http_server import LocalServer, Route
from tests.support.image_factory import assert_upright_picture, encode, oriented
from webresearch.cli.main import cli

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://"}


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["image", *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


def test_a_file_is_prepared_and_written(tmp_path: Path) -> None:
    (tmp_path / "photo.jpg").write_bytes(oriented(1600, 2400, 6))
    out = tmp_path / "for-model.jpg"
    code, stdout, stderr = _run(str(tmp_path / "photo.jpg"), "-o", str(out))
    assert code == 0, stderr
    assert "image/jpeg 1045×1568 px" in stdout and "EXIF orientation 6 applied" in stdout
    assert f"wrote {out}" in stderr
    im = Image.open(io.BytesIO(out.read_bytes()))
    assert im.size == (1045, 1568)
    assert_upright_picture(im.convert("RGB"))


def test_json_output_carries_metadata_not_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(encode(Image.new("RGB", (40, 30), (9, 9, 9)), "PNG"))
    out = tmp_path / "o.png"
    code, stdout, _ = _run("a.png", "--workspace", str(tmp_path), "--json", "-o", str(out))
    assert code == 0
    payload = json.loads(stdout)
    assert payload["ok"] is True
    assert payload["images"][0]["passthrough"] is True
    assert payload["written"] == {"file": str(out), "bytes": out.stat().st_size}
    assert out.read_bytes() == (tmp_path / "a.png").read_bytes()


def test_a_url_through_the_guard_exemption(server: LocalServer, tmp_path: Path) -> None:
    server.routes["/p.png"] = Route(
        headers=[("Content-Type", "image/png")], body=encode(Image.new("L", (64, 64)), "PNG")
    )
    code, stdout, _ = _run(server.base + "/p.png", "--allow-network", "127.0.0.0/8")
    assert code == 0
    assert f"url: {server.base}/p.png" in stdout and "image/png 64×64 px" in stdout


@pytest.mark.parametrize(
    ("args", "exit_code", "words"),
    [
        (["http://127.0.0.1:9/x.png"], 3, "blocked_address"),  # refused by policy
        # the workspace confinement refused it (journaled as workspace.refused)
        (["../outside.png", "--workspace", "."], 3, "invalid_arguments"),
        (["page.html", "--workspace", "."], 1, "read it with webresearch fetch"),  # tool error
    ],
)
def test_exit_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], exit_code: int, words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "page.html").write_bytes(b"<!doctype html><html><body>hi")
    code, _stdout, stderr = _run(*args)
    assert code == exit_code
    assert words in stderr and stderr.count("\n") == 1  # one line for people
    assert str(tmp_path) not in stderr


def test_a_url_with_spaces_or_a_tab_around_it_is_fetched(server: LocalServer) -> None:
    """README: tabs, newlines and outer spaces are dropped for fetch_image too; ``image``
    read ' http://…' as a PATH ("the workspace is not available")."""
    server.routes["/p.png"] = Route(
        headers=[("Content-Type", "image/png")], body=encode(Image.new("L", (32, 32)), "PNG")
    )
    for target in (f" {server.base}/p.png", f"\t{server.base}/p.png", f"{server.base}/p.png\n"):
        code, stdout, stderr = _run(target, "--allow-network", "127.0.0.1/32")
        assert code == 0, (target, stderr)
        assert f"url: {server.base}/p.png" in stdout and "image/png 32×32 px" in stdout


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/x.png", "javascript:alert(1)"])
def test_a_non_http_url_is_refused_as_fetch_refuses_it(url: str) -> None:
    code, stdout, stderr = _run(url)
    assert code == 2 and stdout == ""
    assert "only http and https URLs are fetched" in stderr and "workspace" not in stderr


@pytest.mark.parametrize("target", ["", " ", "\t"])
def test_an_empty_target_is_a_usage_error_not_the_current_directory(target: str) -> None:
    code, stdout, stderr = _run(target)
    assert code == 2 and stdout == ""
    assert "an empty URL or PATH was given" in stderr and "directory" not in stderr
