//! Xiangqi (WXF): one test or more per rule of RULES.md "Xiangqi (WXF)".
//! Each asserts the concrete moves or outcome the rule dictates, so
//! breaking the rule breaks the test.

mod common;
use catchess::game::{describe, Outcome};
use catchess::games::xiangqi::{rules, Move, Perpetual, Square};
use catchess::{Game, History, Reason, Xiangqi};
use common::*;
use pretty_assertions::assert_eq;

fn xq(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// The legal destinations of the piece on `from`, sorted.
fn dests(pos: &Xiangqi, from: &str) -> Vec<String> {
    let mut v: Vec<String> = moves(pos)
        .into_iter()
        .filter_map(|m| {
            let mv = Move::parse(&m).unwrap();
            (mv.from().to_string() == from).then(|| mv.to().to_string())
        })
        .collect();
    v.sort();
    v
}

fn outcome(history: &History<Xiangqi>) -> Option<Outcome> {
    history.outcome()
}

/// Plays `line` `times` times from `fen`.
fn cycle(fen: &str, line: &str, times: usize) -> History<Xiangqi> {
    history(xq(fen), &vec![line; times].join(" "))
}

// Board and start

#[test]
fn start_position_red_moves_first_with_44_moves() {
    let pos = Xiangqi::startpos();
    assert_eq!(Some(pos.to_move()), WHITE);
    assert_eq!(Xiangqi::SEATS[0].name, "red");
    assert_eq!(pos.count_legal_moves(), 44);
    assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let after = play(&pos, "h3e3");
    assert_eq!(Some(after.to_move()), BLACK);
    assert_eq!(after.fullmove_number(), 1);
    assert_eq!(play(&after, "h8e8").fullmove_number(), 2);
}

// Pieces

#[test]
fn the_general_steps_orthogonally_inside_its_palace() {
    let pos = xq("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "f1"), ["e1", "f2"]);
    let pos = xq("3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1");
    // f3: not f4 (outside the palace), not g3.
    assert_eq!(dests(&pos, "f3"), ["e3", "f2"]);
}

#[test]
fn advisors_step_diagonally_inside_the_palace() {
    let pos = xq("3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e2"), ["d1", "d3", "f3"]);
    let pos = xq("3k5/9/9/9/9/9/9/3A5/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "d3"), ["e2"]);
}

#[test]
fn elephants_move_two_diagonal_points_blocked_at_the_eye_never_across_the_river() {
    let pos = xq("3k5/9/9/9/9/2B6/9/9/9/5K3 w - - 0 1");
    // c5: forward would cross the river; back to a3 and e3.
    assert_eq!(dests(&pos, "c5"), ["a3", "e3"]);
    let pos = xq("3k5/9/9/9/9/9/9/4B4/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e3"), ["c1", "c5", "g1", "g5"]);
    // A piece on the eye d4 blocks the way to c5.
    let pos = xq("3k5/9/9/9/9/9/3p5/4B4/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e3"), ["c1", "g1", "g5"]);
}

#[test]
fn horses_move_one_orthogonal_then_one_diagonal_blocked_at_the_leg() {
    let pos = xq("3k5/9/9/9/9/4N4/9/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e5"), ["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"]);
    // Legs: e6 blocks d7 and f7; d5 blocks c4 and c6.
    let pos = xq("3k5/9/9/9/4p4/3pN4/9/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e5"), ["d3", "f3", "g4", "g6"]);
}

#[test]
fn chariots_move_like_rooks() {
    let pos = xq("3k5/9/9/9/9/9/9/9/p8/R4K3 w - - 0 1");
    assert_eq!(dests(&pos, "a1"), ["a2", "b1", "c1", "d1", "e1"]);
}

