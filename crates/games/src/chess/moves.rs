//! The compact move type shared by chess and Cat Chess.

use super::types::Role;
use catchess_core::Square;
use std::fmt;

/// A move in 16 bits: origin (6), destination (6), kind (4).
///
/// White and black moves carry their special kind (castling, en passant,
/// promotion) so `play` needs no guessing; a cat step is its own kind; the
/// cats' pass is the one move whose origin equals its destination.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    Castle,
    EnPassant,
    Cat,
    Promotion(Role),
}

const NORMAL: u16 = 0;
const CASTLE: u16 = 1;
const EN_PASSANT: u16 = 2;
const CAT: u16 = 3;
const PROMO_BASE: u16 = 4; // + role index - 1 (knight..queen)

impl Move {
    /// The cats' pass, written `0000`.
    pub const PASS: Move = Move(CAT << 12);

    #[inline(always)]
    const fn with(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::with(from, to, NORMAL)
    }

    #[inline(always)]
    pub const fn castle(from: Square, to: Square) -> Move {
        Move::with(from, to, CASTLE)
    }

    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::with(from, to, EN_PASSANT)
    }

    #[inline(always)]
    pub const fn cat(from: Square, to: Square) -> Move {
        Move::with(from, to, CAT)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::with(from, to, PROMO_BASE + role as u16 - 1)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 6 & 63) as u32)
    }

    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            NORMAL => MoveKind::Normal,
            CASTLE => MoveKind::Castle,
            EN_PASSANT => MoveKind::EnPassant,
            CAT => MoveKind::Cat,
            k => MoveKind::Promotion(Role::ALL[(k - PROMO_BASE + 1) as usize]),
        }
    }

    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == Move::PASS.0
    }

    pub fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// The raw 16 bits, for hash tables.
    pub const fn bits(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Move {
    /// Long algebraic (UCI) form: `e2e4`, `e7e8q`, `e1g1`, `a4b5`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
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
    fn encoding_round_trips() {
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        let m = Move::normal(e2, e4);
        assert_eq!((m.from(), m.to(), m.kind()), (e2, e4, MoveKind::Normal));
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let p = Move::promotion(e2, e4, role);
            assert_eq!(p.kind(), MoveKind::Promotion(role));
        }
        assert_eq!(Move::promotion(e2, e4, Role::Queen).to_string(), "e2e4q");
        assert_eq!(Move::PASS.to_string(), "0000");
        assert!(Move::PASS.is_pass());
        assert!(!Move::cat(Square::A1, Square::B1).is_pass());
        assert_eq!(Move::castle(Square::E1, Square::G1).kind(), MoveKind::Castle);
        assert_eq!(std::mem::size_of::<Move>(), 2);
    }
}
