"""A first game anyone can enjoy (issue #62), in headless Chromium driven
by selenium. Usage: first_game.py URL SCREENSHOT_DIR

* Rules on the page: a new browser's first game of each kind opens that
  game's rules by itself (turn order, cats like kings, the zone, a king
  next to a cat never in check, draws the cats' win; 10x10: each piece,
  no check, how one wins), with diagrams the server draws (zones,
  disarmed pieces, a check after a cat's step); a second game does not
  open them again, the Rules button and /rules#<game> do.
* A refused move says why under the board, in the rules code's words: a
  disarmed bishop's capture on a zone square (click and drag), a horse's
  blocked leg, a pinned knight; nothing is played.
* The rough edges: ← → step through the moves with the Game menu or a
  seat's menu focused (the menu keeps its value, no game is made); each
  game shown goes into the history (Back, Forward); a new game or a
  rematch turns the board to the player's seat; the Game menu's names;
  Resign asks first (No keeps playing); the promotion chooser closes with
  Escape or Cancel; clock presets, and clock errors in minutes (negative
  refused, 100000 minutes said as such); a PGN error with its move
  number; four-field FENs (chess and 10x10); the FEN box follows the
  position shown; xiangqi's letters are its moves' (H, E); 10x10: a turn
  bar in words whose height never moves the board, and every step of the
  turn marked.
* What happened: the moves since the player's last turn marked in their
  seats' colours; the king a cat's step puts in check marked; a move
  slides into its square.
Screenshots (desktop 1280x940 and phone 390x844) go to SCREENSHOT_DIR."""

import os
import sys
import tempfile
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import play_games
from play_games import (board, browser, close_rules, confirm, error, game_id, new_game, piece, plies, rules_open,
                        set_seats, shot, square, status, steps_so_far, text, wait)

URL, SHOTS = sys.argv[1], sys.argv[2]


def snap(driver, name, at="board-area"):
    """A screenshot with `at` (the board's column) at the top of the window."""
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", at)
    return shot(driver, SHOTS, name)


def shown_rules(driver):
    return driver.find_element(By.ID, "rules-body").get_attribute("data-rules")


def diagrams_drawn(driver, n):
    return len(driver.find_elements(By.CSS_SELECTOR, "#rules-body .diagram-board svg")) >= n


def load_fen(driver, variant, fen, kinds):
    """A new game of `variant` from `fen` (Load FEN), seats `kinds`, its
    rules panel closed."""
    play_games.load_fen(driver, variant, fen, kinds)
    close_rules(driver)


def click(driver, sq):
    square(driver, sq).click()


