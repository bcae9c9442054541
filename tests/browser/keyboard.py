"""Keyboard and screen readers (issue #62), in headless Chromium driven by
selenium. Usage: keyboard.py URL SCREENSHOT_DIR AXE_JS

Every game is played here by keys alone, as a person without a mouse or
with a screen reader would:
* the board is one tab stop; the arrow keys move between its squares as
  the board is shown (a flipped board too), Enter or Space takes a piece
  and then its square, Escape lets go (a 10x10 pick is taken back); the
  move list's arrows do not fire while a square has the focus, and still
  do elsewhere;
* each square is labelled in the game's words ("e2, white pawn", "b5,
  cat", "c4, white bishop, disarmed", "e1, white king, in check", "h3,
  red cannon", "a2, neutral"), with "selected", where the piece may go,
  "possible move" and the last moves;
* moves typed in the box: SAN (chess, Cat Chess), WXF (xiangqi), from
  square to square, a whole 10x10 turn; a wrong one gets the server's
  words in the alert under the board, as a refused move by keys does;
* the status line is a live region whose words change with each move
  (whose turn, the moves since one's last turn, a king in check, the
  result);
* axe-core (AXE_JS, run inside the page) finds no serious or critical
  violation on each game's board, with the promotion chooser open, on
  the rules panel and on /rules.
Screenshots (desktop 1280x940 and phone 390x844) go to SCREENSHOT_DIR."""

import os
import sys
import tempfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import play_games
from play_games import (browser, error, load_fen, new_game, plies, shot, square, status, steps_so_far, text, turns,
                        wait)

URL, SHOTS, AXE_JS = sys.argv[1], sys.argv[2], sys.argv[3]

with open(AXE_JS, encoding="utf-8") as f:
    AXE = f.read()


# ---- Keys and what a screen reader is told ---------------------------------

def press(driver, *keys):
    """Keys sent to whatever has the focus, as a person types them."""
    ActionChains(driver).send_keys(*keys).perform()


def focused(driver):
    """The square with the focus, or None."""
    return driver.execute_script(
        "const n = document.activeElement; return n && n.getAttribute('data-square');")


def label(driver, sq):
    return square(driver, sq).get_attribute("aria-label")


def labels(driver):
    """square -> label, every square's at once."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#board [data-square]')]"
        ".map((n) => [n.getAttribute('data-square'), n.getAttribute('aria-label')]));")


def shift_tab(driver):
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


def tab_stops(driver):
    """The board's squares in the tab order (a roving tabindex: one)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#board [data-square]')].filter((n) => n.tabIndex >= 0)"
        ".map((n) => n.getAttribute('data-square'));")


def into_board(driver):
    """Tab into the board from the Rules button over it (the 10x10 turn's
    buttons, when enabled, come between): its one tab stop gets the focus."""
    driver.execute_script("document.getElementById('rules-open').focus()")
    for _ in range(6):
        press(driver, Keys.TAB)
        if focused(driver):
            return focused(driver)
    raise AssertionError("no square took the focus by Tab")


def coords(name):
    return ord(name[0]) - ord("a"), int(name[1:])


def walk(driver, to, flipped=False):
    """Arrow keys from the focused square to `to`, as the board is shown
    (white or red at the bottom unless `flipped`)."""
    at = focused(driver)
    assert at, "no square has the focus"
    (f0, r0), (f1, r1) = coords(at), coords(to)
    right, up = (f1 - f0, r1 - r0) if not flipped else (f0 - f1, r0 - r1)
    keys = [Keys.ARROW_RIGHT if right > 0 else Keys.ARROW_LEFT] * abs(right)
    keys += [Keys.ARROW_UP if up > 0 else Keys.ARROW_DOWN] * abs(up)
    if keys:
        press(driver, *keys)
    wait(driver, f"the focus on {to}", lambda d: focused(d) == to, seconds=5)


def key_move(driver, frm, to, flipped=False):
    """A move by keys: to `frm`, Enter, to `to`, Enter."""
    walk(driver, frm, flipped)
    press(driver, Keys.ENTER)
    wait(driver, f"{frm} selected", lambda d: "selected" in label(d, frm), seconds=10)
    walk(driver, to, flipped)
    press(driver, Keys.ENTER)


def typed(driver, move):
    """A move typed in the box under the board, sent with Enter."""
    box = driver.find_element(By.ID, "move-input")
    box.clear()
    box.send_keys(move, Keys.ENTER)


def piece_on(driver, sq):
    return square(driver, sq).get_attribute("data-piece")


