"""A table for three in real browsers (issue #61): headless Chromium
driven by selenium, one profile (user-data-dir) per person.
Usage: table.py URL SCREENSHOT_DIR

* Cat Chess for three: Ann (white) makes the game with black invited by a
  link and the cats open to anyone; Bea opens black's link; Cy takes the
  cats from the open games; Wes opens the watch link. They play it to its
  end (a checkmate) by clicks; the watcher's board, and every other tab's,
  shows each move within a second; a second tab of Ann's follows too.
  Black's attempt to move for white and the watcher's attempt to move
  are refused (403), by the page (no piece can be picked) and by the
  server; the join link, once used, is spent. Bea offers a draw, Cy
  accepts and Ann refuses, by clicks; Ann asks to take back a move and
  Bea and Cy consent.
* Draws against the engine: the cats' engine takes one (the cats win);
  chess's engine plays on and the page says why.
* The framing attack: a page of another origin frames / again and again:
  nothing is framed, no game is made, and every game of Ann's is still
  there ("my games").
* Cat's Chess 10x10 (Ann at both seats): a teleport taken back lands on
  the same square again, a roll again too; where every square holds a
  mouse the page offers keep and no roll again.
* My games: Delete is refused for a game others play in, and deletes a
  game of one's own.
Screenshots go to SCREENSHOT_DIR."""

import json
import os
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from play_games import board, browser, confirm, piece, plies, shot, square, status, steps_so_far, text, wait

URL = sys.argv[1]
SHOTS = sys.argv[2]


def seat_kind(driver, seat, kind, level=None):
    row = f'#setup-seats [data-seat="{seat}"]'
    Select(driver.find_element(By.CSS_SELECTOR, f"{row} select.kind")).select_by_value(kind)
    if level is not None:
        Select(driver.find_element(By.CSS_SELECTOR, f"{row} select.level")).select_by_value(str(level))


def set_name(driver, name):
    field = driver.find_element(By.ID, "my-name")
    field.clear()
    field.send_keys(name)
    field.send_keys("\t")


def game_id(driver):
    return driver.find_element(By.ID, "board-area").get_attribute("data-game")


def make_game(driver, variant, seats, fen=None):
    """A new game of `variant` by the New game pickers ({seat: kind});
    with `fen`, by Load FEN."""
    old = game_id(driver)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    for seat, kind in seats.items():
        seat_kind(driver, seat, kind)
    if fen:
        field = driver.find_element(By.ID, "fen")
        field.clear()
        field.send_keys(fen)
        driver.find_element(By.ID, "fen-load").click()
    else:
        driver.find_element(By.ID, "new-game").click()
    wait(driver, f"a new {variant} game", lambda d: game_id(d) not in ("", old) and d.find_elements(By.ID, "board-svg"))
    return game_id(driver)


def link(driver, kind):
    return driver.find_element(By.CSS_SELECTOR, f'#links [data-link="{kind}"] input').get_attribute("value")


def role(driver):
    return driver.find_element(By.ID, "role").get_attribute("data-role")


def api(driver, method, path, body=None, token=None):
    """A request from the page's own origin: (status, JSON)."""
    return driver.execute_async_script(
        "const [method, path, body, token, done] = arguments;"
        "const headers = {'Content-Type': 'application/json'};"
        "if (token) headers['X-Seat-Token'] = token;"
        "fetch('/api' + path, {method, headers, body: body === null ? undefined : JSON.stringify(body)})"
        ".then(async (r) => done([r.status, await r.json().catch(() => null)]), (e) => done([0, String(e)]));",
        method, path, body, token)


def tokens(driver, id):
    """The tokens this browser holds for game `id` (table.js)."""
    kept = driver.execute_script("return localStorage.getItem(arguments[0]);", "catchess-table-" + id)
    return json.loads(kept)["tokens"] if kept else {}


