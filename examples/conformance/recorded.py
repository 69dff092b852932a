"""The app store's latest state, read from the recording a UI writes (``--record FILE``): the
terminal and desktop apps record their session, one JSON line per event (docs/wire.md,
Recordings), the app store's states among them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Optional


class RecordedApp:
    """Follows a recording file as it grows and keeps the app store's newest state."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.store, self.state = path, 0, None, None
        self.partial = b""

    def read(self) -> Optional[Dict[str, Any]]:
        """The newest state of the app store recorded so far (None before the first)."""
        if not self.path.exists():
            return None
        with self.path.open("rb") as file:
            file.seek(self.offset)
            chunk = file.read()
        self.offset += len(chunk)
        lines = (self.partial + chunk).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            event = json.loads(line)
            if event.get("event") == "open" and event.get("feature") == "app" and self.store is None:
                self.store = event.get("store")
            elif event.get("event") == "state" and event.get("store") == self.store:
                self.state = event["state"]
        return self.state
