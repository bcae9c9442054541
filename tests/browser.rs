//! The page in a real browser: `tests/browser/play_games.py` drives
//! headless Chromium through selenium against a server started here on a
//! loopback port and plays every game by clicks as a person would: Cat
//! Chess (clicks, a drag, the zones, the move list stepped with the arrow
//! keys, a reload finding the same game), Cat's Chess 10×10 turns built
//! step by step (a teleport, a neutral's move, a cat and a mouse), xiangqi
//! (characters from the page's own font, and letters), and chess with a
//! clock that runs out, a rematch with the seats turned, a resignation and
//! a level picker. Screenshots go to `target/tmp/browser/`. The page's
//! requests pass the server's Host and Origin checks.
//!
//! `tests/browser/table.py` plays a table for three (issue #61): four
//! browser profiles (white, black, the cats and a watcher) and a second
//! tab play one Cat Chess game to its checkmate by clicks, each move on
//! every other tab within a second; moves for another seat and a
//! watcher's are refused; a page of another origin frames `/` again and
//! again and erases nothing; 10×10 take-backs and rolls again land where
//! they did. `--ignored`, `tests/browser/latency.py` measures the time
//! from a move to the other tabs' boards over 100 moves.
//!
//! `tests/browser/first_game.py` is issue #62's first game: each game's
//! rules on its first visit, the Rules button and `/rules`, a refused
//! move's reason under the board, the board's rough edges (keys, history,
//! orientation, names, confirmations, promotion, clocks, records, FENs,
//! xiangqi's letters, the 10×10 turn bar) and what happened since one's
//! last turn, with desktop and phone (390×844) screenshots in
//! `target/tmp/browser-first-game/`.
//!
//! `tests/browser/keyboard.py` is issue #62's keyboard and screen readers:
//! every game played by keys alone (one tab stop into the board, the
//! arrows as the board is shown, Enter, Escape) and by moves typed in SAN,
//! WXF or from square to square; the squares' labels in each game's words
//! ("c4, white bishop, disarmed"); the status line a live region; and
//! axe-core's audit inside the page (each game's board, the promotion
//! chooser, the rules panel, `/rules`, a phone) with no serious or
//! critical violation. axe-core is pinned in `tests/browser/package.json`
//! (`npm ci --prefix tests/browser`, which `.ci/run` does): without it that
//! test FAILS, it is never skipped. Screenshots in
//! `target/tmp/browser-keyboard/`.
//!
//! `tests/browser/review.py` is issue #62's "analyse the whole game": in
//! each game a short game with a blunder, reviewed by the server, the
//! graph filled and the blunder marked in the move list ("Nf6??, a
//! blunder"), the review kept across a reload, and the engine's thinking
//! turned on and off by a person alone against it. Screenshots in
//! `target/tmp/browser-review/`.
//!
//! `tests/browser/tablebase_panel.py` tries the endgame tables' panel
//! (`serve --tb-dir`, issue #43) the same way: with the chess K+Q v K table
//! built here, and, `--ignored`, with the full Cat Chess tables in
//! `CATCHESS_TB_DIR` (`CATCHESS_TB_DIR=DIR cargo test --test browser --
//! --ignored`). Its screenshots go to `target/tmp/browser-tablebase-<game>/`.
//!
//! It needs Debian's `chromium` and `chromium-driver` and Python selenium
//! (`.ci/run` installs them). Without them the test is **SKIPPED**; with
//! the environment variable `CI` set it FAILS instead (`common/skipping.rs`).

mod common;
use common::skipping;

use catchess::serve::{spawn, Config};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const TESTS: &[(&str, fn())] = &[
    ("the_page_plays_every_game_in_chromium", the_page_plays_every_game_in_chromium),
    ("three_people_play_cat_chess_from_their_own_browsers", three_people_play_cat_chess_from_their_own_browsers),
    ("the_tablebase_panel_shows_chess_tables_in_chromium", the_tablebase_panel_shows_chess_tables_in_chromium),
    (
        "a_first_game_explains_its_rules_and_refusals_in_chromium",
        a_first_game_explains_its_rules_and_refusals_in_chromium,
    ),
    (
        "every_game_is_played_by_keyboard_and_read_out_in_chromium",
        every_game_is_played_by_keyboard_and_read_out_in_chromium,
    ),
    (
        "every_game_is_analysed_whole_and_its_blunder_marked_in_chromium",
        every_game_is_analysed_whole_and_its_blunder_marked_in_chromium,
    ),
];