def marks(driver, sq):
    """The classes marked on a square (recent seat-N, selected, ...)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(`[data-square='${arguments[0]}'] rect, [data-square='${arguments[0]}'] circle`)]"
        ".map((n) => n.getAttribute('class') || '').join(' ');", sq)


def layout_tops(driver):
    """Top and height of the parts over the board (for a failure's message)."""
    return driver.execute_script(
        "return ['board-top', 'step-bar', 'clocks', 'board', 'error'].map((i) => { const r = "
        "document.getElementById(i).getBoundingClientRect(); return `${i} ${Math.round(r.top + scrollY)}+${Math.round(r.height)}`; });")


def y_of(driver, sq):
    """Where a square is on the page (not in the window, which may scroll)."""
    return driver.execute_script("return arguments[0].getBoundingClientRect().top + window.scrollY;", square(driver, sq))


def rules_on_first_visits(driver):
    """A new browser: each game's first visit opens its rules."""
    driver.get(URL)
    wait(driver, "the page", lambda d: "No game shown" in status(d))
    assert not rules_open(driver), "rules opened with no game"
    set_seats(driver, "catchess", {"white": "you", "black": "engine", "cats": "engine"})
    driver.find_element(By.ID, "new-game").click()
    wait(driver, "the rules of Cat Chess", lambda d: rules_open(d) and shown_rules(d) == "catchess" and diagrams_drawn(d, 6))
    words = text(driver, "rules-body")
    for said in ["white, then black, then the cats", "like a king", "zone", "disarmed", "cannot capture",
                 "a king next to a cat is never in check", "Any draw is the cats’ win", "Checkmate"]:
        assert said in words, (said, words)
    # The diagrams are the server's: the disarmed bishop, the check after
    # the cat's step, the cat's eight steps dotted.
    body = driver.find_element(By.ID, "rules-body")
    assert body.find_elements(By.CSS_SELECTOR, '[data-square="c4"][data-disarmed]'), "no disarmed bishop drawn"
    assert body.find_elements(By.CSS_SELECTOR, '[data-square="g8"][data-check]'), "no check drawn after the cat's step"
    assert any(len(f.find_elements(By.CSS_SELECTOR, ".target-dot")) == 8 for f in body.find_elements(By.CSS_SELECTOR, ".diagram")), \
        "the cat's eight steps are not dotted"
    shot(driver, SHOTS, "rules-catchess.png")
    # Escape closes it; the game is there under it.
    driver.find_element(By.ID, "rules-close").send_keys(Keys.ESCAPE)
    wait(driver, "the rules closed", lambda d: not rules_open(d))
    assert "White to move (you)" in status(driver), status(driver)
    # A second Cat Chess game, and a reload: the rules stay closed.
    new_game(driver, "catchess")
    assert not rules_open(driver)
    driver.refresh()
    wait(driver, "the game after a reload", lambda d: d.find_elements(By.ID, "board-svg"))
    time.sleep(0.5)
    assert not rules_open(driver), "the rules opened again after a reload"
    # The Rules button opens them again.
    driver.find_element(By.ID, "rules-open").click()
    wait(driver, "the rules again", lambda d: rules_open(d) and shown_rules(d) == "catchess")
    driver.find_element(By.ID, "rules-close").click()
    # Each other game's first visit opens its own.
    for variant, seats, said in [
        ("chess", {"white": "you", "black": "you"}, ["Checkmate", "en passant", "Castling"]),
        ("xiangqi", {"red": "you", "black": "you"}, ["Red moves first", "stalemate loses", "screen", "never across the river"]),
        ("catschess10", {"white": "you", "black": "you"},
         ["There is no check", "Capture the enemy king", "two of your cats", "Teleport", "Mice block nothing"]),
    ]:
        set_seats(driver, variant, seats)
        old = game_id(driver)
        driver.find_element(By.ID, "new-game").click()
        wait(driver, f"the rules of {variant}", lambda d: game_id(d) != old and rules_open(d) and shown_rules(d) == variant
             and diagrams_drawn(d, 3))
        words = text(driver, "rules-body")
        for s in said:
            assert s in words, (variant, s, words)
        if variant == "catschess10":
            shot(driver, SHOTS, "rules-catschess10.png")
        driver.find_element(By.ID, "rules-close").click()
    # /rules: every game, and the anchor's in view.
    driver.get(URL + "rules#catschess10")
    wait(driver, "the rules page", lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.rules h2")) == 4
         and len(d.find_elements(By.CSS_SELECTOR, "article .diagram-board svg")) >= 15)
    titles = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "article.rules h2")]
    assert titles == ["Cat Chess (white, black and cats)", "Chess", "Xiangqi", "Cat's Chess 10×10 (zzo38)"], titles
    driver.execute_script("document.getElementById('catschess10').scrollIntoView()")
    top = driver.execute_script("return document.getElementById('catschess10').getBoundingClientRect().top")
    assert abs(top) < 5, top
    shot(driver, SHOTS, "rules-page.png")
    driver.get(URL)
    return "rules on the first visit of each game, the Rules button, /rules"


