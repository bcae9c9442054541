//! zzo38's Cat's Chess (10×10): one test or more per rule of RULES.md
//! "Cat's Chess (10×10)" (§Z1–§Z16). Each checks its worked example exactly
//! as the text states it (the legal moves listed, the FEN after a token,
//! the outcome), so the engine and the rules page cannot drift apart.

mod common;
use catchess::game::perft::{divide, perft};
use catchess::games::catschess10::rules::{KING_CAPTURED, MOVE_LIMIT, NO_LEGAL_TURN, TWO_CATS_HOME};
use catchess::games::catschess10::{roll_square, CatsChess10, Square};
use catchess::{Game, History, MoveError, Notation, Outcome, Reason};
use common::{sorted, BLACK, DRAW, WHITE};
use pretty_assertions::assert_eq;

fn pos(fen: &str) -> CatsChess10 {
    CatsChess10::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Every legal turn's token from `p` (perft's divide at depth 1), sorted.
fn tokens(p: &CatsChess10) -> Vec<String> {
    let mut v: Vec<String> = divide(p, 1).iter().map(|(steps, _)| p.turn_text(steps)).collect();
    v.sort();
    v
}

/// Whether a token's first step moves the piece on `from` (`e1` must not
/// match `e10e9`: the square is followed by the destination's file).
fn starts_at(token: &str, from: &str) -> bool {
    token.strip_prefix(from).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// "The moves of the piece on `from`" as RULES.md lists them: the first
/// steps of the turns that begin with that piece, a neutral capture
/// written `e3e4*` (its placement left out), sorted and without repeats.
fn moves_from(p: &CatsChess10, from: &str) -> Vec<String> {
    let mut v: Vec<String> = tokens(p)
        .iter()
        .filter(|t| starts_at(t, from))
        .map(|t| {
            let first = t.split(',').next().unwrap();
            match first.find('*') {
                Some(i) => first[..=i].to_string(),
                None => first.to_string(),
            }
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The whole tokens that begin with the move `first`.
fn turns_beginning(p: &CatsChess10, first: &str) -> Vec<String> {
    tokens(p).into_iter().filter(|t| t.split(',').next() == Some(first)).collect()
}

/// Plays space-separated turn tokens through `History`.
fn game(fen: &str, turns: &str) -> History<CatsChess10> {
    let mut h = History::new(pos(fen));
    for t in turns.split_whitespace() {
        h.push_text(t).unwrap_or_else(|e| panic!("{t} in {}: {e}", h.current().to_fen()));
    }
    h
}

/// The FEN after the turns `turns` from `fen`.
fn fen_after(fen: &str, turns: &str) -> String {
    game(fen, turns).current().to_fen()
}

fn refused(fen: &str, token: &str) -> String {
    match pos(fen).parse_turn(token) {
        Err(e @ MoveError::Illegal { .. }) => e.to_string(),
        other => panic!("{token}: expected an illegal turn, got {other:?}"),
    }
}

fn outcome(h: &History<CatsChess10>) -> Option<Outcome> {
    h.outcome()
}

const START: &str = "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -";

// Z1. Board, pieces, setup

#[test]
fn z1_start_position_and_its_1120_turns() {
    let start = CatsChess10::startpos();
    assert_eq!(start.to_fen(), START);
    assert_eq!(pos(START).to_fen(), START);
    assert_eq!(start.to_move(), WHITE.unwrap());
    assert_eq!(tokens(&start).len(), 1120);
}

// Z2. The capture table; no check

#[test]
fn z2_only_pawns_and_cats_capture_a_mouse() {
    let p = pos("rnbcqk4/10/p9/10/4m5/2CP6/3N6/7Q2/4R5/MMMMMKMMMM w - - 0 1 -");
    let onto_e6: Vec<String> = tokens(&p)
        .into_iter()
        .map(|t| t.split(',').next().unwrap().to_string())
        .filter(|m| m.ends_with("e6"))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(onto_e6, sorted(&["c5e6", "d5e6"]));
}

// Z3. The king, and castling

#[test]
fn z3_the_king_steps_anywhere_attacked_or_not_and_takes_a_neutral() {
    let p = pos("rnbcqk4/10/p9/10/3p*5/4Km4/3N5r/10/10/10 w - - 0 1 -");
    assert_eq!(moves_from(&p, "e5"), sorted(&["e5d5", "e5d6", "e5e4", "e5e6*", "e5f4", "e5f6"]));
}

#[test]
fn z3_castling_passes_over_mice_but_not_onto_them() {
    let fen = "mnbcmkmmmm/10/10/10/10/10/10/4P5/10/RM2MKM2R w KQ - 0 1 Q@e1,q@e10";
    assert_eq!(moves_from(&pos(fen), "f1"), sorted(&["f1c1", "f1e2", "f1f2", "f1g2", "f1i1"]));
    assert_eq!(fen_after(fen, "f1i1"), "mnbcmkmmmm/10/10/10/10/10/10/4P5/10/RM2M1MRK1 b - - 1 1 Q@e1,q@e10");
    let blocked = "mnbcmkmmmm/10/10/10/10/10/10/4P5/10/RM2MKM1MR w KQ - 0 1 Q@e1,q@e10";
    assert_eq!(moves_from(&pos(blocked), "f1"), sorted(&["f1c1", "f1e2", "f1f2", "f1g2"]));
    assert_eq!(fen_after(fen, "a1a2"), "mnbcmkmmmm/10/10/10/10/10/10/4P5/R9/1M2MKM2R b K - 1 1 Q@e1,q@e10");
}

// Z4. Queen, rook, bishop

#[test]
fn z4_sliders_pass_over_mice_and_only_queens_and_bishops_take_neutrals() {
    let p = pos("rnbcqk4/10/4p5/5*4/4m3m1/7B2/8M1/10/2*1R5/K9 w - - 0 1 -");
    let rook = moves_from(&p, "e2");
    assert_eq!(rook.len(), 12);
    assert_eq!(
        rook,
        sorted(&["e2d2", "e2e1", "e2e3", "e2e4", "e2e5", "e2e7", "e2e8", "e2f2", "e2g2", "e2h2", "e2i2", "e2j2"])
    );
    assert_eq!(moves_from(&p, "h5"), sorted(&["h5g6", "h5f7*", "h5j7", "h5g4", "h5f3", "h5j3"]));
}

// Z5. Knight

#[test]
fn z5_a_knight_never_lands_on_a_neutral_or_a_mouse() {
    let p = pos("rnbcqk4/10/10/10/3m6/2*3p3/4N5/10/5P4/K9 w - - 0 1 -");
    assert_eq!(moves_from(&p, "e4"), sorted(&["e4c3", "e4d2", "e4f6", "e4g3", "e4g5"]));
}

// Z6. Pawn

#[test]
fn z6_pawn_steps_double_steps_over_mice_and_captures() {
    let p = pos("rnbcqk4/10/10/10/10/4*5/2*m6/2PPP5/10/K9 w - - 0 1 -");
    assert_eq!(moves_from(&p, "c3"), sorted(&["c3c4*", "c3d4"]));
    assert_eq!(moves_from(&p, "d3"), sorted(&["d3d5"]));
    assert_eq!(moves_from(&p, "e3"), sorted(&["e3d4", "e3e4", "e3e5*"]));
}

#[test]
fn z6_en_passant_and_the_mouse_on_the_crossed_square() {
    let fen = "rnbcqk4/10/10/10/10/6p3/10/5P4/10/K9 w - - 0 1 -";
    assert_eq!(fen_after(fen, "f3f5"), "rnbcqk4/10/10/10/10/5Pp3/10/10/10/K9 b - f4 1 1 -");
    assert_eq!(fen_after(fen, "f3f5 g5f4"), "rnbcqk4/10/10/10/10/10/5p4/10/10/K9 w - - 0 2 -");
    let mouse = "rnbcqk4/10/10/10/10/6p3/5M4/5P4/10/K9 w - - 0 1 -";
    assert_eq!(fen_after(mouse, "f3f5"), "rnbcqk4/10/10/10/10/5Pp3/5M4/10/10/K9 b - f4 1 1 -");
    assert_eq!(fen_after(mouse, "f3f5 g5f4"), "rnbcqk4/10/10/10/10/5P4/5p4/10/10/K9 w - - 0 2 -");
}

#[test]
fn z6_promotion_to_seven_kinds_and_a_new_t_removes_the_old() {
    let fen = "rnbc5k/4P5/p9/10/10/10/T9/10/10/Q4K4 w - - 0 1 -";
    let mut want = Vec::new();
    for to in ["e10", "d10"] {
        for k in ["q", "r", "b", "n", "c", "t", "m"] {
            want.push(format!("e9{to}{k}"));
        }
    }
    want.sort();
    assert_eq!(moves_from(&pos(fen), "e9"), want);
    assert_eq!(fen_after(fen, "e9e10t"), "rnbcT4k/10/p9/10/10/10/10/10/10/Q4K4 b - - 1 1 -");
}

// Z7. Cat and teleporting cat

#[test]
fn z7_cat_orthogonal_steps_diagonal_captures_knight_leaps() {
    let p = pos("rnbcqk4/10/10/3*6/2p1p1n3/4C*4/3p6/5m4/10/K9 w - - 0 1 -");
    assert_eq!(
        moves_from(&p, "e5"),
        sorted(&["e5d5", "e5e4", "e5f5*", "e5d4", "e5c4", "e5c6", "e5d3", "e5d7*", "e5f3", "e5f7", "e5g4", "e5g6"])
    );
}

// Z8. Mouse

#[test]
fn z8_a_mouse_captures_only_a_king_or_queen() {
    let p = pos("rnbc1k4/10/10/10/4q5/3rMn4/4p5/10/10/K9 w - - 0 1 -");
    assert_eq!(moves_from(&p, "e5"), ["e5e6"]);
}

// Z9. Neutral pieces

#[test]
fn z9_neutral_steps_and_jumps() {
    let p = pos("rnbcqk4/10/p9/10/4M5/3**5/10/10/10/K9 w - - 0 1 -");
    assert_eq!(moves_from(&p, "e5"), sorted(&["e5c5", "e5e4", "e5e7", "e5f5"]));
    assert_eq!(moves_from(&p, "d5"), sorted(&["d5c5", "d5d4", "d5d6", "d5f5"]));
}

#[test]
fn z9_capturing_a_neutral_puts_it_on_an_empty_square_and_resets_the_clock() {
    let fen = "rnbcqk4/10/10/10/10/10/4*5/4P5/10/K9 w - - 7 1 -";
    assert_eq!(fen_after(fen, "e3e4*e3"), "rnbcqk4/10/10/10/10/10/4P5/4*5/10/K9 b - - 0 1 -");
    assert!(refused(fen, "e3e4*a1").contains("not an empty square"));
    assert!(refused(fen, "e3e4").contains("*<square>"));
}

// Z10. A turn

#[test]
fn z10_steps_two_to_four_in_one_token() {
    assert_eq!(
        fen_after(START, "j2j4,d1d2,g1g2,M@d1"),
        "rnbcqkcbnr/*8*/pppppppppp/10/10/10/9*/PPPPPPPPPP/*2C2C3/RNBMQK1BNR b KQkq - 1 1 -"
    );
    assert!(refused(START, "d1d2,j2j4").contains("out of order"));
    assert!(refused(START, "M@d1,d1d2").contains("step 4"));
    assert!(refused(START, "d1d2,M@e1").contains("step 4"));
}

#[test]
fn z10_the_second_cat_move_follows_a_cats_non_knight_move() {
    let p = pos("rnbcqk4/10/10/10/10/5p4/2C1T5/10/10/MMMMMKMMMM w - - 0 1 -");
    assert_eq!(
        turns_beginning(&p, "c4c5"),
        sorted(&["c4c5", "c4c5,e4d4", "c4c5,e4e3", "c4c5,e4e5", "c4c5,e4f4", "c4c5,e4f5"])
    );
    assert_eq!(turns_beginning(&p, "c4a5"), ["c4a5"]);
    assert_eq!(turns_beginning(&p, "e4e5"), ["e4e5"]);
}

#[test]
fn z10_no_neutral_move_that_leaves_no_own_move() {
    let p = pos("rnbcqk4/10/p9/10/8mm/8mK/8mm/1m*7/10/N9 w - - 0 1 -");
    assert_eq!(moves_from(&p, "a1"), ["a1c2"]);
    assert_eq!(moves_from(&p, "j5"), Vec::<String>::new());
    assert_eq!(moves_from(&p, "c3"), sorted(&["c3a3", "c3c4", "c3d3"]));
}

#[test]
fn z10_the_bonus_move_after_taking_the_opponents_t() {
    let fen = "mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10";
    assert_eq!(fen_after(fen, "f6g8,+c3c5"), "mmmmmmmmmm/10/6N3/8k1/B9/2PC6/10/10/10/MMMMMK3R b K c4 0 1 Q@e1,q@e10");
    let all = tokens(&pos(fen));
    for t in ["f6g8,+f1i1", "f6g8,+g8i7", "f6g8", "f6g8,+c3c5"] {
        assert!(all.iter().any(|x| x == t), "{t}");
    }
    assert!(refused(fen, "f6e8,+c3c5").contains("no opponent T"));
}

// Z11. The teleport

#[test]
fn z11_the_roll_names_squares_a1_to_j10() {
    assert_eq!(roll_square(1), Some(sq("a1")));
    assert_eq!(roll_square(2), Some(sq("b1")));
    assert_eq!(roll_square(10), Some(sq("j1")));
    assert_eq!(roll_square(11), Some(sq("a2")));
    assert_eq!(roll_square(100), Some(sq("j10")));
    assert_eq!(roll_square(0), None);
    assert_eq!(roll_square(101), None);
}

#[test]
fn z11_the_squares_a_teleport_may_keep_and_what_the_teleported_t_may_do() {
    let fen = "rnbcqk4/10/10/4mp4/10/T3*5/10/10/10/K9 w - - 3 1 -";
    let p = pos(fen);
    let keep = p.teleport_square_list();
    assert_eq!(keep.len(), 77);
    for s in Square::all().filter(|s| s.rank() < 8) {
        let name = s.to_string();
        assert_eq!(keep.contains(&s), !["a1", "e5", "f7"].contains(&name.as_str()), "{name}");
    }
    assert_eq!(p.teleport_mice().iter::<Square>().collect::<Vec<_>>(), [sq("e7")]);
    let t = p.teleport(sq("e6")).unwrap();
    assert_eq!(
        moves_from(&t, "e6"),
        sorted(&["e6d6", "e6f6", "e6c5", "e6c7", "e6d4", "e6d8", "e6f4", "e6f8", "e6g5", "e6g7"])
    );
    assert_eq!(fen_after(fen, "T@e7,a1a2"), "rnbcqk4/10/10/4Tp4/10/4*5/10/10/K9/10 b - - 4 1 -");
    // Ranks 9 and 10 are Black's first two: never kept.
    assert!(p.teleport(sq("e9")).is_err() && p.teleport(sq("a10")).is_err());
}

#[test]
fn z11_a_player_with_no_own_move_is_saved_by_the_teleport() {
    let fen = "5k4/10/p9/10/8mm/8mK/8mm/10/10/rnbcq5 w - - 0 1 -";
    let p = pos(fen);
    assert_eq!(outcome(&game(fen, "")), None, "not lost: it must teleport");
    assert_eq!(p.parse_answer("T@?").unwrap().len(), 1, "the request is its step");
    assert!(p.teleport_square_list().len() > 70);
    assert_eq!(fen_after(fen, "T@e5,e5e6"), "5k4/10/p9/10/4T3mm/8mK/8mm/10/10/rnbcq5 b - - 1 1 -");
    assert_eq!(tokens(&p), Vec::<String>::new());
    assert_eq!(perft(&p, 1), 0, "perft counts no teleport");
}

#[test]
fn z11_a_roll_that_boxes_the_t_in_is_rolled_again() {
    let fen = "4qk4/10/p9/8c1/7nmm/8m1/7rmm/8b1/mm8/Km8 w - - 0 1 -";
    let p = pos(fen);
    let keep = p.teleport_square_list();
    assert_eq!(keep.len(), 73);
    assert!(!keep.contains(&sq("j5")) && keep.contains(&sq("i5")) && keep.contains(&sq("j3")));
    assert!(refused(fen, "T@j5").contains("never keeps j5"));
    assert_eq!(outcome(&game(fen, "")), None);
    let neutral = "4qk4/10/p9/8c1/7nmm/8*1/7rmm/8b1/mm8/Km8 w - - 0 1 -";
    assert!(pos(neutral).teleport_square_list().contains(&sq("j5")));
    assert_eq!(fen_after(neutral, "T@j5,i5h5,j5i5"), "4qk4/10/p9/8c1/7nmm/7*T1/7rmm/8b1/mm8/Km8 b - - 1 1 -");
}

#[test]
fn z11_a_teleported_t_may_not_capture_even_as_the_second_cat() {
    let fen = "rnbcqk4/10/10/10/10/5p4/2C1T5/10/10/MMMMMKMMMM w - - 0 1 -";
    assert!(pos(fen).teleport_square_list().contains(&sq("e4")));
    assert!(pos(fen).parse_turn("T@e4,c4c5,e4e5").is_ok());
    assert!(pos(fen).parse_turn("T@e4,c4c5,e4f5").is_err());
}

#[test]
fn z11_without_a_t_a_teleport_brings_a_new_one() {
    let t = CatsChess10::startpos().teleport(sq("e5")).unwrap();
    assert_eq!(t.piece_at(sq("e5")).map(|p| p.char()), Some('T'));
    assert_eq!(CatsChess10::startpos().teleport_square_list().len(), 48);
}

// Z12. Replenishment and pieces waiting underneath

#[test]
fn z12_the_last_pawn_promotes_and_all_pawns_return_some_waiting() {
    let fen = "rnbc1k4/4P5/6n3/10/10/10/10/3N6/10/K3Q5 w - - 0 1 -";
    assert_eq!(fen_after(fen, "e9e10q"), "rnbcQk4/10/ppppppnppp/10/10/10/10/PPPNPPPPPP/10/K3Q5 b - - 1 1 P@d3,p@g8");
    assert_eq!(fen_after(fen, "e9e10q g8h6"), "rnbcQk4/10/pppppppppp/10/7n2/10/10/PPPNPPPPPP/10/K3Q5 w - - 2 2 P@d3");
}

#[test]
fn z12_step_three_is_one_step() {
    let fen = "rnbcqk4/10/p9/10/10/10/10/10/10/CC3K4 w - - 0 1 R@a1";
    assert_eq!(fen_after(fen, "a1a2"), "rnbcqk4/10/p9/10/10/10/10/10/C9/RC3K4 b - - 1 1 -");
    assert_eq!(fen_after(fen, "a1a2,b1a1"), "rnbcqk4/10/p9/10/10/10/10/10/C9/C4K4 b - - 1 1 R@a1");
}

#[test]
fn z12_a_neutral_is_never_put_over_a_waiting_piece() {
    let fen = "rnbcqk4/10/p9/10/10/10/10/10/*9/C4K4 w - - 0 1 R@a1";
    assert!(refused(fen, "a1a2*a1").contains("not an empty square"));
    assert_eq!(fen_after(fen, "a1a2*b1"), "rnbcqk4/10/p9/10/10/10/10/10/C9/R*3K4 b - - 0 1 -");
}

#[test]
fn z12_promoting_to_t_onto_a_neutral_frees_the_old_ts_square() {
    let fen = "rnbc1*3k/5P4/p9/10/10/10/T9/10/10/K3Q5 w - - 0 1 -";
    assert_eq!(fen_after(fen, "f9f10t*a4"), "rnbc1T3k/10/p9/10/10/10/*9/10/10/K3Q5 b - - 0 1 -");
    assert!(refused(fen, "f9f10q*a4").contains("not an empty square"));
}

// Z13. End of the game

#[test]
fn z13_a_king_capture_ends_the_game_at_once() {
    let fen = "rnbcq5/10/p9/10/10/10/10/10/4k5/3C1K3C w - - 0 1 -";
    assert_eq!(turns_beginning(&pos(fen), "d1e2"), ["d1e2"]);
    assert_eq!(outcome(&game(fen, "d1e2")), Some(Outcome::new(WHITE, KING_CAPTURED)));
    let bonus = "mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10";
    assert_eq!(outcome(&game(bonus, "f6g8,+g8i7")), Some(Outcome::new(WHITE, KING_CAPTURED)));
}

#[test]
fn z13_two_cats_on_the_last_rank_win() {
    let fen = "rnb1q5/3C2T3/p4k4/10/10/10/10/10/10/K9 w - - 0 1 -";
    assert_eq!(outcome(&game(fen, "d9d10,g9g10")), Some(Outcome::new(WHITE, TWO_CATS_HOME)));
    assert_eq!(outcome(&game(fen, "d9d10")), None);
}

#[test]
fn z13_no_legal_turn_loses() {
    let fen = "rnbcqkcbnr/pmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/Kmmmmmmmmm w - - 0 1 -";
    assert_eq!(tokens(&pos(fen)), Vec::<String>::new());
    assert!(pos(fen).teleport_square_list().is_empty(), "every mouse square boxes the T in");
    assert!(pos(fen).parse_answer("T@?").is_err(), "no teleport to ask for");
    assert_eq!(outcome(&game(fen, "")), Some(Outcome::new(BLACK, NO_LEGAL_TURN)));
}

#[test]
fn z13_draws_by_repetition_and_by_100_turns_without_a_capture() {
    let fen = "rnbcqk4/10/p9/10/10/10/10/10/10/K9 w - - 0 1 -";
    let once = game(fen, "a1a2 f10f9 a2a1 f9f10");
    assert_eq!(outcome(&once), None);
    let twice = game(fen, "a1a2 f10f9 a2a1 f9f10 a1a2 f10f9 a2a1 f9f10");
    assert_eq!(outcome(&twice), Some(Outcome::new(DRAW, Reason::REPETITION)));
    let late = "rnbcqk4/10/p9/10/10/10/10/10/10/K9 w - - 99 60 -";
    assert_eq!(outcome(&game(late, "")), None);
    assert_eq!(outcome(&game(late, "a1a2")), Some(Outcome::new(DRAW, MOVE_LIMIT)));
}

// Z14. FEN

#[test]
fn z14_a_six_field_fen_has_nothing_waiting() {
    let six = "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1";
    assert_eq!(pos(six).to_fen(), START);
}

// Z15. Turn notation

#[test]
fn z15_tokens_read_and_write_back_unchanged() {
    let cases = [
        (START, "j2j4,d1d2,g1g2,M@d1"),
        ("mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10", "f6g8,+c3c5"),
        ("rnbc1*3k/5P4/p9/10/10/10/T9/10/10/K3Q5 w - - 0 1 -", "f9f10t*a4"),
        ("rnbcqk4/10/10/4mp4/10/T3*5/10/10/10/K9 w - - 3 1 -", "T@e7,a1a2"),
    ];
    for (fen, token) in cases {
        let p = pos(fen);
        let steps = p.parse_turn(token).unwrap_or_else(|e| panic!("{token}: {e}"));
        assert_eq!(p.turn_text(&steps), token);
    }
}

// Z16. Perft

#[test]
fn z16_perft_counts_tokens_without_teleports() {
    let start = CatsChess10::startpos();
    assert_eq!(perft(&start, 1), 1120);
    assert_eq!(perft(&start, 2), 1903388);
    let all = tokens(&start);
    assert!(all.iter().all(|t| !t.starts_with("T@")));
    assert_eq!(fen_after(START, "d1d2,g1g2"), fen_after(START, "g1g2,d1d2"));
    assert!(all.iter().any(|t| t == "d1d2,g1g2") && all.iter().any(|t| t == "g1g2,d1d2"));
    let over = game("rnbcq5/10/p9/10/10/10/10/10/4k5/3C1K3C w - - 0 1 -", "d1e2");
    assert_eq!(perft(over.current(), 1), 0);
}
