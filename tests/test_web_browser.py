"""The web app in a real browser (Playwright driving Debian's Chromium): a GM makes a game
night, sees its pages and downloads the packet, at a laptop's width and a phone's.

Without Chromium these skip with one line; in CI they fail instead (tests/web.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run
from tests.web import shot


def test_a_gm_makes_a_game_night_sees_its_pages_and_prints_it(
    browser: Any, server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto(server + "/")
    assert "No game nights yet" in page.inner_text("main")
    shot(page, "home-1280")
    page.select_option("select[name=ruleset]", "convoy")
    page.fill("input[name=seed]", "7")
    page.fill("input[name=year]", "not a year")
    page.click("text=Make the scenario")
    assert "year: a whole number" in page.inner_text(".problems")
    shot(page, "refused-1280")
    page.go_back()
    page.fill("input[name=year]", "")
    page.click("text=Make the scenario")
    page.wait_for_selector("ol.pages img")
    assert "/nights/" in page.url
    assert "seed 7" in page.inner_text("main")
    images = page.locator("ol.pages img")
    count = images.count()
    assert count > 2
    images.first.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('ol.pages img').naturalWidth > 0")
    shot(page, "night-1280")

    with page.expect_download() as waited:
        page.click("text=Download the packet")
    downloaded = tmp_path / "browser.pdf"
    waited.value.save_as(downloaded)
    with page.expect_download() as waited:
        page.click("text=Scenario file (YAML)")
    scenario_file = tmp_path / "night.yaml"
    waited.value.save_as(scenario_file)
    target = tmp_path / "cli.pdf"
    code, _, err = run(capsys, "packet", "--from", str(scenario_file), "-o", str(target))
    assert code == 0, err
    assert downloaded.read_bytes() == target.read_bytes()

    # without JavaScript the print form leads to a page of the pages
    plain = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    bare = plain.new_page()
    bare.goto(page.url)
    assert bare.locator("ol.pages img").count() == 0  # the night page answers before layout
    bare.check("input[name=mono]")
    bare.click("text=Show the pages")
    assert "/pages?" in bare.url and "mono=1" in bare.url
    assert bare.locator("ol.pages img").count() == count
    shot(bare, "pages-no-js-1280")
    plain.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    small = phone.new_page()
    small.goto(page.url)
    small.wait_for_selector("ol.pages img")
    wide = small.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the page is {wide} px wide on a 390 px phone"
    shot(small, "night-390")
    small.goto(server + "/")
    shot(small, "home-390")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
    phone.close()
