"""Settings of which URLs the tools may touch: the domain policy and robots.txt (issue 20
item 6, issue 18 §3; SPEC §1.4, §1.6).

One domain policy covers every tool that takes a URL (web_fetch, fetch_image, the hosted
page readers and screenshot services, the browser). Its names were the browser's before:
``browser_allowed_domains`` / ``browser_blocked_domains`` (``[browser] allowed_domains`` in
the file) still work as deprecated aliases — used when the new name is not given, ignored
when it is — and the Toolkit logs a warning for each (:meth:`AccessSettings.deprecation_warnings`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from .section import Section, comma_list, normalize_domain_pattern

__all__ = ["DEPRECATED_DOMAIN_SETTINGS", "AccessSettings"]

#: Deprecated name → its replacement (the browser-only names of the domain policy).
DEPRECATED_DOMAIN_SETTINGS = {
    "browser_allowed_domains": "allowed_domains",
    "browser_blocked_domains": "blocked_domains",
}


#: The error of an allow list given as an empty text (``WEBRESEARCH_ALLOWED_DOMAINS=``): a
#: person who empties a variable most often means "no allow list", but the setting's
#: explicitly empty list blocks every site (SPEC §1.4) — either reading may be wrong, and
#: a wrong guess opens every site or blocks them all, so the choice is asked for.
EMPTY_ALLOW_LIST = (
    "is empty: leave it unset for no allow list (every site), list the domains (e.g. "
    "example.com,*.example.org), or write [] to block every site"
)


class AccessSettings(Section):
    """The domain policy and robots.txt: per-URL gates of every tool that takes a URL."""

    allowed_domains: tuple[str, ...] | None = Field(
        None,
        description=(
            "Only these domains, for every tool that takes a URL (example.com, *.example.com); "
            "unset = no allow list; an explicitly empty list ([]) blocks every site (SPEC "
            "§1.4); an empty text (WEBRESEARCH_ALLOWED_DOMAINS=) is an error, as it may "
            "mean either."
        ),
    )
    blocked_domains: tuple[str, ...] = Field(
        (),
        description="Domains no tool touches (example.com, *.example.com); wins over allowed_domains.",
    )
    browser_allowed_domains: tuple[str, ...] | None = Field(
        None, description="Deprecated: use allowed_domains (used only when that is not set)."
    )
    browser_blocked_domains: tuple[str, ...] = Field(
        (), description="Deprecated: use blocked_domains (used only when that is not set)."
    )
    robots: Literal["respect", "ignore"] = Field(
        "respect",
        description=(
            "robots.txt (RFC 9309) for model-initiated calls: web_fetch, fetch_image and the "
            "browser's top-level navigations. The CLI's own commands ignore it unless "
            "--respect-robots."
        ),
    )
    robots_product_token: str = Field(
        "webresearch",
        pattern=r"^[A-Za-z_-]{1,64}$",
        description=(
            "The product token matched against robots.txt user-agent lines (RFC 9309 §2.2.1); "
            "added to the User-Agent when missing."
        ),
    )
    robots_cache_ttl_s: float = Field(
        86400.0,
        gt=0,
        le=86400.0,
        description="Seconds a fetched robots.txt is used (RFC 9309 §2.4: at most 24 h).",
    )

    @field_validator(
        "allowed_domains",
        "blocked_domains",
        "browser_allowed_domains",
        "browser_blocked_domains",
        mode="before",
    )
    @classmethod
    def _parse_domain_patterns(cls, value: Any, info: ValidationInfo) -> Any:
        if (
            isinstance(value, str)
            and not comma_list(value)
            and info.field_name in ("allowed_domains", "browser_allowed_domains")
        ):
            raise ValueError(EMPTY_ALLOW_LIST)
        value = comma_list(value)
        if not isinstance(value, (list, tuple)):
            return value
        for position, item in enumerate(value, 1):
            if not isinstance(item, str):  # ``["a.example", 1]``: 1 was taken as a domain
                raise ValueError(
                    f"item {position} must be a domain in quotes (e.g. \"example.com\"), "
                    f"not {type(item).__name__} {str(item)[:40]!r}"
                )
        return tuple(normalize_domain_pattern(v) for v in value)

    @model_validator(mode="before")
    @classmethod
    def _deprecated_names_fill_in(cls, data: Any) -> Any:
        """``browser_allowed_domains`` / ``browser_blocked_domains`` given and the new name
        not: the old value is the policy (the new name wins when both are given)."""
        if not isinstance(data, dict):
            return data
        for old, new in DEPRECATED_DOMAIN_SETTINGS.items():
            given = data.get(old)
            if isinstance(given, str) and not comma_list(given):
                continue  # an empty text: its own error names the name given
            if given is not None and new not in data:
                data = {**data, new: given}
        return data

    def deprecation_warnings(self) -> list[str]:
        """One line per deprecated name that was given (names only, never values)."""
        out = []
        for old, new in DEPRECATED_DOMAIN_SETTINGS.items():
            if old not in self.model_fields_set:
                continue
            line = (
                f"setting {old} (WEBRESEARCH_{old.upper()}) is deprecated: use {new}, which "
                "applies to every tool that takes a URL, not only the browser"
            )
            if getattr(self, old) != getattr(self, new):
                line += f" (ignored: {new} is set)"
            out.append(line)
        return out
