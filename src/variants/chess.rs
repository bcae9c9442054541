//! Standard chess: the 8×8 position with no cats and a two-side cycle.

use crate::position::{Position, Variant};

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct ChessRules;

impl Variant for ChessRules {
    const CATS: bool = false;
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

pub type Chess = Position<ChessRules>;
