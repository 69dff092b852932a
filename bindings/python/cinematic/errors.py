"""The exceptions of the binding: one class per C status, under :class:`CinematicError`.

Every failing C call raises the subclass of its status, carrying the JSON error envelope
that ``cinematic_last_error()`` returned on the same thread right after the call::

    try:
        store.send({"type": "queryChanged"})
    except cinematic.InvalidError as error:
        error.status        # 2
        error.status_name   # "invalid"
        error.message       # 'missing required member "query"'
        error.details       # {"status": "invalid", "message": ..., "path": "$.query"}
        error.path          # "$.query"
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Type

__all__ = [
    "OK",
    "ERR_JSON",
    "ERR_INVALID",
    "ERR_UNKNOWN_FEATURE",
    "ERR_IO",
    "ERR_CLOSED",
    "ERR_MISUSE",
    "ERR_TIMEOUT",
    "ERR_TOO_LARGE",
    "CinematicError",
    "JSONError",
    "InvalidError",
    "UnknownFeatureError",
    "CinematicIOError",
    "ClosedError",
    "MisuseError",
    "SettleTimeoutError",
    "TooLargeError",
    "error_for_status",
]

# The statuses come from the schema (generated into wire.py), like the C header's.
from .wire import (ERR_CLOSED, ERR_INVALID, ERR_IO, ERR_JSON, ERR_MISUSE, ERR_TIMEOUT,  # noqa: E402
                   ERR_TOO_LARGE, ERR_UNKNOWN_FEATURE, OK)


class CinematicError(Exception):
    """A C call returned a status other than ``CINEMATIC_OK``.

    Attributes:
        status: the C status (``ERR_*``).
        status_name: its name, e.g. ``"invalid"`` (from ``cinematic_status_name``).
        message: the library's message (the envelope's ``"message"``).
        details: the whole error envelope from ``cinematic_last_error()`` as a dict, e.g.
            ``{"status": "json", "message": "...", "line": 1, "column": 9}``; ``{}`` when
            the library gave none.
        function: the C function that failed, e.g. ``"cinematic_store_send"``.
    """

    #: The status this class stands for (None on the base class: any status).
    STATUS: Optional[int] = None

    def __init__(
        self,
        status: int,
        status_name: str,
        message: str,
        details: Optional[Mapping[str, Any]] = None,
        function: Optional[str] = None,
    ) -> None:
        self.status = status
        self.status_name = status_name
        self.message = message
        self.details: Dict[str, Any] = dict(details or {})
        self.function = function
        where = f"{function}: " if function else ""
        extra = ""
        if "path" in self.details:
            extra = f" (at {self.details['path']})"
        elif "line" in self.details:
            extra = f" (line {self.details['line']}, column {self.details.get('column')})"
        super().__init__(f"{where}{status_name}: {message}{extra}")

    @property
    def path(self) -> Optional[str]:
        """The offending JSON path (``"$.query"``) for invalid input, else None."""
        value = self.details.get("path")
        return value if isinstance(value, str) else None

    @property
    def line(self) -> Optional[int]:
        """The line of a JSON syntax error, else None."""
        value = self.details.get("line")
        return value if isinstance(value, int) else None

    @property
    def column(self) -> Optional[int]:
        """The column of a JSON syntax error, else None."""
        value = self.details.get("column")
        return value if isinstance(value, int) else None

    def __reduce__(self) -> Any:  # keep exceptions picklable despite the custom __init__
        return (type(self), (self.status, self.status_name, self.message, self.details, self.function))


class JSONError(CinematicError):
    """Input is not well-formed JSON or not valid UTF-8 (``CINEMATIC_ERR_JSON``).

    ``details`` has ``line`` and ``column`` for syntax errors.
    """

    STATUS = ERR_JSON


class InvalidError(CinematicError):
    """Well-formed JSON that is not a valid intent, config or argument
    (``CINEMATIC_ERR_INVALID``); ``path`` names the offending member."""

    STATUS = ERR_INVALID


class UnknownFeatureError(CinematicError):
    """No feature has that name (``CINEMATIC_ERR_UNKNOWN_FEATURE``)."""

    STATUS = ERR_UNKNOWN_FEATURE


class CinematicIOError(CinematicError):
    """A file or system resource failed (``CINEMATIC_ERR_IO``), e.g. the catalog cannot be
    built or the favorites database cannot be opened."""

    STATUS = ERR_IO


class ClosedError(CinematicError):
    """The runtime or store was closed (``CINEMATIC_ERR_CLOSED``)."""

    STATUS = ERR_CLOSED


class MisuseError(CinematicError):
    """The API was used wrongly (``CINEMATIC_ERR_MISUSE``): e.g. ``advance_clock`` on a
    system clock, ``fileno`` with immediate delivery, ``settle`` inside a callback, a 257th
    store opened in one runtime."""

    STATUS = ERR_MISUSE


class SettleTimeoutError(CinematicError, TimeoutError):
    """A wait ran out of time (``CINEMATIC_ERR_TIMEOUT``). Also a builtin ``TimeoutError``."""

    STATUS = ERR_TIMEOUT

    def __str__(self) -> str:  # OSError's __str__ would format errno/strerror
        return str(self.args[0]) if self.args else ""


class TooLargeError(CinematicError):
    """Input larger than 1 MiB, or a runtime snapshot larger than 2 MiB (``CINEMATIC_ERR_TOO_LARGE``)."""

    STATUS = ERR_TOO_LARGE


_BY_STATUS: Dict[int, Type[CinematicError]] = {
    ERR_JSON: JSONError,
    ERR_INVALID: InvalidError,
    ERR_UNKNOWN_FEATURE: UnknownFeatureError,
    ERR_IO: CinematicIOError,
    ERR_CLOSED: ClosedError,
    ERR_MISUSE: MisuseError,
    ERR_TIMEOUT: SettleTimeoutError,
    ERR_TOO_LARGE: TooLargeError,
}


def error_for_status(
    status: int,
    status_name: str,
    envelope: Optional[str],
    function: Optional[str] = None,
) -> CinematicError:
    """Builds the exception for ``status`` from the raw ``cinematic_last_error()`` text.

    A status the binding does not know (added by a newer library) gives the base
    :class:`CinematicError`.
    """
    details: Dict[str, Any] = {}
    if envelope:
        try:
            parsed = json.loads(envelope)
            if isinstance(parsed, dict):
                details = parsed
        except ValueError:
            details = {"message": envelope}
    message = details.get("message")
    if not isinstance(message, str):
        message = status_name
    cls = _BY_STATUS.get(status, CinematicError)
    return cls(status, status_name, message, details, function)
