"""What every host of the movie app does the same way before it draws anything: the same
options (``--favorites``, ``--catalog``, ``--record``, ``--live``, ``--state-file``,
``--fresh``), the runtime they describe, the movie API behind ``--live`` and the app store
with its state file, and what a person must read once the UI is gone. A host adds its own
options (:func:`add_app_options`; a host with none of its own: :func:`parse_app_args`), then::

    args = parse_app_args("cinematic-desktop", "A desktop movie app.", "desktop")
    return run_app("cinematic-desktop", args, "desktop", {"delivery": "queued"}, draw)

where ``draw(opened)`` shows ``opened.app`` until the person quits and returns the exit status.
:func:`open_app` and :class:`OpenedApp` are the steps ``run_app`` takes, for a host that needs
them apart.

Files: the default folders of the state file and the favorites are made (0700); a path the
person named (``--favorites``, ``--state-file``, ``--record``, ``--catalog``) must already have
its folder: nothing is created for it, and the error says which directory does not exist.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from . import places
from ._native import LibraryNotFoundError
from .errors import CinematicError
from .features import AppStore
from .runtime import Runtime

__all__ = ["HostStartError", "OpenedApp", "add_app_options", "missing_folder", "open_app", "parse_app_args", "run_app"]


class HostStartError(Exception):
    """Why the app cannot start, in one line, and the exit status to use (1, or 2 for a
    bad option)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def add_app_options(parser: argparse.ArgumentParser, app: str) -> None:
    """Adds the options every host of the app takes; ``app`` names its default state file
    (``$XDG_STATE_HOME/cinematic/<app>.json``)."""
    parser.add_argument("--favorites", help="favorites database (default: $XDG_DATA_HOME/cinematic/favorites.sqlite)")
    parser.add_argument("--catalog", help="a catalog index built by cinematic-index (default: the library's own)")
    parser.add_argument("--record", metavar="FILE",
                        help="record the session to FILE (complete when the app exits; replay: python -m cinematic.replay FILE)")
    parser.add_argument("--live", metavar="URL",
                        help="take the catalog from a movie API (examples/catalog-server), with the library's offline cache")
    parser.add_argument("--state-file", metavar="PATH",
                        help=f"where the app resumes from and saves to (default: $XDG_STATE_HOME/cinematic/{app}.json)")
    parser.add_argument("--fresh", action="store_true",
                        help="start anew instead of where the state file left off (the next save replaces it)")


def parse_app_args(prog: str, description: str, app: str, argv: Optional[List[str]] = None) -> argparse.Namespace:
    """The options every host of the app takes (:func:`add_app_options`), read from ``argv``
    (the command line's when None); ``--help`` and a bad option end the program as argparse does."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    add_app_options(parser, app)
    return parser.parse_args(argv)


class OpenedApp:
    """A runtime, its app store and the movie API provider behind ``--live``: closed
    together (the library then writes the state file's last save and completes a recording)."""

    def __init__(self, runtime: Runtime, app: AppStore, provider: Optional[Any]) -> None:
        self.runtime, self.app, self.provider = runtime, app, provider

    def close(self) -> None:
        """Closes the provider, then the runtime (and the app store with it)."""
        if self.provider is not None:
            self.provider.close()
        self.runtime.close()

    def __enter__(self) -> "OpenedApp":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def missing_folder(option: str, path: Path) -> Optional[str]:
    """Why the folder of ``path`` (named with ``option``) cannot hold it, or None: "--favorites
    /x/f.sqlite: the directory /x does not exist (nothing was created)"."""
    folder = path.parent
    if folder.is_dir():
        return None
    if folder.exists() or folder.is_symlink():
        return f"{option} {path}: {folder} is not a directory"
    return f"{option} {path}: the directory {folder} does not exist (nothing was created; make it first)"


def open_app(args: argparse.Namespace, app: str, config: Optional[Dict[str, Any]] = None) -> OpenedApp:
    """The runtime and app store ``args`` (from :func:`add_app_options`) describe, with
    ``config`` added to the runtime config (the host's delivery, history, clock). Raises
    :class:`HostStartError` saying why it cannot open."""
    favorites = Path(args.favorites) if args.favorites else places.favorites_path()
    state_file = Path(args.state_file) if args.state_file else places.state_path(app)
    runtime_config: Dict[str, Any] = {"favorites": str(favorites), **(config or {})}
    if args.catalog:
        runtime_config["catalog"] = {"path": args.catalog}
    if args.record:
        runtime_config["record"] = args.record
    if args.live:
        from .http_provider import catalog_config
        runtime_config["catalog"] = catalog_config(args.live)
    # A path the person named is theirs: its folder must exist (nothing is created for it).
    named = (("--favorites", args.favorites), ("--state-file", args.state_file), ("--record", args.record),
             ("--catalog", args.catalog))
    for option, value in named:
        problem = missing_folder(option, Path(value)) if value else None
        if problem is not None:
            raise HostStartError(f"cannot start: {problem}")
    try:
        # The default folders are the app's own: made (0700) when missing.
        if not args.state_file:
            state_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not args.favorites:
            favorites.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        runtime = Runtime(runtime_config)
    except OSError as error:
        raise HostStartError(f"cannot start: cannot create {error.filename}: {error.strerror}") from None
    except (LibraryNotFoundError, CinematicError) as error:
        raise HostStartError(f"cannot start: {error}") from None
    provider = None
    try:
        if args.live:
            from .http_provider import HttpCatalogProvider
            try:
                provider = HttpCatalogProvider(runtime, args.live, timeout=5.0)
            except ValueError as error:      # not an http:// URL
                raise HostStartError(f"--live: {error}", status=2) from None
            runtime.set_provider(provider)
        store = runtime.app({"stateFile": str(state_file), "fresh": bool(args.fresh)})
    except CinematicError as error:          # e.g. a state file path the library refuses
        OpenedApp(runtime, None, provider).close()  # type: ignore[arg-type]
        raise HostStartError(f"cannot start: {error}") from None
    except BaseException:
        OpenedApp(runtime, None, provider).close()  # type: ignore[arg-type]
        raise
    return OpenedApp(runtime, store, provider)


def run_app(prog: str, args: argparse.Namespace, app: str, config: Optional[Dict[str, Any]],
            run: Callable[[OpenedApp], int]) -> int:
    """Opens the app ``args`` describe (:func:`open_app`), runs the host's UI on it (``run``
    returns the exit status) and closes it however ``run`` ends. What a person must read once
    the UI is gone goes to stderr as ``prog: ...``: why the app cannot start (then the
    :class:`HostStartError`'s status is returned), and a state-file notice still shown at the
    end (the file could not be read or written: the next start will not resume from it)."""
    try:
        opened = open_app(args, app, config)
    except HostStartError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return error.status
    with opened:
        try:
            return run(opened)
        finally:
            notice = opened.app.state["notice"]
            if notice is not None and notice["kind"] == "stateFile":
                print(f"{prog}: {notice['text']}", file=sys.stderr)