def watch_moves(driver):
    """Records, in the page, when each move count first shows in the move
    list, and when the board was last clicked."""
    driver.execute_script(
        "window.__seen = {};"
        "document.addEventListener('pointerdown', () => { window.__clicked = Date.now(); }, true);"
        "const note = () => { const p = document.querySelectorAll('#moves [data-ply]');"
        "  const n = p.length ? Number(p[p.length - 1].getAttribute('data-ply')) : 0;"
        "  if (!(n in window.__seen)) window.__seen[n] = Date.now(); };"
        "note(); new MutationObserver(note).observe(document.getElementById('moves'), {childList: true, subtree: true});")


def seen_at(driver, n):
    return driver.execute_script("return window.__seen[arguments[0]] || null;", n)


def click_move(driver, move):
    """Clicks a move's two squares; returns the page's time of the second
    click (its pointerdown, `watch_moves`)."""
    square(driver, move[:2]).click()
    wait(driver, f"the targets of {move[:2]}", lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-square="{move[2:4]}"].target'))
    square(driver, move[2:4]).click()
    return driver.execute_script("return window.__clicked;")


def no_targets_from(driver, sq):
    """A click on `sq` offers no move."""
    square(driver, sq).click()
    time.sleep(0.2)
    return not driver.find_elements(By.CSS_SELECTOR, ".target")


