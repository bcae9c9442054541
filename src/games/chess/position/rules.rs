//! `Position<V>` as a [`Game`]: the rules of chess and Cat Chess, one impl for both.

use super::{Position, Variant};
use crate::game::fen::FenError;
use crate::game::MoveList;
use crate::game::{Game, Outcome, Reason, Winner};
use crate::games::chess::moves::Move;
use crate::games::chess::types::Side;

impl<V: Variant> Game for Position<V> {
    type Move = Move;
    const VARIANT: &'static str = V::NAME;
    const SQUARES: usize = 64;

    fn startpos() -> Self {
        Position::startpos()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }
    fn turn(&self) -> Side {
        self.turn
    }
    fn legal_moves(&self, list: &mut MoveList<Move>) {
        Position::legal_moves(self, list)
    }
    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        Position::count_legal_moves(self)
    }
    #[inline(always)]
    fn play(&self, m: Move) -> Self {
        Position::play(self, m)
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    fn move_squares(m: Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }
    fn is_judged(&self) -> bool {
        self.turn != Side::Cats
    }
    fn no_moves_outcome(&self) -> Outcome {
        if !self.in_check() {
            return Outcome { winner: Self::draw_winner(), reason: Reason::Stalemate };
        }
        let winner = match self.turn {
            Side::White => Winner::Black,
            Side::Black => Winner::White,
            Side::Cats => unreachable!("the cats always have a move: at worst the pass"),
        };
        Outcome { winner, reason: Reason::Checkmate }
    }
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
        if V::CATS {
            Winner::Cats
        } else {
            Winner::Draw
        }
    }
    fn sides() -> &'static [Side] {
        if V::CATS {
            &[Side::White, Side::Black, Side::Cats]
        } else {
            &[Side::White, Side::Black]
        }
    }
    fn arbiter_pass(&self) -> Option<Move> {
        (self.turn == Side::Cats).then_some(Move::PASS)
    }
    fn record_move(&self, m: Move) -> String {
        // Standard PGN for chess; Cat Chess records keep the protocol's form
        // (SAN has no notation for cat steps).
        if V::CATS {
            m.to_string()
        } else {
            self.san(m)
        }
    }
    fn render(&self) -> String {
        crate::games::chess::render::board(self)
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let square = |i: usize| b[i].wrapping_sub(b'a') < 8 && b[i + 1].wrapping_sub(b'1') < 8;
        text == "0000"
            || (matches!(b.len(), 4 | 5) && square(0) && square(2) && (b.len() == 4 || b"nbrq".contains(&b[4])))
    }
}
