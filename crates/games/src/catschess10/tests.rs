//! One test (or more) per rule family: each fails if its rule breaks.

use super::position::{CatsChess10, Phase};
use super::rules::{KING_CAPTURED, MOVE_LIMIT, NO_LEGAL_TURN, TWO_CATS_HOME};
use super::square::{Role, Piece, Square};
use super::{Step, StepKind};
use catchess_core::Color;
use catchess_game::{Arbitration, Game, History, MoveError, MoveList, Notation, Reason, MAX_MOVES};
use catchess_game::perft::{divide, perft};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A position from a list like `"Kf1 kf10 Nd4 me6 *e5"`, White to move
/// unless `side` is `b`, no castling, nothing waiting.
fn board(pieces: &str, side: char) -> CatsChess10 {
    let mut grid = [['.'; 10]; 10];
    for item in pieces.split_whitespace() {
        let (c, s) = item.split_at(1);
        let s = sq(s);
        grid[s.rank() as usize][s.file() as usize] = c.chars().next().unwrap();
    }
    let ranks: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut out = String::new();
            let mut empty = 0;
            for c in grid[r] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    empty = 0;
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    CatsChess10::from_fen(&format!("{} {side} - - 0 1 -", ranks.join("/"))).unwrap()
}

fn fen(f: &str) -> CatsChess10 {
    CatsChess10::from_fen(f).unwrap()
}

/// Every complete turn's token from `pos`.
fn tokens(pos: &CatsChess10) -> Vec<String> {
    divide(pos, 1).iter().map(|(steps, _)| CatsChess10::turn_text(steps)).collect()
}

fn has(pos: &CatsChess10, token: &str) -> bool {
    tokens(pos).iter().any(|t| t == token)
}

/// The position after the turn `token`.
fn after(pos: &CatsChess10, token: &str) -> CatsChess10 {
    let steps = pos.parse_turn(token).unwrap_or_else(|e| panic!("{token}: {e}"));
    steps.iter().fold(*pos, |p, &s| p.play(s))
}

fn illegal(pos: &CatsChess10, token: &str) -> String {
    match pos.parse_turn(token) {
        Err(MoveError::Illegal(why)) => why,
        other => panic!("{token}: expected an illegal turn, got {other:?}"),
    }
}

// Positions with every replenished kind present for both sides, so that
// nothing returns in the middle of a test.
const ALL_KINDS: &str = "ra10 nb10 bc10 qe10 cg10 pa8 Ra1 Nb1 Bc1 Qe1 Cg1 Pa3";

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
    assert_eq!(next.halfmove, 0, "capturing a neutral counts as a capture");
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
    assert_eq!(next.castling, 0);
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
    assert_eq!((o.winner, o.reason), (Some(catchess_game::Seat::new(0)), TWO_CATS_HOME));
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
    assert_eq!((o.winner, o.reason), (Some(catchess_game::Seat::new(0)), KING_CAPTURED));
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
    assert_eq!((o.winner, o.reason), (Some(catchess_game::Seat::new(1)), NO_LEGAL_TURN));
    assert_eq!(History::new(full).outcome().map(|o| o.reason), Some(NO_LEGAL_TURN));
    // Without the roll's test the mice squares would be outcomes: it is
    // the test that leaves none.
    assert!(full.roll_to(sq("e5"), true).unwrap_err().contains("never keeps e5"));
}