/// axe-core, the accessibility audit `keyboard.py` runs inside the page:
/// the version `tests/browser/package.json` pins, as `npm ci` installs it.
const AXE: &str = "tests/browser/node_modules/axe-core/axe.min.js";

const IGNORED: &[skipping::Ignored] = &[
    (
        "the_tablebase_panel_shows_cat_chess_tables_in_chromium",
        "needs the full Cat Chess tables: set CATCHESS_TB_DIR",
        the_tablebase_panel_shows_cat_chess_tables_in_chromium,
    ),
    (
        "a_move_reaches_the_other_tabs_quickly_over_100_moves",
        "a measurement (about a minute): its figures go in the report",
        a_move_reaches_the_other_tabs_quickly_over_100_moves,
    ),
];

/// What the scripts drive, each named on its own when it is missing.
const NEEDS: &[skipping::Requirement] = &[
    skipping::Requirement {
        what: "chromium",
        install: "apt-get install chromium",
        available: || Path::new("/usr/bin/chromium").exists(),
    },
    skipping::Requirement {
        what: "chromium-driver",
        install: "apt-get install chromium-driver",
        available: || Path::new("/usr/bin/chromedriver").exists(),
    },
    skipping::Requirement {
        what: "selenium",
        install: "python3 -m pip install selenium",
        available: || {
            Command::new("python3").args(["-c", "import selenium.webdriver"]).output().is_ok_and(|o| o.status.success())
        },
    },
];

fn three_people_play_cat_chess_from_their_own_browsers() {
    // Fewer games than the framing attack loads `/`, and no cap on new
    // games per minute: were a game made on each load, the user's
    // finished games would make room for them.
    let config = Config {
        host: "127.0.0.1".into(),
        port: 0,
        max_games: 40,
        max_creates_per_minute: 1_000,
        ..Config::in_memory()
    };
    let shots = ["table-watcher.png", "table-black.png", "table-10x10-reroll.png", "table-draw-agreed.png"];
    run_script("table.py", config, "browser-table", &[], &shots);
}

/// Issue #62 (`tests/browser/first_game.py`): each game's rules on its
/// first visit and at /rules, refused moves said why, the board's rough
/// edges, the moves since one's last turn; desktop and phone screenshots.
fn a_first_game_explains_its_rules_and_refusals_in_chromium() {
    let config = Config { host: "127.0.0.1".into(), port: 0, max_creates_per_minute: 1_000, ..Config::in_memory() };
    let shots = [
        "rules-catchess.png",
        "rules-catschess10.png",
        "rules-page.png",
        "refused-zone.png",
        "clocks.png",
        "catschess10-turn.png",
        "catchess-recent.png",
        "catchess-cat-check.png",
        "desktop.png",
        "phone-rules.png",
        "phone-catchess.png",
        "phone-refused.png",
        "phone-catschess10.png",
        "phone-rules-page.png",
    ];
    let dir = run_script("first_game.py", config, "browser-first-game", &[], &shots);
    println!("screenshots: {}", dir.display());
}

/// Issue #62 (`tests/browser/keyboard.py`): every game by keys and typed
/// moves, the squares' labels, the live status line, and axe-core's audit
/// with no serious or critical violation; desktop and phone screenshots.
fn every_game_is_played_by_keyboard_and_read_out_in_chromium() {
    assert!(
        Path::new(AXE).exists(),
        "axe-core is missing at {AXE}: install it with `npm ci --prefix tests/browser` (.ci/run does)"
    );
    let config = Config { host: "127.0.0.1".into(), port: 0, max_creates_per_minute: 1_000, ..Config::in_memory() };
    let shots = [
        "keyboard-catchess.png",
        "keyboard-chess-flipped.png",
        "keyboard-xiangqi.png",
        "keyboard-catschess10.png",
        "phone-keyboard.png",
        "phone-keyboard-typed.png",
    ];
    let dir = run_script("keyboard.py", config, "browser-keyboard", &[AXE], &shots);
    println!("screenshots: {}", dir.display());
}