def live(driver):
    """The status line's live region: its politeness and its words."""
    area = driver.find_element(By.ID, "status-area")
    return area.get_attribute("role"), area.text


# ---- The audit -------------------------------------------------------------

def audit(driver, what):
    """axe-core run inside the page (`play_games.axe_audit`)."""
    return play_games.axe_audit(driver, AXE, what)


# ---- The games -------------------------------------------------------------

def cat_chess(driver, audits):
    """Cat Chess against the engine: tab in, labels, a move by keys, the
    live region, the move list's keys apart from the board's, a typed SAN
    move and a wrong one, Escape; then a refused move by keys and the
    disarmed pieces' labels."""
    driver.get(URL)
    wait(driver, "the page", lambda d: "No game shown" in status(d))
    new_game(driver, "catchess", {"white": "person", "black": "engine", "cats": "engine"})
    assert tab_stops(driver) == ["a1"], tab_stops(driver)
    assert into_board(driver) == "a1"
    assert label(driver, "a1") == "a1, white rook", label(driver, "a1")
    assert label(driver, "a4") == "a4, cat", label(driver, "a4")
    assert label(driver, "e8") == "e8, black king", label(driver, "e8")
    assert label(driver, "e4") == "e4, empty", label(driver, "e4")
    grid = driver.find_element(By.ID, "board-svg")
    assert grid.get_attribute("role") == "grid" and "white at the bottom" in grid.get_attribute("aria-label")
    # One tab stop: Tab leaves the board (for the move box), Shift+Tab
    # comes back to the same square.
    press(driver, Keys.TAB)
    assert not focused(driver), "Tab stayed on the board"
    shift_tab(driver)
    assert focused(driver) == "a1", focused(driver)
    role, before = live(driver)
    assert role == "status" and "White to move (you)" in before, (role, before)
    # e2, Enter: the pawn is selected, its squares said.
    walk(driver, "e2")
    press(driver, Keys.SPACE)
    wait(driver, "the pawn selected", lambda d: "selected" in label(d, "e2"))
    said = label(driver, "e2")
    assert said.startswith("e2, white pawn, selected, it may go to ") and "e3" in said and "e4" in said, said
    assert focused(driver) == "e2", "the focus left the board when it was drawn again"
    assert "possible move" in label(driver, "e4")
    # Escape lets go; Enter again and e4, Enter: the move goes to the server.
    press(driver, Keys.ESCAPE)
    wait(driver, "let go", lambda d: "selected" not in label(d, "e2"))
    key_move(driver, "e2", "e4")
    wait(driver, "black's and the cats' replies", lambda d: len(plies(d)) >= 3 and "White to move" in status(d))
    _, after = live(driver)
    assert after != before and "Since your last move: black " in after and " · cats " in after, after
    assert focused(driver), "the focus left the board with the replies"
    assert label(driver, "e4").startswith("e4, white pawn"), label(driver, "e4")
    assert any("black's last move" in w for w in labels(driver).values()), labels(driver)
    assert any("cats' last move" in w for w in labels(driver).values()), labels(driver)
    snap(driver, "keyboard-catchess.png")
    # The board's arrows are the board's: no past position is shown.
    press(driver, Keys.ARROW_LEFT, Keys.HOME)
    assert driver.find_element(By.ID, "viewing").get_attribute("hidden"), "the move list stepped back from the board's keys"
    # Elsewhere the arrows step through the moves again.
    driver.execute_script("document.activeElement.blur()")
    press(driver, Keys.ARROW_LEFT)
    wait(driver, "a past position", lambda d: not d.find_element(By.ID, "viewing").get_attribute("hidden"))
    wait(driver, "the shown turn said", lambda d: "Shown: after " in live(d)[1])
    assert any(w.endswith(", last move") for w in labels(driver).values()), labels(driver)
    press(driver, Keys.END)
    wait(driver, "the game again", lambda d: d.find_element(By.ID, "viewing").get_attribute("hidden"))
    # A typed move (SAN), and a wrong one: the server's words in the alert.
    n = len(plies(driver))
    typed(driver, "Nf3")
    wait(driver, "Nf3 and the replies", lambda d: len(plies(d)) >= n + 3 and "White to move" in status(d))
    assert "Nf3" in turns(driver), turns(driver)
    assert driver.find_element(By.ID, "move-input").get_attribute("value") == "", "the box kept a move played"
    typed(driver, "Ke5")
    wait(driver, "the refusal", lambda d: "no legal move here is written so" in error(d))
    assert driver.find_element(By.ID, "error").get_attribute("role") == "alert"
    assert driver.find_element(By.ID, "move-input").get_attribute("value") == "Ke5", "a refused move left the box"
    audits.append(("catchess", audit(driver, "the Cat Chess board")))

    # A position with disarmed pieces, every seat this page's: their
    # labels, and a capture by keys refused in the rules' words.
    load_fen(driver, "catchess", "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
             {"white": "you", "black": "you", "cats": "you"})
    assert label(driver, "c4") == "c4, white bishop, disarmed", label(driver, "c4")
    assert label(driver, "f3") == "f3, white knight, disarmed", label(driver, "f3")
    assert label(driver, "b5") == "b5, cat", label(driver, "b5")
    assert label(driver, "b4") == "b4, empty, no-capture zone", label(driver, "b4")
    assert label(driver, "e4") == "e4, white pawn", label(driver, "e4")
    into_board(driver)
    key_move(driver, "c4", "f7")
    wait(driver, "the reason", lambda d: "not allowed" in error(d) and "disarmed" in error(d))
    assert focused(driver), "the focus left the board with the refusal"
    # The cats' step by its squares, typed: after white's and black's moves.
    typed(driver, "d3")
    wait(driver, "black's turn", lambda d: "Black to move" in status(d))
    into_board(driver)
    key_move(driver, "a7", "a6")
    wait(driver, "the cats' turn", lambda d: "Cats to move" in status(d))
    typed(driver, "b5a5")
    wait(driver, "white's turn", lambda d: "White to move" in status(d) and len(plies(d)) == 3)
    assert label(driver, "a5") == "a5, cat, cats' last move", label(driver, "a5")
    assert label(driver, "b5") == "b5, empty, no-capture zone, cats' last move", label(driver, "b5")
    return "Cat Chess: tab stop, labels, a move by keys, live status, move list keys apart, typed SAN and cat step, a refusal read out"