def refusals(driver):
    """Moves the rules refuse, said under the board."""
    zone = "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    load_fen(driver, "catchess", zone, {"white": "you", "black": "you", "cats": "you"})
    click(driver, "c4")
    wait(driver, "the bishop's moves", lambda d: d.find_elements(By.CSS_SELECTOR, ".target"))
    targets = {t.get_attribute("data-square") for t in driver.find_elements(By.CSS_SELECTOR, ".target")}
    assert "f7" not in targets and "e6" in targets, targets
    click(driver, "f7")
    wait(driver, "the reason", lambda d: "not allowed" in error(d))
    assert error(driver) == "c4–f7 is not allowed: the bishop on c4 stands next to a cat: disarmed, it cannot capture", error(driver)
    assert not plies(driver) and piece(driver, "c4") == "B"
    snap(driver, "refused-zone.png")
    # The same by a drag of the knight onto e5.
    a, b = square(driver, "f3").rect, square(driver, "e5").rect
    dx, dy = round(b["x"] - a["x"]), round(b["y"] - a["y"])
    ActionChains(driver).click_and_hold(square(driver, "f3")).pause(0.1).move_by_offset(dx // 2, dy // 2) \
        .pause(0.1).move_by_offset(dx - dx // 2, dy - dy // 2).pause(0.1).release().perform()
    wait(driver, "the knight's reason", lambda d: d.find_element(By.ID, "error").text.startswith("f3–e5"))
    assert "the knight on f3 stands next to a cat: disarmed, it cannot capture" in error(driver), error(driver)
    assert not plies(driver) and piece(driver, "f3") == "N"
    # A legal move still plays, and clears the line.
    click(driver, "c4")
    click(driver, "e6")
    wait(driver, "the move", lambda d: len(plies(d)) == 1 and not error(d))
    # A pinned knight (chess): picked though it has no move; the target says why.
    load_fen(driver, "chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", {"white": "you", "black": "you"})
    click(driver, "e2")
    click(driver, "c3")
    wait(driver, "the pin", lambda d: "e2–c3 is not allowed: that would leave your king in check" == error(d))
    # Xiangqi: the horse's leg.
    load_fen(driver, "xiangqi", "3k5/9/9/9/4p4/3pN4/9/9/9/5K3 w - - 0 1", {"red": "you", "black": "you"})
    click(driver, "e5")
    click(driver, "d7")
    wait(driver, "the leg", lambda d: "e5–d7 is not allowed: the horse's leg at e6 is blocked" == error(d))
    return "a zone capture (click, drag), a pin, a horse's leg: refused with the rules' reasons"


def keys_history_orientation_names(driver):
    """← → whatever has focus; Back; the board's side; the menu's names."""
    names = [o.text for o in Select(driver.find_element(By.ID, "variant")).options]
    assert names == ["Cat Chess (white, black and cats)", "Chess", "Xiangqi", "Cat's Chess 10×10 (zzo38)"], names
    new_game(driver, "chess", {"white": "person", "black": "person"})
    first = game_id(driver)
    for m in ["e2e4", "e7e5", "g1f3"]:
        click(driver, m[:2])
        click(driver, m[2:])
        wait(driver, m, lambda d: piece(d, m[2:]) is not None and piece(d, m[:2]) is None)
    fen_now = driver.find_element(By.ID, "fen").get_attribute("value")
    # The Game menu, chosen and focused again: ← steps back, the menu and
    # the game stay.
    menu = driver.find_element(By.ID, "variant")
    Select(menu).select_by_value("chess")
    driver.execute_script("document.getElementById('variant').focus()")
    for _ in range(3):
        menu.send_keys(Keys.ARROW_LEFT)
    wait(driver, "three moves back", lambda d: piece(d, "e2") == "P" and piece(d, "e4") is None)
    assert Select(menu).first_selected_option.get_attribute("value") == "chess"
    assert game_id(driver) == first, "the menu made a new game"
    # The FEN box follows the position shown.
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert driver.find_element(By.ID, "fen").get_attribute("value") == start
    kind = driver.find_element(By.CSS_SELECTOR, '#setup-seats [data-seat="black"] select.kind')
    driver.execute_script("arguments[0].focus()", kind)
    kind.send_keys(Keys.ARROW_RIGHT)
    wait(driver, "a move forward", lambda d: piece(d, "e4") == "P" and piece(d, "e7") == "p")
    assert Select(kind).first_selected_option.get_attribute("value") == "you", "a seat's menu took the key"
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait(driver, "the game again", lambda d: d.find_element(By.ID, "fen").get_attribute("value") == fen_now)

    # Flip, then a new game: the board turns back to white's side.
    driver.find_element(By.ID, "flip").click()
    assert y_of(driver, "a1") < y_of(driver, "a8"), "Flip did not turn the board"
    new_game(driver, "chess", {"white": "person", "black": "engine"})
    second = game_id(driver)
    assert y_of(driver, "a1") > y_of(driver, "a8"), "a new game kept the flipped board"
    # A rematch: the person plays black, the board from black's side.
    driver.find_element(By.ID, "rematch").click()
    wait(driver, "the rematch", lambda d: game_id(d) not in (first, second) and d.find_elements(By.ID, "board-svg"))
    third = game_id(driver)
    wait(driver, "black's side", lambda d: y_of(d, "a8") > y_of(d, "a1"))
    # History: Back brings the games back, Forward again.
    driver.back()
    wait(driver, "the game before", lambda d: game_id(d) == second)
    driver.back()
    wait(driver, "the first game", lambda d: game_id(d) == first and piece(d, "f3") == "N")
    driver.forward()
    wait(driver, "forward", lambda d: game_id(d) == second)
    driver.forward()
    wait(driver, "the rematch again", lambda d: game_id(d) == third)
    return "← → from the Game and seat menus, FEN box follows, flip/new game/rematch sides, Back/Forward"


def resign_promotion_clocks_records(driver):
    # Resign asks first.
    new_game(driver, "chess", {"white": "person", "black": "engine"})
    driver.find_element(By.ID, "resign").click()
    assert "Resign for white?" in text(driver, "confirm-text"), text(driver, "confirm-text")
    confirm(driver, yes=False)
    time.sleep(0.3)
    assert "Game over" not in status(driver), status(driver)
    driver.find_element(By.ID, "resign").click()
    confirm(driver)
    wait(driver, "the resignation", lambda d: "Game over — black wins" in status(d))

    # The promotion chooser: Escape, Cancel, then a knight.
    load_fen(driver, "chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", {"white": "you", "black": "you"})
    chooser = driver.find_element(By.ID, "chooser")
    for close in ["escape", "cancel"]:
        click(driver, "b7")
        click(driver, "b8")
        wait(driver, "the chooser", lambda d: chooser.is_displayed())
        snap(driver, "promotion.png")
        if close == "escape":
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        else:
            driver.find_element(By.ID, "choose-cancel").click()
        wait(driver, f"the chooser closed by {close}", lambda d: not chooser.is_displayed())
        assert not plies(driver) and piece(driver, "b7") == "P"
    click(driver, "b7")
    click(driver, "b8")
    wait(driver, "the chooser", lambda d: chooser.is_displayed())
    driver.find_element(By.CSS_SELECTOR, '[data-promotion="n"]').click()
    wait(driver, "the knight", lambda d: piece(d, "b8") == "N")

    # Clock presets, and errors in minutes.
    preset = Select(driver.find_element(By.ID, "clock-preset"))
    assert [o.text for o in preset.options][2:] == ["1+0", "3+2", "5+3", "10+5", "15+10"]
    preset.select_by_value("3+2")
    assert (driver.find_element(By.ID, "clock-base").get_attribute("value"),
            driver.find_element(By.ID, "clock-inc").get_attribute("value")) == ("3", "2")
    for value, says in [("-5", "Clock: the minutes must be a number, 0 (no clock) or more"),
                        ("100000", "the base time must be more than 0 and at most 1440 minutes, got 100000 minutes")]:
        field = driver.find_element(By.ID, "clock-base")
        field.clear()
        field.send_keys(value)
        assert preset.first_selected_option.get_attribute("value") == "", "a preset for a custom clock"
        old = game_id(driver)
        set_seats(driver, "chess", {"white": "you", "black": "engine"})
        driver.find_element(By.ID, "new-game").click()
        wait(driver, f"the refusal of {value} minutes", lambda d: says in error(d))
        assert game_id(driver) == old, "a game was made"
    preset.select_by_value("5+3")
    new_game(driver, "chess", {"white": "person", "black": "engine"})
    cards = driver.find_elements(By.CSS_SELECTOR, "#clocks [data-clock-card]")
    assert [c.get_attribute("data-clock-card") for c in cards] == ["white", "black"], cards
    shown = driver.find_element(By.CSS_SELECTOR, '#clocks [data-clock="white"]').text
    minutes, seconds = shown.split(":")
    assert 295 <= 60 * int(minutes) + float(seconds) <= 300, shown
    assert "engine, level" in cards[1].text, cards[1].text
    snap(driver, "clocks.png")
    preset.select_by_value("0+0")

    # A PGN error names the move as the record numbers it.
    Select(driver.find_element(By.ID, "variant")).select_by_value("chess")
    pgn = driver.find_element(By.ID, "pgn")
    pgn.clear()
    pgn.send_keys("1. e4 e5 2. Ke3 *")
    driver.find_element(By.ID, "pgn-import").click()
    wait(driver, "the PGN error", lambda d: "move 2. Ke3" in error(d))
    # Four-field FENs.
    load_fen(driver, "chess", "4k3/8/8/8/8/8/8/R3K3 w Q -", {"white": "you", "black": "you"})
    assert driver.find_element(By.ID, "fen").get_attribute("value") == "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    load_fen(driver, "catschess10", "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq -",
             {"white": "you", "black": "you"})
    assert not error(driver), error(driver)
    return "resign asked (No, Yes), promotion cancelled (Esc, Cancel), presets, clock errors, PGN move 2., 4-field FENs"


def xiangqi_letters(driver):
    new_game(driver, "xiangqi", {"red": "person", "black": "person"})
    Select(driver.find_element(By.ID, "glyphs")).select_by_value("letters")
    label = lambda sq: square(driver, sq).find_element(By.CSS_SELECTOR, "text").text
    wait(driver, "letters", lambda d: label("b1") == "H")
    assert (label("b1"), label("c1"), label("h10"), label("g10"), label("b3")) == ("H", "E", "H", "E", "C")
    click(driver, "h1")
    click(driver, "g3")
    wait(driver, "H2+3", lambda d: [p.text for p in plies(d)] == ["H2+3"])
    Select(driver.find_element(By.ID, "glyphs")).select_by_value("chinese")
    return "xiangqi letters H E C, as H2+3"


def tenten(driver):
    """The turn bar in words, its fixed height, every step marked."""
    new_game(driver, "catschess10", {"white": "person", "black": "person"})
    board_top = lambda: driver.execute_script(
        "return document.getElementById('board-svg').getBoundingClientRect().top + window.scrollY;")
    top = board_top()
    driver.find_element(By.ID, "teleport").click()
    wait(driver, "the roll", lambda d: "T@" in steps_so_far(d).replace("T@?", ""))
    landed = steps_so_far(driver).split(", ")[-1][2:]
    said = text(driver, "turn-steps")
    assert said.startswith("white's turn so far:") and f"teleporting cat to {landed}" in said and "T@" not in said, said
    click(driver, "a2")
    wait(driver, "a neutral's moves", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-square="a4"].target')
         or d.find_elements(By.CSS_SELECTOR, '[data-square="b2"].target'))
    to = "b2" if square(driver, "b2").get_attribute("class").count("target") else "a4"
    click(driver, to)
    wait(driver, "the neutral's step", lambda d: f"neutral a2–{to}" in text(d, "turn-steps"))
    pos = board(driver)
    file = next(f for f in "cdefghi" if pos.get(f + "3") == "P" and f + "4" not in pos and f + "5" not in pos)
    click(driver, file + "3")
    wait(driver, "the pick", lambda d: f"picked the pawn on {file}3" in text(d, "turn-steps"))
    snap(driver, "catschess10-turn.png")
    # Every step of the turn is marked: the teleport's square, the neutral's two.
    for sq in [landed, "a2", to, file + "3"]:
        assert "recent seat-0" in marks(driver, sq), (sq, marks(driver, sq))
    assert board_top() == top, f"the board moved while the turn bar changed: {top} {layout_tops(driver)}"
    click(driver, file + "5")
    wait(driver, "black's turn", lambda d: "Black to move" in status(d))
    assert board_top() == top, f"the board moved at the end of the turn: {top} {layout_tops(driver)}"
    # Black's turn: white's whole turn stays marked, in white's colour.
    for sq in [landed, "a2", to, file + "3", file + "5"]:
        assert "recent seat-0" in marks(driver, sq), (sq, marks(driver, sq))
    return "10x10 turn in words, fixed height, every step marked"


