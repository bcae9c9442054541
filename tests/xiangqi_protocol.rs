//! Xiangqi over the engine protocol, spoken to the real binary: every
//! command works, and the WXF repetition rulings apply to the `moves` of
//! `position` (and so to `outcome` and `go`).

mod common;
use common::engine;

use engine::Engine;

fn xiangqi() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.ask("setoption name UCI_Variant value xiangqi");
    e
}

/// Red's chariot checks on a10 and a9 in turn; the black general can only
/// shuttle between e10 and e9.
const PERPETUAL: &str = "4k4/R8/4c4/9/6cnr/9/9/9/4A4/3K1A3 w - - 0 1";
const CYCLE: &str = "a9a10 e10e9 a10a9 e9e10";
/// The same after red's first check, and seven plies of the cycle from it.
const AFTER_CHECK: &str = "R3k4/9/4c4/9/6cnr/9/9/9/4A4/3K1A3 b - - 0 1";
const SHORT: &str = "e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10";

#[test]
fn position_go_perft_display_eval_and_outcome() {
    let mut e = xiangqi();
    e.ask("position startpos moves h3e3 h10g8");
    e.send("go perft 1");
    let perft = e.until(|l| l.starts_with("Nodes searched"));
    assert!(perft.iter().any(|l| l.contains("h1g3: 1")), "{perft:?}");
    let nodes: Vec<&String> = perft.iter().filter(|l| l.starts_with("Nodes searched")).collect();
    assert_eq!(nodes.len(), 1, "{perft:?}");
    let board = e.ask("d").join("\n");
    assert!(board.contains("river"), "{board}");
    assert!(board.contains("To move: red"), "{board}");
    let eval = e.ask("eval").join("\n");
    for term in ["material", "mobility", "palace", "cannons", "defenders", "total"] {
        assert!(eval.contains(term), "{term} missing in\n{eval}");
    }
    assert_eq!(e.ask("outcome"), ["outcome none"]);
    let (info, best) = e.go("depth 6");
    assert!(info.iter().any(|l| l.starts_with("info depth 6")), "{info:?}");
    assert_eq!(best.len(), 4, "{best}");
    // The answer is a legal move: it can be played.
    let after = e.ask(&format!("position startpos moves h3e3 h10g8 {best}"));
    assert!(after.iter().all(|l| !l.contains("error")), "{after:?}");
}

#[test]
fn a_perpetual_check_in_the_moves_ends_the_game() {
    let mut e = xiangqi();
    // The start position a third time, red having checked with every move.
    e.ask(&format!("position fen {PERPETUAL} moves {CYCLE} {CYCLE}"));
    assert_eq!(e.ask("outcome"), ["outcome black perpetual check"]);
    let (_, best) = e.go("depth 5");
    assert_eq!(best, "(none)");
    // Begun from the cycle's first check (black to move), red's next check
    // would repeat a position a third time: red does not play it.
    e.ask(&format!("position fen {AFTER_CHECK} moves {SHORT}"));
    assert_eq!(e.ask("outcome"), ["outcome none"]);
    let (_, best) = e.go("depth 8");
    assert_ne!(best, "a9a10");
    e.ask(&format!("position fen {AFTER_CHECK} moves {SHORT} a9a10"));
    assert_eq!(e.ask("outcome"), ["outcome black perpetual check"]);
}

#[test]
fn checkmate_ends_the_game_and_red_is_named_red() {
    let mut e = xiangqi();
    // Double cannon: h7e7 mates. `outcome` and `d` name xiangqi's sides
    // red and black.
    e.ask("position fen 3aka3/9/9/7C1/9/4C4/9/9/9/3K5 w - - 0 1");
    let (info, best) = e.go("depth 4");
    assert_eq!(best, "h7e7");
    assert!(info.last().unwrap().contains("score mate 1"), "{info:?}");
    e.ask("position fen 3aka3/9/9/7C1/9/4C4/9/9/9/3K5 w - - 0 1 moves h7e7");
    assert_eq!(e.ask("outcome"), ["outcome red checkmate"]);
    let board = e.ask("d").join("\n");
    assert!(board.contains("Outcome: red (checkmate)"), "{board}");
    assert!(!board.to_lowercase().contains("white"), "{board}");
    let (info, best) = e.go("depth 3");
    assert_eq!(best, "(none)");
    assert!(info.iter().any(|l| l.contains("the game is over: red (checkmate)")), "{info:?}");
}
