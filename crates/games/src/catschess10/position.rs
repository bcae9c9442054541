//! The position: the board (sets per kind and colour, and a mailbox),
//! pieces waiting underneath, rights and clocks, and where the turn stands
//! (the step machine of rules §3). `play` returns the next position
//! (copy-make); the Zobrist key covers all of it.

use super::attacks::tables;
use super::square::{Role, Piece, Square, BOARD, SQUARES};
use super::moves::StepKind;
use catchess_core::hash::mix;
use catchess_core::{Bitboard128, Color};

/// The start position (rules §1).
pub const START_FEN: &str = "rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -";

/// Castling rights bits: White `K` (j-file rook), `Q` (a-file), Black `k`, `q`.
pub const WHITE_K: u8 = 1;
pub const WHITE_Q: u8 = 2;
pub const BLACK_K: u8 = 4;
pub const BLACK_Q: u8 = 8;

/// Which step of the turn comes next.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
#[repr(u8)]
pub enum Phase {
    /// Steps 2–3: a neutral move (unless done) or picking the own move's
    /// piece. At a turn's start unless a teleport happened.
    #[default]
    Start,
    /// The picked piece's destination (own, second cat or bonus move).
    Dest,
    /// Placing the neutral the last move captured.
    Place,
    /// Step 3's optional second cat move (pick a cat, or `End`).
    SecondCat,
    /// Step 4 (a mouse, or `End`).
    Mouse,
    /// Step 5 (pick a piece, or `End`).
    Bonus,
    /// Step 1 asked for: the square is rolled (a chance position whose
    /// outcomes are the teleport squares, each as likely).
    Roll,
    /// The roll landed on the mouse on `picked`: keep its square or reroll.
    MouseChoice,
    /// Rolling again after declining a mouse (see `teleport.rs` for why
    /// the outcomes are the teleport squares without a mouse).
    Reroll,
}

/// Where the turn stands: all default at a turn's start.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct TurnState {
    pub phase: Phase,
    /// `Dest`: the picked piece's square.
    pub picked: Square,
    /// `SecondCat`: the square of the cat that made the own move (the
    /// second cat must be another one).
    pub first_cat: Square,
    /// `Dest` and `Place`: which move this is (`Own`, `SecondCat`, `Bonus`).
    pub purpose: StepKind,
    /// The own move was a non-knight move of a `C`: a second cat move may
    /// follow (kept through a neutral placement).
    pub second_allowed: bool,
    pub neutral_done: bool,
    /// Our `T` teleported this turn: it may not capture (§9.4).
    pub teleported: bool,
    /// This turn captured the opponent's `T`: the bonus move is open.
    pub took_t: bool,
    /// This turn captured something (the move-limit clock).
    pub captured: bool,
}

impl TurnState {
    /// The state in one word (0 at a turn's start), for the key.
    fn packed(self) -> u64 {
        let flags = self.second_allowed as u64
            | (self.neutral_done as u64) << 1
            | (self.teleported as u64) << 2
            | (self.took_t as u64) << 3
            | (self.captured as u64) << 4;
        self.phase as u64
            | (self.picked.index() as u64) << 4
            | (self.first_cat.index() as u64) << 11
            | (self.purpose as u64) << 18
            | flags << 22
    }
}

#[derive(Clone, Copy, Debug)]
pub struct CatsChess10 {
    pub(super) kinds: [u128; 10],
    /// Per colour; the neutrals are in neither.
    pub(super) colors: [u128; 2],
    /// Piece codes per square (0 empty; see [`code`]).
    pub(super) board: [u8; SQUARES],
    /// Squares with the setup piece waiting underneath (rules §4).
    pub(super) waiting: u128,
    pub(super) turn: Color,
    pub(super) castling: u8,
    /// The square the opponent's last double step crossed (usable now).
    pub(super) ep: Option<Square>,
    /// The square a double step of this turn crossed (usable next turn).
    pub(super) new_ep: Option<Square>,
    /// Turns since the last capture.
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) state: TurnState,
    /// Pieces and waiting pieces; the rest is added by [`key`](Self::key).
    pub(super) board_key: u64,
}

/// A piece's mailbox code: 1 + kind × 2 + colour.
#[inline(always)]
pub const fn code(p: Piece) -> u8 {
    1 + p.kind as u8 * 2 + p.color as u8
}

