//! A material count, from White's point of view: enough for the search to
//! play legal, sensible turns; the game's real evaluation comes later.

use super::position::CatsChess10;
use super::square::{squares, Kind};
use crate::core::Color;
use crate::search::Evaluate;

/// Centipawn worth per kind; the king is not counted (capturing it ends
/// the game), the neutral belongs to nobody.
pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Knight => 300,
        Kind::Bishop => 320,
        Kind::Rook => 480,
        Kind::Queen => 900,
        Kind::King => 0,
        Kind::Cat => 350,
        Kind::TCat => 400,
        Kind::Mouse => 60,
        Kind::Neutral => 0,
    }
}

impl CatsChess10 {
    /// Material of `c`.
    pub fn material(&self, c: Color) -> i32 {
        Kind::ALL.iter().map(|&k| value(k) * self.pieces(c, k).count_ones() as i32).sum()
    }
}

impl Evaluate for CatsChess10 {
    fn evaluate(&self) -> i32 {
        self.material(Color::White) - self.material(Color::Black)
    }

    fn eval_breakdown(&self) -> String {
        let mut s = String::new();
        for c in Color::BOTH {
            let parts: Vec<String> = Kind::ALL
                .iter()
                .filter(|&&k| self.pieces(c, k) != 0)
                .map(|&k| format!("{}×{}", squares(self.pieces(c, k)).count(), k.name()))
                .collect();
            s.push_str(&format!("{c}: {} = {}\n", parts.join(", "), self.material(c)));
        }
        s.push_str(&format!("total (white's view): {}\n", self.evaluate()));
        s
    }
}
