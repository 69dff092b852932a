"""What the page does with input it cannot send as it is, in a real browser: a paste longer
than an intent's frame is shortened by the app, which says so, and offline the page says it is
offline and takes no input (nothing typed is silently lost)."""

from __future__ import annotations

from test_browser import By, browser, seen, shown, wait  # noqa: F401  (browser: the fixture)

#: What a search keeps of a query (the app's bound, docs/wire.md "app"), and its notice.
KEPT = 256
SHORTENED = f"Your search was shortened to {KEPT} characters"


def field(driver):
    return driver.find_element(By.ID, "query")


def test_a_paste_longer_than_a_frame_is_shortened_and_the_page_says_so(browser, start):
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    pasted = "alien " + "x" * 5000                  # 5 KB: more than an intent's 4,096-byte frame
    box.click()
    browser.execute_script("const f = arguments[0]; f.value = arguments[1]; f.dispatchEvent(new Event('input'));",
                           box, pasted)
    wait(browser, lambda d: SHORTENED in seen(d) and field(d).get_attribute("value") == pasted[:KEPT])
    assert browser.find_element(By.ID, "status").text == ""       # no refusal, the socket still open
    box.send_keys("\b" * (KEPT - len("alien")))                     # the field works on: back to "alien"
    wait(browser, lambda d: field(d).get_attribute("value") == "alien" and "Alien" in seen(d))


def test_offline_the_page_says_so_and_takes_no_input(browser, start):
    server = start()
    browser.get(server.url)
    box = wait(browser, lambda d: shown(d, "#query"))
    box.send_keys("dune")
    wait(browser, lambda d: "Dune" in seen(d) and field(d).get_attribute("value") == "dune")
    server.kill()
    wait(browser, lambda d: "Reconnecting… Nothing you do is sent until then." in d.find_element(By.ID, "status").text)
    assert field(browser).get_attribute("readonly") == "true"
    assert "offline" in browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    field(browser).send_keys("xyz")                                 # typed offline: not taken
    assert field(browser).get_attribute("value") == "dune"

    server.start()
    wait(browser, lambda d: d.find_element(By.ID, "status").text == "" and not field(d).get_attribute("readonly"), 40)
    field(browser).send_keys("\b" * 4 + "alien")                    # online again: typing searches
    wait(browser, lambda d: field(d).get_attribute("value") == "alien" and "Aliens" in seen(d))
