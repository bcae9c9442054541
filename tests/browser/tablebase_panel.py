"""The endgame tables' panel in a real browser (issue #43): headless
Chromium driven by selenium against a server started with --tb-dir.
Usage: tablebase_panel.py URL SCREENSHOT_DIR GAME, GAME being

* chess: the server holds the chess K+Q v K table. A K+Q v K position
  loaded from its FEN: the result in words, the note on what the tables
  ignore, every legal move with its result behind the "Every move" toggle
  (the best one marked); the best move played by clicks and the panel
  following it; then a position the tables do not cover, and games of the
  other variants (Cat Chess, xiangqi, 10x10): no panel, and the page works.
* catchess: the server holds the full Cat Chess tables. The longest-win
  position checked in the issue: white mates in 6 moves (16 plies) against
  best play by black and the cats; the best move c2d3; c2d1 lets the cats
  hold.

Every seat is a person, so the panel only changes when a move is clicked.
Screenshots go to SCREENSHOT_DIR."""

import os
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from play_games import browser, new_game, piece, plies, seat_select, shot, square, status, text, wait


def panel(driver):
    """The tablebase panel, or None when the page has not made it yet."""
    found = driver.find_elements(By.ID, "tablebase")
    return found[0] if found else None


def panel_shown(driver):
    p = panel(driver)
    return p is not None and p.is_displayed()


def words(driver):
    return text(driver, "tb-words")


def game_state(driver):
    """The game's state as the server has it."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const id = new URLSearchParams(location.hash.slice(1)).get('game');"
        "fetch('/api/games/' + id).then((r) => r.json()).then(done, () => done(null));")


def load_fen(driver, fen):
    """A new game of the chosen variant from `fen`, with the same seats."""
    before = driver.current_url
    field = driver.find_element(By.ID, "fen")
    field.clear()
    field.send_keys(fen)
    driver.find_element(By.ID, "fen-load").click()
    wait(driver, f"the game from {fen}", lambda d: d.current_url != before and not plies(d))
    assert driver.find_element(By.ID, "fen").get_attribute("value") == fen, text(driver, "error")


def people(driver, variant, seats):
    """A new game of `variant`, every seat this browser's, the tables'
    answer shown (the engine's thinking: its creator's choice)."""
    new_game(driver, variant, {seat: "you" for seat in seats}, thinking=True)
    for seat in seats:
        assert seat_select(driver, seat, "kind").first_selected_option.get_attribute("value") == "you", seat


def every_move(driver):
    """Opens the "Every move" toggle (it stays open from one position to
    the next); returns {move: (text, best?)}."""
    rows = driver.find_elements(By.CSS_SELECTOR, "#tb-moves li")
    assert rows, "no moves listed"
    if driver.find_element(By.CSS_SELECTOR, "#tablebase details").get_attribute("open") is None:
        assert not rows[0].is_displayed(), "the moves are shown before the toggle is opened"
        driver.find_element(By.CSS_SELECTOR, "#tablebase summary").click()
        wait(driver, "the list of moves", lambda d: d.find_elements(By.CSS_SELECTOR, "#tb-moves li")[0].is_displayed())
    out = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "#tb-moves li"):
        assert row.is_displayed(), row.text
        move = row.get_attribute("data-move")
        assert move not in out, f"{move} twice"
        out[move] = (row.text, "best" in (row.get_attribute("class") or "").split())
    return out


def check_every_move(driver, state):
    """The toggle lists every legal move once, each with the result the
    server gives, and marks the tables' best move only."""
    rows = every_move(driver)
    legal = set(state["legal"])
    assert set(rows) == legal, f"listed {sorted(rows)}, legal {sorted(legal)}"
    results = {m["move"]: m for m in state["tablebase"]["moves"]}
    best = state["tablebase"]["best"]
    for move, (shown, marked) in rows.items():
        m = results[move]
        assert shown == f"{m['notation']}: {m['short']}" + (" (best)" if move == best else ""), (shown, m)
        assert marked == (move == best), (move, shown, best)
    # In the server's order (the mover's best results first); each row's
    # full sentence in its tooltip.
    listed = driver.find_elements(By.CSS_SELECTOR, "#tb-moves li")
    assert [r.get_attribute("data-move") for r in listed] == [m["move"] for m in state["tablebase"]["moves"]]
    assert [r.get_attribute("title") for r in listed] == [m["words"] for m in state["tablebase"]["moves"]]
    # Coloured by what each move means for its player (#62).
    assert [r.get_attribute("data-result") for r in listed] == [m["for_mover"] for m in state["tablebase"]["moves"]]
    assert all(f"tb-{r.get_attribute('data-result')}" in r.get_attribute("class") for r in listed)
    assert "seat" not in text(driver, "tb-note") and "wins for the player making it" in text(driver, "tb-key")
    return rows


