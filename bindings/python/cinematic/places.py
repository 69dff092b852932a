"""Where a person's movie app keeps its files, the same for every host: the favorites under
``$XDG_DATA_HOME`` and each app's state file under ``$XDG_STATE_HOME`` (XDG base directories;
``~/.local/share`` and ``~/.local/state`` when unset).

    runtime = cinematic.Runtime(favorites=str(favorites_path()))
    app = runtime.app({"stateFile": str(state_path("desktop"))})
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["favorites_path", "state_path"]


def favorites_path() -> Path:
    """``$XDG_DATA_HOME/cinematic/favorites.sqlite``, else ``~/.local/share/cinematic/favorites.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cinematic" / "favorites.sqlite"


def state_path(app: str) -> Path:
    """``$XDG_STATE_HOME/cinematic/<app>.json``, else ``~/.local/state/cinematic/<app>.json``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cinematic" / f"{app}.json"
