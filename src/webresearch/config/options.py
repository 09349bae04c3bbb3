"""Providers' own options: each search provider, page reader and screenshot service declares
an options model; its values come from the same sources as every setting.

For provider ``brave`` and option ``api_key``, highest first:

* an argument ``brave_api_key=…`` (``Settings.load(**overrides)``, ``Settings.replace``);
* the environment variable ``WEBRESEARCH_BRAVE_API_KEY``;
* the file: ``[search.brave] api_key = "…"`` (or ``[reader.<id>]``, ``[screenshot.<id>]``,
  ``[brave]``, or a top-level ``brave_api_key``);
* the model's default.

A plugin's options work exactly the same, without any change here: it names its model in
its class (``options_model = AcmeOptions``) and reads it with :meth:`Settings.options`.

Secrets are :class:`pydantic.SecretStr` fields (or dicts of them). Until the model that
claims a value is known, every text value given for a name that is not a core setting counts
as a secret (masked in ``public_dict``, hidden by the redactor): safe by default.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TypeAlias, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from ..errors import ConfigurationError
from .defaults import FIX_SETTING
from .problems import problem_text
from .section import no_boolean_number
from .sources import Given, OptionSources, env_name, env_value

__all__ = [
    "OptionsCatalog",
    "ProviderOptions",
    "claimed_names",
    "masked",
    "option_env_var",
    "resolve_options",
    "secrets_of",
    "unclaimed_texts",
]


class ProviderOptions(BaseModel):
    """Base of a provider's options model (frozen; unknown fields refused; numbers finite:
    ``inf``, ``nan`` and ``1e400`` are refused, as in every setting).

    Declare fields with defaults; mark secrets (keys, tokens, internal addresses) as
    :class:`~pydantic.SecretStr` so they are masked and redacted everywhere::

        class AcmeOptions(ProviderOptions):
            api_key: SecretStr | None = None
            region: str = "eu"
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_number(cls, value: object, info: ValidationInfo) -> object:
        """A boolean for a number option is refused (:func:`.section.no_boolean_number`)."""
        field = cls.model_fields.get(info.field_name or "")
        return no_boolean_number(value, field.annotation if field is not None else None)


#: Provider id → its options model (every installed provider's; built by the composition
#: layer from the registries).
OptionsCatalog: TypeAlias = Mapping[str, type[ProviderOptions]]

OptionsT = TypeVar("OptionsT", bound=ProviderOptions)


def option_env_var(provider_id: str, option: str) -> str:
    """``("brave", "api_key")`` → ``WEBRESEARCH_BRAVE_API_KEY``."""
    return env_name(f"{provider_id}_{option}")


def resolve_options(sources: OptionSources, provider_id: str, model: type[OptionsT]) -> OptionsT:
    """The options of ``provider_id`` validated by ``model`` (see the module docstring).

    Raises:
        ConfigurationError: a value of the wrong type or out of range; the message names
            where it was given (``WEBRESEARCH_BRAVE_BASE_URL``, ``[search.brave] base_url
            in /etc/w.toml``), never the value.
    """
    values: dict[str, object] = {}
    where: dict[str, str] = {}
    for option, info in model.model_fields.items():
        given = sources.given(provider_id, option)
        if given is None:
            continue
        raw = given.value
        try:
            values[option] = (
                env_value(raw, info.annotation)
                if given.from_environment and isinstance(raw, str)
                else raw
            )
        except ValueError as exc:
            raise ConfigurationError(
                f"invalid setting {given.source}: {exc}", hint=FIX_SETTING
            ) from None
        where[option] = given.source
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            option = str(err["loc"][0]) if err["loc"] else "?"
            problems.append(
                f"{where.get(option, option_env_var(provider_id, option))}: "
                + problem_text(err, model.model_fields.get(option))
            )
        raise ConfigurationError(
            "invalid setting " + "; ".join(problems), hint=FIX_SETTING
        ) from None


def claimed_names(catalog: OptionsCatalog) -> tuple[set[str], dict[str, set[str]]]:
    """What the catalog's models claim: (flat names, provider id → table options)."""
    flat: set[str] = set()
    tables: dict[str, set[str]] = {}
    for provider_id, model in catalog.items():
        for option in model.model_fields:
            flat.add(f"{provider_id}_{option}")
            tables.setdefault(provider_id, set()).add(option)
    return flat, tables


def secrets_of(model: BaseModel) -> Iterator[SecretStr]:
    """The secret values of a model (settings or a provider's options): its ``SecretStr``
    fields and the ``SecretStr`` values of its dict fields."""
    for field in type(model).model_fields:
        value = getattr(model, field)
        if isinstance(value, SecretStr):
            yield value
        elif isinstance(value, Mapping):
            yield from (v for v in value.values() if isinstance(v, SecretStr))


def unclaimed_texts(given: Given) -> Iterator[str]:
    """Every text inside a value no model claims (a JSON object given as text counts by its
    values: ``{"X-Proxy-Token": "…"}`` in an environment variable)."""
    yield from _texts(_maybe_json(given.value))


def _maybe_json(value: object) -> object:
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def masked(given: Given) -> object:
    """How ``public_dict`` shows a value no model claims: texts as ``***``, a JSON object
    by its names with masked values, other values as they are."""
    value = _maybe_json(given.value)
    if isinstance(value, Mapping):
        return {str(k): "***" for k in value}
    if isinstance(value, str):
        return "***"
    return value