def what_happened(driver):
    """The moves since the person's last turn, the king a cat checks, a slide."""
    new_game(driver, "catchess", {"white": "person", "black": "engine", "cats": "engine"})
    driver.execute_script(
        "window.__slide = null; new MutationObserver(() => {"
        " const p = document.querySelector('[data-square=\"e4\"] .piece');"
        " if (p && !window.__slide) window.__slide = p.getAttribute('transform'); })"
        ".observe(document.getElementById('board'), {childList: true, subtree: true});")
    click(driver, "e2")
    click(driver, "e4")
    wait(driver, "the replies", lambda d: len(plies(d)) >= 3 and "White to move" in status(d))
    final = square(driver, "e4").find_element(By.CSS_SELECTOR, ".piece").get_attribute("transform")
    first = driver.execute_script("return window.__slide;")
    assert first and first != final, f"the pawn did not slide in: {first} then {final}"
    state = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/games/' + new URLSearchParams(location.hash.slice(1)).get('game')).then((r) => r.json()).then(done);")
    black, cats = state["moves"][1]["move"], state["moves"][2]["move"]
    for sq, seat in [(black[:2], 1), (black[2:4], 1), (cats[:2], 2), (cats[2:4], 2)]:
        assert f"recent seat-{seat}" in marks(driver, sq), (sq, seat, marks(driver, sq))
    assert "recent" not in marks(driver, "e2"), "white's own move is still marked"
    snap(driver, "catchess-recent.png")
    # A cat's step away arms the rook: black's king is marked in check.
    load_fen(driver, "catchess", "R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1", {"white": "you", "black": "you", "cats": "you"})
    assert not square(driver, "g8").get_attribute("data-check")
    click(driver, "b7")
    click(driver, "c6")
    wait(driver, "the check", lambda d: square(d, "g8").get_attribute("data-check") == "1" and "White to move" in status(d))
    # The cat has slid all the way to c6 (drawn inside its square).
    wait(driver, "the cat on c6", lambda d: d.execute_script(
        "const g = document.querySelector('[data-square=\"c6\"]'); const p = g.querySelector('.piece').getBoundingClientRect();"
        "const q = g.querySelector('rect').getBoundingClientRect(); const x = p.left + p.width / 2, y = p.top + p.height / 2;"
        "return q.left < x && x < q.right && q.top < y && y < q.bottom;"), seconds=2)
    snap(driver, "catchess-cat-check.png")
    return "moves since the last turn in seat colours, the cat's check marked, a slide"