def click_move(driver, move, then):
    square(driver, move[:2]).click()
    wait(driver, f"the targets of {move[:2]}", lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{move[2:4]}"].target'))
    square(driver, move[2:4]).click()
    wait(driver, f"the position after {move}", then)


def check_note(driver):
    """The note on what the tables ignore: shown, and on the screen
    (the panel sits above the engine's, not below the fold)."""
    note = driver.find_element(By.ID, "tb-note")
    assert note.is_displayed(), "the note on the fifty-move rule is hidden"
    assert "fifty-move rule" in note.text and "repetition" in note.text and "ignored" in note.text, note.text
    bottom, height = driver.execute_script(
        "return [arguments[0].getBoundingClientRect().bottom, window.innerHeight]", note)
    assert bottom <= height, f"the note is below the fold ({bottom} > {height})"


def chess(driver, shots):
    people(driver, "chess", ["white", "black"])
    assert not panel_shown(driver), "a panel at the start position"
    load_fen(driver, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
    wait(driver, "the panel", panel_shown)
    assert words(driver) == "White mates in 10 moves (19 plies) against best play by black.", words(driver)
    check_note(driver)
    state = game_state(driver)
    rows = check_every_move(driver, state)
    best = state["tablebase"]["best"]
    # The best move is a fastest win: 18 plies left, none faster.
    assert "(18 plies)" in rows[best][0], rows[best]
    fastest = min(m["plies"] for m in state["tablebase"]["moves"] if m["winner"] == "white")
    assert fastest == 18, fastest
    shot(driver, shots, "tablebase-chess.png")

    # The best move by clicks: the panel follows (black to move, 9 white moves left).
    click_move(driver, best, lambda d: "Black to move" in status(d) and "18 plies" in words(d))
    assert piece(driver, best[2:4]) in ("Q", "K"), best
    assert words(driver) == "White mates in 9 moves (18 plies) against best play by black.", words(driver)
    check_note(driver)
    state = game_state(driver)
    rows = list(check_every_move(driver, state).values())
    # Black's moves: the slowest loss first (17 plies), the best.
    assert rows[0][1] and "(17 plies)" in rows[0][0], rows[0]
    shot(driver, shots, "tablebase-chess-after.png")
    # Stepping back through the game with the keys: the panel is the shown
    # position's; End comes back to the game's.
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait(driver, "the start position's answer", lambda d: piece(d, best[:2]) is not None and "19 plies" in words(d))
    # A past position's moves are not played from the panel.
    assert not driver.find_elements(By.CSS_SELECTOR, "#tb-moves .tb-play"), "a past position's move can be played"
    body.send_keys(Keys.END)
    wait(driver, "the game's answer", lambda d: piece(d, best[:2]) is None and "18 plies" in words(d))
    # Take back: the panel is the first position's again.
    driver.find_element(By.ID, "take-back").click()
    wait(driver, "the position taken back", lambda d: "White to move" in status(d) and "19 plies" in words(d))

    # A half-move clock of 90: the mate cannot arrive before the fifty-move
    # rule ends the game, and the panel says so.
    load_fen(driver, "8/8/8/5k2/8/8/1Q6/K7 w - - 90 1")
    wait(driver, "the fifty-move rule", lambda d: "fifty-move" in words(d))
    assert words(driver) == "A draw: the fifty-move rule ends the game before white's mate in 19 plies.", words(driver)
    check_note(driver)

    # A stalemate and a mate in one, in words.
    load_fen(driver, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    wait(driver, "the mate in one", lambda d: words(d).startswith("White mates in 1 move (1 ply)"))
    rows = every_move(driver)
    assert rows["f1f8"][0] == "Qf8#: white has mated (best)", rows["f1f8"]
    assert rows["f1f7"][0] == "Qf7: a draw", rows["f1f7"]
    assert list(rows)[0] == "f1f8", list(rows)
    results = {r.get_attribute("data-move"): r.get_attribute("data-result") for r in driver.find_elements(By.CSS_SELECTOR, "#tb-moves li")}
    assert (results["f1f8"], results["f1f7"]) == ("win", "draw"), results
    # A move of the panel is played by a click on it (#62): the mate.
    driver.find_element(By.CSS_SELECTOR, '#tb-moves li[data-move="f1f8"] .tb-play').click()
    wait(driver, "the mate played from the panel", lambda d: "Game over — white wins: checkmate" in status(d))
    assert piece(driver, "f8") == "Q", piece(driver, "f8")

    # Material the tables do not hold (K+R v K): no panel, the page works.
    load_fen(driver, "8/8/8/5k2/8/8/1R6/K7 w - - 0 1")
    wait(driver, "no panel", lambda d: not panel_shown(d))
    click_move(driver, "b2b3", lambda d: "Black to move" in status(d))
    assert not panel_shown(driver)
    shot(driver, shots, "tablebase-chess-uncovered.png")
    # The other games: no panel, and a move by clicks still works.
    for variant, seats, frm, to in [("catchess", ["white", "black", "cats"], "e2", "e4"),
                                    ("xiangqi", ["red", "black"], "h3", "e3"),
                                    ("catschess10", ["white", "black"], None, None)]:
        people(driver, variant, seats)
        assert not panel_shown(driver), variant
        if frm:
            click_move(driver, frm + to, lambda d: len(plies(d)) == 1)
            assert not panel_shown(driver), variant
        assert not driver.find_element(By.ID, "error").text, text(driver, "error")
    # And back to chess: the panel comes back for a covered position.
    people(driver, "chess", ["white", "black"])
    load_fen(driver, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
    wait(driver, "the panel again", lambda d: panel_shown(d) and "19 plies" in words(d))
    return "chess: K+Q v K 19 -> 18 plies, every move listed; K+R v K, catchess, xiangqi, 10x10 without a panel"


def catchess(driver, shots):
    people(driver, "catchess", ["white", "black", "cats"])
    fen = "7Q/8/7*/8/8/8/1kK5/7* w - - 0 1"
    load_fen(driver, fen)
    wait(driver, "the panel", panel_shown)
    expected = "White mates in 6 moves (16 plies) against best play by black and the cats."
    assert words(driver) == expected, words(driver)
    check_note(driver)
    state = game_state(driver)
    assert state["tablebase"]["best"] == "c2d3", state["tablebase"]["best"]
    rows = check_every_move(driver, state)
    assert rows["c2d3"][1] and rows["c2d3"][0].endswith("(best)"), rows["c2d3"]
    assert rows["c2d1"][0].startswith("Kd1") and rows["c2d1"][0].endswith(": the cats hold"), rows["c2d1"]
    assert list(rows)[0] == "c2d3", list(rows)
    shot(driver, shots, "tablebase-catchess.png")

    click_move(driver, "c2d3", lambda d: "Black to move" in status(d) and "15 plies" in words(d))
    after = "White mates in 5 moves (15 plies) against best play by black and the cats."
    assert words(driver) == after, words(driver)
    driver.find_element(By.ID, "take-back").click()
    wait(driver, "the position taken back", lambda d: "White to move" in status(d) and words(d) == expected)
    click_move(driver, "c2d1", lambda d: "Black to move" in status(d) and "hold" in words(d))
    assert words(driver) == "The cats hold: nobody can force a mate.", words(driver)
    check_note(driver)
    shot(driver, shots, "tablebase-catchess-held.png")

    # Two more men than the tables hold: no panel.
    load_fen(driver, "7Q/8/7*/8/8/8/1kK4R/7* w - - 0 1")
    wait(driver, "no panel", lambda d: not panel_shown(d))
    return "catchess: K+Q v K 16 plies, best c2d3 (15 plies after), c2d1 the cats hold"


def main():
    url, shots, game = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(shots, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="catchess-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.get(url)
            wait(driver, "the page", lambda d: "No game shown" in status(d))
            said = {"chess": chess, "catchess": catchess}[game](driver, shots)
            print(f"tablebase browser test passed: {said}; screenshots in {shots}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
