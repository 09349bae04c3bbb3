"""Settings of the call runtime: journal, rate limits, prices, approval, fetch scope, titles
(SPEC §3), and the CPU worker pool."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, SecretStr, field_validator

from .defaults import (
    DEFAULT_BROWSER_RATE_LIMIT,
    DEFAULT_RATE_WINDOW_S,
    DEFAULT_SEARCH_RATE_LIMIT,
    DEFAULT_SPENDING_WINDOW_S,
    MAX_PRICE_UNITS,
)
from .section import Limit, Section, comma_list
from .urls import journal_url

__all__ = ["Price", "RuntimeSettings"]

#: A price or an amount of price units: 0 to :data:`MAX_PRICE_UNITS` (finite: ``inf``,
#: ``nan`` and ``1e400`` are refused, as in every setting), so the spending arithmetic never
#: overflows and a negative price never makes a call "free".
def _no_bool(value: object) -> object:
    """A price is a number: ``true`` is no amount (pydantic's lax mode read it as 1.0)."""
    if isinstance(value, bool):
        raise ValueError("must be a number, e.g. 0.005, not a boolean")
    return value


Price = Annotated[float, BeforeValidator(_no_bool), Field(ge=0, le=MAX_PRICE_UNITS)]


class RuntimeSettings(Section):
    """What the Toolkit applies around every call: journal, limits, spending, approval,
    the ``user_links`` scope, and the human-facing tool titles."""

    journal_url: SecretStr | None = Field(
        None,
        description=(
            "Where events go: sqlite:///path, jsonl:///path, memory://, postgresql://… "
            "Default: sqlite in $XDG_STATE_HOME/webresearch/journal.sqlite3. A secret: a "
            "PostgreSQL URL may hold a password."
        ),
    )
    rate_window_s: float = Field(DEFAULT_RATE_WINDOW_S, gt=0)
    # Count limits (issue 21): 0 or none means no limit; a negative value is refused at start.
    search_rate_limit: Limit = Field(
        DEFAULT_SEARCH_RATE_LIMIT, description="web_search calls per window; 0 or none: no limit."
    )
    browser_rate_limit: Limit = Field(
        DEFAULT_BROWSER_RATE_LIMIT, description="Browser actions per window; 0 or none: no limit."
    )
    fetch_rate_limit: Limit = Field(
        None, description="web_fetch calls per window; none by default (0 or none: no limit)."
    )
    prices: dict[str, Price] = Field(
        default_factory=dict,
        description=(
            'Price per call by search provider or page reader, e.g. {"brave": 0.005}. Units '
            "are yours; each price 0 to 1e9."
        ),
    )
    approval: dict[str, Literal["allow", "supervised", "deny"]] = Field(
        default_factory=dict, description="Default approval mode per tool (a run may override)."
    )
    app_domains: tuple[str, ...] = Field(
        (),
        description="Domains on which a bare name in the person's message is a link (user_links scope).",
    )
    user_link_views: Limit = Field(
        3, description="Views per conversation in the user_links scope; 0 or none: no limit."
    )
    tool_titles_language: Literal["en", "ru", "zh"] = Field(
        "en",
        description=(
            "Language of the human-facing tool titles (MCP titles, CLI headings); names, "
            "descriptions and schemas the model sees never change."
        ),
    )

    # --- spending limits and logs (issue 16) ---
    spending_limit: float | None = Field(
        None,
        ge=0,
        le=MAX_PRICE_UNITS,
        description=(
            "Most that all runs together may spend per spending window (price units), counted "
            "in the state backend: one process (memory://), a host (sqlite://) or a fleet "
            "(redis://) share it. 0 to 1e9; None: no limit."
        ),
    )
    spending_window_s: float = Field(
        DEFAULT_SPENDING_WINDOW_S,
        gt=0,
        description=(
            "Length of a spending window (seconds); windows are aligned to the Unix epoch, so "
            "86400 is one UTC calendar day."
        ),
    )
    log_format: Literal["text", "json"] = Field(
        "text",
        description="How the CLI and the MCP server write logs on stderr: text, or one JSON object per line.",
    )

    # --- CPU work off the event loop: conversion, PDF text, images (issue 14) ---------------
    cpu_workers: int | None = Field(
        None,
        ge=0,
        le=256,
        description=(
            "Worker processes for page conversion, PDF text and image preparation "
            "(default: the usable cores); 0 runs them in-process, on the event loop."
        ),
    )
    cpu_max_in_flight: int | None = Field(
        None,
        ge=1,
        le=4096,
        description=(
            "Conversions handed to the workers at once (default: one per worker); the rest "
            "wait in order, and the wait counts against their own call's time budget."
        ),
    )

    @field_validator("journal_url")
    @classmethod
    def _check_journal_url(cls, value: SecretStr | None) -> SecretStr | None:
        # In the forms operators paste (issue 21); the message never repeats the value.
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(journal_url(value.get_secret_value()))

    @field_validator("app_domains", mode="before")
    @classmethod
    def _parse_domains(cls, value: Any) -> Any:
        return comma_list(value)
