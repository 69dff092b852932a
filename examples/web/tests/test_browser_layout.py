"""Every screen and state of the page at a desktop's 1280x800 and a phone's 390x844 and 360x740,
in a real browser: its words on screen, nothing wider than the viewport, every button at least 44 px
tall on the phone, the selected row scrolled back into view after a reload. The screenshots
in docs/screenshots/web-<screen>-<size>.png are these (CINEMATIC_SCREENSHOTS=1 writes them
anew); the test checks each is there."""

from __future__ import annotations

import os

import pytest

from test_browser import SHOTS, By, Keys, browser, click, press, rows, seen, shown, wait  # noqa: F401  (browser: the fixture)

SIZES = {"1280x800": (1280, 800), "390x844": (390, 844), "360x740": (360, 740)}
PHONES = ("390x844", "360x740")
TOUCH = 44          # px: the smallest touch target on a phone


def viewport(driver, width: int, height: int) -> None:
    driver.set_window_size(width, height)
    wait(driver, lambda d: d.execute_script("return window.innerWidth") == width)


def check(driver, name: str, size: str, *words: str) -> None:
    """The screen shows `words`, fits the viewport, has touch-sized buttons on a phone; its
    screenshot is in docs/screenshots."""
    wait(driver, lambda d: all(w in seen(d) for w in words))
    found = driver.execute_script("""
        const width = document.documentElement.clientWidth, visible = (e) => e.getClientRects().length > 0;
        const wide = [...document.querySelectorAll("body *")].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5);
        }).map((e) => `${e.tagName}#${e.id}`);
        const small = [...document.querySelectorAll("button")].filter(visible)
          .filter((b) => b.getBoundingClientRect().height < arguments[0]).map((b) => `${b.id || b.textContent}`);
        return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8), small};""", TOUCH)
    assert found["scroll"] <= found["width"] and not found["wide"], (name, size, found)
    if size in PHONES:
        assert not found["small"], (name, size, found)
    shot = SHOTS / f"web-{name}-{size}.png"
    if os.environ.get("CINEMATIC_SCREENSHOTS") == "1":
        driver.save_screenshot(str(shot))
    assert shot.is_file(), f"{shot} is missing: run make test-web with CINEMATIC_SCREENSHOTS=1"


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_and_says_what_it_shows(browser, start, size):
    viewport(browser, *SIZES[size])
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    check(browser, "search-idle", size, "Search the catalog", "Type at least 2 characters")
    box.send_keys("alien")
    check(browser, "search-results", size, "Alien", "shown")
    press(browser, Keys.ENTER)
    wait(browser, lambda d: shown(d, "#screen-detail dl"))
    check(browser, "film", size, "Runtime", "Rating", "Not in your favorites")
    click(browser, lambda d: d.find_element(By.ID, "heart"))
    wait(browser, lambda d: "♥ In your favorites" in d.find_element(By.ID, "heart").text)
    click(browser, lambda d: d.find_element(By.ID, "tab-discover"))
    check(browser, "discover", size, "Discover: Popular", "Top rated")
    click(browser, lambda d: d.find_element(By.ID, "tab-favorites"))
    wait(browser, lambda d: len(rows(d, "favorites")) == 1)
    check(browser, "favorites", size, "1 favorite", "Remove")
    click(browser, lambda d: rows(d, "favorites")[0].find_element(By.CLASS_NAME, "remove"))
    check(browser, "favorites-removed", size, "Removed", "Undo", "No favorites yet")
    press(browser, Keys.F1)
    check(browser, "help", size, "Next row", "Undo")
    press(browser, Keys.ESCAPE)
    server.kill()
    check(browser, "offline", size, "Reconnecting… Nothing you do is sent until then.")


def test_a_reload_scrolls_back_to_the_selected_row(browser, start):
    viewport(browser, 390, 600)
    server = start()
    browser.get(server.url)
    wait(browser, lambda d: shown(d, "#query")).send_keys("alien")
    wait(browser, lambda d: len(rows(d, "search")) >= 15)
    selected = "return [...document.querySelectorAll('ol.movies li')].findIndex((r) => r.classList.contains('selected'))"
    while browser.execute_script(selected) < 14:            # Down, one row at a time, to the 15th row
        before = browser.execute_script(selected)
        press(browser, Keys.DOWN)
        wait(browser, lambda d: d.execute_script(selected) != before)
    in_view = """const r = document.querySelector("ol.movies li.selected"), b = r.getBoundingClientRect();
                 return [r.textContent, b.top >= 0 && b.bottom <= window.innerHeight, window.scrollY];"""
    title, visible, scrolled = browser.execute_script(in_view)
    assert visible and scrolled > 0                          # the page scrolled to follow the keys
    browser.refresh()
    # The same row selected, and in view again (the page opens at the top; before, it stayed there).
    wait(browser, lambda d: d.execute_script(selected) == 14 and (v := d.execute_script(in_view))[0] == title
         and v[1] and v[2] > 0)
