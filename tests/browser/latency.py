"""How soon a move reaches the other tabs (issue #61): headless Chromium,
three profiles on one loopback server: white (who makes a chess game),
black (who joins by its link) and a watcher. MOVES moves are played by
clicks, a legal move picked at random each time (a game that ends is
followed by a new one); for each, the time from the mover's click on the
target square to each other tab's move list showing the move (both read
from the machine's clock in the pages). Usage: latency.py URL
SCREENSHOT_DIR [MOVES]; prints the median and the worst."""

import random
import sys
import tempfile

from selenium.webdriver.common.by import By

from play_games import browser, status, wait
from table import api, click_move, game_id, link, make_game, role, seen_at, watch_moves

URL = sys.argv[1]
MOVES = int(sys.argv[3]) if len(sys.argv) > 3 else 100


def new_table(white, black, watcher):
    white.get(URL)
    wait(white, "the page", lambda d: "No game shown" in status(d) or game_id(d))
    id = make_game(white, "chess", {"white": "you", "black": "link"})
    black.get(link(white, "black"))
    wait(black, "black joined", lambda d: game_id(d) == id and "You play black" in d.find_element(By.ID, "role").text)
    watcher.get(link(white, "watch"))
    wait(watcher, "the watcher", lambda d: game_id(d) == id and role(d) == "watcher")
    for d in (white, black, watcher):
        watch_moves(d)
    return id


def main():
    rng = random.Random(61)
    white, black, watcher = (browser(tempfile.mkdtemp(prefix=f"catchess-{who}-")) for who in ["white", "black", "watcher"])
    tabs = {"white": white, "black": black, "watcher": watcher}
    per_tab, all_tabs = [], []
    try:
        id = new_table(white, black, watcher)
        played = 0
        while played < MOVES:
            state = api(white, "GET", f"/games/{id}")[1]
            if state["outcome"]:
                id = new_table(white, black, watcher)
                continue
            mover = tabs[state["turn"]]
            moves = [m for m in state["legal"] if len(m) == 4] or state["legal"]
            move = rng.choice(moves)
            n = len(state["moves"]) + 1
            clicked = click_move(mover, move)
            seen = []
            for name, d in tabs.items():
                wait(d, f"move {n} in {name}'s tab", lambda d: seen_at(d, n) is not None, seconds=10)
                if d is not mover:
                    seen.append(seen_at(d, n) - clicked)
            per_tab.extend(seen)
            all_tabs.append(max(seen))
            played += 1
    finally:
        for d in tabs.values():
            d.quit()
    per_tab.sort()
    all_tabs.sort()
    median = lambda xs: xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    print(f"latency test passed: {MOVES} moves by clicks, a move to another tab's board: median {median(per_tab)} ms, "
          f"worst {per_tab[-1]} ms ({len(per_tab)} deliveries); to every other tab: median {median(all_tabs)} ms, "
          f"worst {all_tabs[-1]} ms")


if __name__ == "__main__":
    main()