/// Issue #62 (`tests/browser/review.py`): a short game with a blunder in
/// each game, "Analyse the whole game" filling the graph point by point and
/// marking the blunder in the move list (symbol and words), the stored
/// review shown again after a reload and on a phone (audited by axe-core),
/// and the thinking box of a person alone against the engine; desktop and
/// phone screenshots.
fn every_game_is_analysed_whole_and_its_blunder_marked_in_chromium() {
    assert!(
        Path::new(AXE).exists(),
        "axe-core is missing at {AXE}: install it with `npm ci --prefix tests/browser` (.ci/run does)"
    );
    // Small reviews: the test build's search is slow, and a mate in one is found at once.
    let config = Config {
        host: "127.0.0.1".into(),
        port: 0,
        max_creates_per_minute: 1_000,
        review_nodes: 3_000,
        ..Config::in_memory()
    };
    let shots = [
        "review-chess.png",
        "review-catchess.png",
        "review-xiangqi.png",
        "review-catschess10.png",
        "thinking-on.png",
        "desktop.png",
        "phone-review.png",
        "phone-review-graph.png",
    ];
    let dir = run_script("review.py", config, "browser-review", &[AXE], &shots);
    println!("screenshots: {}", dir.display());
}

/// The time from a move (its click) to the other tabs' boards, over 100
/// moves by clicks on loopback: the median and the worst, printed (run
/// with `--ignored --nocapture`).
fn a_move_reaches_the_other_tabs_quickly_over_100_moves() {
    let config = Config { host: "127.0.0.1".into(), port: 0, ..Config::in_memory() };
    run_script("latency.py", config, "browser-latency", &["100"], &[]);
}

fn the_page_plays_every_game_in_chromium() {
    // The engine's moves take the server's default time (1 s).
    let config = Config { host: "127.0.0.1".into(), port: 0, ..Config::in_memory() };
    let shots = ["catchess.png", "catschess10.png", "xiangqi.png", "chess-resigned.png"];
    let dir = run_script("play_games.py", config, "browser", &[], &shots);
    println!("screenshots: {}", dir.display());
}

/// Runs `tests/browser/<script> <url> <screenshot dir> <args>` against a
/// server started with `config`; the script must exit 0, print
/// `... test passed` and leave `screenshots` in the directory it returns.
fn run_script(script: &str, config: Config, shots: &str, args: &[&str], screenshots: &[&str]) -> PathBuf {
    let server = spawn(config).expect("the server starts");
    let dir = shots_dir(shots);
    let url = format!("http://{}/", server.addr);
    let out = Command::new("python3")
        .arg(format!("tests/browser/{script}"))
        .args([url.as_str(), dir.to_str().unwrap()])
        .args(args)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("test passed"), "{stdout}");
    for name in screenshots {
        let shot = dir.join(name);
        assert!(shot.exists(), "no screenshot at {}", shot.display());
    }
    println!("{}", stdout.trim());
    dir
}

/// A fresh directory for screenshots in the test build's temp directory.
fn shots_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tests/browser/tablebase_panel.py` for `game` against a server with
/// the tables in `tables`; the screenshots it must leave.
fn tablebase_panel(game: &str, tables: PathBuf, screenshots: &[&str]) {
    // No engine plays: every seat is a person, so the panel changes only by clicks.
    let config = Config { host: "127.0.0.1".into(), port: 0, tb_dir: Some(tables), ..Config::in_memory() };
    run_script("tablebase_panel.py", config, &format!("browser-tablebase-{game}"), &[game], screenshots);
}

fn the_tablebase_panel_shows_chess_tables_in_chromium() {
    let tables = shots_dir("browser-tablebase-tables");
    let out = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(["tb", "generate", "--variant", "chess", "--material", "KQvK", "--dir", tables.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("catchess runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shots = ["tablebase-chess.png", "tablebase-chess-after.png", "tablebase-chess-uncovered.png"];
    tablebase_panel("chess", tables, &shots);
}

fn the_tablebase_panel_shows_cat_chess_tables_in_chromium() {
    let tables = std::env::var("CATCHESS_TB_DIR").expect("CATCHESS_TB_DIR must name the Cat Chess tables' directory");
    tablebase_panel("catchess", tables.into(), &["tablebase-catchess.png", "tablebase-catchess-held.png"]);
}

fn main() -> ExitCode {
    skipping::run_with_ignored(TESTS, IGNORED, NEEDS)
}
