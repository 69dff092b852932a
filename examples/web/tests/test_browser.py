"""The page in a real browser (Debian's chromium + chromium-driver, selenium), checked on what a
person sees: the visible text of each screen (the core's words, drawn as they are), nothing
wider than a 1280 px window, and the keymap's keys. Also: reload and a killed server bring the
same place back. Saves a screenshot of each screen to docs/screenshots/web-*.png when
CINEMATIC_SCREENSHOTS=1."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import REPO

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (make test-web installs it)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
SHOTS = REPO / "docs" / "screenshots"
WIDTH = 1280


@pytest.fixture
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={WIDTH},1000"):
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


def seen(driver) -> str:
    """The page's visible text, as a person reads it."""
    return driver.find_element(By.TAG_NAME, "body").text


def says(*words):
    """A condition: the visible text holds every one of `words`."""
    return lambda d: all(w in seen(d) for w in words)


def status(driver) -> str:
    found = driver.find_elements(By.ID, "list-status")
    return found[0].text if found else ""


def selected(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "ol.movies li.selected .title")
    return found[0].text if found else None


def press(driver, *keys):
    """Presses keys as a person does: on whatever has the focus."""
    for key in keys:
        ActionChains(driver).send_keys(key).perform()


def chord(driver, modifier, key):
    ActionChains(driver).key_down(modifier).send_keys(key).key_up(modifier).perform()


def nothing_wider_than_the_window(driver):
    """No sideways scrolling, and no element reaching past the window's right edge."""
    found = driver.execute_script("""
        const width = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll("body *")].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5);
        }).map((e) => `${e.tagName}#${e.id}.${e.className}: ${(e.textContent || "").slice(0, 50)}`);
        return {width, inner: window.innerWidth, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 8)};""")
    assert found["inner"] == WIDTH, found
    assert found["scroll"] <= found["width"] and not found["wide"], found


def shot(driver, name):
    if os.environ.get("CINEMATIC_SCREENSHOTS") == "1":
        driver.save_screenshot(str(SHOTS / f"web-{name}.png"))


def type_alien(driver):
    box = wait(driver, lambda d: shown(d, "#query"))
    for key in "alien":                                  # key by key: one intent per key
        box.send_keys(key)
    wait(driver, lambda d: len(rows(d, "search")) == 20 and "Alien" in rows(d, "search")[0].text)
    return box


def test_the_film_page_shows_its_facts_and_fits_the_window(browser, start):
    """The film page draws the core's facts (it showed `[object HTMLElement]` for five of them
    and scrolled sideways at 1280 px): uses only what the page has always had (the field, a
    row's click, the Detail's screen), so it fails on that page for what it showed."""
    server = start()
    browser.get(server.url)
    type_alien(browser)
    click(browser, lambda d: rows(d, "search")[0])
    wait(browser, lambda d: shown(d, "#screen-detail dl") and "Alien (1979)" in seen(d))
    text = seen(browser)
    assert "[object" not in text, text
    for fact in ("Runtime\n116 min", "Genres\nnone listed", "MPAA\nR", "Budget\n$11,000,000",
                 "Rating\n8.3 from 63,400 votes"):
        assert fact in text, (fact, text)
    assert "Share of votes per star rating (bars on a 0-100% scale)" in text and "24.5%" in text
    nothing_wider_than_the_window(browser)


def test_each_screen_says_the_cores_words(browser, start):
    server = start()
    browser.get(server.url)
    wait(browser, says("Search", "Type at least 2 characters to search: a title (dune)"))
    assert "Type at least two characters" not in seen(browser)
    nothing_wider_than_the_window(browser)
    box = wait(browser, lambda d: shown(d, "#query"))
    box.send_keys("xqzvwk")
    wait(browser, says("Nothing found", "No film in the catalog matches “xqzvwk”: it holds 58,788 films from 1893 to 2005"))
    box.send_keys(Keys.BACKSPACE * len("xqzvwk"))       # the field keeps its editing keys
    wait(browser, says("Type at least 2 characters to search"))
    type_alien(browser)
    wait(browser, lambda d: status(d) == "20 shown, more match")
    first = rows(browser, "search")[0].text
    assert first.startswith("Alien (1979)") and "★ 8.3" in first, first
    nothing_wider_than_the_window(browser)
    shot(browser, "search")

    click(browser, lambda d: d.find_element(By.ID, "tab-discover"))
    wait(browser, lambda d: status(d) == "20 shown, more match" and len(rows(d, "popular")) == 20)
    assert "Discover: Popular" in seen(browser)
    nothing_wider_than_the_window(browser)
    shot(browser, "discover")
    click(browser, lambda d: d.find_element(By.ID, "tab-favorites"))
    wait(browser, says("No favorites yet", "Open a film (Enter on a row) and press F to keep it here"))
    nothing_wider_than_the_window(browser)