#[test]
fn a_player_with_no_own_move_must_teleport_and_does_not_lose() {
    // The king j5 is walled in by mice (a neutral move would not help),
    // but White may teleport (a new T appears): the request is its only
    // step, the game goes on, and every turn opens with the teleport.
    let boxed = fen("5k4/10/p9/10/8mm/8mK/8mm/10/10/rnbcq5 w - - 0 1 -");
    assert_eq!(steps_of(&boxed), [Step::REQUEST]);
    assert!(boxed.position_outcome(false).is_none());
    assert_eq!(History::new(boxed).outcome(), None);
    assert!(tokens(&boxed).is_empty(), "perft counts no teleport");
    let saved = boxed.parse_turn("T@e5,e5e6").unwrap();
    let end = saved.iter().fold(boxed, |p, &s| p.play(s));
    assert!(end.at_turn_start() && end.side_to_move() == Color::Black);
    assert!(illegal(&boxed, "j5j4").contains("j5j4"));
    // With a neutral on the board its moves do not count either: none
    // gives the king a move, and step 1 comes before step 2.
    let with_neutral = fen("5k4/10/p9/*9/8mm/8mK/8mm/10/10/rnbcq5 w - - 0 1 -");
    assert_eq!(steps_of(&with_neutral), [Step::REQUEST]);
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
fn teleport_squares_and_applying_one() {
    let start = CatsChess10::startpos();
    // Ranks 1–8 minus occupied squares, never ranks 9–10 (Black's first two).
    assert_eq!(start.teleport_squares().count(), 48);
    assert!(start.teleport_mice().is_empty());
    let t = start.teleport(sq("e5")).unwrap();
    assert!(!t.at_turn_start() && t.state().teleported);
    assert_eq!(t.piece_at(sq("e5")), Some(Piece::new(Role::TCat, Color::White)));
    assert!(start.teleport(sq("e9")).is_err() && start.teleport(sq("e1")).is_err());
    assert!(t.teleport(sq("e6")).is_err(), "one teleport a turn");
    // Steps 2–5 follow; the turn's token is written with the teleport.
    let steps = start.parse_turn("T@e5,j2j4,e5e6").unwrap();
    assert_eq!(CatsChess10::turn_text(&steps), "T@e5,j2j4,e5e6");
    assert_eq!(start.parse_turn("T@e5").unwrap(), [Step::REQUEST, Step::at(StepKind::Teleport, sq("e5"))], "a partial turn");
    // The teleported T may not capture, and our old T leaves its square.
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let mice = p.teleport_mice();
    assert!(mice.contains(sq("e7")));
    let tp = p.teleport(sq("e6")).unwrap();
    assert_eq!(tp.piece_at(sq("a5")), None);
    let mut list = MoveList::new();
    tp.play(Step::pick(sq("e6"))).legal_moves(&mut list);
    let dests: Vec<String> = list.iter().map(|m| m.to.to_string()).collect();
    assert!(!dests.contains(&"f7".to_string()) && !dests.contains(&"e5".to_string()), "{dests:?}");
    assert!(dests.contains(&"d6".to_string()));
    // Keeping a mouse's square removes the mouse; it is not a capture.
    let on_mouse = fen(&p.to_fen().replace(" 0 1 ", " 7 1 ")).teleport(sq("e7")).unwrap();
    assert_eq!(on_mouse.piece_at(sq("e7")), Some(Piece::new(Role::TCat, Color::White)));
    let done = after(&on_mouse, "f1f2");
    assert_eq!(done.halfmove, 8);
    let illegal_tp = illegal(&start, "T@e9,e3e4");
    assert!(illegal_tp.contains("T@e9"), "{illegal_tp}");
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

/// Random playouts: every list within `MAX_MOVES`, the incremental key
/// equal to a fresh one, every turn token written back to the same steps.
#[test]
fn playouts_keep_bounds_keys_and_tokens() {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    for game in 0..40 {
        let mut pos = CatsChess10::startpos();
        for _ in 0..60 {
            if !pos.at_turn_start() {
                panic!("a turn left unfinished");
            }
            if pos.finished().is_some() {
                break;
            }
            let mut steps = Vec::new();
            let mut cur = pos;
            if game % 3 == 0 && cur.can_teleport() {
                let squares = cur.teleport_square_list();
                if !squares.is_empty() {
                    let s = squares[next(squares.len())];
                    for step in cur.roll_to(s, true).unwrap() {
                        cur = cur.play(step);
                        steps.push(step);
                    }
                }
            }
            loop {
                let mut list = MoveList::new();
                cur.legal_moves(&mut list);
                assert!(list.len() <= MAX_MOVES);
                // Rolls are made above, as the arbiter makes them.
                list.retain(|m| m.kind != StepKind::Request);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[next(list.len())];
                cur = cur.play(m);
                steps.push(m);
                assert_eq!(cur.board_key, cur.recomputed_board_key());
                if cur.at_turn_start() {
                    break;
                }
            }
            if steps.is_empty() || !cur.at_turn_start() {
                break;
            }
            let token = CatsChess10::turn_text(&steps);
            assert_eq!(pos.parse_turn(&token).as_deref(), Ok(&steps[..]), "{token} from {}", pos.to_fen());
            let round = CatsChess10::from_fen(&cur.to_fen()).unwrap();
            assert_eq!(round.to_fen(), cur.to_fen());
            assert_eq!(round.key(), cur.key(), "{}", cur.to_fen());
            pos = cur;
        }
    }
}

#[test]
fn each_token_is_one_step_sequence() {
    for f in [
        super::START_FEN,
        "mmmmm*mmmk/5P4/10/10/10/10/T9/10/10/MMMMMKMMMM w - - 0 1 R@a1,N@b1,B@c1,C@d1,Q@e1,C@g1,B@h1,N@i1,R@j1,r@a10,n@b10,b@c10,c@d10,q@e10,c@g10,b@h10,n@i10,r@j10",
        "mmmmmmmmmm/10/6t3/8k1/B4N4/3C6/10/2P7/10/MMMMMK3R w K - 0 1 Q@e1,q@e10",
    ] {
        let p = fen(f);
        let mut all = tokens(&p);
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "{f}");
        for t in &all {
            let steps = p.parse_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(&CatsChess10::turn_text(&steps), t);
        }
    }
}

#[test]
fn fen_fields_round_trip_and_errors_name_the_field() {
    let text = std::fs::read_to_string("perft/catschess10.epd").unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f = line.split(';').next().unwrap().trim();
        assert_eq!(fen(f).to_fen(), f);
    }
    let six = fen("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1");
    assert_eq!(six.to_fen(), super::START_FEN);
    let cases = [
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 X@a1", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 n@b1", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 P@e4", "waiting"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR x KQkq - 0 1 -", "side to move"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkqK - 0 1 -", "castling"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq e4 0 1 -", "en passant"),
        ("rnbcqkcbnr/*8*/pppppppppp/11/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -", "placement"),
        ("rnbcqkcbnr/*8*/pppppppppp/**8/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -", "placement"),
        ("rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0", "FEN"),
    ];
    for (bad, field) in cases {
        let e = CatsChess10::from_fen(bad).unwrap_err();
        assert!(e.to_string().contains(field), "{bad}: {e}");
    }
}

