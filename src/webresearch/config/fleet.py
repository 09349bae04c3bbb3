"""Settings of shared state and storage services (SPEC §3, DESIGN "Scaling out")."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator

from .defaults import (
    DEFAULT_REDIS_PREFIX,
    DEFAULT_STATE_URL,
    DEFAULT_STORAGE_CONNECT_TIMEOUT_S,
    DEFAULT_STORAGE_TIMEOUT_S,
)
from .section import Section
from .urls import state_url

__all__ = ["FleetSettings"]


class FleetSettings(Section):
    """Where limits, caches and scopes live, and the storage services' timeouts."""

    state_url: SecretStr = Field(
        SecretStr(DEFAULT_STATE_URL),
        description=(
            "Where limits, caches and fetch scopes live: memory:// (this process), "
            "sqlite:///path (several processes on one host), redis://… or rediss://… (a fleet). "
            "A secret: a Redis URL may hold a password."
        ),
    )
    redis_prefix: str = Field(
        DEFAULT_REDIS_PREFIX,
        min_length=1,
        max_length=100,
        description="Prefix of every Redis key webresearch writes (several deployments may share one Redis).",
    )
    storage_connect_timeout_s: float = Field(
        DEFAULT_STORAGE_CONNECT_TIMEOUT_S,
        gt=0,
        description="Seconds to connect to Redis or PostgreSQL before a storage error.",
    )
    storage_timeout_s: float = Field(
        DEFAULT_STORAGE_TIMEOUT_S,
        gt=0,
        description="Seconds one Redis or PostgreSQL operation may take before a storage error.",
    )

    @field_validator("state_url")
    @classmethod
    def _check_state_url(cls, value: SecretStr) -> SecretStr:
        # In the forms operators paste (issue 21); the message never repeats the value.
        return SecretStr(state_url(value.get_secret_value()))
