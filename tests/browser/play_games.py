"""The page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium. Usage: play_games.py URL SCREENSHOT_DIR

Plays every game by clicks, as a person would; every game is made by New
game with its seats' players (opening / makes none), and the server plays
the engine's seats:
* Cat Chess: e2e4 by clicking, the engine's black and cats reply, a move by
  dragging, the zones and the analysis panel, the move list stepped with
  the arrow keys and clicked, a reload finds the same game;
* Cat's Chess 10x10 (both seats the person's): a turn with a teleport (the
  server rolls) and a pawn's move, a turn with a neutral's move, a turn
  with a cat's move, the end of the optional second cat move and a mouse
  put on the first rank; the figures and the legend; one move-list entry
  per turn;
* xiangqi: moves by clicks against the engine, whose thinking is hidden,
  pieces as characters and as letters;
* chess: a clock kept by the server that runs on through a reload and
  runs out (the server finds the flag fall, and the record says so, with
  the time control), a rematch with the seats rotated (black's clock runs
  on through a reload), a resignation, and a level picker.
Screenshots of each game go to SCREENSHOT_DIR. Never downloads a driver:
both paths are given."""

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
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


# Every game's rules marked as read in this browser (rules.js opens a
# game's rules by itself at its first visit), before any script of the
# page runs; a page without storage (data:, about:blank) is left alone.
RULES_SEEN = ("try { if (!localStorage.getItem('catchess-rules-seen')) localStorage.setItem('catchess-rules-seen', "
              "JSON.stringify(['catchess', 'chess', 'xiangqi', 'catschess10'])); } catch (e) {}")


def browser(profile, rules_seen=True, phone=None):
    """A headless Chromium on `profile`; `rules_seen`: no game's rules open
    by themselves (the tests that are not about them); `phone`: (width,
    height) of a phone's screen, emulated (a headless window is never
    narrower than 500 px)."""
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
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    if rules_seen:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RULES_SEEN})
    if phone:
        width, height = phone
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return driver


def rules_open(driver):
    return driver.execute_script("return document.getElementById('rules-dialog').open;")


def close_rules(driver):
    """Closes the rules panel if it is open (a game's first visit)."""
    if rules_open(driver):
        driver.find_element(By.ID, "rules-close").click()
        wait(driver, "the rules closed", lambda d: not rules_open(d))


def confirm(driver, yes=True):
    """Answers the page's question (resign, delete)."""
    wait(driver, "the question", lambda d: d.execute_script("return document.getElementById('confirm').open;"))
    driver.find_element(By.ID, "confirm-yes" if yes else "confirm-no").click()
    wait(driver, "the question answered", lambda d: not d.execute_script("return document.getElementById('confirm').open;"))


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


def text(driver, id):
    return driver.find_element(By.ID, id).text


def status(driver):
    return text(driver, "status")


def turns(driver):
    return [e.text for e in plies(driver)]


def seat_select(driver, seat, which):
    """A picker of the next game's seat (`kind` or `level`)."""
    return Select(driver.find_element(By.CSS_SELECTOR, f'#setup-seats [data-seat="{seat}"] select.{which}'))


def game_id(driver):
    return driver.find_element(By.ID, "board-area").get_attribute("data-game")


def player(driver, seat):
    """Who plays `seat` of the game shown, as its Players panel says."""
    return driver.find_element(By.CSS_SELECTOR, f'[data-player="{seat}"] .who').text


def error(driver):
    """The line under the board: why a move was refused."""
    return text(driver, "error")


def set_seats(driver, variant, kinds):
    """The New-game form: `variant`, each seat's kind."""
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    for seat, kind in kinds.items():
        seat_select(driver, seat, "kind").select_by_value(kind)


def load_fen(driver, variant, fen, kinds):
    """A new game of `variant` from `fen` (Load FEN), seats `kinds`."""
    set_seats(driver, variant, kinds)
    old = game_id(driver)
    field = driver.find_element(By.ID, "fen")
    field.clear()
    field.send_keys(fen)
    driver.find_element(By.ID, "fen-load").click()
    wait(driver, f"the game from {fen}", lambda d: game_id(d) not in ("", old) and d.find_elements(By.ID, "board-svg"))


