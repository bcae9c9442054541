//! One test (or more) per rule of RULES.md (section numbers below are its). Each
//! asserts the concrete moves or outcome the rule dictates, so breaking
//! the rule breaks the test.

mod common;
use catchess::core::{Bitboard, Color, Square};
use catchess::games::chess::types::Side;
use catchess::{CatChess, Reason};
use common::*;
use pretty_assertions::assert_eq;

fn squares(b: Bitboard) -> Vec<String> {
    b.iter().map(|s| s.to_string()).collect()
}

// §1 Board, factions, start

#[test]
fn start_position_has_cats_on_a4_and_h5_and_white_moves_first() {
    let pos = CatChess::startpos();
    assert_eq!(squares(pos.cats()), ["a4", "h5"]);
    assert_eq!(pos.side_to_move(), Side::White);
    assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn turns_cycle_white_black_cats_and_the_fullmove_number_follows_the_cats() {
    let pos = CatChess::startpos();
    let after_w = play(&pos, "e2e4");
    assert_eq!(after_w.side_to_move(), Side::Black);
    let after_b = play(&after_w, "e7e5");
    assert_eq!(after_b.side_to_move(), Side::Cats);
    assert_eq!(after_b.fullmove_number(), 1);
    let after_c = play(&after_b, "a4b4");
    assert_eq!(after_c.side_to_move(), Side::White);
    assert_eq!(after_c.fullmove_number(), 2);
}

// §2 The no-kill zone

#[test]
fn zone_is_the_3x3_block_around_each_cat_clipped_to_the_board() {
    let pos = CatChess::startpos();
    assert_eq!(squares(pos.zone()), ["a3", "b3", "a4", "b4", "g4", "h4", "a5", "b5", "g5", "h5", "g6", "h6"]);
    let moved = play(&play(&play(&pos, "e2e4"), "e7e5"), "h5g5");
    assert_eq!(
        squares(moved.zone()),
        ["a3", "b3", "a4", "b4", "f4", "g4", "h4", "a5", "b5", "f5", "g5", "h5", "f6", "g6", "h6"]
    );
}

// §3 Cats

#[test]
fn cats_step_like_kings_onto_empty_squares_only() {
    // Cat on d4 surrounded by a white pawn on e5 and a black knight on c3.
    let pos = cat("4k3/8/8/4P3/3*4/2n5/8/4K3 c - - 0 1");
    assert_eq!(moves(&pos), sorted(&["d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4"]));
}

#[test]
fn cats_may_step_onto_attacked_squares() {
    // Every square around the cat is attacked by the white queen.
    let pos = cat("4k3/8/8/8/8/8/1*6/Q3K3 c - - 0 1");
    assert_eq!(moves(&pos), sorted(&["b2a2", "b2a3", "b2b1", "b2b3", "b2c1", "b2c2", "b2c3"]));
}

#[test]
fn boxed_in_cats_pass_and_the_pass_hands_the_turn_to_white() {
    let pos = cat("*nbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQ1RK* c k - 2 3");
    assert_eq!(moves(&pos), ["0000"]);
    let after = play(&pos, "0000");
    assert_eq!(after.side_to_move(), Side::White);
    assert_eq!(after.fullmove_number(), 4);
    assert_eq!(after.halfmove_clock(), 2, "cat moves neither count nor reset the clock");
    // A position without cats: the cats pass too.
    let none = cat("4k3/8/8/8/8/8/8/4K3 c - - 0 1");
    assert_eq!(moves(&none), ["0000"]);
}

#[test]
fn cats_block_rays_and_pushes_but_knights_jump_them() {
    // Cat on a4 blocks the a1 rook's file and the a3... push; cat on e3 blocks e2's pushes.
    let pos = cat("4k3/8/8/8/*7/4*3/4P3/R3K1N1 w - - 0 1");
    let m = moves(&pos);
    assert!(m.contains(&"a1a3".to_string()) && !m.contains(&"a1a4".to_string()) && !m.contains(&"a1a5".to_string()));
    assert!(!m.contains(&"e2e3".to_string()) && !m.contains(&"e2e4".to_string()));
    // Knight g1 jumps to e2? occupied by own pawn; f3 and h3 are reachable over anything.
    assert!(m.contains(&"g1f3".to_string()) && m.contains(&"g1h3".to_string()));
    let knight_jump = cat("4k3/8/8/8/8/8/**6/N3K3 w - - 0 1");
    assert!(has(&knight_jump, "a1c2") && has(&knight_jump, "a1b3"), "a knight jumps over the cats around it");
}

// §4 Capture ban

#[test]
fn a_piece_in_the_zone_may_not_capture() {
    // Bc4 stands in Z of the b5 cat: no Bxf7. Nf3 stands in Z of the g4 cat: no Nxe5.
    let pos = cat("r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let m = moves(&pos);
    assert!(!m.contains(&"c4f7".to_string()));
    assert!(!m.contains(&"f3e5".to_string()));
    // Quiet moves of disarmed pieces, and castling, stay legal.
    for quiet in ["c4d5", "c4e6", "c4b3", "f3h4", "e1g1"] {
        assert!(m.contains(&quiet.to_string()), "{quiet}");
    }
    // The same position in plain chess has both captures.
    let plain = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    assert!(has(&plain, "c4f7") && has(&plain, "f3e5"));
}

#[test]
fn a_piece_in_the_zone_may_not_be_captured() {
    // The black knight on a5 is next to the cat on b6.
    let pos = cat("4k3/8/1*6/n7/8/8/8/R3K3 w - - 0 1");
    assert!(!has(&pos, "a1a5"));
    assert!(has(&pos, "a1a4"));
    let away = cat("4k3/8/7*/n7/8/8/8/R3K3 w - - 0 1");
    assert!(has(&away, "a1a5"));
}

#[test]
fn no_move_captures_a_king() {
    // A cat step exposed the black king to the b3 bishop; white to move may not take it.
    let pos = play(&cat("6k1/5*pp/8/*7/8/1B6/5PPP/6K1 c - - 0 1"), "f7e7");
    assert_eq!(pos.side_to_move(), Side::White);
    assert!(pos.checkers_of(Color::Black).any(), "black is in check");
    assert!(!has(&pos, "b3g8"));
    assert!(has(&pos, "b3f7"), "the bishop still moves along the diagonal");
}

// §5 Threats and check

#[test]
fn a_disarmed_piece_gives_no_check() {
    // The black bishop d2 stands next to the cat c3: Bd2 "attacks" e1 but is disarmed.
    let pos = cat("4k3/8/8/8/8/2*5/3b4/4K3 w - - 0 1");
    assert!(!pos.in_check());
    assert!(!has(&pos, "e1d2"), "and the king may not take it either: it stands in Z");
    // Move the cat away and the same bishop checks.
    let armed = cat("4k3/8/8/8/8/8/3b4/4K2* w - - 0 1");
    assert!(armed.in_check());
}

#[test]
fn threats_stop_at_the_zone_so_a_king_may_step_onto_an_attacked_square_in_it() {
    // Kf1 is in check from the armed Qc4. f2 and g2 lie on the armed Ra2's
    // rank but inside Z of the g3 cat; the disarmed Bh3 threatens nothing.
    let pos = cat("7k/8/*7/8/2q5/6*b/r7/1N3K2 w - - 0 1");
    assert!(pos.in_check());
    assert_eq!(moves(&pos), sorted(&["f1e1", "f1f2", "f1g1", "f1g2"]));
}

#[test]
fn a_king_in_the_zone_is_never_in_check() {
    // King e2 next to the d3 cat, on the open file of the armed rook e8.
    let pos = cat("4r1k1/8/8/8/8/3*4/4K3/8 w - - 0 1");
    assert!(!pos.in_check());
    // Stepping out of Z onto the rook's file is still illegal.
    assert!(!has(&pos, "e2e1"));
    assert!(has(&pos, "e2d1") && has(&pos, "e2e3"));
}

#[test]
fn pins_only_come_from_armed_sliders() {
    // White Nd2 on the e1-a5 diagonal of the black bishop a5... which stands next to the a4 cat.
    let disarmed = cat("4k3/8/8/b7/*7/8/3N4/4K3 w - - 0 1");
    assert!(has(&disarmed, "d2f3"));
    let armed = cat("4k3/8/8/b7/8/8/3N4/4K2* w - - 0 1");
    assert!(!has(&armed, "d2f3"), "the armed bishop pins the knight");
}

#[test]
fn a_move_may_not_leave_the_own_king_in_check() {
    let pos = cat("4k3/4r3/8/8/8/8/4B3/4K2* w - - 0 1");
    assert!(!has(&pos, "e2d3"), "the pinned bishop may not leave the file");
}

// §6 Castling

#[test]
fn castling_through_squares_in_the_zone_is_legal_and_a_cat_blocks_the_path() {
    // Black O-O passes f8 on the armed Rf1's file, but f8/g8 lie in Z of the g7 cat.
    // Black O-O-O is blocked by the cat on b8.
    let pos = cat("r*2k2r/ppppp1*p/8/8/8/8/PPP3PP/5RK1 b kq - 0 1");
    assert!(has(&pos, "e8g8"));
    assert!(!has(&pos, "e8c8"));
    let after = play(&pos, "e8g8");
    assert_eq!(after.piece_at(Square::F8).map(|p| p.char()), Some('r'));
    assert_eq!(after.piece_at(Square::G8).map(|p| p.char()), Some('k'));
}

#[test]
fn castling_through_or_onto_a_threatened_square_is_illegal() {
    assert!(!has(&cat("4kr2/8/8/8/8/8/8/4K2R w K - 0 1"), "e1g1"), "f1 passed over is threatened");
    assert!(!has(&cat("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1"), "e1g1"), "g1 landing is threatened");
    assert!(has(&cat("4k1r1/8/8/8/8/8/7*/4K2R w K - 0 1"), "e1g1"), "g1 is threatened but lies in Z of h2");
    assert!(!has(&cat("4k3/8/8/8/8/8/8/4K1*R w K - 0 1"), "e1g1"), "a cat on the path blocks");
    assert!(!has(&cat("4k3/4r3/8/8/8/8/8/4K2R w K - 0 1"), "e1g1"), "no castling out of check");
}

#[test]
fn the_passed_over_square_is_judged_with_the_king_on_its_origin() {
    // The black rook a1 hits the white king e1, which stands in Z of the d2
    // cat: no check, and the king shields f1. After O-O the rook on f1
    // shields g1. So O-O is legal; with the cat elsewhere the king is in check.
    let pos = cat("4k3/8/8/8/8/8/3*4/r3K2R w K - 0 1");
    assert!(!pos.in_check());
    assert!(has(&pos, "e1g1"));
    let plain = cat("4k3/8/8/8/8/8/8/r3K2R w K - 0 1");
    assert!(plain.in_check());
    assert!(!has(&plain, "e1g1"));
}

// §7 En passant across the cats' turn

const EP_CATS_TO_MOVE: &str = "1k6/p7/8/4PpP1/8/2*4*/P7/1K6 c - f6 0 1";

fn ep_captures(pos: &CatChess) -> Vec<String> {
    moves(pos).into_iter().filter(|m| m.ends_with("f6")).collect()
}

#[test]
fn the_en_passant_right_survives_the_cats_turn() {
    let start = cat(EP_CATS_TO_MOVE);
    let quiet_cat = play(&start, "c3c2");
    assert_eq!(ep_captures(&quiet_cat), ["e5f6", "g5f6"]);
    // ... and expires after white's move.
    let later = play(&quiet_cat, "a2a3");
    assert_eq!(later.ep_square(), None);
}

#[test]
fn en_passant_obeys_the_capture_ban_on_origin_victim_and_destination() {
    let start = cat(EP_CATS_TO_MOVE);
    assert_eq!(ep_captures(&play(&start, "h3h4")), ["e5f6"], "g5 (origin) in Z");
    assert_eq!(ep_captures(&play(&start, "c3d4")), ["g5f6"], "e5 (origin) in Z");
    assert!(ep_captures(&play(&start, "h3g4")).is_empty(), "f5 (victim) in Z");
    // Destination f6 in Z of a cat on e7 (origins e5/g5 and victim f5 outside it).
    let dest = cat("1k6/p3*3/8/4PpP1/8/8/P7/1K5* w - f6 0 2");
    assert!(ep_captures(&dest).is_empty(), "f6 (destination) in Z");
    let play_it = play(&play(&start, "c3c2"), "e5f6");
    assert!(play_it.piece_at(Square::parse("f5").unwrap()).is_none(), "the victim is removed");
}

#[test]
fn white_double_push_gives_black_the_capture_right_away() {
    let pos = cat("4k3/8/8/8/3p4/8/4P3/4K2* w - - 0 1");
    let after = play(&pos, "e2e4");
    assert!(has(&after, "d4e3"));
    let after_black = play(&after, "e8d8");
    assert_eq!(after_black.ep_square(), None);
}

// §1 Pieces move as in chess: promotion

#[test]
fn promotions_offer_four_pieces_and_respect_the_capture_ban() {
    let pos = cat("1n2k3/P7/8/8/8/8/8/4K2* w - - 0 1");
    let promos: Vec<String> = moves(&pos).into_iter().filter(|m| m.len() == 5).collect();
    assert_eq!(promos, sorted(&["a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"]));
    let guarded = cat("1n2k3/P1*5/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!moves(&guarded).iter().any(|m| m.starts_with("a7b8")), "b8 lies in Z of the c7 cat");
}

// §8 End of the game and scoring

#[test]
fn checkmate_wins_for_the_mating_side() {
    let h = history(cat("6k1/5ppp/8/8/8/8/8/R3K2* w - - 0 1"), "a1a8");
    assert_eq!(h.outcome().map(|o| (o.winner, o.reason)), Some((WHITE, Reason::CHECKMATE)));
    let b = history(cat("r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1"), "a8a1 0000");
    assert_eq!(b.current().side_to_move(), Side::White);
    assert_eq!(b.outcome().map(|o| (o.winner, o.reason)), Some((BLACK, Reason::CHECKMATE)));
}

#[test]
fn the_game_is_not_judged_on_the_cats_turn() {
    // After ...Ra1 mate the cats still move; only at white's turn is it mate.
    let h = history(cat("r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1"), "a8a1");
    assert_eq!(h.current().side_to_move(), Side::Cats);
    assert_eq!(h.outcome(), None);
}

#[test]
fn a_cat_step_can_undo_a_mate_and_can_deliver_one() {
    // ...Ra1+ with the cat next to the rook's target square: the cat steps
    // next to a1 and disarms the rook: no mate.
    let start = cat("r3k3/8/8/8/8/2*5/5PPP/6K1 b - - 0 1");
    let mated = history(start, "a8a1 c3d3");
    assert_eq!(mated.outcome().map(|o| o.winner), Some(BLACK), "a cat step elsewhere changes nothing");
    let saved = history(start, "a8a1 c3b2");
    assert!(!saved.current().in_check());
    assert_eq!(saved.outcome(), None, "the a1 rook is disarmed by the b2 cat");
    // The b7 cat disarms the a8 rook; stepping to c6 arms it, and black,
    // walled in by its own pawns, is mated: judged at black's turn.
    let exposed = history(cat("R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1"), "b7c6 g1f1");
    let o = exposed.outcome().expect("black is mated");
    assert_eq!((o.winner, o.reason), (WHITE, Reason::CHECKMATE));
}

#[test]
fn stalemate_is_a_win_for_the_cats() {
    let h = history(cat("7k/8/6Q1/8/8/8/8/4K2* w - - 0 1"), "g6f7");
    assert_eq!(h.outcome().map(|o| (o.winner, o.reason)), Some((CATS, Reason::STALEMATE)));
    let stalemated = history(cat("7k/5Q2/8/8/8/8/8/4K2* b - - 0 1"), "");
    assert_eq!(stalemated.outcome().map(|o| (o.winner, o.reason)), Some((CATS, Reason::STALEMATE)));
    assert_eq!(h.current().side_to_move(), Side::Black);
}

#[test]
fn threefold_repetition_is_a_win_for_the_cats() {
    let start = cat("4k3/8/8/8/8/8/8/R3K2* w - - 0 1");
    let cycle = "a1b1 e8d8 h1h2 b1a1 d8e8 h2h1 ";
    let twice = history(start, cycle);
    assert_eq!(twice.outcome(), None, "the second occurrence is not a draw");
    let thrice = history(start, &cycle.repeat(2));
    assert_eq!(thrice.outcome().map(|o| (o.winner, o.reason)), Some((CATS, Reason::REPETITION)));
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_is_a_win_for_the_cats() {
    let h = history(cat("4k3/8/8/8/8/8/8/R3K2* w - - 98 80"), "a1a2 e8d8 h1h2");
    assert_eq!(h.current().halfmove_clock(), 100);
    assert_eq!(h.outcome().map(|o| (o.winner, o.reason)), Some((CATS, Reason::FIFTY_MOVES)));
    let one_short = history(cat("4k3/8/8/8/8/8/8/R3K2* w - - 97 80"), "a1a2 e8d8 h1h2");
    assert_eq!(one_short.current().halfmove_clock(), 99);
    assert_eq!(one_short.outcome(), None);
}

#[test]
fn checkmate_takes_precedence_over_the_fifty_move_rule() {
    let h = history(cat("6k1/5ppp/8/8/8/8/8/R3K2* w - - 99 80"), "a1a8");
    assert_eq!(h.current().halfmove_clock(), 100);
    assert_eq!(h.outcome().map(|o| o.reason), Some(Reason::CHECKMATE));
}

#[test]
fn insufficient_material_is_a_win_for_the_cats() {
    let draw = |fen: &str| history(cat(fen), "").outcome().map(|o| (o.winner, o.reason));
    let insufficient = Some((CATS, Reason::INSUFFICIENT_MATERIAL));
    assert_eq!(draw("4k3/8/8/8/8/8/8/4K2* w - - 0 1"), insufficient, "kings only");
    assert_eq!(draw("4k3/8/8/8/8/8/8/2N1K2* w - - 0 1"), insufficient, "one knight");
    assert_eq!(draw("4k3/8/8/8/8/8/8/2B1K2* w - - 0 1"), insufficient, "one bishop");
    assert_eq!(draw("4k3/8/8/2b5/8/8/8/2B1K2* w - - 0 1"), insufficient, "bishops all on dark squares");
    assert_eq!(draw("4k3/8/8/3b4/8/8/8/2B1K2* w - - 0 1"), None, "bishops on both colours");
    assert_eq!(draw("4k3/8/8/3n4/8/8/8/2N1K2* w - - 0 1"), None, "K+N v K+N can still mate");
    assert_eq!(draw("4k3/8/8/8/8/8/8/1NN1K2* w - - 0 1"), None, "two knights");
    assert_eq!(draw("4k3/8/8/8/8/8/4P3/4K2* w - - 0 1"), None, "a pawn");
}

#[test]
fn in_chess_a_draw_is_a_draw() {
    let h = history(chess("7k/5Q2/8/8/8/8/8/4K3 b - - 0 1"), "");
    assert_eq!(h.outcome().map(|o| (o.winner, o.reason)), Some((DRAW, Reason::STALEMATE)));
}