#[test]
fn fen_fuzz_never_panics() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let alphabet: Vec<char> = "rnbqkpcmtRNBQKPCMT*0123456789/ -@,wabcdefghij".chars().collect();
    let base: Vec<char> = super::START_FEN.chars().collect();
    for i in 0..5000 {
        let s: String = if i % 2 == 0 {
            let len = (next() % 120) as usize;
            (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect()
        } else {
            let mut c = base.clone();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % c.len() as u64) as usize;
                c[at] = alphabet[(next() % alphabet.len() as u64) as usize];
            }
            c.into_iter().collect()
        };
        if let Ok(p) = CatsChess10::from_fen(&s) {
            let _ = perft(&p, 1);
            assert_eq!(CatsChess10::from_fen(&p.to_fen()).map(|q| q.to_fen()), Ok(p.to_fen()));
        }
        let _ = CatsChess10::startpos().parse_turn(&s);
    }
}

#[test]
fn render_draws_the_board_and_waiting_pieces() {
    let p = fen("mmmmmkmmmm/10/10/10/10/10/4P5/10/10/MMMMMKMMMM w - - 0 1 R@a1,r@a10");
    let text = p.render();
    assert!(text.contains(" 10 |[m] m  m  m  m  k  m  m  m  m  |"), "{text}");
    assert!(text.contains("Waiting: R@a1,r@a10"));
    assert!(text.contains("      a  b  c  d  e  f  g  h  i  j"));
    assert_eq!(Phase::default(), Phase::Start);
}

#[test]
fn a_t_promoted_after_a_teleport_may_capture() {
    // White teleports its T, then promotes to a new T capturing Black's T
    // (f9xg10=T): the bonus move is the new T's, and it may capture.
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 Pf9 tg10 ph8"), 'w');
    let t = p.teleport(sq("e5")).unwrap();
    let steps = t.parse_turn("f9g10t,+g10h8").unwrap();
    let end = steps.iter().fold(t, |q, &s| q.play(s));
    assert_eq!(end.piece_at(sq("h8")), Some(Piece::new(Role::TCat, Color::White)));
    assert_eq!(end.piece_at(sq("e5")), None, "the teleported T was removed");
}

/// White's king a1 is walled in by mice; on j5 a `T` would be boxed in by
/// mice (orthogonal steps go only to empty squares) and by pieces on its
/// leaps, none of which a teleported `T` may capture.
const J5_BOXES: &str = "Ka1 ma2 mb1 mb2 kf10 mi4 mi5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8";