def phone():
    """The same pages on a phone's screen (390x844)."""
    with tempfile.TemporaryDirectory(prefix="catchess-phone-") as profile:
        driver = browser(profile, rules_seen=False, phone=(390, 844))
        try:
            driver.get(URL)
            wait(driver, "the page", lambda d: "No game shown" in status(d))
            set_seats(driver, "catchess", {"white": "you", "black": "engine", "cats": "engine"})
            driver.find_element(By.ID, "new-game").click()
            wait(driver, "the rules", lambda d: rules_open(d) and diagrams_drawn(d, 6))
            shot(driver, SHOTS, "phone-rules.png")
            width = driver.execute_script("return document.getElementById('rules-dialog').getBoundingClientRect().width")
            assert width <= 390, width
            close_rules(driver)
            driver.execute_script("window.scrollTo(0, 0)")
            shot(driver, SHOTS, "phone-catchess.png")
            wide = driver.execute_script("return document.documentElement.scrollWidth")
            assert wide <= 390, f"the page is {wide} px wide on a 390 px phone"
            load_fen(driver, "catchess", "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                     {"white": "you", "black": "you", "cats": "you"})
            click(driver, "c4")
            click(driver, "f7")
            wait(driver, "the reason", lambda d: "not allowed" in error(d))
            snap(driver, "phone-refused.png", "board")
            new_game(driver, "catschess10", {"white": "person", "black": "person"})
            driver.find_element(By.ID, "teleport").click()
            wait(driver, "the roll", lambda d: "T@" in steps_so_far(d).replace("T@?", ""))
            snap(driver, "phone-catschess10.png")
            driver.get(URL + "rules#xiangqi")
            wait(driver, "the rules page", lambda d: len(d.find_elements(By.CSS_SELECTOR, "article .diagram-board svg")) >= 15)
            driver.execute_script("document.getElementById('xiangqi').scrollIntoView()")
            shot(driver, SHOTS, "phone-rules-page.png")
        finally:
            driver.quit()
    return "phone 390x844: rules, board, refusal, 10x10, /rules"


def main():
    os.makedirs(SHOTS, exist_ok=True)
    said = []
    with tempfile.TemporaryDirectory(prefix="catchess-first-") as profile:
        driver = browser(profile, rules_seen=False)
        try:
            said.append(rules_on_first_visits(driver))
            said.append(refusals(driver))
            said.append(keys_history_orientation_names(driver))
            said.append(resign_promotion_clocks_records(driver))
            said.append(xiangqi_letters(driver))
            said.append(tenten(driver))
            said.append(what_happened(driver))
            driver.execute_script("window.scrollTo(0, 0)")
            shot(driver, SHOTS, "desktop.png")
        finally:
            driver.quit()
    said.append(phone())
    print("first game browser test passed: " + "; ".join(said) + f"; screenshots in {SHOTS}")


if __name__ == "__main__":
    main()
