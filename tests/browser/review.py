"""Analyse the whole game (issue #62), in headless Chromium driven by
selenium. Usage: review.py URL SCREENSHOT_DIR AXE_JS

In each of the four games a short game is played by moves typed in the
box under the board (every seat this browser's), with a real blunder,
to its end (a mate, a captured king, or a resignation); then "Analyse the
whole game" fills the evaluation graph point by point, one value a
position (a 10x10 turn's start), rings the blunder on it and marks it in
the move list with its symbol and, for screen readers, its words
("Nf6??, a blunder"):
* chess: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#;
* Cat Chess: the cats, with white threatening mate, move the wrong cat;
  white resigns;
* xiangqi: red puts its chariot where black's takes it; red resigns;
* Cat's Chess 10x10: black's king steps next to white's cat, which takes it.
A reload shows the stored review again without asking, and axe-core
(AXE_JS) finds no serious or critical violation on the reviewed game,
desktop and phone. The engine's
thinking box beside the board (one person against the engine) shows and
hides the Engine panel during the game. Screenshots (desktop 1280x940
and phone 390x844) go to SCREENSHOT_DIR."""

import os
import sys
import tempfile

from selenium.webdriver.common.by import By

from play_games import (axe_audit, browser, close_rules, confirm, game_id, load_fen, new_game, plies, shot, status,
                        text, wait)

URL, SHOTS, AXE_JS = sys.argv[1], sys.argv[2], sys.argv[3]

with open(AXE_JS, encoding="utf-8") as f:
    AXE = f.read()


def snap(driver, name, at="board-area"):
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", at)
    return shot(driver, SHOTS, name)


def typed(driver, move):
    """Plays `move` typed in the box under the board; waits for it."""
    before = driver.execute_script("return document.getElementById('board-area').getAttribute('data-game')")
    count = len(plies(driver))
    steps = text(driver, "turn-steps") if driver.find_elements(By.ID, "turn-steps") else ""
    box = driver.find_element(By.ID, "move-input")
    box.clear()
    box.send_keys(move)
    driver.find_element(By.CSS_SELECTOR, "#move-form button[type=submit]").click()
    wait(driver, f"{move} played", lambda d: driver.find_element(By.ID, "move-input").get_attribute("value") == ""
         and (len(plies(d)) != count or text(d, "turn-steps") != steps or "Game over" in status(d)))
    assert game_id(driver) == before
    assert not text(driver, "error"), text(driver, "error")


def resign(driver):
    driver.find_element(By.ID, "resign").click()
    confirm(driver)
    wait(driver, "the game over", lambda d: "Game over" in status(d))


def graph_points(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#graph-svg circle.eval-point"))


def marks(driver):
    """The move list's marked entries: (symbol, what a screen reader reads)."""
    return [(e.get_attribute("data-mark"), e.get_attribute("textContent"))
            for e in driver.find_elements(By.CSS_SELECTOR, "#moves [data-mark]")]


def analyse(driver, positions, blunder):
    """Presses Analyse the whole game; checks the graph fills (a point a
    position, ringed blunder) and `blunder` ("Nf6??, a blunder") is read
    in the move list."""
    assert "Game over" in status(driver), status(driver)
    button = driver.find_element(By.ID, "review")
    assert button.is_displayed()
    button.click()
    wait(driver, "the review", lambda d: text(d, "review-status").startswith("Game analysed"), seconds=120)
    assert graph_points(driver) == positions, (graph_points(driver), positions)
    rings = driver.find_elements(By.CSS_SELECTOR, "#graph-svg circle.mark")
    assert rings, "no ring on the graph"
    read = [words for _, words in marks(driver)]
    assert blunder in read, (blunder, read, text(driver, "review-status"))
    assert not text(driver, "error"), text(driver, "error")
    return f"{positions} points, {len(read)} marked ({', '.join(read)})"


def chess(driver):
    new_game(driver, "chess", {"white": "person", "black": "person"})
    for m in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]:
        typed(driver, m)
    said = analyse(driver, 8, "Nf6??, a blunder")
    snap(driver, "review-chess.png", "analysis")
    # Reopened: the stored review, without asking.
    driver.refresh()
    wait(driver, "the review shown again", lambda d: ("??", "Nf6??, a blunder") in marks(d) and graph_points(d) == 8)
    found = axe_audit(driver, AXE, "a reviewed game")
    return f"chess: {said}, kept; axe-core: {len(found) or 'no'} violations, none serious", game_id(driver)


