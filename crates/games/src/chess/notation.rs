//! Chess and Cat Chess written down: (Cat-)FEN, the protocol's move text,
//! records (SAN, cat steps as the cat's squares: `san.rs`) and the `d`
//! picture.

use super::position::{Position, Variant};
use super::Move;
use catchess_game::{FenError, Notation};

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
    fn why_illegal(&self, text: &str) -> Option<String> {
        self.why_refused(text)
    }
    fn record_move(&self, m: Move) -> String {
        // SAN in both games; readers take the protocol's text as well, so
        // older Cat Chess records (written in it) still read.
        self.san(m)
    }
    fn render(&self) -> String {
        crate::chess::render::board(self)
    }
}

