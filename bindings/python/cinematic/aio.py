"""asyncio integration: ``async for state in store.states()``.

With ``"queued"`` delivery the runtime's file descriptor is registered with
``loop.add_reader`` (once per runtime and loop, reference-counted), and the reader calls
:meth:`Runtime.dispatch` on the loop's thread: no threads, no polling. With ``"immediate"``
delivery states arrive on library threads and are handed to the loop with
``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Callable, Generic, Optional, Protocol, TypeVar

from ._delivery import LoopReader, RuntimeCore, Subscriber

__all__ = ["StateStream"]

_END = object()
T = TypeVar("T")


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Source(Protocol):
    """What a stream reads: a store (this module knows no store class)."""

    @property
    def runtime(self) -> RuntimeCore: ...

    def _subscribe(self, subscriber: Subscriber) -> Callable[[], None]: ...


class StateStream(AsyncIterator[T], Generic[T]):
    """The asynchronous iterator behind :meth:`cinematic.Store.states`.

    It subscribes on its first ``__anext__`` (so the first state is the current one then),
    ends when the store closes, and unsubscribes on ``aclose()``, at the end of an
    ``async with`` block, or when it ends. If a callback of the runtime raised while the
    stream's reader dispatched, the next ``__anext__`` raises that exception.
    """

    def __init__(self, store: _Source) -> None:
        self._store = store
        self._queue: Optional["asyncio.Queue[Any]"] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._unsubscribe: Optional[Any] = None
        self._reader: Optional[LoopReader] = None
        self._finished = False

    def __aiter__(self) -> "StateStream[T]":
        return self

    async def __aenter__(self) -> "StateStream[T]":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._queue = asyncio.Queue()
        runtime = self._store.runtime
        queued = runtime.delivery == "queued"
        if queued:
            # Dispatching runs on this loop's thread: states go straight into the queue.
            self._reader = runtime._loop_reader(loop)
            self._reader.add(self._fail)

        def on_state(state: Any) -> None:
            if queued:
                self._push(state)
            else:  # a library thread
                loop.call_soon_threadsafe(self._push, state)

        def on_close() -> None:
            try:
                loop.call_soon_threadsafe(self._push, _END)
            except RuntimeError:  # pragma: no cover - loop already closed
                pass

        try:
            self._unsubscribe = self._store._subscribe(Subscriber(on_state, on_close))
        except BaseException:
            self._detach()
            raise

    def _fail(self, error: BaseException) -> None:
        self._push(_Failure(error))

    def _push(self, item: Any) -> None:
        if self._queue is not None:
            self._queue.put_nowait(item)

    async def __anext__(self) -> T:
        if self._finished:
            raise StopAsyncIteration
        if self._queue is None:
            self._start()
        assert self._queue is not None
        item = await self._queue.get()
        if item is _END:
            self._finish()
            raise StopAsyncIteration
        if isinstance(item, _Failure):
            raise item.error
        return item  # type: ignore[no-any-return]

    def _detach(self) -> None:
        if self._reader is not None:
            self._reader.remove(self._fail)
            self._reader = None

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._detach()

    async def aclose(self) -> None:
        """Unsubscribes and stops watching the runtime's fd (idempotent)."""
        self._finish()

    def __del__(self) -> None:
        # Best effort when a stream is dropped unclosed (e.g. after `break`): same thread as
        # the loop in practice, since the stream is only used from coroutines.
        try:
            self._finish()
        except Exception:  # pragma: no cover
            pass
