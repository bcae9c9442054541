//! `Position<V>` as a [`Game`]: chess and Cat Chess share every line.

use super::{FenError, Position, Variant};
use crate::core::{Color, Side};
use crate::game::{Game, Winner};
use crate::moves::{Move, MoveList};

impl<V: Variant> Game for Position<V> {
    type Move = Move;
    const VARIANT: &'static str = V::NAME;

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
    fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }
    fn insufficient_material(&self) -> bool {
        Position::insufficient_material(self)
    }
    fn is_judged(&self) -> bool {
        self.turn != Side::Cats
    }
    fn draw_winner() -> Winner {
        if V::CATS {
            Winner::Cats
        } else {
            Winner::Draw
        }
    }
    fn mate_winner(&self) -> Winner {
        match self.turn.color() {
            Some(Color::White) => Winner::Black,
            Some(Color::Black) => Winner::White,
            None => unreachable!("the cats are never mated: is_judged is false on their turn"),
        }
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let square = |i: usize| b[i].wrapping_sub(b'a') < 8 && b[i + 1].wrapping_sub(b'1') < 8;
        text == "0000"
            || (matches!(b.len(), 4 | 5) && square(0) && square(2) && (b.len() == 4 || b"nbrq".contains(&b[4])))
    }
}
