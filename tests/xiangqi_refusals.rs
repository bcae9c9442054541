//! Why a xiangqi move is refused (#62): each rule a move can break
//! (RULES.md §X2, §X3) is named in the error. (The error reaches the
//! protocol and the API as in Cat Chess: tests/catchess_refusals.rs.)

use catchess::game::{MoveError, Notation};
use catchess::Xiangqi;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn why(fen: &str, text: &str) -> String {
    match Xiangqi::from_fen(fen).unwrap().parse_move(text) {
        Err(MoveError::Illegal { why: Some(why), .. }) => why,
        other => panic!("{text} in {fen}: expected a refusal with a reason, got {other:?}"),
    }
}

#[test]
fn whose_piece_and_where_it_goes() {
    assert_eq!(why(START, "e2e3"), "there is no piece on e2");
    assert_eq!(why(START, "a7a6"), "the soldier on a7 is black's; it is red's move");
    assert_eq!(why(START, "a1b1"), "b1 holds your own horse");
}

#[test]
fn each_piece_s_geometry_and_what_blocks_it() {
    assert_eq!(why(START, "b1b2"), "a horse moves one point along a line, then one diagonally outward");
    assert_eq!(why(START, "b1d2"), "the horse's leg at c1 is blocked");
    assert_eq!(why(START, "d1d2"), "an advisor steps one point diagonally and never leaves the palace");
    assert_eq!(why(START, "e1e3"), "the general steps one point along a line and never leaves the palace");
    assert_eq!(why(START, "a1a5"), "the red soldier on a4 stands in the way");
    assert_eq!(why(START, "a1b2"), "a chariot moves along a line");
    assert_eq!(
        why(START, "a4a3"),
        "a soldier steps one point forward, and sideways too once across the river; never back"
    );
    assert_eq!(
        why(START, "a4b4"),
        "a soldier steps one point forward, and sideways too once across the river; never back"
    );
    let river = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    assert_eq!(why(river, "c5e7"), "an elephant moves two points diagonally and never crosses the river");
    let eye = "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1";
    assert_eq!(why(eye, "c1e3"), "the elephant's eye at d2 is blocked");
}

#[test]
fn the_cannon_needs_exactly_one_screen_to_capture() {
    assert_eq!(why(START, "b3b9"), "a cannon moves without capturing only along an open line");
    assert_eq!(why(START, "h3h8"), "a cannon captures only by jumping exactly one piece (its screen)");
    let central = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1";
    assert_eq!(why(central, "e3e10"), "a cannon captures by jumping exactly one piece, and 2 stand between");
    // The one-screen capture is legal.
    assert!(Xiangqi::from_fen(START).unwrap().parse_move("b3b10").is_ok());
}

#[test]
fn the_generals() {
    let screen = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    assert_eq!(why(screen, "e2d3"), "the two generals may not face each other on an open file");
    let pin = "4k4/9/9/9/9/9/9/4r4/4A4/4K4 w - - 0 1";
    assert_eq!(why(pin, "e2d3"), "that would leave your general in check");
    let check = "4k4/9/9/9/9/9/P8/9/9/3K1r3 w - - 0 1";
    assert_eq!(why(check, "a4a5"), "your general is in check, and this move does not answer it");
}
