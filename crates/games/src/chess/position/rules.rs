//! `Position<V>` as a [`Game`]: the rules of chess and Cat Chess, one impl
//! for both, and what an arbiter does on a forfeit.

use super::{Position, Variant};
use catchess_game::{rule_draw, standard_outcome, Arbitration, Game, Goal, History, MoveList, Outcome, Reason, Seat, SeatInfo};
use crate::chess::moves::Move;
use crate::chess::types::Side;

const WHITE: SeatInfo = SeatInfo { name: "white", fen: 'w', clock: 'w', goal: Goal::Maximise };
const BLACK: SeatInfo = SeatInfo { name: "black", fen: 'b', clock: 'b', goal: Goal::Minimise };
/// The cats win every draw: they want the value near zero (RULES.md §1).
const CATS: SeatInfo = SeatInfo { name: "cats", fen: 'c', clock: 'c', goal: Goal::NearZero };

/// The seat of a side: the seats are the sides, in `Side` order.
pub const fn seat(side: Side) -> Seat {
    Seat::new(side.index())
}

impl<V: Variant> Game for Position<V> {
    type Move = Move;
    const VARIANT: &'static str = V::NAME;
    const SQUARES: usize = 64;
    const SEATS: &'static [SeatInfo] = if V::CATS { &[WHITE, BLACK, CATS] } else { &[WHITE, BLACK] };

    fn startpos() -> Self {
        Position::startpos()
    }
    fn to_move(&self) -> Seat {
        seat(self.turn)
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
    fn move_squares(m: Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }
    /// No legal move: checkmate (the other army wins) or stalemate (a
    /// draw). The fifty-move rule and insufficient material, except when
    /// the move that completed the count mated. Nothing is judged at the
    /// cats' turn (RULES.md §8).
    fn position_outcome(&self, no_moves: bool) -> Option<Outcome> {
        let army = self.turn.color()?;
        if no_moves {
            return Some(if self.in_check() {
                Outcome::new(Some(seat(Side::from(army.other()))), Reason::CHECKMATE)
            } else {
                Outcome::new(Self::draw_winner(), Reason::STALEMATE)
            });
        }
        let mated = || self.in_check() && self.count_legal_moves() == 0;
        let reason = rule_draw(self.halfmove, mated, || self.insufficient_material())?;
        Some(Outcome::new(Self::draw_winner(), reason))
    }
    fn draw_winner() -> Option<Seat> {
        V::CATS.then_some(seat(Side::Cats))
    }
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        if history.current().turn == Side::Cats {
            return None;
        }
        standard_outcome(history)
    }
}

/// White's or black's forfeit gives the game to the other army; the cats'
/// makes them pass for the rest of the game (protocol.md, "Matches and
/// faults").
impl<V: Variant> Arbitration for Position<V> {
    fn forfeit_winner(s: Seat) -> Option<Seat> {
        match s.index() {
            0 => Some(seat(Side::Black)),
            1 => Some(seat(Side::White)),
            _ => None,
        }
    }
    fn arbiter_pass(&self) -> Option<Move> {
        (self.turn == Side::Cats).then_some(Move::PASS)
    }
}
