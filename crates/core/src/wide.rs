//! A set of squares as a 128-bit word, for boards larger than 8×8 (xiangqi's
//! 9×10, Cat's Chess's 10×10). Bit i is square i; what a square is (its
//! numbering, its name) belongs to each board, which implements
//! [`WideSquare`] so sets stay typed: a xiangqi set yields xiangqi squares.

use std::fmt;
use std::marker::PhantomData;

/// A square of some board with at most 128 squares.
pub trait WideSquare: Copy {
    /// The square of bit `bit`; the caller guarantees the bit is on the
    /// board (it comes from a set of this board's squares).
    fn from_bit(bit: u32) -> Self;
    /// This square's bit, below 128.
    fn bit(self) -> u32;
}

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bitboard128(pub u128);

impl Bitboard128 {
    pub const EMPTY: Bitboard128 = Bitboard128(0);

    /// The first `n` bits: every square of an `n`-square board.
    pub const fn first_n(n: u32) -> Bitboard128 {
        if n >= 128 {
            Bitboard128(!0)
        } else {
            Bitboard128((1u128 << n) - 1)
        }
    }

    #[inline(always)]
    pub fn from_square<S: WideSquare>(sq: S) -> Bitboard128 {
        Bitboard128(1 << sq.bit())
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
    pub fn contains<S: WideSquare>(self, sq: S) -> bool {
        self.0 >> sq.bit() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first<S: WideSquare>(self) -> Option<S> {
        if self.0 == 0 {
            None
        } else {
            Some(S::from_bit(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline(always)]
    pub fn last<S: WideSquare>(self) -> Option<S> {
        if self.0 == 0 {
            None
        } else {
            Some(S::from_bit(127 - self.0.leading_zeros()))
        }
    }

    /// The only square of a one-square set. Meaningless (but safe) otherwise:
    /// the caller must only pass a set from its own board.
    #[inline(always)]
    pub fn single<S: WideSquare>(self) -> S {
        S::from_bit(self.0.trailing_zeros() & 127)
    }

    #[inline(always)]
    pub fn set<S: WideSquare>(&mut self, sq: S) {
        self.0 |= 1 << sq.bit();
    }

    #[inline(always)]
    pub fn clear<S: WideSquare>(&mut self, sq: S) {
        self.0 &= !(1 << sq.bit());
    }

    #[inline(always)]
    pub fn toggle<S: WideSquare>(&mut self, sq: S) {
        self.0 ^= 1 << sq.bit();
    }

    /// Every bit moved `n` places up (towards higher squares); bits past 127
    /// fall off. Boards mask off their own edges.
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Bitboard128 {
        Bitboard128(self.0 << n)
    }

    /// Every bit moved `n` places down; bits below 0 fall off.
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Bitboard128 {
        Bitboard128(self.0 >> n)
    }

    /// The squares, lowest first, as squares of board `S`.
    #[inline(always)]
    pub fn iter<S: WideSquare>(self) -> Squares128<S> {
        Squares128 { bits: self.0, _square: PhantomData }
    }
}

/// Squares of a wide set, lowest first.
pub struct Squares128<S> {
    bits: u128,
    _square: PhantomData<S>,
}

impl<S: WideSquare> Iterator for Squares128<S> {
    type Item = S;
    #[inline(always)]
    fn next(&mut self) -> Option<S> {
        if self.bits == 0 {
            return None;
        }
        let sq = S::from_bit(self.bits.trailing_zeros());
        self.bits &= self.bits - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl<S: WideSquare> ExactSizeIterator for Squares128<S> {}

impl<S: WideSquare> FromIterator<S> for Bitboard128 {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut b = Bitboard128::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

super::bitboard::set_ops!(Bitboard128);

impl fmt::Debug for Bitboard128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard128({:#034x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy 100-square board (10×10), the size Cat's Chess will use.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    struct Sq(u8);
    impl WideSquare for Sq {
        fn from_bit(bit: u32) -> Sq {
            Sq(bit as u8)
        }
        fn bit(self) -> u32 {
            self.0 as u32
        }
    }

    fn bb(squares: &[u8]) -> Bitboard128 {
        squares.iter().map(|&s| Sq(s)).collect()
    }

    #[test]
    fn set_operations_and_iteration_beyond_64() {
        let a = bb(&[0, 63, 64, 99]);
        let b = bb(&[64, 70]);
        assert_eq!(a & b, bb(&[64]));
        assert_eq!(a | b, bb(&[0, 63, 64, 70, 99]));
        assert_eq!(a - b, bb(&[0, 63, 99]));
        assert_eq!(a ^ b, bb(&[0, 63, 70, 99]));
        assert_eq!(a.count(), 4);
        assert!(a.has_many() && !bb(&[99]).has_many() && !Bitboard128::EMPTY.has_many());
        assert_eq!(a.iter::<Sq>().collect::<Vec<_>>(), [Sq(0), Sq(63), Sq(64), Sq(99)]);
        assert_eq!(a.first::<Sq>(), Some(Sq(0)));
        assert_eq!(a.last::<Sq>(), Some(Sq(99)));
        assert_eq!(Bitboard128::EMPTY.first::<Sq>(), None);
        assert_eq!(bb(&[77]).single::<Sq>(), Sq(77));
        assert!(a.contains(Sq(99)) && !a.contains(Sq(98)));
        let mut c = Bitboard128::EMPTY;
        c.set(Sq(100));
        c.toggle(Sq(5));
        c.clear(Sq(100));
        assert_eq!(c, bb(&[5]));
        assert_eq!(bb(&[63]).shl(1), bb(&[64]));
        assert_eq!(bb(&[64]).shr(64), bb(&[0]));
        assert_eq!(Bitboard128::first_n(100).count(), 100);
        assert_eq!(Bitboard128::first_n(128).count(), 128);
    }
}
