//! The xiangqi position: piece sets, a mailbox, the occupancy in both
//! orientations (see `attacks`), side to move, clocks and the Zobrist key.
//! Small and `Copy`: making a move is a copy plus a few XORs.

use super::attacks;
use super::square::{Bitboard, Piece, Role, Square, SQUARES};
use catchess_core::{Bitboard128, Color};
use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// The start position, in Fairy-Stockfish's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

pub(crate) struct Keys {
    /// Indexed by mailbox code (0, empty, unused) and point.
    piece: [[u64; SQUARES]; 15],
    /// XORed in when black is to move.
    black: u64,
}

/// Fixed seed: the same keys on every run, so hash behaviour repeats.
static KEYS: Lazy<Keys> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x91A6_0141);
    let mut keys = Keys { piece: [[0; SQUARES]; 15], black: 0 };
    for row in keys.piece.iter_mut().skip(1) {
        row.iter_mut().for_each(|k| *k = rng.gen());
    }
    keys.black = rng.gen();
    keys
});

#[inline(always)]
pub(crate) fn keys() -> &'static Keys {
    &KEYS
}

impl Keys {
    #[inline(always)]
    pub(crate) fn piece(&self, code: u8, sq: Square) -> u64 {
        self.piece[code as usize][sq.index()]
    }
    #[inline(always)]
    pub(crate) fn black(&self) -> u64 {
        self.black
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Xiangqi {
    pub(crate) roles: [Bitboard; 7],
    pub(crate) colors: [Bitboard; 2],
    /// The occupancy file-major: bit `file * 10 + rank`.
    pub(crate) occ_t: u128,
    /// `Piece::code` per point (0: empty).
    pub(crate) board: [u8; SQUARES],
    pub(crate) turn: Color,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
}

impl Xiangqi {
    pub(crate) fn empty() -> Xiangqi {
        Xiangqi {
            roles: [Bitboard128::EMPTY; 7],
            colors: [Bitboard128::EMPTY; 2],
            occ_t: 0,
            board: [0; SQUARES],
            turn: Color::White,
            halfmove: 0,
            fullmove: 1,
            key: 0,
        }
    }

    pub fn startpos() -> Xiangqi {
        Xiangqi::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Whose turn it is, as this game's own type (`Game::to_move` gives
    /// the same as a seat): red is `Color::White`, black `Color::Black`.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.turn
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

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline(always)]
    pub fn general(&self, color: Color) -> Square {
        self.pieces(color, Role::General).single()
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.roles[piece.role.index()].set(sq);
        self.colors[piece.color.index()].set(sq);
        self.occ_t |= 1 << sq.transposed();
        self.board[sq.index()] = piece.code();
    }

    /// The key from scratch (FEN parsing, and tests of `play`'s updates).
    pub fn compute_key(&self) -> u64 {
        let keys = keys();
        let mut key = if self.turn == Color::Black { keys.black() } else { 0 };
        for sq in self.occupied().iter::<Square>() {
            key ^= keys.piece(self.board[sq.index()], sq);
        }
        key
    }

    /// Whether any piece of the set `by` attacks `sq` on a board whose
    /// occupancy is `occ` (rank-major) and `occ_t` (file-major). The
    /// general of `by` counts as attacking along its file (flying general),
    /// so a position where this is true of a general is illegal for the
    /// side whose general it is. Advisors and elephants never leave their
    /// own palace or half and so never reach the enemy general: they are
    /// not consulted (`sq` is always a general's point).
    #[inline(always)]
    pub(crate) fn attacked_by(&self, sq: Square, occ: u128, occ_t: u128, by: u128, by_color: Color) -> bool {
        let straight = (self.roles[Role::Chariot.index()].0 | self.roles[Role::General.index()].0) & by;
        let cannons = self.roles[Role::Cannon.index()].0 & by;
        if (straight | cannons) & attacks::cross(sq) != 0 {
            let (rook, cannon) = attacks::lines(sq, occ, occ_t);
            if rook & straight != 0 || cannon & cannons != 0 {
                return true;
            }
        }
        if attacks::soldier_attackers(by_color, sq) & self.roles[Role::Soldier.index()].0 & by != 0 {
            return true;
        }
        let horses = self.roles[Role::Horse.index()].0 & by;
        if horses & attacks::horse_zone(sq) != 0 {
            for g in attacks::horse_attackers(sq) {
                if g.to & horses != 0 && occ >> g.leg.index() & 1 == 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `color`'s general is attacked (in check) as the board stands.
    #[inline(always)]
    pub fn is_attacked_general(&self, color: Color) -> bool {
        let them = color.other();
        self.attacked_by(self.general(color), self.occupied().0, self.occ_t, self.by_color(them).0, them)
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.is_attacked_general(self.turn)
    }

    /// Whether the two generals face each other on an open file.
    pub fn generals_face(&self) -> bool {
        let (r, b) = (self.general(Color::White), self.general(Color::Black));
        r.file() == b.file() && (attacks::between(r, b) & self.occupied()).is_empty()
    }
}

impl std::fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Xiangqi({})", self.to_fen())
    }
}
