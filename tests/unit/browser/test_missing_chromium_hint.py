"""The hint for a missing Chromium names this machine's paths and the setting that picks the
binary (browser/launch_args.chromium_problem): the default /usr/bin/chromium, and
chromium_path with its environment variable — never a path of another machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from webresearch.browser import launch_args
from webresearch.browser.launch_args import CHROMIUM_SETTING, DEFAULT_CHROMIUM, chromium_problem
from webresearch.config.sources import env_name


def test_the_setting_named_is_the_real_one() -> None:
    assert env_name("chromium_path") in CHROMIUM_SETTING
    assert DEFAULT_CHROMIUM in launch_args.CHROMIUM_CANDIDATES


def test_no_chromium_anywhere_names_the_default_path_and_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(launch_args, "find_chromium", lambda explicit=None: None)
    problem = chromium_problem(None)
    assert problem is not None
    assert problem.startswith("no Chromium found at /usr/bin/chromium ")
    assert "apt-get install chromium" in problem
    assert "WEBRESEARCH_CHROMIUM_PATH" in problem and "chromium_path" in problem


@pytest.mark.parametrize("kind", ["missing", "not executable"])
def test_a_configured_path_that_fails_names_the_setting_and_the_binary_found_instead(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unsetting the path is suggested with the binary that would then be used (it named
    /usr/bin/chromium though /usr/lib/chromium/chromium is looked at first: review)."""
    found = "/usr/lib/chromium/chromium"
    monkeypatch.setattr(launch_args, "find_chromium", lambda explicit=None: found)
    path = tmp_path / "chrome"
    if kind == "not executable":
        path.write_text("#!/bin/sh\n")
    problem = chromium_problem(str(path))
    assert problem is not None
    assert problem.startswith(f"chromium_path is set to {path}, which ")
    assert "WEBRESEARCH_CHROMIUM_PATH" in problem
    assert problem.endswith(f"a Chromium binary, or unset it to use {found}")


def test_a_configured_path_that_fails_with_no_chromium_elsewhere_is_not_to_be_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no Chromium installed, unsetting the path helps nothing (review)."""
    monkeypatch.setattr(launch_args, "find_chromium", lambda explicit=None: None)
    problem = chromium_problem(str(tmp_path / "chrome"))
    assert problem is not None
    assert "unset" not in problem
    assert "apt-get install chromium" in problem
