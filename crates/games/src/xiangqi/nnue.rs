//! Xiangqi's network (`crate::nnue`, shape `XIANGQI`: 1,260 inputs, whose
//! man, which of the seven kinds, on which of the 90 points, the board
//! turned round for black). Xiangqi evaluates with the whole network built
//! into the engine unless the protocol's `EvalFile` chooses another network
//! or none (docs/training-history.md, "Xiangqi").

use super::position::Xiangqi;
use super::square::Role;
use crate::nnue::incremental::Last;
use crate::nnue::{Choice, HandMade, Network, XIANGQI};
use catchess_core::Color;
use once_cell::sync::Lazy;

/// The network built into the engine: `networks/xiangqi-s3.nnue`, a whole
/// evaluation learnt from the engine's own play (`catchess datagen`, seed 2's
/// 1.95 M positions, then seed 3's 1.01 M, a tenth of each held out), which
/// beat the hand-made evaluation at
/// 2+0.02 (docs/search-log.md, "Networks (#63)"). Its file stays in
/// `networks/` beside the candidates, so that one path names it everywhere.
static BUILT_IN_FILE: &[u8] = include_bytes!("../../../../networks/xiangqi-s3.nnue");
static BUILT_IN: Lazy<Network> = Lazy::new(|| {
    Network::from_bytes(&XIANGQI, BUILT_IN_FILE).expect("the built-in network is a valid network file (tested)")
});

/// Xiangqi's network: the built-in one until `EvalFile` chooses.
pub static CHOICE: Choice = Choice::new(&XIANGQI, Some(&BUILT_IN));

/// Red's view's input for a man of `owner`'s of kind `role` on point
/// `point` (a1 = 0, i10 = 89).
#[inline(always)]
pub fn red_input(owner: Color, role: Role, point: usize) -> usize {
    XIANGQI.input(owner != Color::White, role.index(), point)
}

/// Calls `f(red's input)` for every man of `pos`.
#[inline]
pub fn for_each_red_input(pos: &Xiangqi, mut f: impl FnMut(usize)) {
    men(pos).for_each(|slot, point| f(slot_input(slot, point)));
}

/// The network's value of `pos` (red's view), with the hand-made value
/// `hand_made` (red's view) that a correction adds to: found by updating
/// the hidden layers of the position this thread evaluated last
/// (`nnue::incremental`).
#[inline]
pub fn value(net: &'static Network, pos: &Xiangqi, hand_made: impl FnOnce() -> i32) -> i32 {
    let black_to_move = pos.side_to_move() == Color::Black;
    let inputs = |slot, point| {
        let red = slot_input(slot, point);
        (red, XIANGQI.other_view(red))
    };
    let output = net.evaluate_from_last(&LAST, men(pos), inputs, |views| net.value(views, black_to_move));
    net.value_with(output, || HandMade { value: hand_made(), scale: 64 })
}

/// The same value as [`value`], summed from every man.
pub fn value_summed(net: &Network, pos: &Xiangqi, hand_made: impl FnOnce() -> i32) -> i32 {
    let mut views = net.biases();
    for_each_red_input(pos, |red| net.add_input(&mut views, red, XIANGQI.other_view(red)));
    let output = net.value(&views, pos.side_to_move() == Color::Black);
    net.value_with(output, || HandMade { value: hand_made(), scale: 64 })
}

const KINDS: usize = Role::ALL.len();

/// Where each kind of man of each side stands: red's kinds in `Role::ALL`
/// order, then black's.
type Men = crate::nnue::incremental::Men<u128, { 2 * KINDS }>;

fn men(pos: &Xiangqi) -> Men {
    let mut men = Men::EMPTY;
    for (slot, set) in men.0.iter_mut().enumerate() {
        *set = pos.pieces(Men::owner(slot), Role::ALL[slot % KINDS]).0;
    }
    men
}

