"""The terminal app (examples/python) in a real terminal: tmux runs it, send-keys types the
keymap's keys, and the app's own recording (``--record``) says what its store holds."""
from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any, Dict, Optional

from recorded import RecordedApp
from script import REPO, Step, key_for, wait

#: The keymap's key names as tmux's send-keys spells them.
TMUX_KEYS = {"Down": "Down", "Up": "Up", "Left": "Left", "Right": "Right", "Enter": "Enter", "Escape": "Escape",
             "Tab": "Tab", "Shift+Tab": "BTab", "Home": "Home", "End": "End", "PageDown": "NPage", "PageUp": "PPage",
             "Delete": "DC", "Ctrl+Z": "C-z", "Ctrl+L": "C-l", "Ctrl+Q": "C-q", "F": "f"}


class TerminalDriver:
    """One terminal app session under tmux, on its own favorites, state file and recording."""

    platform = ""

    def __init__(self, folder: Path) -> None:
        if not shutil.which("tmux"):
            raise RuntimeError("tmux is not installed (apt-get install tmux)")
        self.session = f"conformance-{uuid.uuid4().hex[:8]}"
        self.recording = RecordedApp(folder / "terminal.jsonl")
        command = [str(REPO / "examples" / "python" / "run.sh"), "--favorites", str(folder / "terminal-favorites.sqlite"),
                   "--state-file", str(folder / "terminal-state.json"), "--record", str(folder / "terminal.jsonl")]
        subprocess.run(["tmux", "new-session", "-d", "-s", self.session, "-x", "100", "-y", "30", "--", *command], check=True)

    def press(self, step: Step) -> None:
        if step.text:
            subprocess.run(["tmux", "send-keys", "-t", self.session, "-l", step.text], check=True)
            return
        key = key_for(step, self.platform)
        name = TMUX_KEYS.get(key, key)   # F1-F12 are spelled alike
        subprocess.run(["tmux", "send-keys", "-t", self.session, name], check=True)

    def state(self) -> Optional[Dict[str, Any]]:
        return self.recording.read()

    def wait(self, step: Step) -> Dict[str, Any]:
        return wait(self.state, step.done, f"terminal: {step.name}")

    def screen(self) -> str:
        """What the terminal shows now (for a failure's message)."""
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.session], capture_output=True, text=True).stdout

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True)