def chess(driver, audits):
    """Chess on an analysis board, by keys and typed moves: a mate; a check
    said; a promotion by keys with the chooser (Escape, then Enter); the
    flipped board's arrows."""
    new_game(driver, "chess", {"white": "person", "black": "person"})
    into_board(driver)
    key_move(driver, "f2", "f3")
    wait(driver, "f3", lambda d: len(plies(d)) == 1)
    typed(driver, "e5")
    wait(driver, "e5", lambda d: len(plies(d)) == 2)
    into_board(driver)
    key_move(driver, "g2", "g4")
    wait(driver, "g4", lambda d: len(plies(d)) == 3)
    typed(driver, "Qh4#")
    wait(driver, "the mate", lambda d: "Game over — black wins: checkmate" in status(d))
    assert label(driver, "e1") == "e1, white king, in check", label(driver, "e1")
    assert "white's last move" not in label(driver, "h4") and "black's last move" in label(driver, "h4"), label(driver, "h4")
    assert turns(driver) == ["f3", "e5", "g4", "Qh4#"], turns(driver)
    audits.append(("chess", audit(driver, "the chess board after a mate")))

    # A king in check: the status line and the label say so.
    load_fen(driver, "chess", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", {"white": "you", "black": "you"})
    assert "white king on e1 in check" in status(driver), status(driver)
    assert label(driver, "e1") == "e1, white king, in check", label(driver, "e1")
    into_board(driver)
    key_move(driver, "e1", "e2")
    wait(driver, "the capture", lambda d: "Game over" in status(d))

    # A promotion by keys: the chooser takes the focus, Escape gives it
    # back to the board; Enter on its first choice promotes.
    load_fen(driver, "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", {"white": "you", "black": "you"})
    into_board(driver)
    key_move(driver, "a7", "a8")
    wait(driver, "the chooser", lambda d: not d.find_element(By.ID, "chooser").get_attribute("hidden"))
    names = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]
    assert names == ["queen", "rook", "bishop", "knight"], names
    audits.append(("chess promotion", audit(driver, "the promotion chooser")))
    press(driver, Keys.ESCAPE)
    wait(driver, "the chooser closed", lambda d: d.find_element(By.ID, "chooser").get_attribute("hidden"))
    assert focused(driver) == "a8", f"the focus did not come back to the board: {focused(driver)}"
    assert piece_on(driver, "a7") == "P", "Escape played a promotion"
    key_move(driver, "a7", "a8")
    wait(driver, "the chooser again", lambda d: not d.find_element(By.ID, "chooser").get_attribute("hidden"))
    press(driver, Keys.ENTER)
    wait(driver, "the queen", lambda d: label(d, "a8").startswith("a8, white queen"))
    assert focused(driver) == "a8", f"the focus did not come back to the board: {focused(driver)}"

    # Flipped: black at the bottom, the arrows go as shown.
    driver.find_element(By.ID, "flip").click()
    wait(driver, "the board flipped", lambda d: "black at the bottom" in d.find_element(By.ID, "board-svg").get_attribute("aria-label"))
    into_board(driver)
    walk(driver, "e4", flipped=True)
    press(driver, Keys.ARROW_UP)
    assert focused(driver) == "e3", f"ArrowUp on a flipped board went to {focused(driver)}"
    press(driver, Keys.ARROW_RIGHT)
    assert focused(driver) == "d3", f"ArrowRight on a flipped board went to {focused(driver)}"
    snap(driver, "keyboard-chess-flipped.png")
    driver.find_element(By.ID, "flip").click()
    return "chess: a mate by keys and SAN, a check said, a promotion by keys, a flipped board's arrows"


