"""The browser app (examples/web) in Debian's chromium: selenium presses the keymap's keys on
the browser platform, and the page's own copy of the app state (rebuilt from its patches) says
what the server's store holds."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any, Dict, Optional

from script import REPO, Step, key_for, wait

sys.path.insert(0, str(REPO / "examples" / "web" / "tests"))
from conftest import WebServer  # noqa: E402  (the web suite's server process)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

SELENIUM_KEYS = {"Down": Keys.DOWN, "Up": Keys.UP, "Left": Keys.LEFT, "Right": Keys.RIGHT, "Enter": Keys.ENTER,
                 "Escape": Keys.ESCAPE, "Home": Keys.HOME, "End": Keys.END, "PageDown": Keys.PAGE_DOWN,
                 "PageUp": Keys.PAGE_UP, "Delete": Keys.DELETE, "Tab": Keys.TAB, "F2": Keys.F2, "F5": Keys.F5, "F1": Keys.F1}
MODIFIERS = {"Ctrl": Keys.CONTROL, "Alt": Keys.ALT, "Shift": Keys.SHIFT, "Cmd": Keys.META}


class WebDriver:
    """A server on a fresh data folder and one browser session on it."""

    platform = "browser"

    def __init__(self, folder: Path) -> None:
        if not shutil.which("chromium") or not shutil.which("chromedriver"):
            raise RuntimeError("needs Debian's chromium and chromium-driver")
        (folder / "web").mkdir()
        self.server = WebServer(folder / "web" / "data").start()
        options = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
            options.add_argument(flag)
        options.binary_location = shutil.which("chromium") or ""
        self.driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")), options=options)
        self.driver.get(self.server.url)

    def press(self, step: Step) -> None:
        actions = ActionChains(self.driver)
        if step.text:
            actions.send_keys(step.text).perform()
            return
        *mods, key = key_for(step, self.platform).split("+")
        for mod in mods:
            actions.key_down(MODIFIERS[mod])
        actions.send_keys(SELENIUM_KEYS.get(key, key.lower()))
        for mod in reversed(mods):
            actions.key_up(MODIFIERS[mod])
        actions.perform()

    def state(self) -> Optional[Dict[str, Any]]:
        return self.driver.execute_script("return typeof state === 'undefined' ? null : state")

    def wait(self, step: Step) -> Dict[str, Any]:
        return wait(self.state, step.done, f"browser: {step.name}")

    def screen(self) -> str:
        return self.driver.find_element("tag name", "body").text

    def close(self) -> None:
        self.driver.quit()
        self.server.kill()
