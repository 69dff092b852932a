"""Finding and loading libcinematic, and the ctypes prototypes of its C API.

This module is private: use :mod:`cinematic` instead. It mirrors ``include/cinematic.h``
one function for one function; nothing here adds behaviour.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import List, Optional

__all__ = [
    "LIBRARY_FILE",
    "LibraryNotFoundError",
    "STATE_FN",
    "REQUEST_FN",
    "LOG_FN",
    "candidate_paths",
    "lib",
]

#: The file name (SONAME) of the shared library.
LIBRARY_FILE = "libcinematic.so.0"
#: Environment variable that names the library file to load, overriding every other place.
LIBRARY_ENV = "CINEMATIC_LIBRARY"

#: ``typedef void (*cinematic_state_fn)(void *userdata, cinematic_store *store, const char *state_json)``
STATE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)
#: ``typedef void (*cinematic_request_fn)(void *userdata, uint64_t request_id, const char *request_json)``
REQUEST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_char_p)
#: ``typedef void (*cinematic_log_fn)(void *userdata, const char *line)``
LOG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)


class LibraryNotFoundError(OSError):
    """libcinematic could not be loaded from any of the places the binding looks in.

    ``tried`` lists every place, in order, with why it was not used.
    """

    def __init__(self, tried: List[str]) -> None:
        self.tried = list(tried)
        lines = "\n  ".join(self.tried) if self.tried else "(nothing)"
        super().__init__(
            f"cannot load {LIBRARY_FILE}; tried, in order:\n  {lines}\n"
            f"Build it with `make lib` in the repository, install it, or set {LIBRARY_ENV} "
            f"to the library's path."
        )


def _repository_candidates(start: str) -> List[str]:
    """``build/lib/libcinematic.so.0`` in ``start`` (an absolute path) and each of its
    parents. (os.path, not pathlib: ``import cinematic`` stays cheap.)"""
    found: List[str] = []
    directory = start
    while True:
        found.append(os.path.join(directory, "build", "lib", LIBRARY_FILE))
        parent = os.path.dirname(directory)
        if parent == directory:
            return found
        directory = parent


def candidate_paths() -> List[str]:
    """Every place the library is looked for, in order (for diagnostics and tests).

    1. ``$CINEMATIC_LIBRARY``;
    2. a copy bundled next to this module (``cinematic/libcinematic.so.0``);
    3. the repository's build output: ``build/lib/libcinematic.so.0`` in the module's
       directory or any parent, then in the current working directory;
    4. the system's search path (``ctypes.util.find_library("cinematic")``).
    """
    here = os.path.dirname(os.path.realpath(__file__))
    paths: List[str] = []
    env = os.environ.get(LIBRARY_ENV)
    if env:
        paths.append(env)
    paths.append(os.path.join(here, LIBRARY_FILE))
    seen = set(paths)
    cwd = os.path.join(os.getcwd(), "build", "lib", LIBRARY_FILE)
    for candidate in [*_repository_candidates(os.path.dirname(here)), cwd]:
        if candidate not in seen:
            seen.add(candidate)
            paths.append(candidate)
    return paths


def _load() -> ctypes.CDLL:
    tried: List[str] = []
    env = os.environ.get(LIBRARY_ENV)
    for index, path in enumerate(candidate_paths()):
        is_env = index == 0 and bool(env)
        if not os.path.exists(path):
            tried.append(f"{path}: {'$' + LIBRARY_ENV + ' names a file that does not exist' if is_env else 'not found'}")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path}: {error}")
    from ctypes.util import find_library  # (imports subprocess: only when all the above failed)

    system = find_library("cinematic")
    if system is None:
        tried.append('ctypes.util.find_library("cinematic"): not found on the system')
    else:
        try:
            return ctypes.CDLL(system)
        except OSError as error:
            tried.append(f"{system} (from the system search path): {error}")
    # Last resort: the dynamic loader's own search path (LD_LIBRARY_PATH, ld.so.cache).
    try:
        return ctypes.CDLL(LIBRARY_FILE)
    except OSError as error:
        tried.append(f"{LIBRARY_FILE} through the dynamic loader (LD_LIBRARY_PATH): {error}")
    raise LibraryNotFoundError(tried)


def _declare(library: ctypes.CDLL) -> None:
    c_int, c_char_p, c_void_p = ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p
    p_void = ctypes.POINTER(c_void_p)
    p_int = ctypes.POINTER(c_int)
    prototypes = {
        # Library
        "cinematic_version": (c_char_p, []),
        "cinematic_status_name": (c_char_p, [c_int]),
        "cinematic_last_error": (c_char_p, []),
        "cinematic_free": (None, [c_void_p]),
        # Runtime
        "cinematic_runtime_open": (c_int, [c_char_p, p_void]),
        "cinematic_runtime_close": (c_int, [c_void_p]),
        "cinematic_runtime_fd": (c_int, [c_void_p, p_int]),
        "cinematic_runtime_dispatch": (c_int, [c_void_p, p_int]),
        "cinematic_runtime_advance_clock": (c_int, [c_void_p, ctypes.c_int64]),
        "cinematic_runtime_set_provider": (c_int, [c_void_p, REQUEST_FN, c_void_p]),
        "cinematic_runtime_respond": (c_int, [c_void_p, ctypes.c_uint64, c_char_p]),
        # Stores
        "cinematic_store_open": (c_int, [c_void_p, c_char_p, c_char_p, p_void]),
        "cinematic_store_scope": (c_int, [c_void_p, c_char_p, p_void]),
        "cinematic_store_close": (c_int, [c_void_p]),
        "cinematic_store_send": (c_int, [c_void_p, c_char_p]),
        "cinematic_store_state": (c_int, [c_void_p, p_void]),
        "cinematic_store_observe": (c_int, [c_void_p, STATE_FN, c_void_p]),
        "cinematic_store_observe_patches": (c_int, [c_void_p, STATE_FN, c_void_p]),
        "cinematic_store_settle": (c_int, [c_void_p, ctypes.c_int64]),
        "cinematic_store_pending_effects": (c_int, [c_void_p, p_int]),
        # Debugging
        "cinematic_store_history": (c_int, [c_void_p, p_void]),
        "cinematic_store_revert": (c_int, [c_void_p, ctypes.c_uint64]),
        "cinematic_runtime_set_logger": (c_int, [c_void_p, LOG_FN, c_void_p]),
        "cinematic_replay": (c_int, [c_char_p, p_int, p_void]),
        # Snapshots
        "cinematic_store_snapshot": (c_int, [c_void_p, p_void]),
        "cinematic_store_restore": (c_int, [c_void_p, c_char_p, p_void]),
        "cinematic_runtime_snapshot": (c_int, [c_void_p, p_void]),
        "cinematic_runtime_restore": (c_int, [c_void_p, c_char_p, ctypes.POINTER(ctypes.POINTER(c_void_p)), p_int]),
        # Catalog index
        "cinematic_catalog_build_index": (c_int, [c_char_p, c_char_p]),
        "cinematic_runtime_catalog_state": (c_int, [c_void_p, p_void]),
    }
    for name, (restype, argtypes) in prototypes.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes


_lock = threading.Lock()
_library: Optional[ctypes.CDLL] = None


def lib() -> ctypes.CDLL:
    """The loaded library with its prototypes declared (loaded on first use).

    Raises :class:`LibraryNotFoundError` naming every place that was tried.
    """
    global _library
    if _library is None:
        with _lock:
            if _library is None:
                library = _load()
                _declare(library)
                _library = library
    return _library
