"""Every screen has a URL, in a real browser: the address bar follows the screen shown
(/search?q=, /film/ID, /favorites, /discover/SECTION), Back and Forward move through the
screens the person saw (the page, never the app's history, is left only from its first
screen), and a link opened in a new session shows that screen."""

from __future__ import annotations

from urllib.parse import urlsplit

from test_browser import By, Keys, browser, press, rows, seen, shown, wait  # noqa: F401  (browser: the fixture)


def path(driver) -> str:
    """The address bar's path and query."""
    parts = urlsplit(driver.current_url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def at(server, url: str) -> str:
    """The address of ``url`` (a path and query) on ``server``."""
    return server.url.rstrip("/") + url


def heading(driver) -> str:
    """The film page's heading, or "" when no film page is shown."""
    return driver.find_element(By.ID, "title").text if shown(driver, "#screen-detail dl") else ""


def test_back_and_forward_move_through_the_screens_seen(browser, start):
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    assert path(browser) == "/search"
    box.send_keys("alien")
    wait(browser, lambda d: path(d) == "/search?q=alien" and rows(d, "search"))
    press(browser, Keys.ENTER)                        # the selected film (the first row)
    film = wait(browser, lambda d: heading(d))
    film_url = wait(browser, lambda d: path(d).startswith("/film/") and path(d))
    browser.find_element(By.ID, "tab-favorites").click()
    wait(browser, lambda d: path(d) == "/favorites" and "No favorites yet" in seen(d))
    browser.find_element(By.ID, "tab-discover").click()
    wait(browser, lambda d: path(d) == "/discover/popular" and "Discover: Popular" in seen(d))

    browser.back()
    wait(browser, lambda d: path(d) == "/favorites" and "No favorites yet" in seen(d))
    browser.back()
    wait(browser, lambda d: path(d) == film_url and heading(d) == film)
    browser.back()
    wait(browser, lambda d: path(d) == "/search?q=alien" and not heading(d) and rows(d, "search")
         and d.find_element(By.ID, "query").get_attribute("value") == "alien")
    browser.forward()
    wait(browser, lambda d: path(d) == film_url and heading(d) == film)


def test_a_link_opens_its_screen_in_a_new_session(browser, start):
    server = start()
    browser.get(at(server, "/search?q=dune"))
    wait(browser, lambda d: d.find_element(By.ID, "query").get_attribute("value") == "dune" and "Dune" in seen(d))
    press(browser, Keys.ENTER)
    film = wait(browser, lambda d: heading(d))
    film_url = wait(browser, lambda d: path(d).startswith("/film/") and path(d))

    browser.delete_all_cookies()                      # a new session, opened from the link
    browser.get(at(server, film_url))
    wait(browser, lambda d: heading(d) == film and path(d) == film_url)
    browser.delete_all_cookies()
    browser.get(at(server, "/discover/topRated"))
    wait(browser, lambda d: "Discover: Top rated" in seen(d) and path(d) == "/discover/topRated")
    browser.get(at(server, "/film/999999999999"))   # no such film: the app says so, nothing breaks
    wait(browser, lambda d: path(d) == "/film/999999999999" and "The catalog has no such film" in seen(d))
