//! Chess and Cat Chess written down: (Cat-)FEN, the protocol's move text,
//! records (SAN for chess; the move text for Cat Chess, which SAN cannot
//! write) and the `d` picture.

use super::position::{Position, Variant};
use super::Move;
use crate::game::{FenError, Notation};

impl<V: Variant> Notation for Position<V> {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let square = |i: usize| b[i].wrapping_sub(b'a') < 8 && b[i + 1].wrapping_sub(b'1') < 8;
        text == "0000"
            || (matches!(b.len(), 4 | 5) && square(0) && square(2) && (b.len() == 4 || b"nbrq".contains(&b[4])))
    }
    fn record_move(&self, m: Move) -> String {
        // Standard PGN for chess; Cat Chess records keep the protocol's form
        // (SAN has no notation for cat steps).
        if V::CATS {
            m.to_string()
        } else {
            self.san(m)
        }
    }
    fn render(&self) -> String {
        crate::games::chess::render::board(self)
    }
}

