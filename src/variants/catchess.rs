//! Cat Chess (rules: RULES.md): chess plus two neutral cats that disarm
//! every piece next to them, moving third in the cycle white → black → cats.

use crate::position::{Position, Variant};

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct CatChessRules;

impl Variant for CatChessRules {
    const CATS: bool = true;
    const NAME: &'static str = "catchess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

pub type CatChess = Position<CatChessRules>;
