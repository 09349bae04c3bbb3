"""Run the CLI with a signal sent to itself at one exact moment (for signal tests).

``python -m tests.support.signal_at MOMENT SIGNUM webresearch-args…`` where MOMENT is

* ``returned:module:Class.method`` — as that coroutine method returns, inside the task that
  awaited it (a browser action that just ended);
* ``weakref:N`` — from a weakref callback at the N-th turn of the main event loop, where
  an exception raised by a signal handler is dropped by the interpreter;
* ``settings`` — while the command loads its settings, before any event loop runs;
* ``spawning`` — as the browser's keeper process has started, before the coroutine that
  started it returns (the cancellation lands inside ``asyncio.create_subprocess_exec``);
* ``loading`` — while ``python -m webresearch`` imports the commands (``cli.browse``).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import os
import runpy
import signal
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any


def _kill(signum: int) -> None:
    os.kill(os.getpid(), signum)


def _after_return(target: str, signum: int) -> None:
    module_name, _, attribute = target.partition(":")
    owner_name, _, method_name = attribute.partition(".")
    owner = getattr(importlib.import_module(module_name), owner_name)
    original = getattr(owner, method_name)

    @functools.wraps(original)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = await original(*args, **kwargs)
        _kill(signum)
        return result

    setattr(owner, method_name, wrapped)


def _from_weakref(turn: int, signum: int) -> None:
    loop_class: Any = asyncio.base_events.BaseEventLoop
    original: Callable[[Any], None] = loop_class._run_once
    turns = [0]

    class _Object:
        pass

    def run_once(self: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            turns[0] += 1
            if turns[0] == turn:
                thing = _Object()
                ref = weakref.ref(thing, lambda _ref: _kill(signum))
                del thing  # the callback runs now (``ref`` is still alive)
                assert ref() is None
        original(self)

    loop_class._run_once = run_once


def _in_settings(signum: int) -> None:
    options = importlib.import_module("webresearch.cli.options")
    original = options.load_settings

    def loading(*args: Any, **kwargs: Any) -> Any:
        _kill(signum)
        return original(*args, **kwargs)

    for name in ("options", "browse", "fetch", "image", "search"):
        module = importlib.import_module(f"webresearch.cli.{name}")
        if getattr(module, "load_settings", None) is original:
            module.load_settings = loading  # type: ignore[attr-defined]


def _while_spawning(signum: int) -> None:
    original = asyncio.create_subprocess_exec

    async def spawning(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        process = await original(*args, **kwargs)
        if args[:1] == ("/bin/sh",) and "webresearch-browser" in args:
            _kill(signum)
            await asyncio.sleep(0.05)  # the loop runs the cancellation: it lands here
        return process

    asyncio.create_subprocess_exec = spawning


class _SignalOnImport:
    """A meta path finder that sends the signal when ``name`` is about to be imported."""

    def __init__(self, name: str, signum: int) -> None:
        self.name, self.signum = name, signum

    def find_spec(self, fullname: str, path: object, target: object = None) -> None:
        if fullname == self.name:
            sys.meta_path.remove(self)
            _kill(self.signum)


def main() -> None:
    moment, signum, *args = sys.argv[1:]
    number = signal.Signals[signum] if not signum.isdigit() else int(signum)
    kind, _, rest = moment.partition(":")
    if kind == "loading":
        sys.meta_path.insert(0, _SignalOnImport("webresearch.cli.browse", number))
        sys.argv = ["webresearch", *args]
        runpy.run_module("webresearch", run_name="__main__")
        return
    from webresearch.cli.main import main as cli_main

    if kind == "returned":
        _after_return(rest, number)
    elif kind == "weakref":
        _from_weakref(int(rest), number)
    elif kind == "settings":
        _in_settings(number)
    elif kind == "spawning":
        _while_spawning(number)
    else:
        raise SystemExit(f"unknown moment {moment!r}")
    sys.argv = ["webresearch", *args]
    cli_main()


if __name__ == "__main__":
    main()
