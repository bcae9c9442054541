//! Standard chess's network (`crate::nnue`, shape `CHESS`: 768 inputs,
//! whose piece, which kind, on which square, the board turned round for
//! black). Standard chess evaluates with the correction built into the
//! engine unless the protocol's `EvalFile` chooses another network or none
//! (`load`).

pub mod cats;

pub use crate::nnue::{HandMade, Kind, Network, BUILT_IN_NAME, DEFAULT_NAME, NO_NETWORK};

use super::position::{Position, Variant};
use super::types::Role;
use crate::nnue::incremental::{Last, Men};
use crate::nnue::{Choice, CHESS};
use catchess_core::Color;
use once_cell::sync::Lazy;

/// The network built into the engine: a correction to the hand-made
/// evaluation, learnt from 59,630 of the project's own games and refined
/// by 8,917 more of its own self-play (see README,
/// "A chess network", for the command and its measured strength), from
/// `correction.nnue`; or the file `CATCHESS_EVALFILE` named at build time
/// (`make EVALFILE=...`, as OpenBench builds an engine with its network).
/// The build script reads it with `file.rs`, so it is a valid network.
static BUILT_IN_FILE: &[u8] = include_bytes!(env!("CATCHESS_BUILT_IN_NETWORK"));
static BUILT_IN: Lazy<Network> = Lazy::new(|| {
    Network::from_bytes(&CHESS, BUILT_IN_FILE).expect("the built-in network is a valid network file (tested)")
});

/// Standard chess's network: the built-in one until `EvalFile` chooses.
pub static CHOICE: Choice = Choice::new(&CHESS, Some(&BUILT_IN));

/// The input for a piece of `owner`'s of kind `role` on `square` (a1 = 0,
/// h8 = 63) as `view` sees the board: its own pieces first, and black's
/// view turned round so that each side's pieces move up the board.
#[inline(always)]
pub fn feature(view: Color, owner: Color, role: Role, square: usize) -> usize {
    let (theirs, square) = match view {
        Color::White => (owner != Color::White, square),
        Color::Black => (owner != Color::Black, square ^ 56),
    };
    CHESS.input(theirs, role as usize, square)
}

/// Calls `f(white's input, black's input)` for every piece of `pos`.
#[inline]
pub fn for_each_feature<V: Variant>(pos: &Position<V>, mut f: impl FnMut(usize, usize)) {
    men(pos).for_each(|slot, square| {
        let (w, b) = inputs(slot, square);
        f(w, b)
    });
}

impl Network {
    /// The network's output for the position in centipawns from white's
    /// view (see `Kind` for what it is), computed from its pieces alone.
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let mut views = self.biases();
        for_each_feature(pos, |w, b| self.add_input(&mut views, w, b));
        self.value(&views, pos.side_to_move().color() == Some(Color::Black))
    }

    /// The same value as [`Network::evaluate`], found by updating the
    /// hidden layers of the position this thread evaluated last
    /// (`nnue::incremental`).
    #[inline]
    pub fn evaluate_incremental<V: Variant>(&'static self, pos: &Position<V>) -> i32 {
        let black_to_move = pos.side_to_move().color() == Some(Color::Black);
        self.evaluate_from_last(&LAST, men(pos), inputs, |views| self.value(views, black_to_move))
    }
}

/// Where each kind of piece of each side stands: white's pawns to king,
/// then black's (`Role::ALL` order).
type Pieces = Men<u64, 12>;

fn men<V: Variant>(pos: &Position<V>) -> Pieces {
    let mut p = Pieces::EMPTY;
    for (slot, set) in p.0.iter_mut().enumerate() {
        *set = pos.pieces(Pieces::owner(slot), Role::ALL[slot % 6]).0;
    }
    p
}

/// White's and black's inputs for a piece of slot `slot`'s side and kind
/// on `square`.
#[inline(always)]
fn inputs(slot: usize, square: usize) -> (usize, usize) {
    let (owner, role) = (Pieces::owner(slot), Role::ALL[slot % 6]);
    (feature(Color::White, owner, role, square), feature(Color::Black, owner, role, square))
}

thread_local! {
    static LAST: std::cell::RefCell<Last<u64, 12>> = const { std::cell::RefCell::new(Last::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::{check_incremental, patterned};
    use crate::Chess;

    #[test]
    fn each_view_sees_its_own_pieces_first_and_moving_up() {
        // White's pawn on e2 is, to black, an enemy pawn on e7; black's
        // pawn on e7 is, to black, its own pawn on e2.
        let e2 = 12;
        let e7 = 52;
        assert_eq!(feature(Color::White, Color::White, Role::Pawn, e2), e2);
        assert_eq!(feature(Color::Black, Color::White, Role::Pawn, e2), 384 + e7);
        assert_eq!(feature(Color::Black, Color::Black, Role::Pawn, e7), e2);
        assert_eq!(feature(Color::White, Color::Black, Role::King, 63), 384 + 5 * 64 + 63);
        for owner in [Color::White, Color::Black] {
            for role in Role::ALL {
                for square in 0..64 {
                    let white = feature(Color::White, owner, role, square);
                    assert_eq!(CHESS.other_view(white), feature(Color::Black, owner, role, square));
                }
            }
        }
    }

    #[test]
    fn a_mirrored_position_has_the_mirrored_value() {
        // The same position with colours swapped and the board turned
        // round is, for the side to move, the same: the value flips sign.
        let net = patterned(&CHESS);
        let a = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let b = Chess::from_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4").unwrap();
        let v = net.evaluate(&a);
        assert_ne!(v, 0);
        assert_eq!(net.evaluate(&b), -v);
    }

    #[test]
    fn updating_the_last_position_s_layers_gives_the_full_sum() {
        let far = Chess::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
        check_incremental(&CHESS, Chess::startpos(), far, 120, |n, p| n.evaluate_incremental(p), |n, p| n.evaluate(p));
    }

    #[test]
    fn the_built_in_network_is_a_valid_correction() {
        let net = Network::from_bytes(&CHESS, BUILT_IN_FILE).unwrap();
        assert_eq!(net.kind, Kind::Correction);
        // It corrects, but does not overturn, the hand-made evaluation.
        let start = Chess::startpos();
        assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
    }
}
