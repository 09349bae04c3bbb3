"""Single-flight: concurrent calls with the same key share one execution.

The first caller of a key (the *leader*) runs the work; callers arriving while it runs
(*followers*) wait for its outcome instead of repeating it. 200 concurrent identical
searches therefore cost one upstream request. The check-and-register step has no ``await``,
so under asyncio it is atomic.

Outcomes: a result is shared with every follower. An exception is shared (each follower gets
its own copy, so nobody mutates another's) only when ``share_error(exc)`` says so — errors of
the work itself (the provider failed). Errors that belong to the leader alone (its run's
budget, cancellation) are not shared: the followers then try again, and one of them leads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

__all__ = ["SingleFlight"]

T = TypeVar("T")


class _Abandoned(Exception):
    """The leader stopped for a reason of its own; followers must try again."""


def _copy_error(exc: BaseException) -> BaseException:
    """A shallow copy of an exception (same class, message and attributes, fresh traceback)."""
    cls = type(exc)
    new = cls.__new__(cls)
    new.__dict__.update(exc.__dict__)
    new.args = exc.args
    details = getattr(new, "details", None)
    if isinstance(details, dict):
        new.details = dict(details)  # type: ignore[attr-defined]
    return new


class SingleFlight(Generic[T]):
    """Deduplicates concurrent executions per key (one event loop).

    Args:
        share_error: whether followers receive the leader's exception (else they retry).
    """

    def __init__(self, share_error: Callable[[BaseException], bool] = lambda _: True) -> None:
        self._share_error = share_error
        self._flights: dict[str, asyncio.Future[T]] = {}

    def __len__(self) -> int:
        """Executions in flight."""
        return len(self._flights)

    async def do(self, key: str, work: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """Run ``work`` unless an execution for ``key`` is in flight; then share its outcome.

        Args:
            key: what identifies identical work.
            work: the execution (called at most once per call of ``do``).

        Returns:
            (value, shared): ``shared`` is True for a follower.

        Raises:
            the leader's exception (a copy, for followers) when it is shared; the caller's own
            exception when it led.
        """
        while True:
            flight = self._flights.get(key)
            if flight is None:
                break
            try:
                # shield: a follower being cancelled must not cancel the leader's flight.
                return await asyncio.shield(flight), True
            except _Abandoned:
                continue
            except Exception as exc:
                raise _copy_error(exc) from None
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._flights[key] = future
        try:
            value = await work()
        except BaseException as exc:
            shared = isinstance(exc, Exception) and self._share_error(exc)
            future.set_exception(exc if shared else _Abandoned())
            future.exception()  # mark retrieved: no "never retrieved" log without followers
            raise
        else:
            future.set_result(value)
            return value, False
        finally:
            if self._flights.get(key) is future:
                del self._flights[key]
