//! zzo38's Cat's Chess (10×10), one rule family at a time: how each piece
//! moves and captures (mice, neutrals, cats), the steps of a turn and their
//! order, castling, promotion, en passant, the pieces that return, and the
//! ends of a game. Each test fails if its rule breaks.

mod common;
use catchess::core::Color;
use catchess::game::perft::perft;
use catchess::game::{Game, History, MoveError, Reason, Seat};
use catchess::games::catschess10::rules::{KING_CAPTURED, MOVE_LIMIT, NO_LEGAL_TURN, TWO_CATS_HOME};
use catchess::games::catschess10::{CatsChess10, Piece, Role};
use common::catschess10::{after, board, fen, has, illegal, sq, ALL_KINDS};

#[test]
fn capture_table_for_mice() {
    let p = board(&format!("{ALL_KINDS} kf10 Nd4 Pd5 me6 Re2 Kf5 Cc5 Ci6"), 'w');
    assert!(!has(&p, "d4e6"), "a knight never takes a mouse");
    assert!(!has(&p, "e2e6"), "a rook never lands on a mouse");
    assert!(!has(&p, "f5e6"), "a king never takes a mouse");
    assert!(has(&p, "d5e6"), "a pawn takes a mouse diagonally");
    assert!(has(&p, "c5e6"), "a cat takes a mouse with a knight leap");
    // A mouse captures only a king or a queen.
    let m = board(&format!("{ALL_KINDS} Kf1 kj10 Me5 qe6 rd5 nf5 pe4"), 'w');
    assert!(has(&m, "e5e6"));
    assert!(!has(&m, "e5d5") && !has(&m, "e5f5") && !has(&m, "e5e4"));
    let k = board(&format!("{ALL_KINDS} Kf1 kf6 Mf5"), 'w');
    assert!(has(&k, "f5f6"));
}

#[test]
fn mice_block_nothing() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Re2 me5 Bh2 Mi3 Pd3 Md4"), 'w');
    assert!(has(&p, "e2e6") && has(&p, "e2e9"), "a rook slides through a mouse");
    assert!(has(&p, "h2j4"), "a bishop slides through its own mouse");
    assert!(!has(&p, "h2i3"), "but never lands on one");
    assert!(has(&p, "d3d5"), "a double step crosses a mouse");
}

#[test]
fn neutral_steps_and_jumps() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 *e5 Me6 *d5"), 'w');
    assert!(has(&p, "e5e4,f1f2"), "a step");
    assert!(has(&p, "e5e7,f1f2"), "a jump over a mouse");
    assert!(has(&p, "e5c5,f1f2") && has(&p, "d5f5,f1f2"), "a jump over another neutral");
    assert!(!has(&p, "e5e6,f1f2"), "a neutral never captures");
    let blocked = board(&format!("{ALL_KINDS} Kf1 kj10 *e5 Me6 Pe7"), 'w');
    assert!(!has(&blocked, "e5e7,f1f2"), "the square beyond must be empty");
    assert!(!has(&blocked, "e5e8,f1f2"), "only one piece is jumped");
}

#[test]
fn neutral_captures_and_placement() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Pe3 *e4 Rd4 *d5 Ng3 *h5 Cc3 *b4"), 'w');
    assert!(has(&p, "e3e4*e3"), "the square the capturer left counts as empty");
    assert!(has(&p, "e3e4*h6"));
    assert!(!has(&p, "d4d5*h6"), "a rook may not take a neutral");
    assert!(!has(&p, "g3h5*h6"), "a knight may not take a neutral");
    assert!(!has(&p, "c3b4*h6"), "a cat's diagonal step only captures enemies");
    let b = board(&format!("{ALL_KINDS} Kf1 kj10 Bh3 *i4"), 'w');
    assert!(has(&b, "h3i4*h6"), "a bishop takes one with its normal move");
    let why = illegal(&p, "e3e4*d4");
    assert!(why.contains("step 3") && why.contains("not an empty square"), "{why}");
    assert!(illegal(&p, "e3e4").contains("*<square>"));
    let next = after(&p, "e3e4*h6");
    assert_eq!(next.piece_at(sq("h6")), Some(Piece::NEUTRAL));
    assert_eq!(next.piece_at(sq("e4")), Some(Piece::new(Role::Pawn, Color::White)));
    assert_eq!(next.halfmove_clock(), 0, "capturing a neutral counts as a capture");
}

