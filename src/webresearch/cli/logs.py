"""Where the CLI and the MCP server write logs: stderr, as text or as JSON lines.

``--log-format text`` (default) prints ``webresearch: <message>``; ``--log-format json``
(or ``WEBRESEARCH_LOG_FORMAT=json``) prints one JSON object per line — ``time`` (UTC, ISO
8601), ``level``, ``logger``, ``message`` and, for an error with a traceback, ``exception``
— for log collectors. The same handler serves our loggers and those of the HTTP server
(``uvicorn``) and the MCP SDK (``mcp``, warnings only: its INFO lines carry session ids).
Log text is ours: it never holds a token, key or internal address (the redactor and the
error messages see to that).

Lines for people (``listening on …``, ``terminated``) go through :func:`say`, and the
commands' own error lines (``webresearch fetch: error[network]: …``, a usage error) through
:func:`say_error`, so they are JSON too when the logs are: a collector that reads JSON lines
gets every line of stderr as a record (session 10 review: the error lines stayed plain). An
error record has level ``error``, the line without its ``webresearch <command>: `` prefix as
``message``, and ``command`` and ``code`` (``network``, ``usage``) when known.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import click

__all__ = ["LOG_FORMATS", "JSONFormatter", "configure_logging", "json_logs", "say", "say_error"]

#: Values of ``--log-format``.
LOG_FORMATS = ("text", "json")
#: Loggers the CLI's handler serves: ours (level from -v), uvicorn's and the MCP SDK's.
_OURS = "webresearch"
_OTHERS = ("uvicorn", "mcp")
#: Fields of an error line's record besides the message.
_FIELDS = ("command", "code")


class JSONFormatter(logging.Formatter):
    """One JSON object per record: ``time``, ``level``, ``logger``, ``message`` [,
    ``exception``]."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in _FIELDS:  # an error line's own fields (:func:`say_error`)
            value = getattr(record, key, None)
            if isinstance(value, str) and value:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def _ours(handler: logging.Handler) -> bool:
    return getattr(handler, "webresearch_cli", False) is True


def configure_logging(verbose: int, log_format: str) -> None:
    """Send our logs (and uvicorn's and the MCP SDK's warnings) to stderr.

    Args:
        verbose: 0 warnings, 1 INFO, 2+ DEBUG (our loggers only).
        log_format: ``text`` or ``json``.
    """
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    handler = logging.StreamHandler()
    handler.webresearch_cli = True  # type: ignore[attr-defined]
    handler.setFormatter(
        JSONFormatter() if log_format == "json" else logging.Formatter("webresearch: %(message)s")
    )
    for name in (_OURS, *_OTHERS):
        logger = logging.getLogger(name)
        logger.handlers = [h for h in logger.handlers if not _ours(h)]
        logger.addHandler(handler)
        logger.setLevel(level if name == _OURS else logging.WARNING)


def json_logs() -> bool:
    """Whether the CLI writes JSON logs (its handler's formatter)."""
    return any(
        _ours(h) and isinstance(h.formatter, JSONFormatter)
        for h in logging.getLogger(_OURS).handlers
    )


def say(message: str, *, prefix: str = "webresearch: ", level: int = logging.INFO) -> None:
    """One line for people on stderr: ``prefix + message``, or a JSON log line (``level``,
    default ``info``) when the logs are JSON."""
    if json_logs():
        record = logging.LogRecord(_OURS, level, "", 0, message, None, None)
        click.echo(JSONFormatter().format(record), err=True)
    else:
        click.echo(prefix + message, err=True)


def say_error(line: str, *, command: str | None = None, code: str | None = None) -> None:
    """A command's error line on stderr as it is (``webresearch fetch: error[network]: …``),
    or, when the logs are JSON, one record of level ``error``: ``message`` is the line
    without its ``webresearch <command>: `` prefix, ``command`` and ``code`` are fields.

    Args:
        line: the line for people.
        command: the command's name (``fetch``, ``journal stats``); ``None``: ``webresearch``.
        code: the error's code (``network``, ``configuration``, ``usage``), when it has one.
    """
    if not json_logs():
        click.echo(line, err=True)
        return
    prefix = f"webresearch {command}: " if command else "webresearch: "
    record = logging.LogRecord(_OURS, logging.ERROR, "", 0, line.removeprefix(prefix), None, None)
    record.command = command
    record.code = code
    click.echo(JSONFormatter().format(record), err=True)
