"""The page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium. Usage: play_catchess.py URL SCREENSHOT

Opens the page (a new game is Cat Chess, the person white, the engine
black and the cats), plays e2e4 by clicking, waits for black's and the
cats' replies, checks the zones, the cats and the move list, plays a
second move by dragging, checks the analysis panel, and saves a
screenshot. Never downloads a driver: both paths are given."""

import os
import sys
import tempfile
import time

os.environ["SE_OFFLINE"] = "true"  # selenium manager: never fetch anything

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1280,940",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def square(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'[data-square="{name}"]')


def piece(driver, name):
    return square(driver, name).get_attribute("data-piece")


def wait(driver, what, test, seconds=60):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]).until(lambda d: test(d))
    except Exception:
        status = driver.find_element(By.ID, "status").text
        error = driver.find_element(By.ID, "error").text
        raise AssertionError(f"timed out waiting for {what}; status {status!r}, error {error!r}")


def plies(driver):
    return driver.find_elements(By.CSS_SELECTOR, "[data-ply]")


def main():
    url, screenshot = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="catchess-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.get(url)
            wait(driver, "the board", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="e2"][data-piece="P"]'))
            assert "White to move" in driver.find_element(By.ID, "status").text
            assert len(driver.find_elements(By.CSS_SELECTOR, "[data-square]")) == 64
            cats = driver.find_elements(By.CSS_SELECTOR, '[data-piece="*"]')
            assert [c.get_attribute("data-square") for c in cats] == ["a4", "h5"], cats
            assert len(driver.find_elements(By.CSS_SELECTOR, "[data-zone]")) > 0, "no shaded zone"

            # e2e4 by clicking.
            square(driver, "e2").click()
            wait(driver, "targets", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="e4"].target'))
            square(driver, "e4").click()
            wait(driver, "black's and the cats' replies", lambda d: len(plies(d)) >= 3
                 and "White to move" in d.find_element(By.ID, "status").text)
            assert piece(driver, "e4") == "P" and piece(driver, "e2") is None
            entries = plies(driver)
            assert [e.get_attribute("data-ply") for e in entries] == ["1", "2", "3"], entries
            # The move list writes SAN (api.md, "Notation (SAN) in Cat Chess").
            assert entries[0].text == "e4", entries[0].text
            assert len(driver.find_elements(By.CSS_SELECTOR, "[data-zone]")) > 0, "no shaded zone"
            cats_now = [c.get_attribute("data-square") for c in driver.find_elements(By.CSS_SELECTOR, '[data-piece="*"]')]
            assert len(cats_now) == 2, cats_now

            # A second move by dragging the knight from g1 (f3 or h3, whichever is legal).
            square(driver, "g1").click()  # select, to see the targets
            targets = [t.get_attribute("data-square") for t in driver.find_elements(By.CSS_SELECTOR, ".target")]
            assert targets, "the knight has no move"
            square(driver, "g1").click()  # and deselect (the board is redrawn: find it again)
            # The board is redrawn as the drag starts: move by offset, not to an element.
            a, b = square(driver, "g1").rect, square(driver, targets[0]).rect
            dx, dy = round(b["x"] - a["x"]), round(b["y"] - a["y"])
            ActionChains(driver).click_and_hold(square(driver, "g1")).pause(0.1).move_by_offset(dx // 2, dy // 2) \
                .pause(0.1).move_by_offset(dx - dx // 2, dy - dy // 2).pause(0.1).release().perform()
            wait(driver, "the reply to the drag", lambda d: len(plies(d)) >= 6
                 and "White to move" in d.find_element(By.ID, "status").text)
            assert piece(driver, targets[0]) == "N" and piece(driver, "g1") is None

            depth = driver.find_element(By.ID, "a-depth").text
            assert depth not in ("", "–"), f"no analysis shown: {depth!r}"
            assert driver.find_elements(By.CSS_SELECTOR, "#outlook .cats"), "no outlook bar"
            time.sleep(0.3)
            driver.save_screenshot(screenshot)

            # A reload shows the same game (its id is kept in the address).
            before = [e.text for e in plies(driver)]
            assert "#game=" in driver.current_url, driver.current_url
            driver.refresh()
            wait(driver, "the same game after a reload", lambda d: [e.text for e in plies(d)] == before)
            assert piece(driver, targets[0]) == "N" and piece(driver, "e4") == "P"
            print(f"browser test passed: {len(plies(driver))} plies, targets {targets}, screenshot {screenshot}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