#[test]
fn cat_moves() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ce5 pe6 pd4 *f5 ng6 Pf4 pc6"), 'w');
    assert!(!has(&p, "e5e6"), "an orthogonal step never captures");
    assert!(has(&p, "e5f5*h6"), "but takes a neutral");
    assert!(has(&p, "e5d4"), "a diagonal step captures");
    assert!(!has(&p, "e5f6") && !has(&p, "e5d6"), "a diagonal step only captures");
    assert!(has(&p, "e5g6") && has(&p, "e5c6"), "a knight leap captures");
    assert!(has(&p, "e5g4"), "and goes to empty squares");
}

#[test]
fn second_cat_move_follows_only_a_cs_non_knight_move() {
    let p = CatsChess10::startpos();
    assert!(has(&p, "d1d2,g1g2"));
    assert!(!has(&p, "d1f2,g1g2"), "not after a knight leap");
    assert!(illegal(&p, "d1f2,g1g2").contains("second cat"));
    assert!(!has(&p, "d1d2,g1i2"), "the second cat move is not a knight leap");
    // A T's move never allows one.
    let t = board(&format!("{ALL_KINDS} Kf1 kj10 Te4 Cc4"), 'w');
    assert!(!has(&t, "e4e5,c4c5"));
    assert!(has(&t, "c4c5,e4e5"), "but a T may be the second cat");
    assert!(!has(&t, "c4c5,c5c6"), "and the second cat is another one");
}

#[test]
fn step_order_is_checked() {
    let p = CatsChess10::startpos();
    assert!(illegal(&p, "M@d1,d1d2").contains("step 4"));
    assert!(illegal(&p, "d1d2,j2j4").contains("out of order"));
    assert!(illegal(&p, "+e3e4").contains("step 5"));
    assert!(illegal(&p, "e3e4,+e4e5").contains("no opponent T was captured"));
    assert!(illegal(&p, "e3e4,T@e5").contains("out of order"));
    assert!(matches!(p.parse_turn("e3e4,,"), Err(MoveError::Unparsable(_))));
    assert!(matches!(p.parse_turn(""), Err(MoveError::Unparsable(_))));
}

#[test]
fn mouse_drops_on_empty_first_rank_squares() {
    let p = CatsChess10::startpos();
    let next = after(&p, "d1d2,M@d1");
    assert_eq!(next.piece_at(sq("d1")), Some(Piece::new(Role::Mouse, Color::White)));
    assert!(illegal(&p, "d1d2,M@e1").contains("step 4"));
    assert!(illegal(&p, "d1d2,M@d3").contains("first rank"));
    assert!(!has(&p, "e3e4,M@d1"), "no mouse without an empty first-rank square");
}

#[test]
fn castling_through_mice_not_onto_them() {
    let p = fen("mnbcmkmmmm/10/10/10/10/10/10/4P5/10/RM2MKM2R w KQ - 0 1 Q@e1,q@e10");
    assert!(has(&p, "f1i1") && has(&p, "f1c1"));
    let next = after(&p, "f1i1");
    assert_eq!(next.piece_at(sq("h1")), Some(Piece::new(Role::Rook, Color::White)));
    assert_eq!(next.piece_at(sq("i1")), Some(Piece::new(Role::King, Color::White)));
    assert_eq!(next.castling_rights(), 0);
    // A mouse on a landing square stops it.
    let q = fen("mnbcmkmmmm/10/10/10/10/10/10/4P5/10/RMM1MKM1MR w KQ - 0 1 Q@e1,q@e10");
    assert!(!has(&q, "f1i1") && !has(&q, "f1c1"));
}

#[test]
fn promotion_choices_and_the_t_removal() {
    let p = fen("mmmmm*mmmk/5P4/10/10/10/10/T9/10/10/MMMMMKMMMM w - - 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10");
    for k in "qrbnctm".chars() {
        assert!(has(&p, &format!("f9f10{k}*e5")), "{k}");
    }
    assert!(!has(&p, "f9f10k*e5") && !has(&p, "f9f10*e5"));
    assert!(has(&p, "f9f10t*a4"), "the removed T's square takes the neutral");
    assert!(!has(&p, "f9f10q*a4"));
    let next = after(&p, "f9f10t*a4");
    assert_eq!(next.pieces(Color::White, Role::TCat), sq("f10").bit());
}

