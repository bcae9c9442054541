//! The xiangqi move: origin and destination in 16 bits. Xiangqi has no
//! special moves (no castling, en passant or promotion), so two points say
//! everything.

use super::square::Square;
use std::fmt;

/// A move in 16 bits: origin (7), destination (7). The default value
/// (`a1a1`) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 127) as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7 & 127) as u32)
    }

    /// The raw 16 bits, for hash tables.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Parses the coordinate form (`h3e3`, `a10a9`) without checking
    /// legality.
    pub fn parse(text: &str) -> Option<Move> {
        // The destination starts at the second letter.
        let split = text.char_indices().skip(1).find(|(_, c)| c.is_ascii_lowercase())?.0;
        let from = Square::parse(&text[..split])?;
        let to = Square::parse(&text[split..])?;
        Some(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    /// Coordinates as Fairy-Stockfish writes them: `h3e3`, `a10a9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for from in Square::all() {
            for to in [Square::parse("a10").unwrap(), Square::parse("e5").unwrap()] {
                let m = Move::new(from, to);
                assert_eq!((m.from(), m.to()), (from, to));
                assert_eq!(Move::parse(&m.to_string()), Some(m));
            }
        }
        assert_eq!(Move::parse("a10a9").unwrap().to_string(), "a10a9");
        for bad in ["", "h3", "h3e", "h3e11", "j1a1", "a0a1", "h3e3x", "H3E3", "a10a", "é1a1", "a1é1", "a1aé", "ééé"]
        {
            assert_eq!(Move::parse(bad), None, "{bad:?}");
        }
        assert_eq!(std::mem::size_of::<Move>(), 2);
    }
}
