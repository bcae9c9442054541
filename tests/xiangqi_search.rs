//! The WXF repetition rulings inside the search: a side whose every move
//! in a repetition cycle gave check loses it, so the engine does not take a
//! perpetual check as a draw, and the side being checked may repeat.

use catchess::search::{Limits, Score, SearchControl, SearchResult, Searcher};
use catchess::{Game, History, Xiangqi};

fn search(fen: &str, moves: &[&str], depth: u32) -> SearchResult<<Xiangqi as Game>::Move> {
    let mut history = History::new(Xiangqi::from_fen(fen).unwrap());
    for m in moves {
        history.push_text(m).unwrap();
    }
    assert!(history.outcome().is_none());
    let mut searcher = Searcher::<Xiangqi>::new(8);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    searcher.search(&history, &limits, &SearchControl::new(), &mut |_| {})
}

/// Red, a horse and two cannons down, can check forever with the chariot
/// (a10 and a9 in turn; the black general can only shuttle between e10
/// and e9, its cannon on e8 blocks the way out). Scored as a draw that
/// would be red's best line; under WXF it loses, so red plays on.
const PERPETUAL: &str = "4k4/R8/4c4/9/6cnr/9/9/9/4A4/3K1A3 w - - 0 1";

#[test]
fn the_checking_side_sees_a_perpetual_check_found_in_the_search_as_lost() {
    // As a draw, the perpetual would be red's best line (score 0); lost,
    // red plays on a horse and a cannon down.
    let result = search(PERPETUAL, &[], 10);
    match result.score {
        Score::Cp(cp) => assert!(cp < -300, "{cp}: {:?}", result.pv),
        s => panic!("{s:?}"),
    }
}

#[test]
fn the_checking_side_does_not_complete_a_perpetual_check_begun_in_the_game() {
    // From red's first check (black to move), seven plies of the cycle:
    // checking again on a10 repeats that position a third time and loses.
    let after_check = "R3k4/9/4c4/9/6cnr/9/9/9/4A4/3K1A3 b - - 0 1";
    let moves = ["e10e9", "a10a9", "e9e10", "a9a10", "e10e9", "a10a9", "e9e10"];
    let result = search(after_check, &moves, 10);
    assert_ne!(result.best.unwrap().to_string(), "a9a10", "{:?}", result.pv);
    match result.score {
        Score::Cp(cp) => assert!(cp < -300, "{cp}"),
        s => panic!("{s:?}"),
    }
}

/// As above, black with a chariot on c8 that could block on c9 (and be
/// taken). Red has checked with every move of the cycle twice; black's
/// general stepping back to e10 repeats the start position a third time,
/// which red loses: the checked side may repeat, and wins by it.
#[test]
fn the_checked_side_may_repeat_and_wins_by_it() {
    let fen = "4k4/R8/2r1c4/9/6cn1/9/9/9/4A4/3K1A3 w - - 0 1";
    let moves = ["a9a10", "e10e9", "a10a9", "e9e10", "a9a10", "e10e9", "a10a9"];
    let result = search(fen, &moves, 8);
    assert_eq!(result.best.unwrap().to_string(), "e9e10");
    assert_eq!(result.score, Score::Mate(1));
    // And the game agrees: that move ends it, red losing by perpetual check.
    let mut history = History::new(Xiangqi::from_fen(fen).unwrap());
    for m in moves.iter().chain(&["e9e10"]) {
        history.push_text(m).unwrap();
    }
    let outcome = history.outcome().unwrap();
    assert_eq!(catchess::game::describe::<Xiangqi>(&outcome), "black (perpetual check)");
}
