"""``python -m webresearch fetch URL`` with a hosted reader (acceptance of issue 8), and
``webresearch tools`` with localized titles."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.api_server import ApiServer
from tests.support.cli_runs import sigint_default
from tests.support.hosted_stubs import FIRECRAWL_KEY, JINA_KEY, FirecrawlStub, JinaStub, StubPage
from webresearch.cli.main import cli
from webresearch.tools.page_text import UNTRUSTED_NOTICE

pytestmark = pytest.mark.network

SRC = Path(__file__).resolve().parents[2] / "src"
#: A public address literal: the guard checks it without DNS, and only the (local) service
#: is asked for it — nothing is ever sent to this address.
PAGE_URL = "http://93.184.216.34/articles/foxes"
PAGE = StubPage(
    markdown="# Foxes\n\nThe quick brown fox reads the whole article before it jumps.",
    title="Fox facts",
)


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


def child_env(tmp_path: Path, **values: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "HOME")}
    return {
        **keep,
        "PYTHONPATH": str(SRC),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'journal.sqlite3'}",
        "WEBRESEARCH_SEARCH_PROVIDER": "none",
        **values,
    }


def fetch(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webresearch", "fetch", PAGE_URL, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        preexec_fn=sigint_default,
    )


def service_env(reader: str, api: ApiServer, tmp_path: Path) -> dict[str, str]:
    if reader == "firecrawl":
        FirecrawlStub(api, pages={PAGE_URL: PAGE})
        return child_env(
            tmp_path,
            WEBRESEARCH_READER="firecrawl",
            WEBRESEARCH_FIRECRAWL_BASE_URL=api.base,
            WEBRESEARCH_FIRECRAWL_API_KEY=FIRECRAWL_KEY,
        )
    stub = JinaStub(api)
    stub.add(PAGE_URL, PAGE)
    return child_env(
        tmp_path,
        WEBRESEARCH_READER="jina",
        WEBRESEARCH_JINA_BASE_URL=api.base,
        WEBRESEARCH_JINA_API_KEY=JINA_KEY,
    )


@pytest.mark.parametrize("reader", ["firecrawl", "jina"])
def test_fetch_prints_the_spec_format_and_json_names_the_service(
    reader: str, api: ApiServer, tmp_path: Path
) -> None:
    env = service_env(reader, api, tmp_path)
    done = fetch(env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:5] == [
        UNTRUSTED_NOTICE,
        f"url: {PAGE_URL}",
        "content-type: text/html",
        "title: Fox facts",
        "",
    ]
    assert "The quick brown fox reads the whole article" in done.stdout
    as_json = fetch(env, "--json")
    assert as_json.returncode == 0, as_json.stderr
    payload = json.loads(as_json.stdout)
    assert payload["ok"] is True
    assert payload["meta"]["reader"] == reader and payload["meta"]["extractor"] == reader
    assert payload["meta"]["url"] == PAGE_URL
    assert len(api.requests()) == 2  # one per process: each has its own cache
    key = FIRECRAWL_KEY if reader == "firecrawl" else JINA_KEY
    for out in (done.stdout, done.stderr, as_json.stdout, as_json.stderr):
        assert key not in out and api.base not in out


def test_a_refused_url_exits_3_and_the_service_is_not_asked(api: ApiServer, tmp_path: Path) -> None:
    env = service_env("firecrawl", api, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "webresearch", "fetch", "http://169.254.169.254/latest/"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        preexec_fn=sigint_default,
    )
    assert done.returncode == 3 and "error[blocked_address]" in done.stderr
    assert api.requests() == []


def run_cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli,
        list(args),
        env={
            "WEBRESEARCH_JOURNAL_URL": "memory://",
            "WEBRESEARCH_SEARCH_PROVIDER": "none",
            **(env or {}),
        },
        catch_exceptions=False,
    )
    return result.exit_code, result.stdout


@pytest.mark.parametrize(
    "language,heading,fetch_title",
    [
        ("en", "Tools", "Read a web page"),
        ("ru", "Инструменты", "Чтение страницы"),
        ("zh", "工具", "读取网页"),
    ],
)
def test_tools_lists_titles_in_the_chosen_language(
    language: str, heading: str, fetch_title: str, tmp_path: Path
) -> None:
    code, out = run_cli(
        "tools", "--workspace", str(tmp_path), env={"WEBRESEARCH_TOOL_TITLES_LANGUAGE": language}
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == heading
    assert any(line.split()[0] == "web_fetch" and line.endswith(fetch_title) for line in lines[1:])
    assert any(line.split()[0] == "image_info" for line in lines[1:])


def test_tools_json_keeps_names_descriptions_and_schemas_whatever_the_language() -> None:
    outputs = {}
    for language in ("en", "ru", "zh"):
        code, out = run_cli("tools", "--json", "--language", language)
        assert code == 0
        outputs[language] = json.loads(out)
    strip = [
        [{k: v for k, v in tool.items() if k != "title"} for tool in outputs[lang]]
        for lang in ("en", "ru", "zh")
    ]
    assert strip[0] == strip[1] == strip[2]
    assert [t["title"] for t in outputs["en"]] != [t["title"] for t in outputs["ru"]]
