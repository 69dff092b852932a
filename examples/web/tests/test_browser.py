"""The page in a real browser (Debian's chromium + chromium-driver, selenium): type a query key
by key, page, open a detail, heart, back, reload (same place), kill and restart the server (same
place after the page reconnects by itself). Saves a screenshot of each screen to
docs/screenshots/web-*.png when CINEMATIC_SCREENSHOTS=1."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import REPO

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (make test-web installs it)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
SHOTS = REPO / "docs" / "screenshots"


@pytest.fixture
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, timeout=20):
    """Waits until `condition(driver)` is truthy. The page renders each delivered state anew,
    so an element found a moment ago may be gone: such a try counts as not yet."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def click(driver, find):
    """Clicks the element `find(driver)` gives, finding it again if a render replaced it."""
    wait(driver, lambda d: find(d).click() or True)


def shown(driver, css):
    elements = driver.find_elements(By.CSS_SELECTOR, css)
    return elements[0] if elements and elements[0].is_displayed() else None


def rows(driver, list_name):
    return driver.find_elements(By.CSS_SELECTOR, f"ol[data-list='{list_name}'] li")


def shot(driver, name):
    if os.environ.get("CINEMATIC_SCREENSHOTS") == "1":
        driver.save_screenshot(str(SHOTS / f"web-{name}.png"))


def test_the_four_screens_and_coming_back(browser, start):
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    for key in "alien":                                  # key by key: one intent per key
        box.send_keys(key)
    wait(browser, lambda d: len(rows(d, "search")) == 20 and "Alien" in rows(d, "search")[0].text)
    click(browser, lambda d: d.find_element(By.ID, "more"))
    wait(browser, lambda d: len(rows(d, "search")) > 20)
    shot(browser, "search")
    title = wait(browser, lambda d: rows(d, "search")[2].find_element(By.CLASS_NAME, "title").text)
    click(browser, lambda d: rows(d, "search")[2])
    wait(browser, lambda d: shown(d, "#screen-detail dl"))
    click(browser, lambda d: d.find_element(By.ID, "heart"))
    wait(browser, lambda d: "♥ Favorite" in d.find_element(By.ID, "heart").text)
    shot(browser, "detail")

    browser.refresh()                                    # reload: the same place
    wait(browser, lambda d: shown(d, "#screen-detail dl") and title in d.find_element(By.TAG_NAME, "h2").text)
    server.kill()
    wait(browser, lambda d: "Reconnecting" in d.find_element(By.ID, "status").text)
    server.start()                                       # same data, same port: the page reconnects
    wait(browser, lambda d: not d.find_element(By.ID, "status").text and shown(d, "#screen-detail dl"), 40)
    wait(browser, lambda d: "♥ Favorite" in d.find_element(By.ID, "heart").text)

    click(browser, lambda d: d.find_element(By.ID, "back"))
    wait(browser, lambda d: len(rows(d, "search")) > 20 and d.find_element(By.ID, "query").get_attribute("value") == "alien")
    click(browser, lambda d: d.find_element(By.ID, "tab-discover"))
    wait(browser, lambda d: len(rows(d, "popular")) >= 20)
    shot(browser, "discover")
    click(browser, lambda d: d.find_element(By.ID, "tab-favorites"))
    wait(browser, lambda d: [r.find_element(By.CLASS_NAME, "title").text for r in rows(d, "favorites")] == [title])
    shot(browser, "favorites")
    click(browser, lambda d: rows(d, "favorites")[0].find_element(By.CLASS_NAME, "remove"))
    wait(browser, lambda d: shown(d, "#undo") and not rows(d, "favorites"))
    click(browser, lambda d: d.find_element(By.ID, "undo"))
    wait(browser, lambda d: len(rows(d, "favorites")) == 1)


def test_a_page_whose_session_the_server_no_longer_knows_starts_anew(browser, start, tmp_path):
    """A restarted server with a new signing key refuses the old cookie: the page gets a new
    session by itself (a fresh start, nobody else's) instead of retrying forever."""
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    box.send_keys("dune")
    wait(browser, lambda d: rows(d, "search"))
    server.kill()
    (tmp_path / "data" / "secret").unlink()
    server.start()
    wait(browser, lambda d: not d.find_element(By.ID, "status").text and shown(d, "#query")
         and d.find_element(By.ID, "query").get_attribute("value") == "", 60)