def xiangqi(driver, audits):
    """Xiangqi against the engine: the pieces' names, a move by keys, a
    move typed in WXF."""
    new_game(driver, "xiangqi", {"red": "person", "black": "engine"})
    assert label(driver, "e1") == "e1, red general", label(driver, "e1")
    assert label(driver, "h3") == "h3, red cannon", label(driver, "h3")
    assert label(driver, "a10") == "a10, black chariot", label(driver, "a10")
    assert label(driver, "c10") == "c10, black elephant", label(driver, "c10")
    assert label(driver, "b1") == "b1, red horse", label(driver, "b1")
    assert label(driver, "e7") == "e7, black soldier", label(driver, "e7")
    assert into_board(driver) == "a1"
    _, before = live(driver)
    key_move(driver, "h3", "e3")
    wait(driver, "the engine's reply", lambda d: len(plies(d)) >= 2 and "Red to move" in status(d))
    assert turns(driver)[0] == "C2.5", turns(driver)
    _, after = live(driver)
    assert after != before and "Since your last move: black " in after, after
    typed(driver, "H2+3")
    wait(driver, "the horse and the reply", lambda d: len(plies(d)) >= 4 and "Red to move" in status(d))
    assert turns(driver)[2] == "H2+3", turns(driver)
    assert label(driver, "g3").startswith("g3, red horse"), label(driver, "g3")
    into_board(driver)
    snap(driver, "keyboard-xiangqi.png")
    audits.append(("xiangqi", audit(driver, "the xiangqi board")))
    return "xiangqi: its pieces' names, a move by keys, WXF typed"


def tenten(driver, audits):
    """Cat's Chess 10x10, both seats the page's: the men's names, a turn by
    keys (a pick and its move; a cat's step and End turn), Escape taking a
    pick back, a whole turn typed."""
    new_game(driver, "catschess10", {"white": "person", "black": "person"})
    assert label(driver, "a2") == "a2, neutral", label(driver, "a2")
    assert label(driver, "d1") == "d1, white cat", label(driver, "d1")
    assert label(driver, "f1") == "f1, white king", label(driver, "f1")
    assert label(driver, "d10") == "d10, black cat", label(driver, "d10")
    into_board(driver)
    # A pick and Escape: the pick is taken back.
    walk(driver, "e3")
    press(driver, Keys.ENTER)
    wait(driver, "the pick", lambda d: steps_so_far(d) == "e3" and "selected" in label(d, "e3"))
    picked = label(driver, "e3")
    assert "picked: its move comes next" in picked and "last move" not in picked, picked
    said = label(driver, "e3")
    assert said.startswith("e3, white pawn, ") and "selected, it may go to e4, e5" in said, said
    press(driver, Keys.ESCAPE)
    wait(driver, "the pick taken back", lambda d: steps_so_far(d) == "" and "selected" not in label(d, "e3"))
    # The pick and its move by keys: the turn is over (nothing optional is
    # left after a pawn's move here).
    key_move(driver, "e3", "e5")
    wait(driver, "black's turn", lambda d: "Black to move" in status(d))
    assert "Since your last move" not in live(driver)[1] and "Last move: white " in live(driver)[1], live(driver)
    # A whole turn typed.
    typed(driver, "e8e6")
    wait(driver, "white's turn", lambda d: "White to move" in status(d) and len(plies(d)) == 2)
    assert label(driver, "e6").startswith("e6, black pawn"), label(driver, "e6")
    # A cat's step by keys leaves a second cat's step and a mouse to
    # choose: End turn (its button, by Enter) skips each.
    into_board(driver)
    key_move(driver, "d1", "d2")
    wait(driver, "the cat's step", lambda d: steps_so_far(d) == "d1, d1d2")
    end = driver.find_element(By.ID, "end-turn")
    end.send_keys(Keys.ENTER)
    wait(driver, "no second cat", lambda d: steps_so_far(d) == "d1, d1d2, end")
    assert "mouse" in text(driver, "step-text"), text(driver, "step-text")
    driver.find_element(By.ID, "end-turn").send_keys(Keys.ENTER)
    wait(driver, "black's turn again", lambda d: "Black to move" in status(d) and len(plies(d)) == 3)
    assert label(driver, "d2").startswith("d2, white cat"), label(driver, "d2")
    into_board(driver)
    snap(driver, "keyboard-catschess10.png")
    audits.append(("catschess10", audit(driver, "the 10x10 board")))
    return "10x10: the men's names, a turn by keys with End turn, Escape taking a pick back, a turn typed"


