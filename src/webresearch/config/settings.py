"""Settings: one frozen, typed object, loaded from ``WEBRESEARCH_*`` variables and a TOML file.

Precedence (highest first): explicit keyword arguments → environment → TOML file → defaults.

* Environment: ``WEBRESEARCH_<FIELD>`` in upper case, e.g. ``WEBRESEARCH_ALLOW_PRIVATE=1``,
  ``WEBRESEARCH_ALLOWED_NETWORKS=127.0.0.1/32,10.1.0.0/16`` (lists are comma-separated or
  a JSON list, dicts are JSON).
* TOML: the file is ``path=`` or ``WEBRESEARCH_CONFIG``; top-level keys are field names, a
  table flattens with ``_`` (``[search] provider = "searxng"`` sets ``search_provider``), and
  a provider's own options sit in its table (``[search.brave] api_key = "…"``,
  ``[reader.firecrawl]``): :mod:`webresearch.config.sources`.
* Providers' options (keys, base URLs …) are not fields here: each provider declares its
  options model and reads it with :meth:`Settings.options` (``WEBRESEARCH_BRAVE_API_KEY``
  keeps working): :mod:`webresearch.config.options`.
* Secrets (API keys, tokens, service URLs with passwords) are :class:`pydantic.SecretStr`:
  their ``repr``/``str`` are masked and :meth:`Settings.public_dict` never shows them.

A value of the wrong type is an error naming where it was given
(:class:`~webresearch.errors.ConfigurationError`); a name nothing knows — a typo, a setting
of another version, an option of a provider that is not installed — is reported by
:meth:`Settings.unknown_names` (the Toolkit logs each once, as a warning), the same way
whether it came from the file, the environment or an argument.

The fields are grouped in sections (:mod:`.access`, :mod:`.network`, :mod:`.runtime`, :mod:`.images`,
:mod:`.browser`, :mod:`.search`, :mod:`.hosted`, :mod:`.mcp`, :mod:`.fleet`): a new
setting goes into the section it belongs to.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

from pydantic import BaseModel, PrivateAttr, SecretStr, ValidationError
from pydantic.fields import FieldInfo

from ..errors import ConfigurationError
from .access import AccessSettings
from .browser import BrowserSettings
from .defaults import ENV_PREFIX, FIX_SETTING
from .fleet import FleetSettings
from .hosted import HostedSettings
from .images import ImageSettings
from .mcp import McpSettings
from .network import NetworkSettings
from .options import (
    OptionsCatalog,
    ProviderOptions,
    claimed_names,
    masked,
    resolve_options,
    secrets_of,
    unclaimed_texts,
)
from .problems import problem_text
from .runtime import RuntimeSettings
from .search import SearchSettings
from .sources import (
    ARGUMENT,
    ENVIRONMENT,
    Given,
    OptionSources,
    env_name,
    env_value,
    walk_toml,
)
from .sources import read_toml as _read_toml_file
from .urls import has_userinfo, without_userinfo

__all__ = ["Settings"]

OptionsT = TypeVar("OptionsT", bound=ProviderOptions)


class Settings(
    FleetSettings,
    HostedSettings,
    SearchSettings,
    McpSettings,
    BrowserSettings,
    ImageSettings,
    RuntimeSettings,
    NetworkSettings,
    AccessSettings,
):
    """Process configuration. Frozen: build a new one with :meth:`replace`.

    Every field may come from ``WEBRESEARCH_<FIELD>``; see the module docstring.
    """

    _sources: OptionSources = PrivateAttr(default_factory=OptionSources)
    #: Where each explicitly given setting came from (``WEBRESEARCH_X``, ``x in /f.toml``).
    _origins: dict[str, str] = PrivateAttr(default_factory=dict)

    # --- loading --------------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        *,
        environ: Mapping[str, str] | None = None,
        path: str | os.PathLike[str] | None = None,
        **overrides: Any,
    ) -> Settings:
        """Build settings from defaults, a TOML file, the environment and overrides.

        Args:
            environ: the environment to read (default ``os.environ``); tests pass a dict.
            path: TOML file; default ``$WEBRESEARCH_CONFIG`` when set, else none.
            **overrides: values that win over everything else (settings, or providers'
                options by their flat name, e.g. ``brave_api_key``).

        Raises:
            ConfigurationError: a value of the wrong type, or an unreadable file; the
                message names the key (``WEBRESEARCH_X`` or the TOML key).
        """
        env = os.environ if environ is None else environ
        fields = cls.model_fields
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        extra: list[tuple[str, Given]] = []
        tables: dict[str, dict[str, Given]] = {}
        toml_path = path if path is not None else env.get(f"{ENV_PREFIX}CONFIG")
        if toml_path:
            data = _read_toml_file(Path(toml_path))
            flat, tables = walk_toml(
                data, str(toml_path), {k: f.annotation for k, f in fields.items()}
            )
            for name, given in flat.items():
                if name in fields:
                    values[name], sources[name] = given.value, given.source
                else:
                    extra.append((name, given))
        for var, raw in env.items():
            if not var.startswith(ENV_PREFIX) or var == f"{ENV_PREFIX}CONFIG":
                continue
            name = var[len(ENV_PREFIX) :].lower()
            if name in fields:
                try:
                    values[name], sources[name] = env_value(raw, fields[name].annotation), var
                except ValueError as exc:
                    raise ConfigurationError(
                        f"invalid setting {var}: {exc}", hint=FIX_SETTING
                    ) from None
            else:
                extra.append((name, Given(raw, var, ENVIRONMENT)))
        for name, value in overrides.items():
            if name in fields:
                values[name], sources[name] = value, name
            else:
                extra.append((name, Given(value, name, ARGUMENT)))
        try:
            settings = cls(**values)
        except ValidationError as exc:
            raise _config_error(exc, sources, fields) from None
        settings._sources = OptionSources({}, tables).with_flat(extra)
        settings._origins = sources
        return settings

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` applied and validated (settings, or providers' options
        by their flat name).

        Raises:
            ConfigurationError: a changed value is invalid.
        """
        # Only what was set explicitly (environment, file, arguments) is carried over, so
        # defaults that follow other settings (a CDP URL choosing the cdp backend) follow
        # the changes too.
        fields = type(self).model_fields
        data = {name: getattr(self, name) for name in self.model_fields_set}
        data.update({k: v for k, v in changes.items() if k in fields})
        try:
            changed = type(self)(**data)
        except ValidationError as exc:
            raise _config_error(exc, {k: k for k in changes}, fields) from None
        changed._sources = self._sources.with_flat(
            (k, Given(v, k, ARGUMENT)) for k, v in changes.items() if k not in fields
        )
        changed._origins = {**self._origins, **{k: "argument" for k in changes if k in fields}}
        return changed

    # --- providers' options -------------------------------------------------------------
    def options(self, provider_id: str, model: type[OptionsT]) -> OptionsT:
        """The options of one provider (search provider, page reader, screenshot service).

        Args:
            provider_id: the provider's id (``brave``); its environment variables are
                ``WEBRESEARCH_<ID>_<OPTION>``.
            model: its options model.

        Raises:
            ConfigurationError: a value is invalid (names where it was given).
        """
        return resolve_options(self._sources, provider_id, model)

    def unknown_names(self, catalog: OptionsCatalog) -> list[str]:
        """One line per name given that neither a setting nor an installed provider's
        options model knows, with the closest known name (e.g. ``WEBRESEARCH_ALLOW_PRIVAT
        (did you mean WEBRESEARCH_ALLOW_PRIVATE?)``). Names only, never values."""
        flat_claimed, table_claimed = claimed_names(catalog)
        known = [*type(self).model_fields, *flat_claimed]
        out = []
        for name, given in sorted(self._sources.flat.items()):
            if name in flat_claimed:
                continue
            close = difflib.get_close_matches(name, known, n=1)
            hint = ""
            if close:
                shown = env_name(close[0]) if given.from_environment else close[0]
                hint = f" (did you mean {shown}?)"
            out.append(f"unknown setting {given.source} ignored{hint}")
        for provider_id, options in sorted(self._sources.tables.items()):
            claimed = table_claimed.get(provider_id)
            for option, given in sorted(options.items()):
                if claimed is None:
                    out.append(
                        f"unknown setting {given.source} ignored "
                        f"(no installed provider is called {provider_id!r})"
                    )
                elif option not in claimed:
                    close = difflib.get_close_matches(option, sorted(claimed), n=1)
                    hint = f" (did you mean {close[0]}?)" if close else ""
                    out.append(f"unknown setting {given.source} ignored{hint}")
        return out

    # --- secrets ------------------------------------------------------------------------
    def secret_values(self, catalog: OptionsCatalog | None = None) -> list[str]:
        """Every secret's plain value (for the redactor); never show these anywhere.

        Args:
            catalog: the installed providers' options models; their options are then known
                exactly. Without it (or for a value no model claims) every text given for
                a provider's option counts as a secret.

        Raises:
            ConfigurationError: an option of a catalog provider is invalid.
        """
        secrets = list(secrets_of(self))
        for provider_id, model in (catalog or {}).items():
            secrets.extend(secrets_of(self.options(provider_id, model)))
        out = [part for secret in secrets for part in _secret_parts(secret.get_secret_value())]
        out += _url_credentials(self)
        for provider_id, model in (catalog or {}).items():
            out += _url_credentials(self.options(provider_id, model))
        for _name, given in self._unclaimed(catalog):
            for text in unclaimed_texts(given):
                out.extend(_secret_parts(text))
        return out

    def public_dict(self, catalog: OptionsCatalog | None = None) -> dict[str, Any]:
        """Settings as JSON-friendly values with every secret shown as ``"***"`` (or null).

        Args:
            catalog: the installed providers' options models: their options are shown under
                their flat names (``brave_api_key``), secrets masked. Other values given for
                names that are not settings are shown masked.
        """
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            out[name] = _public(getattr(self, name))
        for provider_id, model in (catalog or {}).items():
            options = self.options(provider_id, model)
            for option in model.model_fields:
                out[f"{provider_id}_{option}"] = _public(getattr(options, option))
        for name, given in self._unclaimed(catalog):
            out[name] = masked(given)
        return out

    def origins(self, catalog: OptionsCatalog | None = None) -> dict[str, str]:
        """Where each value of :meth:`public_dict` came from: ``WEBRESEARCH_X``, ``x in
        /path.toml``, ``[search.brave] api_key in /path.toml``, ``argument`` or ``default``
        (names only, never values)."""
        out: dict[str, str] = {}
        for name in type(self).model_fields:
            origin = self._origins.get(name, "default")
            out[name] = "argument" if origin == name else origin  # load(name=…) says its name
        for provider_id, model in (catalog or {}).items():
            for option in model.model_fields:
                given = self._sources.given(provider_id, option)
                out[f"{provider_id}_{option}"] = "default" if given is None else _origin(given)
        for name, given in self._unclaimed(catalog):
            out[name] = _origin(given)
        return out

    def _unclaimed(self, catalog: OptionsCatalog | None) -> Iterator[tuple[str, Given]]:
        """(flat name, value) of everything given that no setting or catalog model claims."""
        flat_claimed, table_claimed = claimed_names(catalog or {})
        for name, given in self._sources.flat.items():
            if name not in flat_claimed:
                yield name, given
        for provider_id, options in self._sources.tables.items():
            for option, given in options.items():
                if option not in table_claimed.get(provider_id, set()):
                    yield f"{provider_id}_{option}", given


