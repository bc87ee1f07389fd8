"""The browser client of ``mousehole serve`` in a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium as the replay page's test does), at a phone's size: two
browser seats and a bot play whole games of all four games by clicking the moves, to the end
with why and the scores; the replay link opens a replay page whose script runs under its
Content-Security-Policy; the page never scrolls sideways; the console stays free of errors.

Without Chromium the tests are skipped, unless ``MOUSEHOLE_REQUIRE`` names ``browser`` (CI),
where they fail."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Iterator, List

import pytest

import mousehole
from conftest import CHROMEDRIVER, CHROMIUM
from serve_kit import ServerProcess, need, post_table

pytestmark = [pytest.mark.serve, pytest.mark.browser]

#: a phone's screen, in CSS pixels
PHONE = (412, 915)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need(
        "browser",
        os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER),
        "the served table's browser test needs Chromium: apt-get install chromium chromium-driver (Debian)",
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={PHONE[0]},{PHONE[1]}",
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[ServerProcess]:
    db = os.path.join(str(tmp_path_factory.mktemp("serve")), "serve.db")
    with ServerProcess(db, "--picture-workers", "1") as s:
        yield s


def _phone(driver: Any) -> None:
    """The current tab as a phone's screen: headless Chromium's windows are at least 500 CSS
    pixels wide, whatever --window-size says, so the tab's metrics are set through the
    DevTools protocol (per tab)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
    )


def _new_tab(driver: Any, url: str) -> str:
    driver.switch_to.new_window("tab")
    _phone(driver)
    driver.get(url)
    assert driver.execute_script("return window.innerWidth") == PHONE[0]
    return str(driver.current_window_handle)


def _errors(driver: Any) -> List[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _wait(driver: Any, script: str, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {script!r}")


@pytest.mark.parametrize("game", mousehole.game_names())
def test_two_browser_seats_and_a_bot_play_to_the_end(game: str, browser: Any, server: ServerProcess) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    t = post_table(
        server.url, {"game": game, "seconds": 0.05, "seats": [{"name": "ann"}, {"name": "bob"}, {"bot": "easy"}]}
    )
    driver = browser
    tabs = [_new_tab(driver, server.url + t["seats"][p]["link"][1:]) for p in (0, 1)]
    for tab, who in zip(tabs, ("ann", "bob")):
        driver.switch_to.window(tab)
        _wait(driver, "return document.body.dataset.seq !== undefined")
        assert f"({who})" in driver.find_element(By.ID, "who").text
    rng = random.Random(game)
    clicks = 0
    over = [False, False]
    end = time.monotonic() + 400
    while not all(over):
        assert time.monotonic() < end, f"{game}: not over after {clicks} clicks"
        for i, tab in enumerate(tabs):
            driver.switch_to.window(tab)
            if driver.execute_script("return document.body.dataset.status") == "over":
                over[i] = True
                continue
            seq = driver.execute_script("return document.body.dataset.seq")
            try:
                buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "button.move") if b.is_enabled()]
                if not buttons:
                    continue
                assert driver.find_element(By.ID, "status").text == "Your move."
                rng.choice(buttons).click()  # a real click on the move's button
            except StaleElementReferenceException:
                # the page drew its moves again between reading and clicking (another seat's
                # move or the bot's arrived): nothing was clicked; read them again
                continue
            clicks += 1
            _wait(driver, f"return document.body.dataset.seq !== '{seq}' || !document.getElementById('banner').hidden")
        time.sleep(0.02)
    for tab in tabs:
        driver.switch_to.window(tab)
        assert driver.find_element(By.ID, "status").text == "The game is over."
        assert not driver.find_element(By.ID, "result").get_attribute("hidden")
        assert driver.find_element(By.ID, "why").text.startswith("Why: ")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#scores li")) == 3
        assert len(driver.find_elements(By.CSS_SELECTOR, "#events li")) > 3
        assert driver.execute_script("var i = document.getElementById('picture'); return i.complete && i.naturalWidth")
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert clicks > 3
    # the replay of seat 1's view, from its link
    driver.find_element(By.ID, "replay").click()
    _wait(driver, "return !document.getElementById('replay-link').hidden")
    href = driver.find_element(By.ID, "replay-link").get_attribute("href")
    driver.get(href)
    frames = driver.execute_script("return document.querySelectorAll('.frame').length")
    assert frames > 1
    assert driver.execute_script("return document.querySelectorAll('.frame:not([hidden])').length") == 1
    assert "seat 1" in driver.page_source
    errors = _errors(driver)
    assert errors == [], errors
    for tab in tabs:
        driver.switch_to.window(tab)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])


def test_the_lobby_makes_a_table_and_the_filter_narrows_the_moves(browser: Any, server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser
    _new_tab(driver, server.url)
    _wait(driver, "return document.querySelectorAll('#game option').length > 0")
    Select(driver.find_element(By.ID, "game")).select_by_value("m")
    Select(driver.find_element(By.ID, "players")).select_by_value("3")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seat-list li")
    assert len(seats) == 3
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    Select(seats[1].find_element(By.CSS_SELECTOR, "select.kind")).select_by_value("medium")
    driver.find_element(By.ID, "make").click()
    _wait(driver, "return !document.getElementById('made').hidden")
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#links a")]
    assert len(links) == 2 and all("#" in link for link in links)  # a person (seats 1, 2: bots) and the spectators
    texts = driver.find_element(By.ID, "links").text
    assert "played by the server" in texts
    driver.get(links[0])
    _wait(driver, "return document.querySelectorAll('button.move').length > 0")
    every = len(driver.find_elements(By.CSS_SELECTOR, "button.move"))
    first = driver.find_elements(By.CSS_SELECTOR, "button.move")[0].text
    box = driver.find_element(By.ID, "filter")
    box.send_keys(first)
    narrowed = driver.find_elements(By.CSS_SELECTOR, "button.move")
    assert 1 <= len(narrowed) < every and all(first in b.text for b in narrowed)
    driver.get(links[1])  # the spectators' link: no moves, no replay button
    _wait(driver, "return document.body.dataset.seq !== undefined")
    assert "spectator" in driver.find_element(By.ID, "who").text
    assert driver.find_element(By.ID, "moves-box").get_attribute("hidden")
    assert driver.find_element(By.ID, "replay-box").get_attribute("hidden")
    assert _errors(driver) == []