/// Red's input for a man of `Men` slot `slot` on `point`.
#[inline(always)]
fn slot_input(slot: usize, point: usize) -> usize {
    red_input(Men::owner(slot), Role::ALL[slot % KINDS], point)
}

thread_local! {
    static LAST: std::cell::RefCell<Last<u128, { 2 * KINDS }>> = const { std::cell::RefCell::new(Last::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::{check_incremental, patterned};

    #[test]
    fn a_mirrored_position_has_the_mirrored_value() {
        // Colours swapped and the board turned round: the same position
        // for the side to move, so the value flips sign.
        let net = patterned(&XIANGQI);
        let fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b - - 1 2";
        let a = Xiangqi::from_fen(fen).unwrap();
        let (board, _) = fen.split_once(' ').unwrap();
        let swapped: String = board.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect();
        let turned: Vec<&str> = swapped.split('/').rev().collect();
        let b = Xiangqi::from_fen(&format!("{} w - - 1 2", turned.join("/"))).unwrap();
        let v = value_summed(&net, &a, || 0);
        assert_ne!(v, 0);
        assert_eq!(value_summed(&net, &b, || 0), -v);
        // A correction adds the hand-made value.
        let correction = Network { kind: crate::nnue::Kind::Correction, ..patterned(&XIANGQI) };
        assert_eq!(value_summed(&correction, &a, || 40), v + 40);
    }

    #[test]
    fn the_committed_network_is_a_valid_xiangqi_correction() {
        // networks/xiangqi-correction-s1.nnue, the candidate to build in
        // (docs/training-history.md, "Xiangqi").
        let bytes = include_bytes!("../../../../networks/xiangqi-correction-s1.nnue");
        let net = Network::from_bytes(&XIANGQI, bytes).unwrap();
        assert_eq!(net.kind, crate::nnue::Kind::Correction);
        let start = Xiangqi::startpos();
        let correction = value_summed(&net, &start, || 0);
        assert!(correction != 0 && correction.abs() < 100, "{correction}");
    }

    #[test]
    fn the_built_in_and_the_s2_whole_networks_are_valid_and_value_a_chariot() {
        // networks/xiangqi-s2.nnue, the whole network from seed 2's 1.95 M
        // positions, and the built-in one, that one refined on seed 3's
        // data (docs/training-history.md, "Xiangqi").
        let files: [(&str, &[u8]); 2] =
            [("xiangqi-s2", include_bytes!("../../../../networks/xiangqi-s2.nnue")), ("built-in", BUILT_IN_FILE)];
        for (name, bytes) in files {
            let net = Network::from_bytes(&XIANGQI, bytes).unwrap();
            assert_eq!(net.kind, crate::nnue::Kind::Whole, "{name}");
            let start = value_summed(&net, &Xiangqi::startpos(), || 0);
            assert!(start.abs() < 150, "{name}: {start}");
            // The start without black's a-file chariot: red to move is well up.
            let up = Xiangqi::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
            let value = value_summed(&net, &up, || 0);
            assert!(value > start + 300, "{name}: {value} against {start} at the start");
        }
    }

    #[test]
    fn updating_the_last_position_s_layers_gives_the_full_sum() {
        let far = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        let summed = |n: &Network, p: &Xiangqi| value_summed(n, p, || 3);
        check_incremental(&XIANGQI, Xiangqi::startpos(), far, 150, |n, p| value(n, p, || 3), summed);
    }

    #[test]
    fn red_s_inputs_are_its_own_men_first() {
        let pos = Xiangqi::startpos();
        let mut inputs = Vec::new();
        for_each_red_input(&pos, |f| inputs.push(f));
        assert_eq!(inputs.len(), 32);
        // Red's general on e1 (point 4), black's on e10 (point 85).
        assert!(inputs.contains(&XIANGQI.input(false, Role::General.index(), 4)));
        assert!(inputs.contains(&XIANGQI.input(true, Role::General.index(), 85)));
        assert_eq!(inputs.iter().filter(|&&f| f < XIANGQI.inputs() / 2).count(), 16);
    }
}
