"""A runtime's host callbacks (:class:`RuntimeCallbacks`, mixed into :class:`~cinematic.Runtime`):
the catalog provider of a host catalog, its answers, and the logger; with the C function
pointers (trampolines) every runtime shares."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional

from . import _native
from ._core import CallbackErrors, HandleRegistry, JSONInput, check, decode_state, encode
from .wire import ERR_CLOSED

__all__ = ["RuntimeCallbacks", "Provider", "Request", "Logger", "RUNTIMES"]

#: A provider request: ``{"op": "search", "query": "dune", "page": 1}``,
#: ``{"op": "discover", "section": "popular", "page": 1}``, ``{"op": "movie", "id": 15249}``
#: or ``{"op": "cancel"}``.
Request = Dict[str, Any]
#: A catalog provider: ``provider(request_id, request)``. It must not block. It answers later
#: with :meth:`Runtime.respond` (from any thread), or at once by returning the answer (a
#: mapping); returning None means "I will answer later" (or never, for ``cancel``).
Provider = Callable[[int, Request], Optional[Mapping[str, Any]]]

#: A logger: ``logger(line)`` receives each readable log line (see :meth:`Runtime.set_logger`).
Logger = Callable[[str], None]

#: key -> weakref(Runtime), for the provider and logger trampolines.
RUNTIMES = HandleRegistry()


def _on_request(userdata: Optional[int], request_id: int, request_json: Optional[bytes]) -> None:
    # Runs on whatever thread the library delivers on. Must never raise into C.
    ref = RUNTIMES.get(userdata)
    runtime: Optional[RuntimeCallbacks] = ref() if ref is not None else None
    if runtime is None:
        return
    try:
        runtime._on_request(request_id, request_json)
    except BaseException as error:  # pragma: no cover - _on_request catches
        runtime._errors.record(error, "the catalog provider trampoline")


#: The one C function pointer every runtime's provider uses (lives as long as the module).
_request_trampoline = _native.REQUEST_FN(_on_request)


def _on_log(userdata: Optional[int], line: Optional[bytes]) -> None:
    # Runs on whatever thread the library delivers on. Must never raise into C.
    ref = RUNTIMES.get(userdata)
    runtime: Optional[RuntimeCallbacks] = ref() if ref is not None else None
    if runtime is None:
        return
    logger = runtime._logger
    if logger is None or line is None:
        return
    try:
        logger(line.decode("utf-8", "replace"))
    except BaseException as error:
        runtime._errors.record(error, "the logger")


#: The one C function pointer every runtime's logger uses (lives as long as the module).
_log_trampoline = _native.LOG_FN(_on_log)


class RuntimeCallbacks:
    """``set_provider``, ``respond`` and ``set_logger`` (mixed into :class:`~cinematic.Runtime`)."""

    _handle: int
    _key: int
    _errors: CallbackErrors
    _provider: Optional[Provider]
    _logger: Optional[Logger]
    _closing: bool

    def set_logger(self, logger: Optional[Logger]) -> None:
        """Registers the runtime's logger (None removes it): ``logger(line)`` receives a
        readable line for every intent any store reduces (with the state fields it
        changed), every time-travel step and every effect started, cancelled and finished::

            [250 ms] search#2 intent #3 searchNow {"type":"searchNow"} changed: results
            [250 ms] search#2 effect started "search" (#7)

        Lines run under the delivery rules, like state callbacks (``"queued"``: in
        :meth:`dispatch`). Off by default, and free when off. When this returns the previous
        logger is never called again. An exception the logger raises is handled like any
        callback error (see :class:`Runtime`).

        Raises ClosedError.
        """
        self._errors.raise_pending()
        self._register("_logger", logger, "cinematic_runtime_set_logger", _log_trampoline, _native.LOG_FN())

    def _register(self, attribute: str, callback: Any, function: str, trampoline: Any, null: Any) -> None:
        """Points the C callback `function` at `trampoline` (which finds `callback` in
        ``self.<attribute>`` through this runtime's key), or at nothing (`null`) when
        `callback` is None. The library stops calling first and the attribute is cleared
        after; a new callback is stored first, so the trampoline always finds one while the
        library may call it. ``self.<attribute>`` keeps its old value if the call fails."""
        if callback is None:
            check(getattr(_native.lib(), function)(self._handle, null, None), function)
            setattr(self, attribute, None)
            return
        previous = getattr(self, attribute)
        setattr(self, attribute, callback)
        try:
            check(getattr(_native.lib(), function)(self._handle, trampoline, self._key), function)
        except BaseException:
            setattr(self, attribute, previous)
            raise

    # ------------------------------------------------------------------ host catalog

    def set_provider(self, provider: Optional[Provider]) -> None:
        """Registers the catalog provider of a ``"host"`` catalog (None removes it). Register
        it before opening stores: requests made while none is registered fail with
        ``"network"``.

        ``provider(request_id, request)`` receives ``{"op": "search", "query", "page"}``,
        ``{"op": "discover", "section", "page"}``, ``{"op": "movie", "id"}`` or
        ``{"op": "cancel"}`` (the request with that id is no longer needed; answering it
        anyway is safe). It runs under the delivery rules and must not block: answer with
        :meth:`respond`, from any thread, whenever you like, or return the answer.

        Raises MisuseError (the catalog is not ``"host"``), ClosedError.
        """
        self._errors.raise_pending()
        self._register("_provider", provider, "cinematic_runtime_set_provider", _request_trampoline, _native.REQUEST_FN())

    def respond(self, request_id: int, answer: JSONInput) -> None:
        """Answers provider request ``request_id``: ``{"movies": [movie, ...]}`` (search,
        discover), ``{"movie": {...detail...}}`` (movie) or ``{"error": {"code", "message"}}``.
        An answer to a cancelled or already answered request is accepted and dropped.

        Raises JSONError / TooLargeError / InvalidError (bad answer: the request then fails
        with ``"invalidResponse"``; or an id that was never issued), MisuseError (not a host
        catalog), ClosedError.
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_runtime_respond(self._handle, int(request_id), encode(answer, "answer")),
              "cinematic_runtime_respond")
        self._errors.raise_pending()

    def _on_request(self, request_id: int, request_json: Optional[bytes]) -> None:
        provider = self._provider
        if provider is None:
            return
        try:
            answer = provider(request_id, decode_state(request_json))
            if answer is not None:
                status = _native.lib().cinematic_runtime_respond(self._handle, int(request_id), encode(answer, "answer"))
                if status == ERR_CLOSED and self._closing:
                    return  # answered while the runtime closes: closing abandons every request
                check(status, "cinematic_runtime_respond")
        except BaseException as error:
            self._errors.record(error, f"the catalog provider {provider!r} (request {request_id})")
