//! Xiangqi's network (`crate::nnue`, shape `XIANGQI`: 1,260 inputs, whose
//! man, which of the seven kinds, on which of the 90 points, the board
//! turned round for black). Xiangqi has no network built in yet: it
//! evaluates by hand unless the protocol's `EvalFile` names a network file
//! (docs/training-history.md, "Xiangqi").

use super::position::Xiangqi;
use super::square::Role;
use crate::nnue::{Choice, HandMade, Network, XIANGQI};
use catchess_core::Color;

/// Xiangqi's network: none until `EvalFile` names one.
pub(crate) static CHOICE: Choice = Choice::new(&XIANGQI, None);

/// The network xiangqi evaluates with, if any.
#[inline(always)]
pub fn loaded() -> Option<&'static Network> {
    CHOICE.loaded()
}

/// The name of what xiangqi evaluates with (a path or `NO_NETWORK`).
pub fn loaded_file() -> &'static str {
    CHOICE.loaded_file()
}

/// The network `name` without choosing it for play (`Choice::read`).
pub fn read(name: &str) -> Result<Network, String> {
    CHOICE.read(name)
}

/// Red's view's input for a man of `owner`'s of kind `role` on point
/// `point` (a1 = 0, i10 = 89).
#[inline(always)]
pub fn red_input(owner: Color, role: Role, point: usize) -> usize {
    XIANGQI.input(owner != Color::White, role.index(), point)
}

/// Calls `f(red's input)` for every man of `pos`.
#[inline]
pub fn for_each_red_input(pos: &Xiangqi, mut f: impl FnMut(usize)) {
    for owner in [Color::White, Color::Black] {
        for role in Role::ALL {
            for point in pos.pieces(owner, role).iter::<super::Square>() {
                f(red_input(owner, role, point.index()));
            }
        }
    }
}

/// The network's value of `pos` (red's view), with the hand-made value
/// `hand_made` (red's view) that a correction adds to.
pub fn value(net: &Network, pos: &Xiangqi, hand_made: impl FnOnce() -> i32) -> i32 {
    let mut inputs = [0usize; 32];
    let mut n = 0;
    for_each_red_input(pos, |f| {
        // A legal position holds at most 32 men (no promotion, no drops).
        if n < inputs.len() {
            inputs[n] = f;
            n += 1;
        }
    });
    let output = net.evaluate_inputs(inputs[..n].iter().copied(), pos.side_to_move() == Color::Black);
    net.value_with(output, || HandMade { value: hand_made(), scale: 64 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::patterned;

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
        let v = value(&net, &a, || 0);
        assert_ne!(v, 0);
        assert_eq!(value(&net, &b, || 0), -v);
        // A correction adds the hand-made value.
        let correction = Network { kind: crate::nnue::Kind::Correction, ..patterned(&XIANGQI) };
        assert_eq!(value(&correction, &a, || 40), v + 40);
    }

    #[test]
    fn the_committed_network_is_a_valid_xiangqi_correction() {
        // networks/xiangqi-correction-s1.nnue, the candidate to build in
        // (docs/training-history.md, "Xiangqi").
        let bytes = include_bytes!("../../../../networks/xiangqi-correction-s1.nnue");
        let net = Network::from_bytes(&XIANGQI, bytes).unwrap();
        assert_eq!(net.kind, crate::nnue::Kind::Correction);
        let start = Xiangqi::startpos();
        let correction = value(&net, &start, || 0);
        assert!(correction != 0 && correction.abs() < 100, "{correction}");
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
