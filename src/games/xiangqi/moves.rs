//! The xiangqi move: origin and destination in 16 bits. Xiangqi has no
//! special moves (no castling, en passant or promotion), so two points say
//! everything.

use super::square::XSquare;
use std::fmt;

/// A move in 16 bits: origin (7), destination (7). The default value
/// (`a1a1`) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct XMove(u16);

impl XMove {
    #[inline(always)]
    pub const fn new(from: XSquare, to: XSquare) -> XMove {
        XMove(from.index() as u16 | (to.index() as u16) << 7)
    }

    #[inline(always)]
    pub const fn from(self) -> XSquare {
        XSquare::from_index_unchecked((self.0 & 127) as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> XSquare {
        XSquare::from_index_unchecked((self.0 >> 7 & 127) as u32)
    }

    /// The raw 16 bits, for hash tables.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Parses the coordinate form (`h3e3`, `a10a9`) without checking
    /// legality.
    pub fn parse(text: &str) -> Option<XMove> {
        // The destination starts at the second letter.
        let split = text.char_indices().skip(1).find(|(_, c)| c.is_ascii_lowercase())?.0;
        let from = XSquare::parse(&text[..split])?;
        let to = XSquare::parse(&text[split..])?;
        Some(XMove::new(from, to))
    }
}

impl fmt::Display for XMove {
    /// Coordinates as Fairy-Stockfish writes them: `h3e3`, `a10a9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for XMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for from in XSquare::all() {
            for to in [XSquare::parse("a10").unwrap(), XSquare::parse("e5").unwrap()] {
                let m = XMove::new(from, to);
                assert_eq!((m.from(), m.to()), (from, to));
                assert_eq!(XMove::parse(&m.to_string()), Some(m));
            }
        }
        assert_eq!(XMove::parse("a10a9").unwrap().to_string(), "a10a9");
        for bad in ["", "h3", "h3e", "h3e11", "j1a1", "a0a1", "h3e3x", "H3E3", "a10a", "é1a1", "a1é1", "a1aé", "ééé"]
        {
            assert_eq!(XMove::parse(bad), None, "{bad:?}");
        }
        assert_eq!(std::mem::size_of::<XMove>(), 2);
    }
}