#[test]
fn a_roll_on_a_square_that_boxes_the_t_in_is_rolled_again() {
    let p = board(J5_BOXES, 'w');
    assert_eq!(steps_of(&p), [Step::REQUEST], "the king has no move: White must teleport");
    let roll = p.play(Step::REQUEST);
    let outcomes = steps_of(&roll);
    // Every open square of ranks 1–8 (80, less the king, the mice and
    // the pieces there) but j5; each as likely.
    let open = (0..80).map(Square::from_index).filter(|&s| p.piece_at(s).is_none_or(|q| q.kind == Role::Mouse)).count();
    assert_eq!(outcomes.len(), open - 1);
    assert!(outcomes.iter().all(|m| m.to != sq("j5") && roll.chance_weight(*m) == 1));
    assert!(!p.teleport_squares().contains(sq("j5")) && p.teleport_squares().contains(sq("j3")));
    assert!(p.roll_to(sq("j5"), true).unwrap_err().contains("never keeps j5"));
    assert!(illegal(&p, "T@j5").contains("step 1"));
    // The arbiter's dice never land there.
    let mut h = History::new(p);
    h.push(Step::REQUEST);
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..300 {
        let rolled = h.roll(&mut rng).unwrap();
        assert_ne!(rolled.to, sq("j5"));
        h.take_back(1);
    }
    // A mouse's square that would box the T in is no outcome either: no
    // keep-or-reroll decision is offered there.
    let mouse = board(&format!("{J5_BOXES} mj5"), 'w');
    let outcomes = steps_of(&mouse.play(Step::REQUEST));
    assert!(outcomes.iter().all(|m| m.to != sq("j5")), "{outcomes:?}");
    assert!(outcomes.contains(&Step::at(StepKind::RollMouse, sq("i5"))));
    // The test is whether the turn has a step-3 move, not the T: with a
    // king that can move, j5 may be kept (the T then stays put).
    let free = board("Ka1 kf10 mi4 mi5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8", 'w');
    assert!(free.teleport_squares().contains(sq("j5")));
    assert!(free.parse_turn("T@j5,a1a2").is_ok());
    // A neutral move after the roll counts too: with a neutral on i5
    // instead of the mouse, `T@j5,i5h5,j5i5` completes the turn.
    let neutral = board("Ka1 ma2 mb1 mb2 kf10 mi4 *i5 mi6 mj4 mj6 rh4 nh6 bi3 ci7 qe10 pa8", 'w');
    assert!(neutral.teleport_squares().contains(sq("j5")));
    assert!(neutral.parse_turn("T@j5,i5h5,j5i5").is_ok());
}

// --- The evaluation and the search hooks (eval.rs, engine.rs) ---

use catchess_search::{Evaluate, Limits, Score, SearchControl, SearchGame, Searcher};

/// The position with colours and ranks swapped (the same game for the
/// other side).
fn mirrored(pos: &CatsChess10) -> CatsChess10 {
    let text = pos.to_fen();
    let f: Vec<&str> = text.split(' ').collect();
    let swap = |s: &str| s.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect::<String>();
    let msq = |s: &str| format!("{}{}", &s[..1], 11 - s[1..].parse::<u32>().unwrap());
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(f[2]).chars().collect();
    castling.sort_by_key(|c| "KQkq-".find(*c));
    let ep = if f[3] == "-" { "-".to_string() } else { msq(f[3]) };
    let waiting = if f[6] == "-" {
        "-".to_string()
    } else {
        f[6].split(',').map(|w| {
            let (p, s) = w.split_once('@').unwrap();
            format!("{}@{}", swap(p), msq(s))
        }).collect::<Vec<_>>().join(",")
    };
    let text = format!("{} {side} {} {ep} {} {} {waiting}", placement.join("/"), castling.iter().collect::<String>(), f[4], f[5]);
    fen(&text)
}

/// The search's best turn's first step and score at `depth` plies.
fn search(pos: &CatsChess10, depth: u32) -> (Step, Score) {
    let mut searcher = Searcher::<CatsChess10>::new(8);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let r = searcher.search(&History::new(*pos), &limits, &SearchControl::new(), &mut |_| {});
    (r.best.expect("a move"), r.score)
}

