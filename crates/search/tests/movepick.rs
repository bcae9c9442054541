//! The move picker on chess positions. Here, not beside the code: the
//! search names no game, and the games are a crate above it.

use catchess_game::MoveList;
use catchess_game::{Game, Notation};
use catchess_games::chess::Chess;
use catchess_search::history::{History, MoveKey};
use catchess_search::movepick::*;
use catchess_search::SearchGame;

/// Every move a picker gives out, in order, after `skip_at` picks
/// dropping the quiet moves that `keep` does not hold for.
fn picks(pos: &Chess, skip_at: Option<usize>, keep: impl Fn(&Chess, <Chess as Game>::Move) -> bool) -> Vec<String> {
    let history = History::new(Chess::SEATS.len(), Chess::SQUARES, Chess::PIECE_KINDS, 0);
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut picker = MovePicker::new(pos, &mut list, None, &history, 0, [MoveKey::NONE; 2]);
    let mut out = Vec::new();
    while let Some(picked) = picker.pick(pos, &history) {
        out.push(picked.mv.to_string());
        if skip_at == Some(out.len()) {
            picker.skip_quiets(|q| keep(pos, q));
        }
    }
    out
}

// Captures both ways, quiet checks and plain quiet moves.
const FEN: &str = "r6r/ppp1kppp/2n5/3qp3/3P4/2N2N2/PPP2PPP/R1BQK2R w KQ - 0 1";

#[test]
fn equal_scores_keep_the_generation_order() {
    let pos = Chess::from_fen(FEN).unwrap();
    let mut legal = MoveList::default();
    pos.legal_moves(&mut legal);
    let quiet_order: Vec<String> =
        legal.iter().filter(|&&m| pos.tactical_value(m).is_none()).map(|m| m.to_string()).collect();
    // With no history every quiet move scores 0: they come in the
    // order the game generated them, whatever captures came first.
    let given: Vec<String> = picks(&pos, None, |_, _| true).into_iter().filter(|t| quiet_order.contains(t)).collect();
    assert_eq!(given, quiet_order);
}

#[test]
fn skipping_quiets_drops_only_them_and_keeps_the_order_of_the_rest() {
    let pos = Chess::from_fen(FEN).unwrap();
    let keep = |p: &Chess, m| p.gives_check(m);
    let all = picks(&pos, None, |_, _| true);
    for skip_at in 1..all.len() {
        let skipped = picks(&pos, Some(skip_at), keep);
        // The same moves as without skipping, less the quiet moves
        // after the skip that are not kept, in the same order.
        let expected: Vec<String> = all
            .iter()
            .enumerate()
            .filter(|&(i, t)| {
                let m = pos.parse_move(t).unwrap();
                i < skip_at || pos.tactical_value(m).is_some() || keep(&pos, m)
            })
            .map(|(_, t)| t.clone())
            .collect();
        assert_eq!(skipped, expected, "skipped after {skip_at} picks");
    }
    let after_one = picks(&pos, Some(1), keep);
    assert!(all.len() - after_one.len() > 10, "the position has quiet moves to drop");
    assert!(after_one.contains(&"c1g5".to_string()), "a quiet check is kept");
}