def _origin(given: Given) -> str:
    return "argument" if given.rank == ARGUMENT else given.source


def _public(value: Any) -> Any:
    """A value as ``config show`` prints it: a secret as ``***``, a URL's credentials as
    ``***`` (``http://***@host``: a provider's ``base_url`` may hold a password)."""
    if isinstance(value, SecretStr):
        return "***" if value.get_secret_value() else None
    if isinstance(value, str):
        return without_userinfo(value)
    if isinstance(value, tuple):
        return [without_userinfo(str(v)) for v in value]
    if isinstance(value, dict):
        return {
            k: ("***" if isinstance(v, SecretStr) else _public(v) if isinstance(v, str) else v)
            for k, v in value.items()
        }
    return value


def _url_credentials(model: BaseModel) -> list[str]:
    """What the redactor must hide of every plain-text value of ``model`` that is a URL
    with credentials (a provider's ``base_url`` typed as ``str``)."""
    out: list[str] = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        texts = value if isinstance(value, tuple) else (value,)
        if isinstance(value, dict):
            texts = tuple(value.values())
        for text in texts:
            if isinstance(text, str) and has_userinfo(text):
                out.extend(_secret_parts(text))
    return out


def _secret_parts(secret: str) -> list[str]:
    """What the redactor must hide of one secret value.

    The whole value always (an API key; a service URL is an internal address). For a URL
    with credentials (``redis://:pw@host/0``) also the password on its own, raw and
    percent-decoded: URL redaction rewrites the URL before the whole value could match, and
    a password may show up anywhere.
    """
    if not secret:
        return []
    out = [secret]
    if "://" in secret:
        try:
            parts = urlsplit(secret)
            password = parts.password
        except ValueError:
            return out
        if password:
            out += [password, unquote(password)]
        out += [v for k, v in parse_qsl(parts.query) if k.lower() == "password" and v]
    return out


def _config_error(
    exc: ValidationError, sources: Mapping[str, str], fields: Mapping[str, FieldInfo]
) -> ConfigurationError:
    """The error of settings that did not validate: each problem named where it was given
    (:func:`~webresearch.config.problems.problem_text`'s words), and the next step."""
    problems = []
    for err in exc.errors():
        key = str(err["loc"][0]) if err["loc"] else "?"
        where = sources.get(key, f"{ENV_PREFIX}{key.upper()}")
        problems.append(f"{where}: {problem_text(err, fields.get(key))}")
    return ConfigurationError("invalid setting " + "; ".join(problems), hint=FIX_SETTING)