def new_game(driver, variant, seats=None, levels=None, thinking=False):
    """A new game of `variant` made by New game: `seats` ({seat: "you" |
    "link" | "open" | "engine"}, "person" for "you") and `levels` ({seat:
    level}) set in the pickers first; `thinking`: the engine's thinking
    shown to the players."""
    old = game_id(driver)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    for seat, kind in (seats or {}).items():
        seat_select(driver, seat, "kind").select_by_value("you" if kind == "person" else kind)
    for seat, level in (levels or {}).items():
        seat_select(driver, seat, "level").select_by_value(str(level))
    box = driver.find_element(By.ID, "show-thinking")
    if box.is_selected() != thinking:
        box.click()
    driver.find_element(By.ID, "new-game").click()
    wait(driver, f"a new {variant} game", lambda d: game_id(d) not in ("", old) and not plies(d)
         and d.find_elements(By.ID, "board-svg"))
    close_rules(driver)


def axe_audit(driver, axe, what):
    """axe-core (the source `axe`) run inside the page: no serious or
    critical violation. Returns every violation found, as (impact, id,
    count)."""
    driver.set_script_timeout(120)
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(axe)
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, { resultTypes: ['violations'] }).then("
        "  (r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,"
        "    nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) }))),"
        "  (e) => done({ error: String(e) }));")
    assert not isinstance(found, dict), f"axe-core failed on {what}: {found}"
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    if bad:
        lines = [f"{v['impact']} {v['id']} ({v['help']}):\n    " + "\n    ".join(v["nodes"]) for v in found]
        raise AssertionError(f"axe-core on {what}: {len(bad)} serious or critical violations\n" + "\n".join(lines))
    return [(v["impact"], v["id"], len(v["nodes"])) for v in found]


def shot(driver, directory, name):
    time.sleep(0.3)
    path = os.path.join(directory, name)
    driver.save_screenshot(path)
    return path


