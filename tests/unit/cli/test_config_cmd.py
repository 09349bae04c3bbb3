"""``webresearch config``: the XDG default file, precedence (environment > file > defaults),
``config show`` sources and masking, ``config init``'s example."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch import Settings
from webresearch.cli.config_file import EXAMPLE, default_path, settings_path
from webresearch.cli.main import cli
from webresearch.config.options import OptionsCatalog
from webresearch.tools.services import Registries


def invoke(env: dict[str, str], *args: str) -> Any:
    base = {"WEBRESEARCH_JOURNAL_URL": "memory://"}
    return CliRunner().invoke(cli, list(args), env={**base, **env}, catch_exceptions=False)


@pytest.fixture
def xdg(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "WEBRESEARCH_CONFIG": ""}


def user_file(env: dict[str, str], text: str) -> Path:
    path = Path(env["XDG_CONFIG_HOME"]) / "webresearch" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def shown(env: dict[str, str], *args: str) -> dict[str, Any]:
    result = invoke(env, *args, "config", "show", "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_default_path_follows_xdg() -> None:
    assert default_path({"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/a"}) == Path(
        "/x/cfg/webresearch/config.toml"
    )
    # relative or empty XDG_CONFIG_HOME is ignored (XDG Base Directory specification)
    for value in ("", "rel/dir"):
        assert default_path({"XDG_CONFIG_HOME": value, "HOME": "/home/a"}) == Path(
            "/home/a/.config/webresearch/config.toml"
        )
    assert settings_path(None, {"XDG_CONFIG_HOME": "/nonexistent"}) == (None, "none")


def test_precedence_environment_over_file_over_defaults(xdg: dict[str, str]) -> None:
    path = user_file(
        xdg, "search_timeout_s = 7\nfetch_max_bytes = 1000\n[search]\nmax_results = 5\n"
    )
    env = {**xdg, "WEBRESEARCH_SEARCH_TIMEOUT_S": "9"}
    data = shown(env)
    assert data["file"] == str(path)
    rows = data["settings"]
    assert rows["search_timeout_s"] == {"value": 9.0, "source": "WEBRESEARCH_SEARCH_TIMEOUT_S"}
    assert rows["fetch_max_bytes"] == {"value": 1000, "source": f"fetch_max_bytes in {path}"}
    assert rows["search_max_results"]["source"] == f"search_max_results in {path}"
    assert rows["connect_timeout_s"]["source"] == "default"
    # --config wins over the default file
    other = path.parent / "other.toml"
    other.write_text("fetch_max_bytes = 2000\n")
    rows = shown(env, "--config", str(other))["settings"]
    assert rows["fetch_max_bytes"] == {"value": 2000, "source": f"fetch_max_bytes in {other}"}
    assert rows["search_max_results"]["source"] == "default"
    # --changed lists only what was set
    text = invoke(env, "config", "show", "--changed").stdout
    assert {line.split()[0] for line in text.splitlines()[1:]} == {
        "fetch_max_bytes",
        "search_timeout_s",
        "search_max_results",
        "journal_url",  # invoke() sets WEBRESEARCH_JOURNAL_URL
    }


def test_the_default_file_is_used_by_every_command(xdg: dict[str, str]) -> None:
    with LocalServer() as srv:
        srv.routes["/"] = Route(headers=[("Content-Type", "text/plain")], body=b"hello there")
        refused = invoke(xdg, "fetch", f"{srv.base}/")
        assert refused.exit_code == 3  # loopback refused by default
        user_file(xdg, 'allowed_networks = ["127.0.0.0/8"]\n')
        allowed = invoke(xdg, "fetch", f"{srv.base}/")
        assert allowed.exit_code == 0 and "hello there" in allowed.stdout
        # the environment still wins over the file
        denied = invoke({**xdg, "WEBRESEARCH_ALLOWED_NETWORKS": ""}, "fetch", f"{srv.base}/")
        assert denied.exit_code == 3


SECRETS = {
    "brave": "BRAVE-file-secret-0001",
    "tavily": "TAVILY-env-secret-0002",
    "token": "MCP-token-secret-0003",
    "pgpass": "pg-pass-secret-0004",
    "proxy": "proxy-pass-secret-0005",
    "unknown": "unknown-secret-0006",
    "searx": "searx-host-secret-0007",
}


def test_show_never_prints_a_secret(xdg: dict[str, str]) -> None:
    user_file(
        xdg,
        f'outbound_proxy = "http://u:{SECRETS["proxy"]}@127.0.0.1:3128"\n'
        f'[search.brave]\napi_key = "{SECRETS["brave"]}"\n'
        f'[search.searxng]\nurl = "http://{SECRETS["searx"]}.internal:8888"\n',
    )
    env = {
        **xdg,
        "WEBRESEARCH_TAVILY_API_KEY": SECRETS["tavily"],
        "WEBRESEARCH_MCP_TOKEN": SECRETS["token"],
        "WEBRESEARCH_STATE_URL": f"redis://:{SECRETS['pgpass']}@127.0.0.1:1/0",
        "WEBRESEARCH_NOT_A_SETTING": SECRETS["unknown"],
    }
    for args in (("config", "show"), ("config", "show", "--json"), ("config", "show", "--changed")):
        result = invoke(env, *args)
        assert result.exit_code == 0, result.output
        everything = result.stdout + result.stderr
        for secret in SECRETS.values():
            assert secret not in everything, (args, secret)
    rows = shown(env)["settings"]
    assert rows["brave_api_key"]["value"] == "***"
    assert rows["brave_api_key"]["source"].startswith("[search.brave] api_key in ")
    assert rows["tavily_api_key"] == {"value": "***", "source": "WEBRESEARCH_TAVILY_API_KEY"}
    assert rows["mcp_token"]["value"] == "***" and rows["state_url"]["value"] == "***"
    assert rows["not_a_setting"] == {"value": "***", "source": "WEBRESEARCH_NOT_A_SETTING"}


def _catalog() -> OptionsCatalog:
    return Registries().options_catalog()  # every installed provider's options model


def test_init_writes_a_private_example_whose_every_line_is_a_setting(
    xdg: dict[str, str],
) -> None:
    result = invoke(xdg, "config", "init")
    assert result.exit_code == 0, result.output
    path = default_path(xdg)
    assert path.read_text() == EXAMPLE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = invoke(xdg, "config", "init")
    assert again.exit_code == 2 and "--force" in again.stderr
    assert invoke(xdg, "config", "init", "--force").exit_code == 0
    # all commented: loading it changes nothing
    changed = invoke(xdg, "config", "show", "--changed").stdout.splitlines()[1:]
    assert [line.split()[0] for line in changed] == ["journal_url"]  # from invoke()
    # uncommented, every line is a valid, known setting
    setting = re.compile(r"^# (\[[\w.]+\]|\w+ = .*)$")
    lines = [m.group(1) for line in EXAMPLE.splitlines() if (m := setting.match(line))]
    assert len(lines) > 20
    live = path.parent / "live.toml"
    live.write_text("\n".join(lines) + "\n")
    settings = Settings.load(environ={}, path=live)
    assert settings.unknown_names(_catalog()) == []
    assert settings.search_providers == ("searxng", "ddgs") and settings.prices == {"brave": 0.005}
