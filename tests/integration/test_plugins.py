"""Plugins end to end: a third-party search provider, page reader and screenshot service,
found through real entry-point metadata, configured with their own options (environment and
settings file) and called through the Toolkit — with no change to webresearch. Their secrets are redacted like
the built-ins' (the redactor learns them from the plugins' options models)."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import LOOPBACK_ONLY
from tests.unit.search.plugin_sample import AcmeProvider, AcmeReader, AcmeShots
from webresearch import Settings, Toolkit
from webresearch.readers.registry import ReaderRegistry, ScreenshotRegistry
from webresearch.runtime.journal import MemoryJournal
from webresearch.search.registry import ProviderRegistry
from webresearch.tools.services import Registries, Services

ACME_KEY = "acme-plugin-KEY-7781"
READER_TOKEN = "acme-reader-TOKEN-5512"

ENTRY_POINTS = """\
[webresearch.search_providers]
acme = tests.unit.search.plugin_sample:AcmeProvider

[webresearch.page_readers]
acmereader = tests.unit.search.plugin_sample:AcmeReader

[webresearch.screenshot_services]
acmeshots = tests.unit.search.plugin_sample:AcmeShots
"""


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Registries]:
    """The plugin's package metadata on sys.path (as ``pip install`` would leave it), and
    fresh registries that discover it through importlib.metadata."""
    dist = tmp_path / "site" / "acme_webresearch_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: acme-webresearch-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    importlib.invalidate_caches()
    yield Registries(
        search=ProviderRegistry(), readers=ReaderRegistry(), screenshots=ScreenshotRegistry()
    )


def test_the_plugins_are_found_through_entry_points(installed_plugin: Registries) -> None:
    assert installed_plugin.search.get("acme") is AcmeProvider
    assert installed_plugin.readers.get("acmereader") is AcmeReader
    assert installed_plugin.screenshots.get("acmeshots") is AcmeShots
    assert "brave" in installed_plugin.search.ids()  # the built-ins are there too
    catalog = installed_plugin.options_catalog()
    assert catalog["acme"] is AcmeProvider.options_model
    assert catalog["acmereader"] is AcmeReader.options_model


async def test_a_plugin_provider_and_reader_configured_with_their_own_options(
    installed_plugin: Registries, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    config = tmp_path / "webresearch.toml"
    config.write_text(
        '[search]\nprovider = "acme"\n[search.acme]\nregion = "us"\n'
        '[reader]\nprovider = "acmereader"\n[reader.acmereader]\ngreeting = "ahoy"\n'
        "page_price = 0.5\n"
        '[screenshot]\nprovider = "acmeshots"\n[screenshot.acmeshots]\nwidth = 64\n',
        encoding="utf-8",
    )
    settings = Settings.load(
        environ={
            "WEBRESEARCH_ACME_API_KEY": ACME_KEY,
            "WEBRESEARCH_ACMEREADER_TOKEN": READER_TOKEN,
        },
        path=config,
        journal_url="memory://",
        allowed_networks=list(LOOPBACK_ONLY),
    )
    journal = MemoryJournal()
    services = Services(settings, journal=journal, registries=installed_plugin)
    async with Toolkit(services=services) as toolkit:
        found = await toolkit.call("web_search", {"query": "rockets"})
        page = await toolkit.call(
            "web_fetch", {"url": "http://127.0.0.1:9/acme"}, operation_id="op-read"
        )
        shot = await toolkit.call("page_screenshot", {"url": "http://127.0.0.1:9/shot"})
    assert found.ok, found.text
    assert "[Acme (us): rockets](https://acme.example/r)" in found.text
    assert found.meta["provider"] == "acme"
    assert page.ok, page.text
    assert "ahoy from Acme Reader for http://127.0.0.1:9/acme" in page.text
    assert page.meta["reader"] == "acmereader" and page.meta["cost"] == 0.5
    assert shot.ok, shot.text
    assert shot.meta["service"] == "acmeshots" and len(shot.images) == 1
    assert shot.images[0].meta["width"] == 64  # the service's own option
    # Both plugins' secrets are known to the redactor: nothing echoes them.
    everything = repr([found.to_dict(), page.to_dict()]) + repr(
        [e.to_dict() for e in journal.events]
    )
    assert ACME_KEY not in everything and READER_TOKEN not in everything
    assert "[REDACTED]" in found.text and "[REDACTED]" in page.text
    # Every name given was claimed by a setting or a plugin's model.
    assert not [r for r in caplog.records if "unknown setting" in r.getMessage()]


async def test_a_plugin_without_its_key_says_which_variable_to_set(
    installed_plugin: Registries,
) -> None:
    settings = Settings.load(environ={}, journal_url="memory://", search_provider="acme")
    services = Services(settings, journal=MemoryJournal(), registries=installed_plugin)
    async with Toolkit(services=services) as toolkit:
        assert "web_search" not in [s.name for s in toolkit.tools()]
        assert "set WEBRESEARCH_ACME_API_KEY" in toolkit.unavailable["web_search"]