def rules(driver, audits):
    """The rules panel and /rules pass the audit; a diagram is a picture
    whose words list its pieces."""
    driver.find_element(By.ID, "rules-open").click()
    wait(driver, "the rules", lambda d: d.execute_script("return document.getElementById('rules-dialog').open")
         and len(d.find_elements(By.CSS_SELECTOR, "#rules-body .diagram-board svg")) >= 4)
    diagrams = driver.find_elements(By.CSS_SELECTOR, "#rules-body .diagram-board svg")
    assert all(s.get_attribute("role") == "img" for s in diagrams)
    words = [s.get_attribute("aria-label") for s in diagrams]
    assert any("white: " in w and "black: " in w and "neutral a2" in w for w in words), words
    audits.append(("rules panel", audit(driver, "the rules panel")))
    driver.find_element(By.ID, "rules-close").click()
    driver.get(URL + "rules")
    wait(driver, "the rules page", lambda d: len(d.find_elements(By.CSS_SELECTOR, "article .diagram-board svg")) >= 15)
    audits.append(("/rules", audit(driver, "/rules")))
    return "rules panel and /rules audited"


def snap(driver, name):
    driver.execute_script("document.getElementById('board-area').scrollIntoView()")
    return shot(driver, SHOTS, name)


def phone(audits):
    """A phone (390x844): the board by keys, the move box; audited."""
    with tempfile.TemporaryDirectory(prefix="catchess-keys-phone-") as profile:
        driver = browser(profile, phone=(390, 844))
        try:
            driver.get(URL)
            wait(driver, "the page", lambda d: "No game shown" in status(d))
            new_game(driver, "catchess", {"white": "person", "black": "engine", "cats": "engine"})
            into_board(driver)
            walk(driver, "g1")
            press(driver, Keys.ENTER)
            wait(driver, "the knight selected", lambda d: "selected" in label(d, "g1"))
            driver.execute_script("window.scrollTo(0, 0)")
            shot(driver, SHOTS, "phone-keyboard.png")
            walk(driver, "f3")
            press(driver, Keys.ENTER)
            wait(driver, "the replies", lambda d: len(plies(d)) >= 3 and "White to move" in status(d))
            typed(driver, "zz")
            wait(driver, "the refusal", lambda d: "no legal move here is written so" in error(d))
            driver.execute_script("document.getElementById('move-form').scrollIntoView({block: 'center'})")
            shot(driver, SHOTS, "phone-keyboard-typed.png")
            wide = driver.execute_script("return document.documentElement.scrollWidth")
            assert wide <= 390, f"the page is {wide} px wide on a 390 px phone"
            audits.append(("phone", audit(driver, "the phone's board")))
        finally:
            driver.quit()
    return "phone 390x844: keys, a typed refusal, audited"


def main():
    os.makedirs(SHOTS, exist_ok=True)
    said, audits = [], []
    with tempfile.TemporaryDirectory(prefix="catchess-keys-") as profile:
        driver = browser(profile)
        try:
            said.append(cat_chess(driver, audits))
            said.append(chess(driver, audits))
            said.append(xiangqi(driver, audits))
            said.append(tenten(driver, audits))
            said.append(rules(driver, audits))
        finally:
            driver.quit()
    said.append(phone(audits))
    for what, found in audits:
        print(f"axe-core on {what}: " + (", ".join(f"{impact} {id} x{n}" for impact, id, n in found) or "no violations"))
    print("keyboard browser test passed: " + "; ".join(said) + f"; screenshots in {SHOTS}")


if __name__ == "__main__":
    main()