#[test]
fn evaluation_is_the_same_for_either_colour() {
    for f in CatsChess10::BENCH {
        let p = fen(f);
        assert_eq!(p.evaluate(), -mirrored(&p).evaluate(), "{f}");
    }
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 mf6 rj5 mh5 Ch10 Ci9"), 'w');
    assert_eq!(p.evaluate(), -mirrored(&p).evaluate());
    assert!(p.eval_breakdown().contains("two-cats race"));
}

#[test]
fn evaluation_terms() {
    use super::eval::{CAT_ADVANCE, CAT_PAIR, KING_ATTACKER, MOUSE_NEXT_TO_KING, MOUSE_NEXT_TO_QUEEN};
    // A black mouse next to the white king, another next to the white
    // queen on e1: the king and queen cannot take them.
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 mf6 md1"), 'w');
    assert_eq!(p.terms(Color::White).mouse_threats, -MOUSE_NEXT_TO_KING - MOUSE_NEXT_TO_QUEEN);
    assert_eq!(p.terms(Color::Black).mouse_threats, 0);
    // A rook attacks the king through a mouse (sliders see through mice);
    // the mouse counts as no attacker of the king's square here.
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 rj5 mh5"), 'w');
    assert_eq!(p.terms(Color::White).king_exposure, -KING_ATTACKER);
    let p = board(&format!("{ALL_KINDS} Kf5 kf10 rj5 ph5"), 'w');
    assert_eq!(p.terms(Color::White).king_exposure, 0, "a pawn blocks the rook");
    // One cat home, another a rank away: near a two-cats win.
    let p = board("Kf1 kf10 Ch10 Ci9", 'w');
    assert_eq!(p.terms(Color::White).cat_race, CAT_ADVANCE[0] + CAT_ADVANCE[1] + CAT_PAIR[1]);
    assert_eq!(p.terms(Color::Black).cat_race, 0);
    assert!(p.evaluate() > board("Kf1 kf10 Ch2 Ci2", 'w').evaluate());
}

#[test]
fn search_hooks_follow_the_steps_of_a_turn() {
    // A rook attacks the white king: "in check" before the own move is
    // made (at the turn's start, choosing the king's destination), not
    // after it.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 rf5"), 'w');
    assert!(p.in_check());
    let picked = p.play(Step::pick(sq("f1")));
    assert!(picked.in_check());
    assert!(!p.play(Step::pick(sq("e1"))).in_check(), "another piece's destinations are not searched as evasions");
    let moved = picked.play(Step::new(StepKind::Own, sq("f1"), sq("g2")));
    assert_eq!(moved.state().phase, Phase::Mouse);
    assert!(!moved.in_check() && !moved.static_value_holds());
    let mut list = MoveList::new();
    moved.tactical_moves(&mut list);
    assert_eq!(list.as_slice(), [Step::END], "after the own move, quiescence carries the turn on");
    assert!(!moved.has_non_pawn_material(), "no null move mid-turn");
    // Black's tactical moves: the pick of the rook, which can take the
    // king, and then the king capture.
    let q = board(&format!("{ALL_KINDS} Kf1 kf10 rf5"), 'b');
    q.tactical_moves(&mut list);
    assert!(list.iter().any(|&m| m == Step::pick(sq("f5"))), "{:?}", list.as_slice());
    assert!(list.iter().all(|&m| m.kind == StepKind::Pick));
    let q = q.play(Step::pick(sq("f5")));
    q.tactical_moves(&mut list);
    assert!(list.iter().any(|&m| m.to == sq("f1")));
    assert!(q.tactical_value(Step::new(StepKind::Own, sq("f5"), sq("f1"))) > q.tactical_value(Step::new(StepKind::Own, sq("f5"), sq("f3"))));
}

#[test]
fn search_takes_a_king_and_sees_a_recapture_after_the_own_move() {
    // The king capture is a win in one turn.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 Rf5"), 'w');
    assert_eq!(search(&p, 3), (Step::pick(sq("f5")), Score::Mate(1)));
    // Qd4xd7 takes a pawn that e8 defends: with the static value standing
    // after the own move, a two-ply search would count the pawn as won.
    let p = board(&format!("{ALL_KINDS} Kf1 kf10 Qd4 pd7 pe8"), 'w');
    for depth in [2, 4] {
        let (first, score) = search(&p, depth);
        if first == Step::pick(sq("d4")) {
            let q = p.play(first);
            let (second, _) = search(&q, depth - 1);
            assert_ne!(second.to, sq("d7"), "depth {depth}: the queen takes a defended pawn");
        }
        assert!(matches!(score, Score::Cp(_)), "{score:?}");
    }
    // A black mouse next to the white king: the king must not stay.
    let p = board(&format!("{ALL_KINDS} Kf2 kf10 mf3"), 'w');
    let (_, score) = search(&p, 4);
    assert!(matches!(score, Score::Cp(_)), "{score:?}");
}

