"""The desktop app (examples/desktop, PySide6) on its own Xvfb: xdotool presses the keymap's keys
(platform "") on the app's window through XTEST, as a person's keyboard would, and the app's
own recording (``--record``) says what its store holds."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional

from recorded import RecordedApp
from script import REPO, Step, key_for, wait

DESKTOP = REPO / "examples" / "desktop"
TITLE = "Cinematic"
#: The keymap's key names as xdotool (X keysyms) spells them; F1-F12 and arrows are alike.
XDOTOOL_KEYS = {"Enter": "Return", "PageDown": "Next", "PageUp": "Prior", "Shift+Tab": "shift+Tab",
                "Ctrl+Z": "ctrl+z", "Ctrl+L": "ctrl+l", "Ctrl+Q": "ctrl+q", "F": "f"}


def desktop_module(name: str) -> ModuleType:
    """A module of the desktop app's tests (their X server), loaded from its file: the folder
    is not put on sys.path, where its conftest would shadow the web suite's."""
    spec = importlib.util.spec_from_file_location(f"desktop_{name}", DESKTOP / "tests" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class DesktopDriver:
    """One desktop app session on a fresh Xvfb, on its own favorites, state file and recording."""

    platform = ""

    def __init__(self, folder: Path) -> None:
        if not shutil.which("xdotool"):
            raise RuntimeError("xdotool is not installed (apt-get install xdotool)")
        xserver = desktop_module("xserver")
        self.xvfb = xserver.Xvfb()
        self.folder = folder
        self.recording = RecordedApp(folder / "desktop.jsonl")
        self.env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "PYTHONPATH")}
        self.env.update(DISPLAY=self.xvfb.display, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(folder / "config"),
                        XDG_CACHE_HOME=str(folder / "cache"), XDG_STATE_HOME=str(folder / "state"))
        self.log = (folder / "desktop.log").open("w")
        command = [str(DESKTOP / "run.sh"), "--favorites", str(folder / "desktop-favorites.sqlite"),
                   "--state-file", str(folder / "desktop-state.json"), "--record", str(folder / "desktop.jsonl")]
        self.process = subprocess.Popen(command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        try:
            self.window = xserver.wait_for(self._shown, 120, "the desktop app's window")
            x = self.xvfb.client
            x.point_at(self.window)       # with no window manager, the keyboard follows the pointer
            xserver.wait_for(lambda: x.has_keyboard(self.window) or None, 60, "the desktop app to take the keyboard")
        except BaseException:
            self.close()
            raise

    def _shown(self) -> Optional[int]:
        if self.process.poll() is not None:
            raise RuntimeError(f"the desktop app exited ({self.process.returncode}): {self.output()}")
        window: Optional[int] = self.xvfb.client.shown_window(TITLE)
        return window

    def xdotool(self, *arguments: str) -> None:
        subprocess.run(["xdotool", "windowfocus", "--sync", str(self.window), *arguments], env=self.env,
                       check=True, timeout=30)

    def press(self, step: Step) -> None:
        if step.text:
            self.xdotool("type", "--delay", "40", step.text)
            return
        key = key_for(step, self.platform)
        self.xdotool("key", XDOTOOL_KEYS.get(key, key))

    def state(self) -> Optional[Dict[str, Any]]:
        return self.recording.read()

    def wait(self, step: Step) -> Dict[str, Any]:
        return wait(self.state, step.done, f"desktop: {step.name}")

    def output(self) -> str:
        return (self.folder / "desktop.log").read_text(errors="replace")[-2000:]

    def screen(self) -> str:
        """What the window shows now, as its app state's view says (for a failure's message)."""
        view: Dict[str, Any] = dict((self.recording.read() or {}).get("view") or {})
        shown = view.get("list") or {}
        rows: List[str] = [row["title"] for row in shown.get("rows", [])]
        summary = {"screen": view.get("screen"), "title": view.get("title"), "status": shown.get("status"),
                   "message": shown.get("message"), "rows": rows[:10]}
        return json.dumps(summary, ensure_ascii=False, indent=1) + "\n--- its output ---\n" + self.output()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()        # SIGTERM closes the window like Ctrl+Q: the recording ends
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        self.xvfb.stop()