def three_people(ann, ann2, bea, cy, wes):
    ann.get(URL)
    wait(ann, "the page", lambda d: "No game shown" in status(d))
    assert not plies(ann) and not ann.find_elements(By.ID, "board-svg"), "/ made a game"
    set_name(ann, "Ann")
    id = make_game(ann, "catchess", {"white": "you", "black": "link", "cats": "open"})
    assert role(ann) == "player" and "You play white" in text(ann, "role"), text(ann, "role")
    black_link, watch_link = link(ann, "black"), link(ann, "watch")
    assert f"#game={id}&seat=black&token=" in black_link, black_link
    assert watch_link.endswith(f"/#game={id}"), watch_link
    assert ann.find_elements(By.CSS_SELECTOR, '#links [data-link="cats"]'), "the open seat's link too"
    assert "waiting" in ann.find_element(By.CSS_SELECTOR, '[data-player="black"]').text

    # Bea opens black's link: she plays black; the token leaves the address.
    bea.get(URL)
    set_name(bea, "Bea")
    bea.get(black_link)
    wait(bea, "black joined", lambda d: role(d) == "player" and "You play black" in text(d, "role"))
    assert "token" not in bea.current_url, bea.current_url
    wait(ann, "Ann sees Bea", lambda d: "Bea" in d.find_element(By.CSS_SELECTOR, '[data-player="black"]').text)
    # Cy takes the cats from the open games.
    cy.get(URL)
    set_name(cy, "Cy")
    wait(cy, "the open game", lambda d: d.find_elements(By.CSS_SELECTOR, f'#open-games [data-game="{id}"] [data-join="cats"]'))
    cy.find_element(By.CSS_SELECTOR, f'#open-games [data-game="{id}"] [data-join="cats"]').click()
    wait(cy, "the cats joined", lambda d: "You play cats" in text(d, "role"))
    # Wes watches; a second tab of Ann's shows her game from her list.
    wes.get(watch_link)
    wait(wes, "the watcher's board", lambda d: role(d) == "watcher")
    ann2.get(URL)
    wait(ann2, "Ann's games", lambda d: d.find_elements(By.CSS_SELECTOR, f'#my-games [data-resume="{id}"]'))
    ann2.find_element(By.CSS_SELECTOR, f'#my-games [data-resume="{id}"]').click()
    wait(ann2, "Ann's game in a second tab", lambda d: game_id(d) == id and "You play white" in text(d, "role"))
    # The spent link joins nothing for someone else.
    spent = api(wes, "POST", f"/games/{id}/join", {}, black_link.split("token=")[1])
    assert spent[0] == 403 and "spent" in spent[1]["error"], spent

    tabs = {"ann": ann, "ann2": ann2, "bea": bea, "cy": cy, "wes": wes}
    for d in tabs.values():
        watch_moves(d)
    delays = []

    def move(who, m, n):
        """`who` plays `m`, the game's `n`-th move; every tab shows it within a second."""
        before = click_move(tabs[who], m)
        for name, d in tabs.items():
            wait(d, f"move {n} ({m}) in {name}'s tab", lambda d: seen_at(d, n) is not None, seconds=5)
            if name != who:
                delay = seen_at(d, n) - before
                delays.append(delay)
                assert delay < 1000, f"{name} saw {m} {delay} ms after it was played"

    # Nobody moves for anyone else: no piece can be picked, and the
    # server refuses what a page sends anyway.
    assert no_targets_from(bea, "e7") and no_targets_from(wes, "e2") and no_targets_from(cy, "a4")
    bea_token = tokens(bea, id)["black"]
    refused = api(bea, "POST", f"/games/{id}/moves", {"move": "f2f3"}, bea_token)
    assert refused[0] == 403 and "your token is black's" in refused[1]["error"], refused
    refused = api(wes, "POST", f"/games/{id}/moves", {"move": "f2f3"})
    assert refused[0] == 403 and "without one you watch" in refused[1]["error"], refused
    assert tokens(wes, id) == {}, "the watcher holds no token"

    move("ann", "f2f3", 1)
    # Bea offers a draw: everyone sees it, in Cat Chess's words; Cy (the
    # cats, whose win it would be) accepts, Ann refuses: it is gone.
    bea.find_element(By.ID, "offer-draw").click()
    offered = "Black offers a draw (in Cat Chess a draw is the cats' win); waiting for white, cats."
    for name, d in tabs.items():
        wait(d, f"the draw offer in {name}'s tab", lambda d: offered in text(d, "proposal"))
    assert bea.find_elements(By.ID, "withdraw") and not wes.find_elements(By.ID, "accept")
    cy.find_element(By.ID, "accept").click()
    wait(ann, "Cy's consent", lambda d: "waiting for white." in text(d, "proposal"))
    ann.find_element(By.ID, "refuse").click()
    for name, d in tabs.items():
        wait(d, f"the offer gone in {name}'s tab", lambda d: not d.find_element(By.ID, "proposal").is_displayed())
    assert "Game over" not in status(wes)
    # Ann takes it back; Bea and Cy consent by clicks.
    ann.find_element(By.ID, "take-back").click()
    for d in (bea, cy):
        wait(d, "the take-back asked", lambda d: d.find_elements(By.ID, "accept"))
        assert "White asks to take back 1 move" in text(d, "proposal"), text(d, "proposal")
    assert ann.find_elements(By.ID, "withdraw") and not wes.find_elements(By.ID, "accept")
    bea.find_element(By.ID, "accept").click()
    wait(cy, "Bea's consent", lambda d: "waiting for cats" in text(d, "proposal"))
    cy.find_element(By.ID, "accept").click()
    for name, d in tabs.items():
        wait(d, f"the take-back in {name}'s tab", lambda d: not plies(d) and piece(d, "f2") == "P")
        d.execute_script("window.__seen = {};")
    for n, (who, m) in enumerate([("ann", "f2f3"), ("bea", "e7e5"), ("cy", "h5h6"), ("ann", "g2g4"), ("bea", "d8h4"), ("cy", "a4b4")], 1):
        move(who, m, n)
    for name, d in tabs.items():
        wait(d, f"the end in {name}'s tab", lambda d: "Game over — black wins: checkmate" in status(d))
    assert piece(wes, "h4") == "q" and board(wes) == board(ann) == board(bea) == board(cy)
    shot(wes, SHOTS, "table-watcher.png")
    shot(bea, SHOTS, "table-black.png")
    record = api(ann, "GET", f"/games/{id}/pgn")[1]["pgn"]
    for tag in ['[White "Ann"]', '[Black "Bea"]', '[Cats "Cy"]', '[Result "0-1"]']:
        assert tag in record, record
    return id, delays


FRAMES = 80