def play_cat_chess(driver, url, shots):
    """The default game: Cat Chess, the person white, the engine black and
    cats (played by the server), the engine's thinking shown."""
    driver.get(url)
    # Opening / makes no game.
    wait(driver, "the page", lambda d: "No game shown" in status(d) and seat_select(d, "white", "kind").options)
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-square]"), "a game on /"
    # Levels a beginner can beat, and the sentence saying why.
    for seat in ["black", "cats"]:
        assert seat_select(driver, seat, "kind").first_selected_option.get_attribute("value") == "engine"
        level = int(seat_select(driver, seat, "level").first_selected_option.get_attribute("value"))
        assert 1 <= level <= 3, (seat, level)
    assert "almost certain" in text(driver, "level-note"), text(driver, "level-note")
    new_game(driver, "catchess", thinking=True)
    wait(driver, "the board", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="e2"][data-piece="P"]'))
    assert "White to move (you)" in status(driver), status(driver)
    assert (player(driver, "white"), player(driver, "black")) == ("you", "engine (level 1)"), player(driver, "black")
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-square]")) == 64
    cats = driver.find_elements(By.CSS_SELECTOR, '[data-piece="*"]')
    assert sorted(c.get_attribute("data-square") for c in cats) == ["a4", "h5"], cats
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-zone]")) > 0, "no shaded zone"
    names = [n.text.lower() for n in driver.find_elements(By.CSS_SELECTOR, "[data-seat-name]")]
    assert names == ["white", "black", "cats"], names

    # e2e4 by clicking.
    square(driver, "e2").click()
    wait(driver, "targets", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="e4"].target'))
    square(driver, "e4").click()
    wait(driver, "black's and the cats' replies", lambda d: len(plies(d)) >= 3 and "White to move" in status(d))
    assert piece(driver, "e4") == "P" and piece(driver, "e2") is None
    entries = plies(driver)
    assert [e.get_attribute("data-ply") for e in entries] == ["1", "2", "3"], entries
    assert entries[0].text == "e4", f"SAN in Cat Chess: {entries[0].text}"
    assert text(driver, "notation") == "(SAN)", text(driver, "notation")
    cats_now = [c.get_attribute("data-square") for c in driver.find_elements(By.CSS_SELECTOR, '[data-piece="*"]')]
    assert len(cats_now) == 2, cats_now

    # A second move by dragging the knight from g1 (f3 or h3, whichever is legal).
    square(driver, "g1").click()  # select, to see the targets
    targets = [t.get_attribute("data-square") for t in driver.find_elements(By.CSS_SELECTOR, ".target")]
    assert targets, "the knight has no move"
    square(driver, "g1").click()  # and deselect (the board is redrawn: find it again)
    a, b = square(driver, "g1").rect, square(driver, targets[0]).rect
    dx, dy = round(b["x"] - a["x"]), round(b["y"] - a["y"])
    ActionChains(driver).click_and_hold(square(driver, "g1")).pause(0.1).move_by_offset(dx // 2, dy // 2) \
        .pause(0.1).move_by_offset(dx - dx // 2, dy - dy // 2).pause(0.1).release().perform()
    wait(driver, "the reply to the drag", lambda d: len(plies(d)) >= 6 and "White to move" in status(d))
    assert piece(driver, targets[0]) == "N" and piece(driver, "g1") is None
    assert text(driver, "a-depth") not in ("", "–"), "no analysis shown"
    assert driver.find_elements(By.CSS_SELECTOR, "#outlook .cats"), "no outlook bar"
    assert driver.find_elements(By.CSS_SELECTOR, "#graph .eval-point"), "no value in the evaluation graph"
    shot(driver, shots, "catchess.png")

    # The move list: the arrow keys and a click show earlier positions;
    # End comes back to the game, and moving works again.
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait(driver, "the start position", lambda d: piece(d, "e2") == "P" and piece(d, "e4") is None)
    assert not driver.find_element(By.ID, "viewing").get_attribute("hidden")
    body.send_keys(Keys.ARROW_RIGHT)
    wait(driver, "the position after e4", lambda d: piece(d, "e4") == "P" and piece(d, "g1") == "N")
    assert driver.find_element(By.CSS_SELECTOR, ".current").get_attribute("data-turn") == "1"
    square(driver, "d2").click()
    assert not driver.find_elements(By.CSS_SELECTOR, ".target"), "a past position took a move"
    plies(driver)[4].click()
    wait(driver, "the position after turn 5", lambda d: d.find_element(By.CSS_SELECTOR, ".current").get_attribute("data-turn") == "5")
    body.send_keys(Keys.ARROW_RIGHT)
    wait(driver, "the game again", lambda d: not d.find_elements(By.CSS_SELECTOR, ".current") and piece(d, "g1") is None)
    assert driver.find_element(By.ID, "viewing").get_attribute("hidden")
    square(driver, "d2").click()
    wait(driver, "targets again", lambda d: d.find_elements(By.CSS_SELECTOR, ".target"))
    square(driver, "d2").click()

    # A reload shows the same game (its id is kept in the address).
    before, position = turns(driver), board(driver)
    assert "#game=" in driver.current_url, driver.current_url
    driver.refresh()
    wait(driver, "the same game after a reload", lambda d: turns(d) == before)
    assert board(driver) == position, (board(driver), position)
    assert driver.find_elements(By.CSS_SELECTOR, "#graph .eval-point"), "the evaluation graph was lost"
    played = len(before)

    # Two queens up, but black's king stands beside a cat: the analysis
    # gives white no chance and says why, instead of "white 100 %".
    load_fen(driver, "catchess", "*k6/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1", {"white": "you", "black": "you", "cats": "you"})
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "the sheltered king's note", lambda d: not d.find_element(By.ID, "outlook-note").get_attribute("hidden"))
    note = text(driver, "outlook-note")
    assert note.startswith("white cannot win as things stand"), note
    assert text(driver, "a-score").endswith("· white cannot win"), text(driver, "a-score")
    assert not driver.find_elements(By.CSS_SELECTOR, "#outlook .white[style*='width: 100%']"), "white shown winning"
    shot(driver, shots, "catchess-sheltered.png")
    driver.find_element(By.ID, "stop").click()
    return played


def board(driver):
    """square -> FEN letter of every occupied square (read at once: the
    board is drawn anew with each state)."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('[data-piece]')]"
        ".map((n) => [n.getAttribute('data-square'), n.getAttribute('data-piece')]));")


def click_step(driver, name, then):
    """Clicks a square and waits until `then` holds."""
    square(driver, name).click()
    wait(driver, f"the step on {name}", then)


def steps_so_far(driver):
    """The steps of the turn under way as tokens (the bar says them in
    words; its `data-steps` keeps the tokens)."""
    return driver.find_element(By.ID, "turn-steps").get_attribute("data-steps")


def play_catschess10(driver, shots):
    """Three 10x10 turns by clicks, both seats people (no engine, no wait)."""
    new_game(driver, "catschess10", {"white": "person", "black": "person"})
    wait(driver, "the 10x10 board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-square]")) == 100)
    pos = board(driver)
    assert pos["a2"] == "*" and pos["d1"] == "C" and pos["d10"] == "c", pos
    legend = [n.get_attribute("data-legend") for n in driver.find_elements(By.CSS_SELECTOR, "[data-legend]")]
    assert legend == ["K", "Q", "N", "P", "C", "T", "M", "*"], legend
    words = text(driver, "legend")
    for said in ["No check", "capturing the king", "two of your cats on the last rank", "captures one step diagonally",
                 "captures only a king or queen", "blocks nothing"]:
        assert said in words, (said, words)
    # Each its own figure: a neutral is no cat, a cat no disc.
    assert square(driver, "a2").find_elements(By.CSS_SELECTOR, ".neutral")
    assert not square(driver, "a2").find_elements(By.CSS_SELECTOR, ".cat")
    assert square(driver, "d1").find_elements(By.CSS_SELECTOR, ".piece.figure.first")
    assert "Next:" in text(driver, "step-text") and "teleport" in text(driver, "step-text")

    # Turn 1 (white): the teleport, then a pawn's double step.
    driver.find_element(By.ID, "teleport").click()
    wait(driver, "the roll", lambda d: "T@?" in steps_so_far(d) and ("T@" in steps_so_far(d).replace("T@?", "") or "T?" in steps_so_far(d)))
    if "T?" in steps_so_far(driver):  # never at the start (no mouse yet), but kept simple
        driver.find_element(By.ID, "keep").click()
        wait(driver, "the kept square", lambda d: "keep" in steps_so_far(d))
    pos = board(driver)
    tcat = [sq for sq, p in pos.items() if p == "T"]
    assert len(tcat) == 1, pos
    file = next(f for f in "abcdefghij" if pos.get(f + "3") == "P" and f + "4" not in pos and f + "5" not in pos)
    click_step(driver, file + "3", lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{file}5"].target'))
    assert "move the piece on" in text(driver, "step-text")
    click_step(driver, file + "5", lambda d: "Black to move" in status(d))
    assert piece(driver, file + "5") == "P" and piece(driver, tcat[0]) == "T"
    first = turns(driver)
    assert len(first) == 1 and first[0].startswith("T@" + tcat[0]) and first[0].endswith(f"{file}3{file}5"), first

    # Turn 2 (black): a neutral's step, then a pawn.
    click_step(driver, "a9", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="b9"].target'))
    click_step(driver, "b9", lambda d: piece(d, "b9") == "*" and "a9b9" in steps_so_far(d))
    pos = board(driver)
    bfile = next(f for f in "jihgfedcba" if pos.get(f + "8") == "p" and f + "7" not in pos and f + "6" not in pos)
    click_step(driver, bfile + "8", lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{bfile}6"].target'))
    # A click elsewhere takes the pick back; the pawn is picked again.
    click_step(driver, "e5", lambda d: not d.find_elements(By.CSS_SELECTOR, ".target") and bfile + "8" not in steps_so_far(d))
    click_step(driver, bfile + "8", lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{bfile}6"].target'))
    click_step(driver, bfile + "6", lambda d: "White to move" in status(d))
    assert turns(driver)[1] == f"a9b9,{bfile}8{bfile}6", turns(driver)

    # Turn 3 (white): a cat steps forward; the second cat move is declined
    # with End turn; a mouse goes on the square the cat left.
    pos = board(driver)
    cat = next(sq for sq in ["d1", "g1"] if sq[0] + "2" not in pos)
    to = cat[0] + "2"
    click_step(driver, cat, lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{to}"].target'))
    click_step(driver, to, lambda d: "second cat move" in text(d, "step-text"))
    driver.find_element(By.ID, "end-turn").click()
    wait(driver, "the mouse step", lambda d: "mouse" in text(d, "step-text")
         and d.find_elements(By.CSS_SELECTOR, f'[data-square="{cat}"].target'))
    click_step(driver, cat, lambda d: "Black to move" in status(d))
    assert piece(driver, cat) == "M" and piece(driver, to) == "C"
    assert square(driver, cat).find_elements(By.CSS_SELECTOR, ".piece.figure.first"), "the mouse has no figure"
    entries = turns(driver)
    assert entries[2] == f"{cat}{to},M@{cat}", entries
    assert [e.get_attribute("data-turn") for e in plies(driver)] == ["1", "2", "3"]
    numbers = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#moves .num")]
    assert numbers == ["1.", "2."], numbers
    shot(driver, shots, "catschess10.png")

    # A roll onto a mouse: Roll again, then Keep. Here 60 of the 79 squares
    # the roll may keep hold a mouse (ranks 3-8); white's king has moves.
    # A take-back does not roll again (the same roll lands where it did),
    # so a game whose first roll misses the mice gives way to a new one.
    for _ in range(20):
        fen = driver.find_element(By.ID, "fen")
        fen.clear()
        fen.send_keys("rnbcqkcbnr/10/" + "mmmmmmmmmm/" * 6 + "10/K9 w - - 0 1")
        old = driver.current_url
        driver.find_element(By.ID, "fen-load").click()
        wait(driver, "the mice", lambda d: d.current_url != old and not plies(d)
             and len(d.find_elements(By.CSS_SELECTOR, '[data-piece="m"]')) == 60)
        driver.find_element(By.ID, "teleport").click()
        wait(driver, "a roll", lambda d: "T@" in steps_so_far(d).replace("T@?", "") or "T?" in steps_so_far(d))
        if driver.find_element(By.ID, "keep").is_displayed():
            break
    assert driver.find_element(By.ID, "keep").is_displayed(), "20 games and never a roll on a mouse"
    assert "keep the square" in text(driver, "step-text")
    # Roll again: the server rolls anew where the rules roll (the mouse
    # square is not kept: a new square replaces it in the turn's steps).
    first = steps_so_far(driver)
    driver.find_element(By.ID, "reroll").click()
    try:
        wait(driver, "the roll again", lambda d: steps_so_far(d) != first, seconds=5)
    except AssertionError:
        assert steps_so_far(driver) == first and "keep" in text(driver, "step-text")  # the same mouse again (1 in 79)
    if driver.find_element(By.ID, "keep").is_displayed():
        rolled = steps_so_far(driver).split(", ")[-1]
        driver.find_element(By.ID, "keep").click()
        wait(driver, "the kept mouse square", lambda d: piece(d, rolled[2:]) == "T")
    assert len(driver.find_elements(By.CSS_SELECTOR, '[data-piece="T"]')) == 1
    shot(driver, shots, "catschess10-teleport.png")
    return entries


def play_xiangqi(driver, shots):
    """Red (a person) plays two moves by clicks; black is the engine, whose
    thinking is hidden from the player (the default)."""
    new_game(driver, "xiangqi", {"red": "person", "black": "engine"})
    wait(driver, "the xiangqi board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-square]")) == 90)
    assert "Red to move" in status(driver)
    assert not driver.find_element(By.ID, "analysis").is_displayed(), "the engine's thinking is shown"
    assert driver.find_element(By.ID, "thinking-hidden").is_displayed()
    Select(driver.find_element(By.ID, "glyphs")).select_by_value("chinese")
    label = square(driver, "h3").find_element(By.CSS_SELECTOR, "text")
    assert label.text == "炮", label.text
    # The characters come from the page's own font (no CJK font needed).
    faces = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "document.fonts.load('700 52px catchess-xiangqi', '炮').then((f) => done(f.length), () => done(-1));")
    assert faces == 1, f"the page's xiangqi font did not load ({faces})"
    click_step(driver, "h3", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="e3"].target'))
    click_step(driver, "e3", lambda d: len(plies(d)) >= 2 and "Red to move" in status(d))
    assert piece(driver, "e3") == "C" and turns(driver)[0] == "C2.5", turns(driver)
    click_step(driver, "h1", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="g3"].target'))
    click_step(driver, "g3", lambda d: len(plies(d)) >= 4 and "Red to move" in status(d))
    assert piece(driver, "g3") == "N" and turns(driver)[2] == "H2+3", turns(driver)
    shot(driver, shots, "xiangqi.png")
    Select(driver.find_element(By.ID, "glyphs")).select_by_value("letters")
    wait(driver, "letters", lambda d: square(d, "e3").find_element(By.CSS_SELECTOR, "text").text == "C")
    shot(driver, shots, "xiangqi-letters.png")
    Select(driver.find_element(By.ID, "glyphs")).select_by_value("chinese")
    return turns(driver)


def export_pgn(driver):
    driver.find_element(By.ID, "pgn").clear()
    driver.find_element(By.ID, "pgn-export").click()
    wait(driver, "the record", lambda d: "[Event" in d.find_element(By.ID, "pgn").get_attribute("value"))
    return driver.find_element(By.ID, "pgn").get_attribute("value")


def clock_seconds(driver, seat):
    """A seat's clock as shown (`0:05.3`), in seconds."""
    text = driver.find_element(By.CSS_SELECTOR, f'[data-clock="{seat}"]').text
    minutes, seconds = text.split(":")
    return 60 * int(minutes) + float(seconds)


def server_clock(driver, seat):
    """The game's state as the server has it: (seat's ms left, the running seat, outcome)."""
    state = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const id = new URLSearchParams(location.hash.slice(1)).get('game');"
        "fetch('/api/games/' + id).then((r) => r.json()).then(done, () => done(null));")
    clock = state["clock"] or {"seats": [], "running": None}
    left = next((c["left_ms"] for c in clock["seats"] if c["seat"] == seat), None)
    return left, clock["running"], state["outcome"]


