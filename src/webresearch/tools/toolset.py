"""The tools registered in one Toolkit, and which of them a run is offered (and why not).

Built once from the builders: each returns a tool or :class:`~.base.Unavailable` (an optional
package or a setting is missing: logged once; opt-in tools that are simply not chosen are
quiet). Per run: the approval policy (``deny`` removes a tool), then the tool's gate.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from ..config.names import unknown_key_error
from ..errors import WebResearchError
from ..runtime.run import ApprovalMode, RunContext
from .arguments import ArgumentValidator
from .base import Tool, Unavailable
from .catalog import ALL_SPECS, Builder
from .services import Services
from .specs import ToolSpec
from .titles import localized

__all__ = ["ToolSet"]

log = logging.getLogger("webresearch")


class ToolSet:
    """The registered tools of one Toolkit.

    Args:
        services: the process-wide services (builders use them).
        builders: the tools to build, in listing order.

    Attributes:
        unavailable: tool name → why it is not registered in this process (an optional
            dependency, a misconfiguration).
        not_configured: opt-in tools whose service the settings do not choose (not logged).
    """

    def __init__(self, services: Services, builders: Iterable[Builder]) -> None:
        self.settings = services.settings
        self._tools: dict[str, Tool] = {}
        self.unavailable: dict[str, str] = {}
        self.not_configured: dict[str, str] = {}
        for build in builders:
            misconfigured = False
            try:
                built = build(services)
            except WebResearchError as exc:
                # The operator chose something that cannot work (e.g. a provider without its
                # key): a warning. A tool merely not installed is only information.
                misconfigured = True
                module = getattr(build, "__module__", "?").rsplit(".", 1)[-1]
                built = Unavailable(module, exc.message)
            if isinstance(built, Unavailable) and built.quiet:
                self.not_configured[built.tool] = built.reason  # opt-in, not chosen: no log
                continue
            if isinstance(built, Unavailable):
                self.unavailable[built.tool] = built.reason
                log.log(
                    logging.WARNING if misconfigured else logging.INFO,
                    "tool %s is not available: %s",
                    built.tool,
                    built.reason,
                    extra={"about_tool": built.tool},
                )
                continue
            self._tools[built.spec.name] = built
            if built.aclose is not None:
                services.on_close(built.aclose)
        self._check_keys(services)
        self._validators = {
            name: ArgumentValidator(t.spec, t.normalize) for name, t in self._tools.items()
        }
        self._order = {spec.name: i for i, spec in enumerate(ALL_SPECS)}
        self._logged_gates: set[tuple[str, str]] = set()

    def _check_keys(self, services: Services) -> None:
        """Refuse an approval policy naming no tool, or prices naming no provider or reader
        (a misspelt key fails open: see :mod:`webresearch.config.names`).

        Raises:
            ConfigurationError: names each unknown key and the closest valid name.
        """
        tools = [spec.name for spec in ALL_SPECS]
        tools += [*self._tools, *self.unavailable, *self.not_configured]
        origins = self.settings.origins()
        where = {k: origins.get(k, k) for k in ("approval", "prices")}
        where = {k: k if v in ("argument", "default") else v for k, v in where.items()}
        error = unknown_key_error(
            {
                "approval": ("tool", self.settings.approval, tools),
                "prices": ("search provider or page reader", self.settings.prices,
                           services.options_catalog),
            },
            where,
        )  # fmt: skip
        if error is not None:
            raise error

    def get(self, name: str) -> Tool | None:
        """The registered tool ``name``, if any."""
        return self._tools.get(name)

    def validator(self, name: str) -> ArgumentValidator:
        """The argument validator of registered tool ``name``."""
        return self._validators[name]

    def knows(self, name: str) -> bool:
        """Whether ``name`` is registered, unavailable or not configured in this process."""
        return name in self._tools or name in self.unavailable or name in self.not_configured

    def approval_mode(self, run: RunContext, tool: str) -> ApprovalMode:
        """The run's approval mode for ``tool``, else the settings', else the run's default."""
        if tool in run.approval:
            return run.approval[tool]
        return self.settings.approval.get(tool, run.default_approval)

    def why_not(self, name: str, run: RunContext) -> str | None:
        """Why ``run`` is not offered tool ``name``, or ``None`` when it is."""
        tool = self._tools.get(name)
        if tool is None:
            return self.unavailable.get(name) or self.not_configured.get(name, "no such tool")
        if self.approval_mode(run, name) == "deny":
            return "denied by the approval policy"
        return tool.gate(run)

    def not_offered(self, run: RunContext) -> dict[str, str]:
        """Every tool ``run`` is not offered, with why, sorted by name."""
        names = [*self._tools, *self.unavailable, *self.not_configured]
        reasons = {name: self.why_not(name, run) for name in dict.fromkeys(names)}
        return {name: why for name, why in sorted(reasons.items()) if why is not None}

    def offered(self, run: RunContext) -> list[ToolSpec]:
        """The specs offered to ``run`` in a stable order, titles in the settings' language
        (each gate that closes a tool is logged once: an approval policy's denial at info,
        the run's own shape — no workspace for a CLI fetch, a model that cannot see images —
        at debug, as it is by design: ``webresearch -v fetch`` named it as if something
        were wrong, new-user test 16, L8)."""
        language = self.settings.tool_titles_language
        out = []
        for name, tool in self._tools.items():
            why = self.why_not(name, run)
            if why is None:
                out.append(localized(tool.spec, language))
            elif (name, why) not in self._logged_gates:
                self._logged_gates.add((name, why))
                denied = self.approval_mode(run, name) == "deny"
                level = logging.INFO if denied else logging.DEBUG
                log.log(level, "tool %s not registered for this run: %s", name, why)
        return sorted(out, key=lambda s: self._order.get(s.name, len(self._order)))