def cat_chess(driver):
    fen = "2bqkbnr/1p1np1p1/2pp3p/r1P2Q2/pP*P1*2/7P/P2NPPP1/R1B1KBNR c KQk - 1 9"
    load_fen(driver, "catchess", fen, {"white": "you", "black": "you", "cats": "you"})
    close_rules(driver)
    # Only f4g5 stops white's mate: the other cat steps instead.
    typed(driver, "c4c3")
    resign(driver)
    said = analyse(driver, 2, blundered(driver, 1))
    snap(driver, "review-catchess.png", "analysis")
    return "Cat Chess: " + said


def xiangqi(driver):
    load_fen(driver, "xiangqi", "3k5/9/9/9/9/8r/9/9/9/R3K4 w - - 0 1", {"red": "you", "black": "you"})
    close_rules(driver)
    typed(driver, "a1a5")
    typed(driver, "i5a5")
    resign(driver)
    said = analyse(driver, 3, blundered(driver, 1))
    snap(driver, "review-xiangqi.png", "analysis")
    return "xiangqi: " + said


def blundered(driver, turn):
    """What the move list must read for `turn`, once marked a blunder: its
    notation as written before the review."""
    written = driver.find_element(By.CSS_SELECTOR, f'#moves [data-turn="{turn}"]').get_attribute("textContent")
    return f"{written}??, a blunder"


def tenten(driver):
    load_fen(driver, "catschess10", "rnbcq5/10/p9/10/10/10/10/4k5/10/3C1K3C b - - 0 1 -",
             {"white": "you", "black": "you"})
    close_rules(driver)
    for step in ["e3", "e3e2", "end", "d1", "d1e2"]:
        typed(driver, step)
    wait(driver, "the king captured", lambda d: "king captured" in status(d))
    said = analyse(driver, 3, "e3e2??, a blunder")
    snap(driver, "review-catschess10.png", "analysis")
    return "10x10: " + said


def thinking_box(driver):
    """One person against the engine: the box beside the board shows and
    hides the engine's thinking during the game."""
    new_game(driver, "chess", {"white": "person", "black": "engine"}, thinking=False)
    box = driver.find_element(By.ID, "thinking-on")
    wait(driver, "the thinking box", lambda d: d.find_element(By.ID, "thinking-toggle").is_displayed())
    assert not box.is_selected()
    assert not driver.find_element(By.ID, "analysis").is_displayed()
    box.click()
    wait(driver, "the engine panel", lambda d: d.find_element(By.ID, "analysis").is_displayed())
    snap(driver, "thinking-on.png")
    box.click()
    wait(driver, "the engine panel hidden", lambda d: not d.find_element(By.ID, "analysis").is_displayed())
    # A game of people only has no box.
    new_game(driver, "chess", {"white": "person", "black": "person"})
    assert not driver.find_element(By.ID, "thinking-toggle").is_displayed()
    return "the thinking box shows and hides the engine panel"


def phone(reviewed):
    """A reviewed game reopened on a phone (390x844)."""
    with tempfile.TemporaryDirectory(prefix="catchess-review-phone-") as profile:
        driver = browser(profile, phone=(390, 844))
        try:
            driver.get(URL + "#game=" + reviewed)
            wait(driver, "the stored review", lambda d: ("??", "Nf6??, a blunder") in marks(d) and graph_points(d) == 8)
            snap(driver, "phone-review.png", "moves")
            snap(driver, "phone-review-graph.png", "analysis")
            wide = driver.execute_script("return document.documentElement.scrollWidth")
            assert wide <= 390, f"the page is {wide} px wide on a 390 px phone"
            axe_audit(driver, AXE, "a reviewed game on a phone")
        finally:
            driver.quit()
    return "phone 390x844: the stored review"


def main():
    os.makedirs(SHOTS, exist_ok=True)
    said = []
    with tempfile.TemporaryDirectory(prefix="catchess-review-") as profile:
        driver = browser(profile)
        try:
            driver.get(URL)
            wait(driver, "the page", lambda d: "No game shown" in status(d))
            chess_said, reviewed = chess(driver)
            said.append(chess_said)
            said.append(cat_chess(driver))
            said.append(xiangqi(driver))
            said.append(tenten(driver))
            said.append(thinking_box(driver))
            driver.execute_script("window.scrollTo(0, 0)")
            shot(driver, SHOTS, "desktop.png")
        finally:
            driver.quit()
    said.append(phone(reviewed))
    print("review browser test passed: " + "; ".join(said) + f"; screenshots in {SHOTS}")


if __name__ == "__main__":
    main()
