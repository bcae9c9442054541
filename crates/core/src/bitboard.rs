//! A set of squares as a 64-bit word: bit i is square i (a1 = bit 0).

use super::square::Square;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// Squares where a pawn may never stand.
    pub const BACK_RANKS: Bitboard = Bitboard(0xFF | 0xFF << 56);
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    pub const DARK: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * rank))
    }

    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square (cheaper than `count() > 1`).
    #[inline(always)]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The only square of a one-square set. Meaningless (but safe) otherwise.
    #[inline(always)]
    pub const fn single(self) -> Square {
        Square::from_index_unchecked(self.0.trailing_zeros() & 63)
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// Every square one king step from a square of the set, and the set itself:
    /// the "bubble" of a set of cats.
    #[inline(always)]
    pub const fn dilate(self) -> Bitboard {
        let b = self.0;
        let not_a = !Self::FILE_A.0;
        let not_h = !Self::FILE_H.0;
        let row = b | (b << 1 & not_a) | (b >> 1 & not_h);
        Bitboard(row | row << 8 | row >> 8)
    }

    /// Moves every square one rank up (towards rank 8); rank 8 falls off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Moves every square one rank down (towards rank 1); rank 1 falls off.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

/// Squares of a bitboard, lowest first.
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

/// The set operators of a bitboard type wrapping an integer: `&`, `|`,
/// `^` (and their assigning forms), `-` for set difference, `!` for the
/// complement. Shared by the 64- and 128-square bitboards.
macro_rules! set_ops {
    ($t:ident) => {
        $crate::bitboard::set_ops!(@binary $t, BitAnd bitand &, BitAndAssign bitand_assign &=);
        $crate::bitboard::set_ops!(@binary $t, BitOr bitor |, BitOrAssign bitor_assign |=);
        $crate::bitboard::set_ops!(@binary $t, BitXor bitxor ^, BitXorAssign bitxor_assign ^=);

        impl std::ops::Sub for $t {
            type Output = $t;
            /// Set difference.
            #[inline(always)]
            fn sub(self, rhs: $t) -> $t {
                $t(self.0 & !rhs.0)
            }
        }

        impl std::ops::Not for $t {
            type Output = $t;
            /// The complement within the integer: boards wider than their
            /// squares mask it to them.
            #[inline(always)]
            fn not(self) -> $t {
                $t(!self.0)
            }
        }
    };
    (@binary $t:ident, $tr:ident $f:ident $op:tt, $tra:ident $fa:ident $opa:tt) => {
        impl std::ops::$tr for $t {
            type Output = $t;
            #[inline(always)]
            fn $f(self, rhs: $t) -> $t {
                $t(self.0 $op rhs.0)
            }
        }
        impl std::ops::$tra for $t {
            #[inline(always)]
            fn $fa(&mut self, rhs: $t) {
                self.0 $opa rhs.0;
            }
        }
    };
}
pub(crate) use set_ops;

set_ops!(Bitboard);

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8×8 picture, rank 8 on top, so failing assertions are readable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(names: &[&str]) -> Bitboard {
        names.iter().map(|n| Square::parse(n).unwrap()).collect()
    }

    #[test]
    fn set_operations() {
        let a = bb(&["a1", "e4", "h8"]);
        let b = bb(&["e4", "d5"]);
        assert_eq!(a & b, bb(&["e4"]));
        assert_eq!(a | b, bb(&["a1", "e4", "h8", "d5"]));
        assert_eq!(a - b, bb(&["a1", "h8"]));
        assert_eq!(a ^ b, bb(&["a1", "h8", "d5"]));
        assert_eq!(a.count(), 3);
        assert!(a.has_many() && !bb(&["e4"]).has_many() && !Bitboard::EMPTY.has_many());
        assert_eq!(a.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "e4", "h8"]);
        assert_eq!(a.first(), Square::parse("a1"));
        assert_eq!(Bitboard::EMPTY.first(), None);
    }

    #[test]
    fn dilation_is_the_3x3_block_clipped_to_the_board() {
        assert_eq!(bb(&["a4"]).dilate(), bb(&["a3", "a4", "a5", "b3", "b4", "b5"]));
        assert_eq!(bb(&["h8"]).dilate(), bb(&["g7", "g8", "h7", "h8"]));
        let e4 = bb(&["e4"]).dilate();
        assert_eq!(e4.count(), 9);
        for sq in Square::all() {
            let want = sq.file().abs_diff(4) <= 1 && sq.rank().abs_diff(3) <= 1;
            assert_eq!(e4.contains(sq), want, "{sq}");
        }
    }

    #[test]
    fn colours_of_squares() {
        for sq in Square::all() {
            assert_eq!(Bitboard::LIGHT.contains(sq), sq.is_light(), "{sq}");
        }
        assert_eq!(Bitboard::LIGHT | Bitboard::DARK, Bitboard::FULL);
    }
}
