"""Replays: the terminal replay and the self-contained HTML page, the page tested in a real
headless Chromium (Debian's chromium and chromium-driver packages, driven by Selenium).

The browser tests (marker ``browser``) need /usr/bin/chromium and /usr/bin/chromedriver
(``MOUSEHOLE_CHROMIUM``, ``MOUSEHOLE_CHROMEDRIVER`` to point elsewhere). Without them they
are skipped, the test summary saying what to install; CI installs them and sets
``MOUSEHOLE_REQUIRE=browser`` (.ci/run), which makes them fail instead: a replay page that
was never opened is not tested (conftest.py)."""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest

import mousehole
from conftest import CHROMEDRIVER, CHROMIUM, need
from gamecases import random_walk
from mousehole import records, replay


def _record(name: str, engine: str, seed: int = 4, **params: Any) -> records.Record:
    game = mousehole.load(name, engine=engine, **params)
    state = game.new_state(seed)
    for a in random_walk(state.clone(), seed):
        state.apply_action(a)
    return records.record_of(
        state, seats=["ann"] + [f"random:{i}" for i in range(1, game.num_players)], date="2026-11-26"
    )


@pytest.mark.parametrize("name", mousehole.game_names())
def test_text_replay(name: str, engine: str) -> None:
    rec = _record(name, engine)
    lines = list(replay.text_lines(rec, engine=engine))
    moves = [ln for ln in lines if re.match(r"^\d+\. ", ln)]
    assert len(moves) == len(rec.actions)
    assert moves[0].startswith("1. ") and rec.moves[0] in moves[0]
    assert lines[-1].startswith("result: ")
    full = list(replay.text_lines(rec, diagrams=True, engine=engine))
    assert len(full) > len(lines)
    seen = list(replay.text_lines(rec, for_player=1, engine=engine))
    final = rec.final_state(engine=engine)
    diagram = final.game._render(final.to_dict(for_player=1)).split("\n")
    assert seen[-1 - len(diagram) : -1] == diagram


@pytest.mark.parametrize("name", mousehole.game_names())
def test_html_page_is_self_contained(name: str, engine: str) -> None:
    rec = _record(name, engine)
    page = replay.html(rec, engine=engine)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count('class="frame"') == len(rec.actions) + 1
    # no network: nothing loaded from elsewhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page
    assert page == replay.html(rec, engine=engine)  # deterministic


# -- in a real browser -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need("browser")  # (the marker's check ran already; a test that takes the fixture unmarked too)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,900"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.parametrize("name", mousehole.game_names())
def test_replay_page_in_chromium(name: str, browser: Any, tmp_path: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    rec = _record(name, "compiled" if "compiled" in mousehole.available_engines() else "python")
    path = tmp_path / f"{name}.html"
    path.write_text(replay.html(rec), encoding="utf-8")
    browser.get(path.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors

    def visible() -> str:
        shown = [f for f in browser.find_elements(By.CSS_SELECTOR, ".frame") if f.is_displayed()]
        assert len(shown) == 1
        return str(shown[0].get_attribute("id"))

    assert visible() == "frame-0"
    caption = browser.find_element(By.ID, "caption")
    assert caption.text == "start"
    first = browser.get_screenshot_as_png()
    browser.find_element(By.ID, "next").click()
    assert visible() == "frame-1"
    assert caption.text.startswith("1. ")
    second = browser.get_screenshot_as_png()
    assert first != second, "the next button did not change the picture"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert visible() == "frame-0"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    last = len(rec.actions)
    assert visible() == f"frame-{last}"
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed() and result.text.startswith("Result: ")
    if rec.result["winners"]:
        assert "won:" in result.text
    assert browser.find_element(By.ID, "slider").get_attribute("value") == str(last)
    assert not browser.find_element(By.ID, "next").is_enabled()
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors


# -- the command line: play --record, replay --------------------------------------------------


def test_play_writes_a_record_and_replay_reads_it(monkeypatch: Any, tmp_path: Any, capsys: Any) -> None:
    from test_cli import _play_in_process, run

    path = tmp_path / "game.json"
    argv = [
        "play",
        "kasimir",
        "--players",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "6",
        "--name",
        "ann",
        "--record",
        str(path),
    ]
    status, out, typed = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    assert out.rstrip().endswith(f"record written to {path}")
    rec = records.loads(path.read_text(encoding="utf-8"))
    assert rec.seats == ("random", "ann") and rec.seed == 6
    assert rec.result["terminal"]
    mine = [m for m in rec.moves if f"seat 1 (you): {m}" in out]
    assert mine, "the person's moves are in the record"

    status, text, err = run(capsys, "replay", str(path))
    assert status == 0, err
    lines = text.splitlines()
    assert sum(1 for ln in lines if re.match(r"^\d+\. ", ln)) == len(rec.actions)
    assert lines[-1].startswith("result: ")

    page = tmp_path / "game.html"
    status, text, err = run(capsys, "replay", str(path), "--html", str(page), "--view", "1")
    assert status == 0, err
    assert page.read_text(encoding="utf-8").count('class="frame"') == len(rec.actions) + 1


def test_replay_refuses_bad_records_with_one_line(tmp_path: Any, capsys: Any) -> None:
    from test_cli import run

    rec = _record("cheese_rescue", "python").to_dict()
    rec["actions"][3] = rec["actions"][2]  # a cell already taken: illegal at move 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(bad))
    assert status == 2 and "move 4" in err and len(err.strip().splitlines()) == 1
    status, out, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([_record("m", "python").to_dict()]), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(listed), "--index", "3")
    assert status == 2 and "holds 1 records" in err
    status, out, err = run(capsys, "replay", str(listed), "--view", "9")
    assert status == 2 and "--view" in err


def test_header_names_the_game_and_hides_the_tables(engine: str) -> None:
    """The replay's header: the game's title and player count, the seats, the date, and the
    parameters that differ from the defaults on one short line (M's 90-card table is not
    printed: the page keeps the full parameters behind a disclosure)."""
    rec = _record("m", engine)
    lines = list(replay.text_lines(rec, engine=engine))
    assert lines[0] == "M, 4 players (m)" and lines[1] == "parameters: the defaults"
    assert all("blue 30" not in line for line in lines[:3])
    page = replay.html(rec, engine=engine)
    about = page.split('<div id="about">', 1)[1].split("</div>", 1)[0]
    assert about.startswith("M, 4 players &middot; seats: 0: ")
    assert "<details><summary>parameters: the defaults</summary><pre>" in page
    short = _record("m", engine, max_turns=30)
    assert list(replay.text_lines(short, engine=engine))[1] == "parameters besides the defaults: max_turns=30"
