//! The board state of chess and Cat Chess, one type for both: the variant is
//! a type parameter whose constants (`V::CATS`) are folded away at compile
//! time, so standard chess pays nothing for the cats and no hot loop tests a
//! runtime flag.

mod fen;
mod movegen;
mod play;
mod rules;
mod san;
mod tactics;

pub use tactics::SEE_VALUE;

pub use catchess_game::fen::{FenError, FenField};

use catchess_core::{Bitboard, Color, Square};
use crate::chess::attacks;
use crate::chess::types::{Piece, Role, Side};
use crate::chess::zobrist;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// What sets a rules family apart. Implemented by zero-sized marker types.
pub trait Variant: Copy + Clone + Default + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Whether cats exist: a third side to move, the no-kill zone, `*` in FEN.
    const CATS: bool;
    /// The `UCI_Variant` name.
    const NAME: &'static str;
    /// The game's name for people.
    const TITLE: &'static str;
    /// Start position in (Cat-)FEN.
    const START_FEN: &'static str;
}

/// Castling rights as bits: white king-side, white queen-side, black
/// king-side, black queen-side.
pub mod castling {
    pub const WHITE_KING: u8 = 1;
    pub const WHITE_QUEEN: u8 = 2;
    pub const BLACK_KING: u8 = 4;
    pub const BLACK_QUEEN: u8 = 8;
    pub const ALL: u8 = 15;
}

/// A position: pieces, cats, side to move, castling rights, en passant
/// square, clocks, and the Zobrist key kept up to date by `play`.
///
/// Small and `Copy`: make is a copy plus a few XORs, and unmake is dropping
/// the copy.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position<V: Variant> {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
    cats: Bitboard,
    /// Z: the squares at king distance ≤ 1 from a cat. Cached because every
    /// white/black move generation needs it and only cat moves change it.
    zone: Bitboard,
    turn: Side,
    castling: u8,
    ep: Option<Square>,
    /// Whether the en passant file is part of `key` (the right is real).
    ep_in_key: bool,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    _variant: PhantomData<V>,
}

impl<V: Variant> Position<V> {
    pub fn startpos() -> Self {
        Self::from_fen(V::START_FEN).expect("the start FEN is valid")
    }

    fn empty() -> Self {
        Position {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            cats: Bitboard::EMPTY,
            zone: Bitboard::EMPTY,
            turn: Side::White,
            castling: 0,
            ep: None,
            ep_in_key: false,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            _variant: PhantomData,
        }
    }

    /// Whose turn it is, as this game's own type (`Game::to_move` gives
    /// the same as a seat).
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.turn
    }

    #[inline(always)]
    pub fn cats(&self) -> Bitboard {
        self.cats
    }

    /// The no-kill zone Z. Always empty in standard chess (a constant the
    /// compiler folds into every mask that uses it).
    #[inline(always)]
    pub fn zone(&self) -> Bitboard {
        if V::CATS {
            self.zone
        } else {
            Bitboard::EMPTY
        }
    }

    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color.index()] & self.roles[role.index()]
    }

    /// Every occupied square, cats included (cats block rays and pushes).
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1] | self.cats
    }

    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).single()
    }

    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en passant square as set by the last double push (whether or not
    /// a capture there is possible).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key: placement, cats, side to move, castling rights, and
    /// the en passant file only when an en passant capture is legal (so
    /// repetition compares positions as the rules define them).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The white or black piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = Color::BOTH.into_iter().find(|c| self.by_color(*c).contains(sq))?;
        Some(Piece { color, role: self.role_at(sq)? })
    }

    #[inline(always)]
    fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL.into_iter().find(|r| self.roles[r.index()].contains(sq))
    }

    /// Pieces of the set `by` that attack `sq` by geometry, with `occupied`
    /// as the blockers. Z is not applied here; callers pass only armed pieces.
    #[inline(always)]
    pub fn attackers(&self, sq: Square, occupied: Bitboard, by: Bitboard) -> Bitboard {
        let diag = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
        let orth = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
        let white_pawns = attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn);
        let black_pawns = attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn);
        by & ((attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::bishop(sq, occupied) & diag)
            | (attacks::rook(sq, occupied) & orth)
            | white_pawns
            | black_pawns)
    }

    /// The armed pieces of `color`: those outside Z.
    #[inline(always)]
    pub fn armed(&self, color: Color) -> Bitboard {
        self.by_color(color) - self.zone()
    }

    /// Whether `color` threatens `sq` (RULES.md §5: geometry from armed pieces,
    /// minus Z) with `occupied` as the blockers.
    #[inline(always)]
    pub fn threatened_by(&self, color: Color, sq: Square, occupied: Bitboard) -> bool {
        !self.zone().contains(sq) && self.attackers(sq, occupied, self.armed(color)).any()
    }

    /// The enemy pieces giving check to `color`'s king.
    #[inline(always)]
    pub fn checkers_of(&self, color: Color) -> Bitboard {
        let king = self.king(color);
        if self.zone().contains(king) {
            return Bitboard::EMPTY;
        }
        self.attackers(king, self.occupied(), self.armed(color.other()))
    }

    /// Whether the side to move (white or black) is in check. The cats are
    /// never in check.
    pub fn in_check(&self) -> bool {
        match self.turn.color() {
            Some(c) => self.checkers_of(c).any(),
            None => false,
        }
    }

    /// Insufficient material (RULES.md §8): besides kings and cats nothing, a
    /// single knight or bishop, or only bishops all on one square colour.
    pub fn insufficient_material(&self) -> bool {
        let kings = self.by_role(Role::King);
        let others = self.colors[0] | self.colors[1];
        let others = others - kings;
        if others.is_empty() {
            return true;
        }
        let bishops = self.by_role(Role::Bishop);
        if others.count() == 1 && (others & (bishops | self.by_role(Role::Knight))).any() {
            return true;
        }
        others == bishops && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }

    /// The side whose army owns the en passant capture, if a square is set:
    /// white captures on rank 6, black on rank 3.
    fn ep_capturer(&self) -> Option<(Square, Color)> {
        let ep = self.ep?;
        Some((ep, if ep.rank() == 5 { Color::White } else { Color::Black }))
    }

    /// Whether the en passant right is real: the capturing side has a legal
    /// en passant capture on the board as it stands (with the cats to move,
    /// judged for white's coming turn on the current placement).
    #[inline(always)]
    fn ep_counts(&self) -> bool {
        match self.ep_capturer() {
            // Cheap test first: most double pushes land beside no enemy pawn.
            Some((ep, color)) => {
                (attacks::pawn(color.other(), ep) & self.pieces(color, Role::Pawn)).any()
                    && self.en_passant_origins(color).any()
            }
            None => false,
        }
    }

    /// Computes the key from scratch (FEN parsing, and tests of `play`'s
    /// incremental key).
    pub fn compute_key(&self) -> u64 {
        let keys = zobrist::keys();
        let mut key = keys.side(self.turn) ^ keys.castling(self.castling);
        for color in Color::BOTH {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    key ^= keys.piece(color, role, sq);
                }
            }
        }
        for sq in self.cats {
            key ^= keys.cat(sq);
        }
        if let Some(ep) = self.ep {
            if self.ep_counts() {
                key ^= keys.ep_file(ep.file());
            }
        }
        key
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.roles[piece.role.index()].set(sq);
        self.colors[piece.color.index()].set(sq);
    }
}

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