def framing_attack(ann, attacker):
    """Another origin's page frames / over and over (FRAMES times, more
    than the server holds: were a game made each time, Ann's finished
    games would make room): nothing loads in its frames, and none of Ann's
    games is lost."""
    for _ in range(2):
        make_game(ann, "chess", {"white": "you", "black": "engine"})
        ann.find_element(By.ID, "resign").click()
        confirm(ann)
        wait(ann, "the resignation", lambda d: "Game over" in status(d))
    ids = json.loads(ann.execute_script("return localStorage.getItem('catchess-games');"))
    before = api(ann, "GET", "/games?ids=" + ",".join(ids))[1]
    assert len(before["games"]) == len(ids) and not before["unknown"], before
    page = ("<!doctype html><title>attack</title><body><script>"
            f"let n = 0; const go = () => {{ const f = document.createElement('iframe'); f.src = {json.dumps(URL)};"
            f"document.body.appendChild(f); if (++n < {FRAMES}) setTimeout(go, 50); else document.title = 'done'; }}; go();"
            "</script></body>")
    attacker.get("data:text/html;base64," + __import__("base64").b64encode(page.encode()).decode())
    wait(attacker, "the frames", lambda d: d.title == "done", seconds=20)
    time.sleep(1)
    frames = attacker.find_elements(By.TAG_NAME, "iframe")
    assert len(frames) == FRAMES, len(frames)
    # No frame shows the page: the browser refused each one.
    for f in frames[:3]:
        attacker.switch_to.frame(f)
        assert not attacker.find_elements(By.ID, "board-area"), "the page was framed"
        attacker.switch_to.default_content()
    after = api(ann, "GET", "/games?ids=" + ",".join(ids))[1]
    assert len(after["games"]) == len(ids) and not after["unknown"], after
    ann.refresh()
    wait(ann, "Ann's list", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#my-games [data-resume]")) == len(ids))
    return len(ids)


def ten_by_ten(ann):
    """Teleport, take back, teleport again: the same square; roll again
    where the rules allow it, and only there."""
    mice = "rnbcqkcbnr/10/" + "mmmmmmmmmm/" * 6 + "10/K9 w - - 0 1"
    all_mice = "rnbcqkcbnr/mmmmmmmmm1/" + "mmmmmmmmmm/" * 7 + "K1mmmmmmmm w - - 0 1"
    steps = steps_so_far
    rolled = lambda d: "T@" in steps(d).replace("T@?", "") or "T?" in steps(d)
    for _ in range(20):
        make_game(ann, "catschess10", {"white": "you", "black": "you"}, fen=mice)
        ann.find_element(By.ID, "teleport").click()
        wait(ann, "a roll", rolled)
        if ann.find_element(By.ID, "keep").is_displayed():
            break
    assert ann.find_element(By.ID, "keep").is_displayed(), "20 games and never a roll on a mouse"
    assert ann.find_element(By.ID, "reroll").is_displayed(), "a roll again where the rules allow it"
    first = steps(ann)
    ann.find_element(By.ID, "reroll").click()
    wait(ann, "the roll again", lambda d: steps(d) != first and "reroll" not in steps(d) or "keep" in text(d, "step-text") and steps(d) != first)
    second = steps(ann)
    for _ in range(3):
        ann.find_element(By.ID, "take-back").click()
        wait(ann, "the teleport taken back", lambda d: not steps(d))
        ann.find_element(By.ID, "teleport").click()
        wait(ann, "the roll", rolled)
        assert steps(ann) == first, (steps(ann), first)
        ann.find_element(By.ID, "reroll").click()
        wait(ann, "the roll again", lambda d: steps(d) != first)
        assert steps(ann) == second, (steps(ann), second)
    shot(ann, SHOTS, "table-10x10-reroll.png")
    # Every square a roll may keep holds a mouse: keep, and no roll again.
    make_game(ann, "catschess10", {"white": "you", "black": "you"}, fen=all_mice)
    ann.find_element(By.ID, "teleport").click()
    wait(ann, "a roll on a mouse", lambda d: "T?" in steps(d))
    assert ann.find_element(By.ID, "keep").is_displayed() and not ann.find_element(By.ID, "reroll").is_displayed()
    ann.find_element(By.ID, "keep").click()
    wait(ann, "the kept square", lambda d: "keep" in steps(d))
    return first, second


def draws_against_the_engine(ann):
    """Offer draw against the engine: in Cat Chess the cats' engine takes
    it (a draw is their win) and the game ends so; in chess the engine
    plays on, and the page says why."""
    make_game(ann, "catchess", {"white": "you", "black": "you", "cats": "engine"})
    ann.find_element(By.ID, "offer-draw").click()
    wait(ann, "the draw agreed", lambda d: "Game over — cats win: draw by agreement" in status(d))
    shot(ann, SHOTS, "table-draw-agreed.png")
    make_game(ann, "chess", {"white": "you", "black": "engine"})
    ann.find_element(By.ID, "offer-draw").click()
    wait(ann, "the engine's no", lambda d: "black (the engine, level" in text(d, "error") and "plays on" in text(d, "error"))
    assert "Game over" not in status(ann), status(ann)


def delete_from_my_games(ann, bea, shared, alone):
    """Delete in "my games": refused for a game others play in (Bea's view
    of the shared game), done for Ann's game of her own (`alone`)."""
    for d in (ann, bea):
        d.find_element(By.ID, "games-refresh").click()
    wait(bea, "Bea's list", lambda d: d.find_elements(By.CSS_SELECTOR, f'#my-games [data-delete="{shared}"]'))
    bea.find_element(By.CSS_SELECTOR, f'#my-games [data-delete="{shared}"]').click()
    confirm(bea)
    wait(bea, "the refusal", lambda d: "other people play in this game" in text(d, "error"))
    assert api(bea, "GET", f"/games/{shared}")[0] == 200
    wait(ann, "Ann's list", lambda d: d.find_elements(By.CSS_SELECTOR, f'#my-games [data-delete="{alone}"]'))
    ann.find_element(By.CSS_SELECTOR, f'#my-games [data-delete="{alone}"]').click()
    confirm(ann)
    wait(ann, "the game deleted", lambda d: not d.find_elements(By.CSS_SELECTOR, f'#my-games [data-game="{alone}"]'))
    assert api(ann, "GET", f"/games/{alone}")[0] == 404
    assert "No game shown" in status(ann), status(ann)


class Window:
    """One tab of a browser: every command goes to that tab (selenium
    drives one tab of a browser at a time)."""

    def __init__(self, driver, handle):
        self._driver, self._handle = driver, handle

    def __getattr__(self, name):
        if self._driver.current_window_handle != self._handle:
            self._driver.switch_to.window(self._handle)
        return getattr(self._driver, name)


def main():
    profiles = [tempfile.mkdtemp(prefix=f"catchess-{who}-") for who in ["ann", "bea", "cy", "wes", "eve"]]
    drivers = [browser(p) for p in profiles]
    try:
        first_tab = drivers[0].current_window_handle
        drivers[0].switch_to.new_window("tab")
        ann, ann2 = Window(drivers[0], first_tab), Window(drivers[0], drivers[0].current_window_handle)
        bea, cy, wes, eve = drivers[1:]
        id, delays = three_people(ann, ann2, bea, cy, wes)
        first, second = ten_by_ten(ann)
        draws_against_the_engine(ann)
        kept = framing_attack(ann, eve)
        delete_from_my_games(ann, bea, id, game_id(ann))
        delays.sort()
        print(f"table browser test passed: Cat Chess for three to checkmate (game {id}), "
              f"{len(delays)} move deliveries, median {delays[len(delays) // 2]} ms, worst {delays[-1]} ms; "
              f"framing {FRAMES} times: all {kept} games kept; 10x10 rolls {first!r} then {second!r} after each take-back; "
              f"screenshots in {SHOTS}")
    finally:
        for d in drivers:
            try:
                d.quit()
            except Exception:
                pass


if __name__ == "__main__":
    main()