fn steps_of(pos: &CatsChess10) -> Vec<Step> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().copied().collect()
}

#[test]
fn the_teleport_is_a_request_then_a_roll() {
    let start = CatsChess10::startpos();
    let moves = steps_of(&start);
    // Offered last, once; not a chance position itself.
    assert_eq!(moves.last(), Some(&Step::REQUEST));
    assert_eq!(moves.iter().filter(|m| m.kind == StepKind::Request).count(), 1);
    assert!(!start.is_chance());
    let roll = start.play(Step::REQUEST);
    assert!(roll.is_chance() && !roll.at_turn_start());
    let outcomes = steps_of(&roll);
    // One outcome per teleport square, each as likely.
    assert_eq!(outcomes.len(), start.teleport_squares().count() as usize);
    assert!(outcomes.iter().all(|&m| m.kind == StepKind::Teleport && roll.chance_weight(m) == 1));
    let landed = roll.play(Step::at(StepKind::Teleport, sq("e5")));
    assert!(!landed.is_chance() && landed.state().teleported);
    assert_eq!(landed.key(), start.teleport(sq("e5")).unwrap().key());
    assert!(!steps_of(&landed).contains(&Step::REQUEST), "one teleport a turn");
    // Mid-turn (after a neutral move) step 1 is closed.
    assert!(!steps_of(&after_steps(&start, "j2j4")).contains(&Step::REQUEST));
}

fn after_steps(pos: &CatsChess10, neutral: &str) -> CatsChess10 {
    let (from, to) = (sq(&neutral[..2]), sq(&neutral[2..]));
    pos.play(Step::new(StepKind::Neutral, from, to))
}

#[test]
fn a_roll_on_a_mouse_is_kept_or_rerolled() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let roll = p.play(Step::REQUEST);
    let outcomes = steps_of(&roll);
    assert!(outcomes.contains(&Step::at(StepKind::RollMouse, sq("e7"))));
    assert!(!outcomes.contains(&Step::at(StepKind::Teleport, sq("e7"))));
    let choice = roll.play(Step::at(StepKind::RollMouse, sq("e7")));
    assert!(!choice.is_chance() && !choice.at_turn_start());
    assert_eq!(steps_of(&choice), [Step::at(StepKind::Keep, sq("e7")), Step::at(StepKind::Reroll, sq("e7"))]);
    // Keep: the mouse leaves the game and the T lands there.
    let kept = choice.play(Step::at(StepKind::Keep, sq("e7")));
    assert_eq!(kept.piece_at(sq("e7")), Some(Piece::new(Role::TCat, Color::White)));
    assert_eq!(kept.piece_at(sq("a5")), None);
    assert_eq!(kept.key(), p.teleport(sq("e7")).unwrap().key());
    // Reroll: a roll over the squares without a mouse (no cycle).
    let again = choice.play(Step::at(StepKind::Reroll, sq("e7")));
    assert!(again.is_chance());
    let rerolls = steps_of(&again);
    assert_eq!(rerolls.len(), outcomes.len() - 1);
    assert!(rerolls.iter().all(|m| m.kind == StepKind::Teleport && m.to != sq("e7")));
    // In play the rules roll every square again, the mouse's too: the
    // arbiter goes back to the first roll, and only there.
    assert_eq!(again.arbiter_rewind(), 2);
    let mut h = History::new(p);
    for step in [Step::REQUEST, Step::at(StepKind::RollMouse, sq("e7")), Step::at(StepKind::Reroll, sq("e7"))] {
        assert_eq!(h.current().arbiter_rewind(), 0);
        h.push(step);
    }
    h.take_back(h.current().arbiter_rewind());
    assert_eq!(h.current().key(), roll.key());
    assert_eq!(steps_of(h.current()), outcomes);
    // Every state of step 1 has its own key.
    let keys = [p.key(), roll.key(), choice.key(), again.key(), kept.key()];
    for (i, a) in keys.iter().enumerate() {
        assert!(keys[i + 1..].iter().all(|b| b != a), "{keys:x?}");
    }
    let other = roll.play(Step::at(StepKind::RollMouse, sq("e7")));
    assert_eq!(other.key(), choice.key());
    // Only mice to land on: no reroll (it would never end).
    // (Our T's own square would count as empty: it stands on rank 9.)
    let mut only_mice = String::from("Kf1 kf10 Tj9");
    for s in Square::all().filter(|s| s.rank() < 8 && s.to_string() != "f1") {
        only_mice.push_str(&format!(" M{s}"));
    }
    let q = board(&only_mice, 'w');
    let decide = q.play(Step::REQUEST).play(Step::at(StepKind::RollMouse, sq("e5")));
    assert_eq!(steps_of(&decide), [Step::at(StepKind::Keep, sq("e5"))]);
}