#[test]
fn en_passant_and_a_mouse_on_the_crossed_square() {
    let p = fen("mmmmmkmmmm/10/10/10/10/5Pp3/10/10/1K8/MMMMMMMMMM b - f4 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10");
    assert!(has(&p, "g5f4"));
    let next = after(&p, "g5f4");
    assert_eq!(next.piece_at(sq("f5")), None, "the double-stepped pawn is taken");
    let mouse = fen("mmmmmkmmmm/10/10/10/10/5Pp3/5M4/10/1K8/MMMMMMMMMM b - f4 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10");
    // The pawn takes the mouse on f4 (a capture), not the pawn on f5.
    let took_mouse = after(&mouse, "g5f4");
    assert_eq!(took_mouse.piece_at(sq("f5")), Some(Piece::new(Role::Pawn, Color::White)));
    let neutral = fen(&mouse.to_fen().replace("5M4", "5*4"));
    assert!(!has(&neutral, "g5f4"), "nor with a neutral there");
    // The field names the crossed square after a double step, and only for
    // the next turn.
    let start = CatsChess10::startpos();
    let after_double = after(&start, "e3e5");
    assert!(after_double.to_fen().contains(" e4 "));
    assert!(after(&after_double, "e8e7").to_fen().contains("KQkq - "));
}

#[test]
fn replenishment_and_waiting_pieces() {
    // The last pawn promotes: all twenty return, d3 and g8 occupied: wait.
    let p = fen("mmmmm1mmmk/5P4/6n3/10/10/10/10/3N6/10/MMMMMKMMMM w - - 0 1 R@a1,B@c1,C@d1,Q@e1,C@g1,B@h1,R@j1,r@a10,b@c10,c@d10,q@e10,c@g10,b@h10,r@j10");
    let next = after(&p, "f9f10q");
    assert_eq!(next.kind_set(Role::Pawn).count_ones(), 18);
    assert!(next.waiting().contains(sq("d3")) && next.waiting().contains(sq("g8")));
    assert_eq!(next.key(), next.compute_key(), "the waiting pieces are in the key as play keeps it");
    assert!(next.to_fen().contains("P@d3") && next.to_fen().contains("p@g8"), "{}", next.to_fen());
    // A waiting piece appears when its square empties, at the step's end.
    let m = fen("mmmmmkmmmm/10/10/10/10/10/4P5/10/10/MMMMMKMMMM w - - 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10");
    let next = after(&m, "a1a2");
    assert_eq!(next.piece_at(sq("a1")), Some(Piece::new(Role::Rook, Color::White)));
    assert!(!next.waiting().contains(sq("a1")));
    // A lacking kind returns at the end of the first step (§9.8).
    let bare = board("Kf1 kf10 Pa3 pa8", 'w');
    let next = after(&bare, "a3a4");
    assert_eq!(next.piece_at(sq("d1")), Some(Piece::new(Role::Cat, Color::White)));
    assert_eq!(next.piece_at(sq("e10")), Some(Piece::new(Role::Queen, Color::Black)));
    assert!(next.waiting().is_empty());
}

#[test]
fn step_three_is_one_step_for_waiting_pieces() {
    // The rook waits under the cat on a1; the second cat steps onto a1
    // before the step ends, so the rook keeps waiting.
    let p = fen("5k4/10/10/10/10/10/10/10/10/CC3K4 w - - 0 1 R@a1,N@b1");
    let both = after(&p, "a1a2,b1a1");
    assert_eq!(both.piece_at(sq("a1")), Some(Piece::new(Role::Cat, Color::White)));
    assert!(both.waiting().contains(sq("a1")));
    assert_eq!(both.piece_at(sq("b1")), Some(Piece::new(Role::Knight, Color::White)), "b1's knight appears");
    let one = after(&p, "a1a2");
    assert_eq!(one.piece_at(sq("a1")), Some(Piece::new(Role::Rook, Color::White)));
}

#[test]
fn a_neutral_is_never_put_over_a_waiting_piece() {
    // The cat leaves a1, where a rook waits: a1 is not free for the neutral.
    let p = fen("5k4/10/10/10/10/10/10/10/*9/C4K4 w - - 0 1 R@a1");
    assert!(!has(&p, "a1a2*a1"));
    assert!(has(&p, "a1a2*b1"));
}

