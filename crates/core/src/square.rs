//! Squares of the 8×8 board, a1 = 0 … h8 = 63 (little-endian rank-file).

use std::fmt;

/// A file, a (0) to h (7).
pub type File = u8;
/// A rank, 1 (0) to 8 (7).
pub type Rank = u8;

/// One of the 64 squares. Always in range: every constructor checks or masks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    /// All squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square with this index; `None` outside 0..64.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index, which the caller guarantees is below 64
    /// (bit positions of a non-empty `u64`).
    #[inline(always)]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        self.0 >> 3
    }

    /// The square `dr` ranks and `df` files away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::from_coords(f as u8, r as u8))
        } else {
            None
        }
    }

    /// The same file, mirrored rank (a1 ↔ a8): how black sees white's squares.
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Light squares have odd file + rank parity (a1 is dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// Parses `e4`-style names; anything else is `None`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4").unwrap().index(), 28);
        for bad in ["", "e", "e9", "i1", "e44", "E4"] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn geometry() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(e4.file(), 4);
        assert_eq!(e4.rank(), 3);
        assert_eq!(e4.offset(1, 1), Square::parse("f5"));
        assert_eq!(Square::H8.offset(1, 0), None);
        assert_eq!(e4.flip_rank(), Square::parse("e5").unwrap());
        assert!(!Square::A1.is_light());
        assert!(Square::H1.is_light());
    }
}