#[test]
fn cannons_move_like_chariots_and_capture_by_jumping_exactly_one_screen() {
    // Screen a5 (black); target a8 beyond it; a9 behind the target.
    let pos = xq("3k5/n8/r8/9/9/p8/9/9/9/C4K3 w - - 0 1");
    assert_eq!(dests(&pos, "a1"), ["a2", "a3", "a4", "a8", "b1", "c1", "d1", "e1"]);
    // An own piece screens as well; two screens block the capture.
    let pos = xq("3k5/9/r8/9/9/P8/9/9/9/C4K3 w - - 0 1");
    assert_eq!(dests(&pos, "a1"), ["a2", "a3", "a4", "a8", "b1", "c1", "d1", "e1"]);
    let pos = xq("3k5/9/r8/9/P8/P8/9/9/9/C4K3 w - - 0 1");
    assert_eq!(dests(&pos, "a1"), ["a2", "a3", "a4", "b1", "c1", "d1", "e1"]);
}

#[test]
fn soldiers_move_forward_and_sideways_only_after_crossing_the_river() {
    let pos = xq("3k5/9/9/9/9/9/P8/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "a4"), ["a5"]);
    let pos = xq("3k5/9/9/9/4P4/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "e6"), ["d6", "e7", "f6"]);
    // On the last rank only sideways; never backwards, no promotion.
    let pos = xq("P2k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(dests(&pos, "a10"), ["b10"]);
    let pos = xq("5k3/9/9/9/9/9/9/9/4p4/3K5 b - - 0 1");
    assert_eq!(dests(&pos, "e2"), ["d2", "e1", "f2"]);
}

#[test]
fn a_move_may_not_leave_the_own_general_attacked() {
    // The chariot on e2 is pinned by the chariot on e9: it stays on the file.
    let pos = xq("3k5/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_eq!(dests(&pos, "e2"), ["e3", "e4", "e5", "e6", "e7", "e8", "e9"]);
    // A piece may not step between the general and a screenless cannon.
    let pos = xq("3k5/4c4/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert!(!has(&pos, "a2e2"));
    assert!(has(&pos, "a2d2"));
}

#[test]
fn flying_general_moving_the_last_piece_off_the_file_is_illegal() {
    let pos = xq("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1");
    assert_eq!(dests(&pos, "e5"), Vec::<String>::new());
    assert_eq!(dests(&pos, "e1"), ["d1", "e2", "f1"]);
}

#[test]
fn flying_general_stepping_onto_the_open_file_is_illegal() {
    let pos = xq("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(dests(&pos, "d1"), ["d2"]);
    // Facing generals in a FEN are refused outright.
    assert!(Xiangqi::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_err());
}

// End of the game

#[test]
fn checkmate_wins() {
    let pos = xq("R2k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1");
    assert!(pos.in_check());
    let o = outcome(&History::new(pos)).unwrap();
    assert_eq!(o, Outcome { winner: WHITE, reason: Reason::CHECKMATE });
    assert_eq!(describe::<Xiangqi>(&o), "red (checkmate)");
}

#[test]
fn stalemate_loses_for_the_side_without_a_move() {
    let pos = xq("3k5/R8/9/9/9/4R4/9/9/9/5K3 b - - 0 1");
    assert!(!pos.in_check());
    assert_eq!(pos.count_legal_moves(), 0);
    let o = outcome(&History::new(pos)).unwrap();
    assert_eq!(o, Outcome { winner: WHITE, reason: Reason::STALEMATE });
    assert_eq!(describe::<Xiangqi>(&o), "red (stalemate)");
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // Red's chariot checks on rank 10, then on rank 9, as the general
    // shuttles e10-e9: the start position comes back a third time.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let h = cycle(fen, "a9a10 e10e9 a10a9 e9e10", 1);
    assert_eq!(outcome(&h), None, "only the second occurrence");
    let h = cycle(fen, "a9a10 e10e9 a10a9 e9e10", 2);
    assert_eq!(h.repetitions(), 3);
    assert_eq!(outcome(&h), Some(Outcome { winner: BLACK, reason: rules::PERPETUAL_CHECK }));
}

#[test]
fn perpetual_chase_loses_for_the_chasing_side() {
    // Red's chariot follows black's unprotected cannon c8-c7, attacking it
    // after every move.
    let fen = "4k4/9/2c6/1R7/9/9/9/9/9/3K5 w - - 0 1";
    let h = cycle(fen, "b7b8 c8c7 b8b7 c7c8", 2);
    let positions = h.positions();
    assert!(positions[0].is_chase(Move::parse("b7b8").unwrap()));
    assert!(!positions[1].is_chase(Move::parse("c8c7").unwrap()));
    assert_eq!(outcome(&h), Some(Outcome { winner: BLACK, reason: rules::PERPETUAL_CHASE }));
}

#[test]
fn chasing_different_pieces_in_turn_is_no_perpetual_chase() {
    // Red's chariot alternately attacks black's cannon c8 and horse c7;
    // black's chariot alternately attacks red's cannon g3 and horse g2.
    // Every move is a chase, but no piece is chased by every move of a
    // side: a draw by repetition.
    let fen = "4k4/9/2c6/1Rn6/9/9/9/6C2/6Nr1/3K5 w - - 0 1";
    let h = cycle(fen, "b7b8 h2h3 b8b7 h3h2", 2);
    for (pos, m) in h.positions().iter().zip(h.moves()) {
        assert!(pos.is_chase(*m), "{m} in {}", pos.to_fen());
    }
    let verdict = rules::classify(h.positions(), h.moves());
    assert_eq!(verdict.sides, [Perpetual::Neither, Perpetual::Neither]);
    assert_eq!(outcome(&h), Some(Outcome { winner: DRAW, reason: Reason::REPETITION }));
}

#[test]
fn the_verdict_when_one_side_checks_and_the_other_chases() {
    // Checks weigh more than chases: with a perpetual check on one side
    // and a perpetual chase on the other, the checker loses; both checking
    // is a draw, and so is both sides chasing perpetually. (The verdict
    // itself; the whole games above test how each kind is recognised.)
    use catchess::core::Color;
    let verdict = |red, black| rules::RepetitionVerdict { sides: [red, black] }.loser();
    assert_eq!(verdict(Perpetual::Check, Perpetual::Chase), Some((Color::White, rules::PERPETUAL_CHECK)));
    assert_eq!(verdict(Perpetual::Neither, Perpetual::Check), Some((Color::Black, rules::PERPETUAL_CHECK)));
    assert_eq!(verdict(Perpetual::Check, Perpetual::Check), None);
    assert_eq!(verdict(Perpetual::Chase, Perpetual::Neither), Some((Color::White, rules::PERPETUAL_CHASE)));
    assert_eq!(verdict(Perpetual::Chase, Perpetual::Chase), None);
    assert_eq!(verdict(Perpetual::Neither, Perpetual::Neither), None);
}

#[test]
fn other_repetitions_draw() {
    // A general and an advisor shuffle: nobody checks or chases (the
    // soldiers, on their own sides, keep the material rule away).
    let fen = "3k5/9/9/p8/9/9/P8/9/4A4/5K3 w - - 0 1";
    let h = cycle(fen, "e2d1 d10d9 d1e2 d9d10", 2);
    assert_eq!(outcome(&h), Some(Outcome { winner: DRAW, reason: Reason::REPETITION }));
}

#[test]
fn a_hundred_plies_without_a_capture_draw() {
    let pos = xq("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 99 80");
    assert_eq!(outcome(&History::new(pos)), None);
    let h = history(pos, "e2e3");
    assert_eq!(h.current().halfmove_clock(), 100);
    assert_eq!(outcome(&h), Some(Outcome { winner: DRAW, reason: Reason::FIFTY_MOVES }));
    // A capture resets the count; a soldier move does not.
    let pos = xq("3k5/9/9/9/9/9/9/4p4/4R4/5K3 w - - 99 80");
    assert_eq!(play(&pos, "e2e3").halfmove_clock(), 0);
    let pos = xq("3k5/9/9/9/9/9/P8/9/4R4/5K3 w - - 98 80");
    assert_eq!(play(&pos, "a4a5").halfmove_clock(), 99);
}

#[test]
fn only_generals_advisors_and_elephants_draw() {
    let pos = xq("2ba1ab2/3k5/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1");
    assert_eq!(outcome(&History::new(pos)), Some(Outcome { winner: DRAW, reason: Reason::INSUFFICIENT_MATERIAL }));
    let pos = xq("2ba1ab2/3k5/9/9/9/9/P8/9/9/2BAKAB2 w - - 0 1");
    assert_eq!(outcome(&History::new(pos)), None);
}

#[test]
fn checkmate_comes_before_the_hundred_ply_rule() {
    let pos = xq("R2k5/9/9/9/9/9/9/9/9/3R1K3 b - - 100 80");
    assert_eq!(outcome(&History::new(pos)).unwrap().reason, Reason::CHECKMATE);
}

// Chases in detail (what `chased_by` counts)

#[test]
fn chases_count_only_chariot_horse_cannon_and_soldier_attacks() {
    // The red advisor attacks the black horse d3: advisors do not chase.
    let pos = xq("4k4/9/9/9/9/9/9/3n5/4A4/5K3 w - - 0 1");
    assert!(pos.chased_by(catchess::core::Color::White).is_empty());
    // The same horse attacked by a red chariot is chased.
    let pos = xq("4k4/9/9/9/9/9/9/R2n5/9/5K3 w - - 0 1");
    assert_eq!(pos.chased_by(catchess::core::Color::White).iter::<Square>().collect::<Vec<_>>(), [sq("d3")]);
}

#[test]
fn attacking_a_protected_piece_is_no_chase_unless_the_attacker_is_worth_less() {
    use catchess::core::Color::White;
    // Chariot a3 attacks the horse d3, protected by the chariot d10.
    let pos = xq("3rk4/9/9/9/9/9/9/R2n5/9/5K3 w - - 0 1");
    assert!(pos.chased_by(White).is_empty());
    // Horse b2 attacks the chariot d3, protected: still a chase.
    let pos = xq("3rk4/9/9/9/9/9/9/3r5/1N7/5K3 w - - 0 1");
    assert_eq!(pos.chased_by(White).iter::<Square>().collect::<Vec<_>>(), [sq("d3")]);
}

#[test]
fn soldiers_on_their_own_side_are_never_chased() {
    use catchess::core::Color::White;
    // Black soldier on c7 (its own side) attacked by the chariot a7.
    let pos = xq("4k4/9/9/R1p6/9/9/9/9/9/5K3 w - - 0 1");
    assert!(pos.chased_by(White).is_empty());
    // Across the river (c5) it can be chased.
    let pos = xq("4k4/9/9/9/9/R1p6/9/9/9/5K3 w - - 0 1");
    assert_eq!(pos.chased_by(White).count(), 1);
}

#[test]
fn like_pieces_attacking_each_other_offer_an_exchange_not_a_chase() {
    use catchess::core::Color::White;
    let pos = xq("4k4/9/9/9/9/9/9/R2r5/9/5K3 w - - 0 1");
    assert!(pos.chased_by(White).is_empty());
}

#[test]
fn a_chase_is_a_new_attack() {
    let pos = xq("4k4/9/9/9/9/9/9/R2n5/9/5K3 w - - 0 1");
    // Still attacking the horse from b3: nothing new.
    assert!(!pos.is_chase(Move::parse("a3b3").unwrap()));
    // From a4 it attacks nothing.
    assert!(!pos.is_chase(Move::parse("a3a4").unwrap()));
    // The chariot on a4 moving to a3 attacks the horse anew.
    let pos = xq("4k4/9/9/9/9/9/R8/3n5/9/5K3 w - - 0 1");
    assert!(pos.is_chase(Move::parse("a4a3").unwrap()));
    // A check is a check, not a chase.
    let pos = xq("4k4/9/9/9/9/9/9/R2n5/9/5K3 w - - 0 1");
    assert!(!pos.is_chase(Move::parse("a3a10").unwrap()));
    assert!(pos.gives_check(Move::parse("a3a10").unwrap()));
}