def play_chess_clocks(driver, shots):
    """A clock runs out; a rematch turns the seats; a resignation; a level."""
    for id, value in [("clock-base", "0.1"), ("clock-inc", "1")]:
        field = driver.find_element(By.ID, id)
        field.clear()
        field.send_keys(value)
    new_game(driver, "chess", {"white": "person", "black": "engine"}, levels={"black": 3}, thinking=True)
    clock = driver.find_element(By.CSS_SELECTOR, '[data-clock="white"]')
    wait(driver, "white's clock", lambda d: clock.is_displayed() and clock.text.startswith("0:0"))
    # Big, beside the board, for every seat: the engine's too.
    assert clock.find_element(By.XPATH, "..").get_attribute("data-clock-card") == "white"
    assert driver.find_element(By.CSS_SELECTOR, '#clocks [data-clock="black"]').is_displayed(), "the engine has no clock"
    assert "engine, level 3" in text(driver, "clocks"), text(driver, "clocks")
    # The server keeps the clock: it runs on through a reload, from where
    # it was (not from the 6 s again).
    left, running, _ = server_clock(driver, "white")
    assert running == "white" and 0 < left <= 6000, (left, running)
    wait(driver, "white's clock to run", lambda d: clock_seconds(d, "white") <= 4.5, seconds=10)
    driver.refresh()
    wait(driver, "white's clock after a reload", lambda d: d.find_element(By.CSS_SELECTOR, '[data-clock="white"].running').is_displayed())
    shown = clock_seconds(driver, "white")
    assert 0 < shown <= 4.6, f"the clock started again on a reload: {shown}"
    # White waits: the 6 s run out, and the server ends the game.
    wait(driver, "the flag", lambda d: "Game over" in status(d), seconds=20)
    assert "black wins" in status(driver) and "time forfeit by white" in status(driver), status(driver)
    left, running, outcome = server_clock(driver, "white")
    assert (left, running, outcome["reason"]) == (0, None, "time forfeit"), (left, running, outcome)
    assert clock_seconds(driver, "white") == 0, driver.find_element(By.CSS_SELECTOR, '[data-clock="white"]').text
    record = export_pgn(driver)
    assert '[Result "0-1"]' in record and '[Termination "time forfeit"]' in record, record
    assert '[White "Person"]' in record and '[Black "catchess level 3"]' in record, record
    # Both seats on the same clock, the engine's too: one TimeControl.
    assert '[TimeControl "6+1"]' in record and "WhiteTimeControl" not in record, record

    # The rematch: white's player (the person) now plays black, with a
    # minute (the clock field counts from the next game on).
    field = driver.find_element(By.ID, "clock-base")
    field.clear()
    field.send_keys("1")
    driver.find_element(By.ID, "rematch").click()
    wait(driver, "the rematch", lambda d: player(d, "white") == "engine (level 3)" and player(d, "black") == "you")
    assert seat_select(driver, "white", "kind").first_selected_option.get_attribute("value") == "engine"
    assert seat_select(driver, "white", "level").first_selected_option.get_attribute("value") == "3"
    wait(driver, "the engine's first move as white", lambda d: len(plies(d)) == 1 and "Black to move" in status(d))
    assert driver.find_element(By.CSS_SELECTOR, '[data-clock="black"]').is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, '[data-clock="white"]').is_displayed(), "the engine has no clock"
    before = clock_seconds(driver, "black")
    # A reload finds the same players and black's clock still running, on
    # from where it was.
    driver.refresh()
    wait(driver, "the rematch after a reload", lambda d: len(plies(d)) == 1
         and player(d, "white") == "engine (level 3)" and player(d, "black") == "you"
         and d.find_element(By.CSS_SELECTOR, '[data-clock="black"].running').is_displayed())
    assert clock_seconds(driver, "black") <= before, (clock_seconds(driver, "black"), before)
    driver.find_element(By.ID, "resign").click()
    confirm(driver)
    wait(driver, "the resignation", lambda d: "Game over" in status(d))
    assert "white wins" in status(driver) and "resignation by black" in status(driver), status(driver)
    record = export_pgn(driver)
    assert '[Result "1-0"]' in record and '[Termination "normal"]' in record, record
    assert '[TerminationDetails "resignation by black"]' in record, record
    shot(driver, shots, "chess-resigned.png")
    # Take back undoes the resignation; the game goes on.
    driver.find_element(By.ID, "take-back").click()
    wait(driver, "the game again", lambda d: "Black to move" in status(d))
    # Infinite analysis with three lines, until Stop.
    Select(driver.find_element(By.ID, "multipv")).select_by_value("3")
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "three lines", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#a-lines li")) == 3
         and "analysing" in text(d, "a-what"))
    lines = driver.execute_script("return [...document.querySelectorAll('#a-lines li')].map((l) => l.textContent)")
    assert len({line.split()[1] for line in lines}) == 3, f"three lines, three first moves: {lines}"
    driver.find_element(By.ID, "stop").click()
    wait(driver, "the analysis to stop", lambda d: text(d, "a-what").startswith("best:"))
    for id in ["clock-base", "clock-inc"]:
        driver.find_element(By.ID, id).clear()
        driver.find_element(By.ID, id).send_keys("0")


def main():
    url, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="catchess-chromium-") as profile:
        driver = browser(profile)
        try:
            cat_chess = play_cat_chess(driver, url, shots)
            tenten = play_catschess10(driver, shots)
            xiangqi = play_xiangqi(driver, shots)
            play_chess_clocks(driver, shots)
            print(f"browser test passed: Cat Chess {cat_chess} turns, 10x10 {tenten}, xiangqi {xiangqi}, "
                  f"chess flag/rematch/resign; screenshots in {shots}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
