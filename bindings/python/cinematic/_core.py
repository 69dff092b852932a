"""Shared plumbing: status checks, JSON encoding, owned strings, callback error capture."""

from __future__ import annotations

import ctypes
import json
import threading
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Union

from . import _native
from .errors import CinematicError, error_for_status

if TYPE_CHECKING:
    import logging


def logger() -> "logging.Logger":
    """The ``cinematic`` logger. The logging module is imported the first time something is
    logged, not by ``import cinematic`` (a host that never fails never pays for it)."""
    import logging

    return logging.getLogger("cinematic")

#: What a JSON input may be: a mapping (encoded by the binding) or JSON text.
JSONInput = Union[Mapping[str, Any], str]


def check(status: int, function: str) -> None:
    """Raises the exception for ``status``, reading ``cinematic_last_error()`` at once.

    Must be called on the thread that made the C call, right after it (the envelope is
    thread-local and replaced by the next call).
    """
    if status == 0:
        return
    lib = _native.lib()
    envelope = lib.cinematic_last_error()  # borrowed: copied into a Python bytes object here
    name = lib.cinematic_status_name(status)
    raise error_for_status(
        status,
        name.decode("utf-8", "replace") if name else "unknown",
        envelope.decode("utf-8", "replace") if envelope else None,
        function,
    )


def encode(value: Optional[JSONInput], what: str) -> Optional[bytes]:
    """Encodes a JSON input for C: None stays None (NULL), text is passed through as UTF-8,
    a mapping is serialized compactly (non-ASCII kept as UTF-8).

    Raises ``TypeError`` for values ``json`` cannot serialize (a programming error on the
    Python side; the library never sees them).
    """
    if value is None:
        return None
    if isinstance(value, str):
        # Lone surrogates cannot be UTF-8: pass them through escaped so the library judges.
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a mapping or JSON text, not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def take_string(pointer: ctypes.c_void_p) -> str:
    """Copies a library-owned ``char *`` out-pointer result and frees it with
    ``cinematic_free`` (never ``free``)."""
    address = pointer.value
    if not address:
        return ""
    try:
        return ctypes.string_at(address).decode("utf-8")
    finally:
        _native.lib().cinematic_free(address)


def decode_state(raw: Optional[bytes]) -> Dict[str, Any]:
    """Parses a state (or request) JSON string handed to a callback (already copied)."""
    if not raw:
        return {}
    parsed = json.loads(raw.decode("utf-8"))
    return parsed if isinstance(parsed, dict) else {"value": parsed}


class CallbackErrors:
    """Where exceptions raised by host callbacks wait until the host's next call.

    An exception cannot travel through the C library, so the binding catches it in the
    trampoline, logs it on the ``cinematic`` logger (with its traceback) and keeps it here.
    One instance belongs to a :class:`~cinematic.Runtime` and is shared with its stores.
    Only the first exception is kept until it is raised; later ones are logged only.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: Optional[BaseException] = None

    def record(self, error: BaseException, where: str) -> None:
        """Keeps ``error`` (raised by the callback described by ``where``) if none is pending,
        then logs it."""
        with self._lock:
            kept = self._pending is None
            if kept:
                self._pending = error
        logger().error(
            "exception in %s%s", where,
            "" if kept else " (an earlier callback exception is still pending; this one is only logged)",
            exc_info=(type(error), error, error.__traceback__),
        )

    def pending(self) -> Optional[BaseException]:
        """The kept exception, without clearing it."""
        with self._lock:
            return self._pending

    def raise_pending(self) -> None:
        """Raises and clears the kept exception, if any."""
        with self._lock:
            error, self._pending = self._pending, None
        if error is not None:
            raise error


class HandleRegistry:
    """Maps small integer keys (passed to C as ``void *userdata``) to Python objects.

    The C library hands the key back to a module-level trampoline, which looks the object up;
    an object is removed when C can no longer call back for it (unsubscribe, close), so a late
    or racing callback finds nothing and does nothing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 1
        self._objects: Dict[int, Any] = {}

    def add(self, obj: Any) -> int:
        with self._lock:
            key = self._next
            self._next += 1
            self._objects[key] = obj
            return key

    def get(self, key: Optional[int]) -> Any:
        if key is None:
            return None
        return self._objects.get(key)

    def remove(self, key: int) -> None:
        with self._lock:
            self._objects.pop(key, None)

    def __len__(self) -> int:
        return len(self._objects)


def json_dumps_compact(value: Any) -> str:
    """Compact JSON (used for tests and helpers)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


__all__: List[str] = [
    "CallbackErrors",
    "CinematicError",
    "HandleRegistry",
    "JSONInput",
    "check",
    "decode_state",
    "encode",
    "logger",
    "take_string",
]
