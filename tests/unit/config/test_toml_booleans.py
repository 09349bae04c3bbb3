"""Session 10 review, 14: a TOML boolean given for a number setting was read as a number
(pydantic's lax mode: ``True`` is 1): ``fetch_max_bytes = true``, ``request_timeout_s =
true`` and ``search_rate_limit = true`` were accepted (``config show``: 1, 1.0), while the
environment's ``WEBRESEARCH_FETCH_MAX_BYTES=true`` was refused; ``request_timeout_s =
false`` said "must be above 0, not False" (Python's spelling). Now a boolean is refused for
every number setting and provider option, worded in TOML's spelling."""

from __future__ import annotations

from pathlib import Path

import pytest

from webresearch import ConfigurationError, Settings
from webresearch.config import ProviderOptions
from webresearch.config.options import resolve_options
from webresearch.config.sources import FILE, Given, OptionSources


def file_problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "w.toml"
    path.write_text(text)
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={}, path=path)
    return info.value.message.replace(str(path), "FILE")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fetch_max_bytes = true",
         "fetch_max_bytes in FILE: must be a whole number, e.g. 49152, not a boolean (true)"),
        ("request_timeout_s = true",
         "request_timeout_s in FILE: must be a number, e.g. 30, not a boolean (true)"),
        ("request_timeout_s = false",
         "request_timeout_s in FILE: must be a number, e.g. 30, not a boolean (false)"),
        ("search_rate_limit = true",  # a count limit (0 / none: no limit)
         "search_rate_limit in FILE: must be a whole number, e.g. 30, not a boolean (true)"),
        ("[search]\nrate_limit = false",
         "search_rate_limit in FILE: must be a whole number, e.g. 30, not a boolean (false)"),
    ],
)  # fmt: skip
def test_a_toml_boolean_is_no_number(tmp_path: Path, line: str, message: str) -> None:
    problem = file_problem(tmp_path, line + "\n")
    assert problem == f"invalid setting {message}"
    assert "True" not in problem and "False" not in problem


def test_the_environment_form_is_refused_alike() -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={"WEBRESEARCH_FETCH_MAX_BYTES": "true"})
    assert "must be a whole number, e.g. 49152, not text ('true')" in info.value.message


def test_boolean_settings_still_take_booleans(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text("allow_private = true\n")
    assert Settings.load(environ={}, path=path).allow_private is True


class CountOptions(ProviderOptions):
    """A provider's options: a number, an optional number and a flag."""

    retries: int = 2
    timeout_s: float | None = None
    verbose: bool = False


def test_a_provider_option_refuses_a_boolean_for_a_number() -> None:
    for option, value in (("retries", True), ("timeout_s", False)):
        given = Given(value, f"[search.acme] {option} in w.toml", FILE)
        with pytest.raises(ConfigurationError) as info:
            resolve_options(OptionSources({}, {"acme": {option: given}}), "acme", CountOptions)
        assert f"not a boolean ({'true' if value else 'false'})" in info.value.message
    flag = Given(True, "[search.acme] verbose in w.toml", FILE)
    options = resolve_options(OptionSources({}, {"acme": {"verbose": flag}}), "acme", CountOptions)
    assert options.verbose is True