#[inline(always)]
fn decode(c: u8) -> Option<Piece> {
    if c == 0 {
        return None;
    }
    let kind = Role::ALL[((c - 1) / 2) as usize];
    let color = if (c - 1) & 1 == 0 { Color::White } else { Color::Black };
    Some(Piece::new(kind, color))
}

impl CatsChess10 {
    pub(super) fn empty() -> CatsChess10 {
        CatsChess10 {
            kinds: [0; 10],
            colors: [0; 2],
            board: [0; SQUARES],
            waiting: 0,
            turn: Color::White,
            castling: 0,
            ep: None,
            new_ep: None,
            halfmove: 0,
            fullmove: 1,
            state: TurnState::default(),
            board_key: 0,
        }
    }

    pub fn startpos() -> CatsChess10 {
        CatsChess10::from_fen(START_FEN).expect("the start FEN parses")
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board[sq.index()])
    }

    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1] | self.kinds[Role::Neutral.index()]
    }

    #[inline(always)]
    pub fn kind_set(&self, kind: Role) -> u128 {
        self.kinds[kind.index()]
    }

    #[inline(always)]
    pub fn color_set(&self, c: Color) -> u128 {
        self.colors[c.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, kind: Role) -> u128 {
        self.kinds[kind.index()] & self.colors[c.index()]
    }

    /// Whose turn it is, as this game's own type (`Game::to_move` gives
    /// the same as a seat).
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// Squares with a piece waiting underneath.
    pub fn waiting(&self) -> Bitboard128 {
        Bitboard128(self.waiting)
    }

    pub fn state(&self) -> TurnState {
        self.state
    }

    /// Empty squares (no piece on them and none waiting under them).
    #[inline(always)]
    pub fn free_squares(&self) -> u128 {
        BOARD & !self.occupied() & !self.waiting
    }

    #[inline(always)]
    fn piece_key(p: Piece, sq: Square) -> u64 {
        tables().zobrist.piece[p.kind.index() * 2 + p.color.index()][sq.index()]
    }

    #[inline(always)]
    pub(super) fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.board[sq.index()] == 0);
        self.board[sq.index()] = code(p);
        self.kinds[p.kind.index()] |= sq.bit();
        if p.kind != Role::Neutral {
            self.colors[p.color.index()] |= sq.bit();
        }
        self.board_key ^= Self::piece_key(p, sq);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline(always)]
    pub(super) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        self.board[sq.index()] = 0;
        self.kinds[p.kind.index()] &= !sq.bit();
        self.colors[p.color.index()] &= !sq.bit();
        self.board_key ^= Self::piece_key(p, sq);
        Some(p)
    }

    #[inline(always)]
    pub(super) fn toggle_waiting(&mut self, sq: Square) {
        self.waiting ^= sq.bit();
        self.board_key ^= tables().zobrist.waiting[sq.index()];
    }

    /// The Zobrist key: placement, waiting pieces, side, castling, the
    /// written en passant field, and mid-turn the step state.
    pub fn key(&self) -> u64 {
        let z = &tables().zobrist;
        let mut k = self.board_key ^ z.castling[self.castling as usize];
        if self.turn == Color::Black {
            k ^= z.black;
        }
        if let Some(sq) = self.ep {
            k ^= z.ep[sq.index()];
        }
        if let Some(sq) = self.new_ep {
            k ^= z.new_ep[sq.index()];
        }
        let s = self.state.packed();
        if s != 0 {
            k ^= mix(s);
        }
        k
    }

    /// The key with its pieces and waiting pieces summed from scratch,
    /// where [`key`](Self::key) takes them as `play` keeps them up (tests
    /// of those updates compare the two, as with chess's and xiangqi's
    /// `compute_key`).
    pub fn compute_key(&self) -> u64 {
        let mut board = 0;
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                board ^= Self::piece_key(p, sq);
            }
            if self.waiting & sq.bit() != 0 {
                board ^= tables().zobrist.waiting[sq.index()];
            }
        }
        self.key() ^ self.board_key ^ board
    }

    /// The castling rights left: [`WHITE_K`], [`WHITE_Q`], [`BLACK_K`],
    /// [`BLACK_Q`] (the FEN's `KQkq`).
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// Turns since the last capture (the FEN's fifth field; the move limit
    /// counts them).
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Whether a turn begins here (and so whether this is a position the
    /// game can be in between turns).
    #[inline(always)]
    pub fn at_turn_start(&self) -> bool {
        self.state.phase == Phase::Start && !self.state.neutral_done && !self.state.teleported
    }
}