def test_keys_move_open_go_back_and_load_more(browser, start):
    server = start()
    browser.get(server.url)
    type_alien(browser)                                  # the field has the focus: arrows still move
    titles = [r.find_element(By.CLASS_NAME, "title").text for r in rows(browser, "search")]
    press(browser, Keys.DOWN, Keys.DOWN, Keys.ENTER)
    wait(browser, lambda d: shown(d, "#screen-detail") and d.find_element(By.ID, "title").text.startswith(titles[2] + " ("))
    wait(browser, says("Runtime", "154 min"))           # Aliens (1986)
    shot(browser, "detail")
    press(browser, "f")                                  # the heart
    wait(browser, lambda d: d.find_element(By.ID, "heart").text == "♥ In your favorites")
    press(browser, Keys.ESCAPE)
    wait(browser, lambda d: shown(d, "#screen-search") and selected(d) == titles[2])
    assert browser.find_element(By.ID, "query").get_attribute("value") == "alien"

    press(browser, Keys.F1)                              # the host's help: the keymap's lines
    wait(browser, lambda d: shown(d, "#help") and "Next row" in d.find_element(By.ID, "help").text)
    assert "Last row (Down from there loads more)" in seen(browser)
    press(browser, Keys.ESCAPE)
    wait(browser, lambda d: not shown(d, "#help"))

    chord(browser, Keys.ALT, Keys.PAGE_DOWN)             # the next tab: Discover (the browser keeps Tab)
    wait(browser, lambda d: status(d) == "20 shown, more match" and len(rows(d, "popular")) == 20)
    popular = [r.find_element(By.CLASS_NAME, "title").text for r in rows(browser, "popular")]
    press(browser, Keys.END)
    wait(browser, lambda d: selected(d) == popular[19])
    press(browser, Keys.DOWN)                            # past the last row: the next page
    wait(browser, lambda d: status(d) == "40 shown, more match" and selected(d) not in popular and selected(d))
    assert rows(browser, "popular")[-1].get_attribute("class") == "selected"
    press(browser, Keys.ARROW_RIGHT)
    wait(browser, says("Discover: Top rated"))

    click(browser, lambda d: d.find_element(By.ID, "tab-favorites"))
    wait(browser, lambda d: [r.find_element(By.CLASS_NAME, "title").text for r in rows(d, "favorites")] == [titles[2]])
    shot(browser, "favorites")
    press(browser, Keys.DELETE)                          # no question: the notice offers undo
    wait(browser, lambda d: shown(d, "#undo") and not rows(d, "favorites"))
    chord(browser, Keys.CONTROL, "z")
    wait(browser, lambda d: len(rows(d, "favorites")) == 1)


def test_clicks_reload_and_a_restarted_server_are_the_same_place(browser, start):
    server = start()
    browser.get(server.url)
    type_alien(browser)
    click(browser, lambda d: d.find_element(By.ID, "more"))
    wait(browser, lambda d: status(d) == "40 shown, more match")
    # The paging and sort buttons' tooltips name the keymap's keys for the browser.
    tips = {name: browser.find_element(By.ID, name).get_attribute("title") for name in ("page-up", "page-down", "sort")}
    assert tips == {"page-up": "Previous page (PageUp)", "page-down": "Next page (PageDown)", "sort": "Sort (F2)"}
    click(browser, lambda d: d.find_element(By.ID, "page-down"))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "ol.movies").get_attribute("start") == "21")   # row 21 selected, a full page from it
    title = wait(browser, lambda d: rows(d, "search")[2].find_element(By.CLASS_NAME, "title").text)
    click(browser, lambda d: rows(d, "search")[2])
    wait(browser, lambda d: shown(d, "#screen-detail dl") and title in d.find_element(By.ID, "title").text)
    click(browser, lambda d: d.find_element(By.ID, "heart"))
    wait(browser, lambda d: "♥ In your favorites" in d.find_element(By.ID, "heart").text)

    browser.refresh()                                    # reload: the same place
    wait(browser, lambda d: shown(d, "#screen-detail dl") and title in d.find_element(By.ID, "title").text)
    server.kill()
    wait(browser, lambda d: "Reconnecting" in d.find_element(By.ID, "status").text)
    server.start()                                       # same data, same port: the page reconnects
    wait(browser, lambda d: not d.find_element(By.ID, "status").text and shown(d, "#screen-detail dl"), 40)
    wait(browser, lambda d: "♥ In your favorites" in d.find_element(By.ID, "heart").text)

    click(browser, lambda d: d.find_element(By.ID, "back"))
    wait(browser, lambda d: status(d) == "40 shown, more match" and selected(d) == title
         and d.find_element(By.ID, "query").get_attribute("value") == "alien")
    click(browser, lambda d: d.find_element(By.ID, "tab-favorites"))
    wait(browser, lambda d: [r.find_element(By.CLASS_NAME, "title").text for r in rows(d, "favorites")] == [title])
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
