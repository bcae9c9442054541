//! Cat Chess's network (`crate::nnue`, shape `CATCHESS`): chess's 768
//! inputs and one per cat square (the two cats are alike), the board
//! turned round for black; three outputs, the chances of white's mate,
//! black's mate and the cats' win (whole, or a correction of the chances
//! the hand-made value reads as). The search's one number is the value
//! whose three-way reading gives white's chance less black's
//! (`catchess_search::three_way::value_of`). No network is built in yet:
//! Cat Chess evaluates by hand until the protocol's `EvalFile` names a
//! Cat Chess network file.

use super::super::position::{Position, Variant};
use super::super::types::Role;
use crate::nnue::incremental::{Last, Men};
use crate::nnue::{Choice, Network, CATCHESS};
use catchess_core::Color;

/// Cat Chess's network: none until `EvalFile` chooses one.
pub static CHOICE: Choice = Choice::new(&CATCHESS, None);

/// The slot of the cats in `CatMen`, after white's and black's six kinds.
const CATS: usize = 12;

/// Where each kind of piece of each side stands (white's pawns to king,
/// then black's, as `Role::ALL`), then the cats.
type CatMen = Men<u64, 13>;

fn men<V: Variant>(pos: &Position<V>) -> CatMen {
    let mut m = CatMen::EMPTY;
    for (slot, set) in m.0.iter_mut().enumerate().take(CATS) {
        let owner = if slot < 6 { Color::White } else { Color::Black };
        *set = pos.pieces(owner, Role::ALL[slot % 6]).0;
    }
    m.0[CATS] = pos.cats().0;
    m
}

/// White's and black's inputs for a man of slot `slot` on `square` (a1 =
/// 0): each view sees its own pieces first, black's view turned round.
#[inline(always)]
fn inputs(slot: usize, square: usize) -> (usize, usize) {
    if slot == CATS {
        return (CATCHESS.neutral_input(0, square), CATCHESS.neutral_input(0, square ^ 56));
    }
    let (theirs, role) = (slot >= 6, slot % 6);
    (CATCHESS.input(theirs, role, square), CATCHESS.input(!theirs, role, square ^ 56))
}

/// Whose view is the mover's: black's when black is to move, white's
/// otherwise (the cats' positions are never evaluated in the search, nor
/// learnt from: datagen records only white's and black's).
fn black_to_move<V: Variant>(pos: &Position<V>) -> bool {
    pos.side_to_move().color() == Some(Color::Black)
}

/// The chances of white's mate, black's mate and the cats' win in `pos`,
/// found by updating the hidden layers of the position this thread
/// evaluated last (`nnue::incremental`).
#[inline]
pub fn chances<V: Variant>(net: &'static Network, pos: &Position<V>) -> [f32; 3] {
    let black = black_to_move(pos);
    net.evaluate_from_last(&LAST, men(pos), inputs, |views| net.chances(views, black, || pos.hand_made()))
}

/// The same chances as [`chances`], summed from every man.
pub fn chances_summed<V: Variant>(net: &Network, pos: &Position<V>) -> [f32; 3] {
    net.chances_of_inputs(white_inputs(pos).into_iter(), black_to_move(pos), || pos.hand_made())
}

/// The search's value of `pos` (white's view) by the network: the value
/// whose three-way reading has white's chance less black's that the
/// network gives (`three_way::value_of`).
#[inline]
pub fn value<V: Variant>(net: &'static Network, pos: &Position<V>) -> i32 {
    value_of(chances(net, pos))
}

/// The search's value (white's view) of the network's chances.
#[inline]
pub fn value_of([white, black, _]: [f32; 3]) -> i32 {
    catchess_search::three_way::value_of(white, black)
}

/// White's view's input of every man of `pos` (the trainer's packing is
/// checked against it).
pub fn white_inputs<V: Variant>(pos: &Position<V>) -> Vec<usize> {
    let mut all = Vec::new();
    men(pos).for_each(|slot, square| all.push(inputs(slot, square).0));
    all
}

thread_local! {
    static LAST: std::cell::RefCell<Last<u64, 13>> = const { std::cell::RefCell::new(Last::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::{check_incremental, patterned};
    use crate::CatChess;

    #[test]
    fn each_view_sees_its_own_pieces_first_and_the_cats_turned_round() {
        let start = CatChess::startpos();
        let white = white_inputs(&start);
        assert_eq!(white.len(), 34);
        // The cats of the start, h5 and a4, are white's inputs 768 + 39 and 768 + 24.
        assert!(white.contains(&(768 + 39)) && white.contains(&(768 + 24)), "{white:?}");
        for slot in 0..13 {
            for square in 0..64 {
                let (w, b) = inputs(slot, square);
                assert_eq!(CATCHESS.other_view(w), b, "slot {slot}, square {square}");
            }
        }
    }

    #[test]
    fn a_mirrored_position_has_the_mirrored_chances() {
        let net = patterned(&CATCHESS);
        let a = CatChess::from_fen("r1bqkb1r/pppp1ppp/*1n2n2/4p3/2B1P2*/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let b = CatChess::from_fen("rnbqk2r/pppp1ppp/5n2/2b1p2*/4P3/*1N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4").unwrap();
        let (ca, cb) = (chances_summed(&net, &a), chances_summed(&net, &b));
        assert_ne!(ca[0], ca[1], "the test needs unequal chances");
        assert_eq!(cb, [ca[1], ca[0], ca[2]]);
    }

    #[test]
    fn the_committed_network_is_a_valid_cat_chess_correction() {
        // networks/catchess-correction-s1.nnue, the candidate under test
        // (docs/training-history.md, "Cat Chess: three outcomes").
        let bytes = include_bytes!("../../../../../networks/catchess-correction-s1.nnue");
        let net = Network::from_bytes(&CATCHESS, bytes).unwrap();
        assert_eq!(net.kind, crate::nnue::Kind::Correction);
        // At the start it keeps the hand-made reading's order (the cats
        // far ahead) but moves it.
        let start = CatChess::startpos();
        let [w, b, c] = chances_summed(&net, &start);
        let read = catchess_search::three_way::chances(f64::from(start.hand_made_value()));
        assert!(c > 0.5 && w < 0.3 && b < 0.3, "{w} {b} {c}");
        assert!((f64::from(w) - read[0]).abs() > 1e-4, "the correction corrects nothing: {w} {read:?}");
    }

    #[test]
    fn the_committed_whole_network_is_a_valid_cat_chess_network() {
        // networks/catchess-s2.nnue, the whole network whose SPRT at
        // 2+0.02 accepted H0 (docs/training-history.md, "Cat Chess"),
        // kept to learn on from (`train --init`).
        let bytes = include_bytes!("../../../../../networks/catchess-s2.nnue");
        let net = Network::from_bytes(&CATCHESS, bytes).unwrap();
        assert_eq!(net.kind, crate::nnue::Kind::Whole);
        // The start is the cats' and nearly even between white and black.
        let [w, b, c] = chances_summed(&net, &CatChess::startpos());
        assert!(c > 0.7 && (w - b).abs() < 0.05, "{w} {b} {c}");
        assert!(value_of([w, b, c]).abs() < 50, "{w} {b} {c}");
    }

    #[test]
    fn updating_the_last_position_s_layers_gives_the_full_sum() {
        let far = CatChess::from_fen("8/8/4k3/2*5/8/3K4/6*1/8 w - - 0 1").unwrap();
        check_incremental(
            &CATCHESS,
            CatChess::startpos(),
            far,
            120,
            value,
            |n, p| value_of(chances_summed(n, p)),
        );
    }
}
