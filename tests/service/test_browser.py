"""Headless Chromium against a live uvicorn: the gallery, a search, a detail page, a submitted script and its live result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .conftest import SCREENSHOTS, SEED_RECIPES

pytestmark = [pytest.mark.blender, pytest.mark.browser]

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SCRIPT = "import bpy\nbpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, location=(0, 0, 1))\n"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        pytest.skip("Debian chromium + chromedriver are not installed (`make setup` as root installs them)")
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(arg)
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def waiter(driver: webdriver.Chrome, seconds: float) -> WebDriverWait:
    """A wait that reads through page loads: a form submit or a link replaces the document, so an element read while the
    old page goes away is stale (or not there yet), which means "not yet", not a failure (seen in CI: the search).
    Chrome can also answer such a read with "unknown error: unhandled inspector error" (seen on the same
    search): a driver error is "not yet" too, and one that lasts still fails the test when the wait times out."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException, WebDriverException))


def loaded(driver: webdriver.Chrome, element) -> bool:
    """True when an <img> has finished loading real pixels."""
    return bool(driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", element))


def shot(driver: webdriver.Chrome, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"service-{name}.png"
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 1000
    return path


def test_gallery_search_detail_and_submit(browser: webdriver.Chrome, live_url: str) -> None:
    wait = waiter(browser, 30)
    browser.get(live_url + "/")
    cards = browser.find_elements(By.CSS_SELECTOR, "#grid li.card")
    assert len(cards) >= len(SEED_RECIPES)
    thumbs = browser.find_elements(By.CSS_SELECTOR, "#grid li.card img")
    wait.until(lambda d: all(loaded(d, img) for img in thumbs))
    assert any("CLIP is off" in b.text for b in browser.find_elements(By.CLASS_NAME, "banner"))
    shot(browser, "gallery")

    box = browser.find_element(By.ID, "q")
    box.send_keys("pine tree")
    browser.find_element(By.ID, "search-button").click()
    wait.until(lambda d: "for “pine tree”" in d.find_element(By.ID, "count").text)
    first = browser.find_element(By.CSS_SELECTOR, "#grid li.card")
    assert "pine" in first.text.lower()

    first.find_element(By.TAG_NAME, "a").click()
    wait.until(lambda d: d.find_elements(By.ID, "code"))
    assert "pine" in browser.find_element(By.ID, "prompt").text.lower()
    assert browser.find_elements(By.CSS_SELECTOR, "#code span.kw") and "import bpy" in browser.find_element(By.ID, "code").text
    wait.until(lambda d: loaded(d, d.find_element(By.ID, "render")))
    shot(browser, "detail")

    browser.get(live_url + "/submit")
    browser.find_element(By.ID, "script-text").send_keys(SCRIPT)
    browser.find_element(By.ID, "script-prompt").send_keys("an ico sphere")
    browser.find_element(By.ID, "validate-button").click()
    waiter(browser, 240).until(lambda d: d.find_element(By.ID, "result").get_attribute("data-state") in ("done", "failed", "refused"))
    result = browser.find_element(By.ID, "result")
    assert result.get_attribute("data-state") == "done" and result.get_attribute("data-status") == "ok", result.text
    assert "ok: the script ran cleanly" in browser.find_element(By.ID, "result-summary").text
    events = browser.find_element(By.ID, "events").text
    assert "run: ok" in events and "done: ok" in events
    wait.until(lambda d: loaded(d, d.find_element(By.ID, "result-render")))
    browser.execute_script("document.getElementById('progress-panel').scrollIntoView()")
    shot(browser, "submit")

    browser.find_element(By.ID, "prompt-text").send_keys("a low-poly pine tree in the snow")
    browser.find_element(By.ID, "generate-button").click()
    waiter(browser, 240).until(lambda d: d.find_element(By.ID, "job-id").text.startswith("generate"))
    waiter(browser, 240).until(lambda d: d.find_element(By.ID, "result").get_attribute("data-state") in ("done", "failed", "refused"))
    assert result.get_attribute("data-status") == "retrieved", result.text
    assert "import bpy" in browser.find_element(By.ID, "result-script").text
    assert "retrieve" in browser.find_element(By.ID, "events").text
    shot(browser, "generate")