#[test]
fn step_one_tokens_and_their_errors() {
    let p = board(&format!("{ALL_KINDS} Kf1 kj10 Ta5 pf7 me7 *e5"), 'w');
    let e7 = sq("e7");
    let (req, mouse) = (Step::REQUEST, Step::at(StepKind::RollMouse, e7));
    let (keep, reroll) = (Step::at(StepKind::Keep, e7), Step::at(StepKind::Reroll, e7));
    // Written only where step 1 ended.
    assert_eq!(CatsChess10::turn_text(&[req]), "T@?");
    assert_eq!(CatsChess10::turn_text(&[req, mouse]), "T?e7");
    assert_eq!(CatsChess10::turn_text(&[req, mouse, reroll]), "reroll");
    assert_eq!(CatsChess10::turn_text(&[reroll]), "reroll");
    let rest = p.teleport(e7).unwrap().parse_turn("f1f2").unwrap();
    let mut kept = vec![req, mouse, keep];
    kept.extend(&rest);
    assert_eq!(CatsChess10::turn_text(&kept), "T@e7,f1f2");
    // The answer after T?e7: the rest of the turn, without the teleport.
    assert_eq!(CatsChess10::turn_text(&kept[2..]), "f1f2");
    let e6 = Step::at(StepKind::Teleport, sq("e6"));
    assert_eq!(CatsChess10::turn_text(&[req, mouse, reroll, e6]), "T@e6");
    // Read back: T@ on a mouse keeps it; T? stops at the decision.
    assert_eq!(p.parse_turn("T@e7,f1f2").unwrap(), kept);
    assert_eq!(p.parse_turn("T@e7").unwrap(), [req, mouse, keep]);
    assert_eq!(p.parse_turn("T?e7").unwrap(), [req, mouse]);
    // Errors name step 1.
    for (token, why) in [
        ("T@?", "the roll is the arbiter's"),
        ("reroll", "no roll on a mouse"),
        ("T?e6", "no mouse on e6"),
        ("T?e7,f1f2", "undecided"),
        ("T@e9", "never lands on e9"),
        ("T@e5", "never lands on e5"),
        ("f1f2,T@e6", "must open the turn"),
    ] {
        let e = illegal(&p, token);
        assert!(e.contains(why) && e.contains("step 1"), "{token}: {e}");
    }
    let deciding = p.play(req).play(mouse);
    assert!(illegal(&deciding, "reroll").contains("not a move"));
    assert!(illegal(&deciding, "f1f2").contains("undecided"));
    // An engine's answers (the arbiter reads them): `T@?` at the turn's
    // start; after T?e7 `reroll`, or the rest of the turn, e7 kept.
    assert_eq!(p.parse_answer("T@?").unwrap(), [req]);
    assert_eq!(p.parse_answer("f1f2").unwrap(), p.parse_turn("f1f2").unwrap());
    assert_eq!(deciding.parse_answer("reroll").unwrap(), [reroll]);
    assert_eq!(deciding.parse_answer("f1f2").unwrap(), kept[2..]);
    assert!(matches!(deciding.parse_answer("T@?"), Err(MoveError::Illegal(_))));
    assert!(matches!(p.parse_answer("reroll"), Err(MoveError::Illegal(_))));
    assert!(illegal(&p.play(req), "T@e6").contains("being rolled"));
    assert!(matches!(p.parse_turn("T?"), Err(MoveError::Unparsable(_))));
}
