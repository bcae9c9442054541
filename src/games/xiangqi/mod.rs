//! Xiangqi (Chinese chess) under WXF rules: a 9×10 board of points kept in
//! 128-bit sets, legal move generation with bulk counting, Fairy-Stockfish
//! FEN and coordinates, WXF notation, and the game-end rulings (stalemate
//! loses, perpetual check and chase lose). Rules and examples: RULES.md,
//! "Xiangqi (WXF)".
//!
//! Red is `Side::White` / `Color::White`, black is `Side::Black`; there are
//! no cats.

pub mod attacks;
mod engine;
pub mod eval;
mod fen;
mod movegen;
pub mod moves;
pub mod notation;
mod play;
pub mod position;
pub mod render;
pub mod rules;
pub mod square;

pub use moves::XMove;
pub use position::{Xiangqi, START_FEN};
pub use rules::{Perpetual, RepetitionVerdict};
pub use square::{XBitboard, XPiece, XRole, XSquare};

use crate::core::Color;
use crate::game::fen::FenError;
use crate::game::MoveList;
use crate::game::{Game, History, MoveError, Outcome, Reason, Winner};
use crate::games::chess::types::Side;

impl Game for Xiangqi {
    type Move = XMove;
    const VARIANT: &'static str = "xiangqi";
    const SQUARES: usize = square::SQUARES;

    fn startpos() -> Self {
        Xiangqi::startpos()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Xiangqi::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Xiangqi::to_fen(self)
    }
    fn turn(&self) -> Side {
        Side::from(self.turn)
    }
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::White => "red",
            Side::Black => "black",
            Side::Cats => "cats",
        }
    }
    fn legal_moves(&self, list: &mut MoveList<XMove>) {
        Xiangqi::legal_moves(self, list)
    }
    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        Xiangqi::count_legal_moves(self)
    }
    #[inline(always)]
    fn play(&self, m: XMove) -> Self {
        Xiangqi::play(self, m)
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn in_check(&self) -> bool {
        Xiangqi::in_check(self)
    }
    fn move_squares(m: XMove) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }
    /// The side to move has no legal move: it loses, whether in check
    /// (checkmate) or not (stalemate).
    fn no_moves_outcome(&self) -> Outcome {
        let winner = match self.turn {
            Color::White => Winner::Black,
            Color::Black => Winner::White,
        };
        let reason = if self.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        Outcome { winner, reason }
    }
    /// 100 plies without a capture, or nothing but generals, advisors and
    /// elephants on the board (neither side can ever attack the other).
    fn rule_draw(&self) -> Option<Reason> {
        if self.halfmove >= 100 {
            Some(Reason::FiftyMoves)
        } else if self.insufficient_material() {
            Some(Reason::InsufficientMaterial)
        } else {
            None
        }
    }
    fn draw_winner() -> Winner {
        Winner::Draw
    }
    /// Mate or stalemate first, then the repetition rulings, then the rule
    /// draws (see [`rules`]).
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        rules::outcome(history)
    }
    fn parse_move(&self, text: &str) -> Result<XMove, MoveError> {
        let m = XMove::parse(text).ok_or_else(|| MoveError::Unparsable(text.to_string()))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        XMove::parse(text).is_some()
    }
    /// Game records write xiangqi moves in WXF notation (`C2.5`, `H8+7`).
    fn record_move(&self, m: XMove) -> String {
        self.to_wxf(m)
    }
    fn render(&self) -> String {
        render::board(self)
    }
}

impl Xiangqi {
    /// Only generals, advisors and elephants left on both sides: none of
    /// them can cross the river or leave the palace, so no check is ever
    /// possible again.
    pub fn insufficient_material(&self) -> bool {
        let attackers = self.by_role(XRole::Horse)
            | self.by_role(XRole::Chariot)
            | self.by_role(XRole::Cannon)
            | self.by_role(XRole::Soldier);
        attackers.is_empty()
    }
}