#[test]
fn two_cats_home_wins_at_the_end_of_the_turn() {
    let p = fen("mmm1mm1mmm/3C2T3/5k4/10/10/P9/10/10/10/MMMMMKMMMM w - - 0 1 R@a1,N@b1,B@c1,Q@e1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,q@e10,b@h10,n@i10,r@j10");
    let next = after(&p, "d9d10,g9g10");
    let o = next.position_outcome(false).unwrap();
    assert_eq!((o.winner, o.reason), (Some(Seat::new(0)), TWO_CATS_HOME));
    assert_eq!(next.count_legal_moves(), 0);
    assert_eq!(perft(&next, 2), 0);
    assert_eq!(perft(&next, 0), 1);
}

#[test]
fn a_king_capture_ends_the_turn_at_once() {
    // The cat takes the king with a non-knight move: no second cat move,
    // no mouse, although both would otherwise be open.
    let p = board(&format!("{ALL_KINDS} Kf1 ke2 Cd1 Cj5"), 'w');
    assert!(has(&p, "d1e2"));
    assert!(!has(&p, "d1e2,j5j6") && !has(&p, "d1e2,M@d1"));
    let why = illegal(&p, "d1e2,M@d1");
    assert!(why.contains("game is over"), "{why}");
    let next = after(&p, "d1e2");
    assert!(next.at_turn_start());
    let o = next.position_outcome(true).unwrap();
    assert_eq!((o.winner, o.reason), (Some(Seat::new(0)), KING_CAPTURED));
    assert_eq!(perft(&next, 1), 0);
    // A FEN without a king is a finished game.
    assert_eq!(perft(&board("Kf1 Pa3", 'b'), 1), 0);
}

/// Every square full: White's king a1 among Black's mice, which it may not
/// take; every square a roll may land on holds a mouse, and a `T` kept
/// there has no empty square to step or leap to.
const NOTHING_SAVES: &str = "rnbcqkcbnr/pmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/mmmmmmmmmm/Kmmmmmmmmm w - - 0 1 -";

#[test]
fn no_legal_turn_loses() {
    // No step-3 move, and no square the roll may keep gives one (§3): no
    // step at all, not even the request; Black wins.
    let full = fen(NOTHING_SAVES);
    assert_eq!(full.teleport_squares().count(), 0, "79 mice to land on, each boxing the T in");
    assert_eq!(full.count_legal_moves(), 0);
    let o = full.position_outcome(true).unwrap();
    assert_eq!((o.winner, o.reason), (Some(Seat::new(1)), NO_LEGAL_TURN));
    assert_eq!(History::new(full).outcome().map(|o| o.reason), Some(NO_LEGAL_TURN));
    // Without the roll's test the mice squares would be outcomes: it is
    // the test that leaves none.
    assert!(full.roll_to(sq("e5"), true).unwrap_err().contains("never keeps e5"));
}

#[test]
fn bonus_move_after_capturing_the_opponents_t() {
    let p = fen("mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10");
    assert!(has(&p, "f6g8,+f1i1"), "the bonus move may castle");
    assert!(has(&p, "f6g8,+c3c5"), "or double-step");
    assert!(has(&p, "f6g8,+g8i7"), "or capture the king");
    assert!(has(&p, "f6g8"), "it is optional");
    let next = after(&p, "f6g8,+c3c5");
    assert!(next.to_fen().contains(" c4 "), "a bonus double step sets en passant");
    assert!(illegal(&p, "f6e8,+c3c5").contains("no opponent T"));
}

#[test]
fn draws_by_the_move_limit_and_by_repetition_at_turn_starts() {
    let p = fen("5k4/10/10/10/10/10/10/10/10/5K4 w - - 100 80 -");
    let o = p.position_outcome(false).unwrap();
    assert_eq!((o.winner, o.reason), (None, MOVE_LIMIT));
    let mut h = History::new(board(&format!("{ALL_KINDS} Kf1 kf10"), 'w'));
    for _ in 0..2 {
        for t in ["f1f2", "f10f9", "f2f1", "f9f10"] {
            assert!(h.outcome().is_none());
            h.push_text(t).unwrap();
        }
    }
    assert_eq!(h.outcome().map(|o| o.reason), Some(Reason::REPETITION));
}
