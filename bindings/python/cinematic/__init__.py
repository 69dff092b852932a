"""Python binding of libcinematic (ctypes, standard library only).

libcinematic runs a movie app's features (search, discover, favorites, detail) as MVI
stores: you send intents, read states, and effects (debounces, catalog queries, favorites
writes) run inside the library. Intents and states cross the C API as JSON; this package
turns them into dicts::

    import cinematic

    with cinematic.Runtime() as runtime, runtime.search() as search:
        search.query_changed("dune")
        search.settle(timeout=5)
        first = search.state["results"]["value"][0]
        print(first["title"], first["year"])          # Dune 1984

Errors: every C status other than OK raises a subclass of :class:`CinematicError`
(``.status``, ``.status_name``, ``.message``, ``.details``: the library's error envelope).

Callback errors: an exception raised in one of your callbacks (state subscriber, catalog
provider) is logged on the ``cinematic`` logger and re-raised by the next call on that
runtime or any of its stores (and by the call during which it happened, for ``send``,
``settle``, ``dispatch``, ``advance_clock`` and ``respond``). See :class:`Runtime`.

The shared library is looked up in: ``$CINEMATIC_LIBRARY``; ``cinematic/libcinematic.so.0``
next to this module; ``build/lib/libcinematic.so.0`` in this module's directory or any
parent, then in the current directory; the system (``ctypes.util.find_library``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from . import _core, _native
from ._native import LibraryNotFoundError, candidate_paths
from .errors import (ERR_CLOSED, ERR_INVALID, ERR_IO, ERR_JSON, ERR_MISUSE, ERR_TIMEOUT,
                     ERR_TOO_LARGE, ERR_UNKNOWN_FEATURE, OK, CinematicError, CinematicIOError,
                     ClosedError, InvalidError, JSONError, MisuseError, SettleTimeoutError,
                     TooLargeError, UnknownFeatureError)
from . import features
from .features import *  # noqa: F401,F403  (FEATURES, Feature, every feature's store: features.__all__, generated)
from .runtime import Provider, Request, Runtime
from .scopes import ShownDetailStore
from .store import DISCOVER_SECTIONS, State, StateCallback, Store

from .wire import VERSION as __version__  # noqa: E402  (generated from the schema)

if TYPE_CHECKING:
    from .aio import StateStream


def __getattr__(name: str) -> Any:
    """Names whose modules ``import cinematic`` leaves unimported until first asked for:
    ``StateStream`` (:mod:`cinematic.aio`, which imports asyncio)."""
    if name == "StateStream":
        from .aio import StateStream

        globals()["StateStream"] = StateStream  # (asked once)
        return StateStream
    raise AttributeError(f"module 'cinematic' has no attribute {name!r}")

#: The version of the C API this binding was generated for (``CINEMATIC_VERSION``).
HEADER_VERSION = __version__


def library_version() -> str:
    """The loaded library's version (``cinematic_version()``), e.g. ``"0.3.0"``."""
    version: bytes = _native.lib().cinematic_version()
    return version.decode("ascii")


def status_name(status: int) -> str:
    """The name of a status (``cinematic_status_name``): ``"invalid"`` for 2, ``"unknown"``
    for a value that is no status."""
    name: bytes = _native.lib().cinematic_status_name(int(status))
    return name.decode("ascii")


def build_index(movie_path: "os.PathLike[str] | str | None", index_path: "os.PathLike[str] | str") -> None:
    """Builds a catalog index at ``index_path`` from the movie file at ``movie_path`` (the
    shipped TSV's columns, docs/catalog-index.md; None: the catalog built into the library),
    to open with ``Runtime({"catalog": {"path": index_path}})``
    (``cinematic_catalog_build_index``). Written to a temporary file and renamed: the path
    never holds half an index. Blocks for the build. Raises CinematicIOError (unreadable or
    malformed movie file, naming the line, or past a bound:
    include/cinematic/catalog_index.h; index not writable), InvalidError (empty path, or one that is not valid UTF-8: paths are passed
    byte for byte, never re-encoded)."""
    source = None if movie_path is None else os.fsencode(movie_path)
    _core.check(_native.lib().cinematic_catalog_build_index(source, os.fsencode(index_path)),
                "cinematic_catalog_build_index")


def library_path() -> str:
    """The file the library was loaded from."""
    return str(_native.lib()._name)


__all__ = [
    "build_index",
    "CinematicError",
    "CinematicIOError",
    "ClosedError",
    "DISCOVER_SECTIONS",
    "ERR_CLOSED",
    "ERR_INVALID",
    "ERR_IO",
    "ERR_JSON",
    "ERR_MISUSE",
    "ERR_TIMEOUT",
    "ERR_TOO_LARGE",
    "ERR_UNKNOWN_FEATURE",
    "HEADER_VERSION",
    "InvalidError",
    "JSONError",
    "LibraryNotFoundError",
    "MisuseError",
    "OK",
    "Provider",
    "Request",
    "Runtime",
    "SettleTimeoutError",
    "ShownDetailStore",
    "State",
    "StateCallback",
    "StateStream",
    "Store",
    "TooLargeError",
    "UnknownFeatureError",
    "__version__",
    "candidate_paths",
    "library_path",
    "library_version",
    "status_name",
]
__all__ += features.__all__   # the generated stores (a new feature's is exported without a hand edit)
