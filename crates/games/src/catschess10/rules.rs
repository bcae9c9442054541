//! How the game ends (rules §5): a king captured, two cats home, no legal
//! turn; draws by repetition at turn starts and by 100 turns without a
//! capture.

use super::position::CatsChess10;
use super::square::{first_rank, Role};
use catchess_core::Color;
use catchess_game::{Game, History, Outcome, Reason, Seat};

pub const KING_CAPTURED: Reason = Reason::new("king captured");
pub const TWO_CATS_HOME: Reason = Reason::new("two cats home");
pub const NO_LEGAL_TURN: Reason = Reason::new("no legal turn");
pub const MOVE_LIMIT: Reason = Reason::new("100 turns without a capture");

/// Turns without a capture that draw (50 each).
pub const MOVE_LIMIT_TURNS: u16 = 100;

pub fn seat_of(c: Color) -> Seat {
    Seat::new(c.index())
}

impl CatsChess10 {
    /// What the position decides at a turn's start by itself: a king gone
    /// (its owner lost; with no king at all nobody won), or the player who
    /// has just moved with two of its cats on its last rank (§5, §9.8).
    pub fn finished(&self) -> Option<Outcome> {
        let kings = |c: Color| self.pieces(c, Role::King) != 0;
        match (kings(Color::White), kings(Color::Black)) {
            (true, true) => {}
            (true, false) => return Some(Outcome::new(Some(seat_of(Color::White)), KING_CAPTURED)),
            (false, true) => return Some(Outcome::new(Some(seat_of(Color::Black)), KING_CAPTURED)),
            (false, false) => return Some(Outcome::new(None, KING_CAPTURED)),
        }
        let mover = self.turn.other();
        let cats = (self.pieces(mover, Role::Cat) | self.pieces(mover, Role::TCat)) & first_rank(self.turn);
        (cats.count_ones() >= 2).then(|| Outcome::new(Some(seat_of(mover)), TWO_CATS_HOME))
    }

    /// `Game::position_outcome`. Mid-turn only a dead end would decide;
    /// the rules leave none (a roll never keeps a square after which the
    /// turn has no own move, §3), so it is a guard, never reached.
    pub fn outcome_here(&self, no_moves: bool) -> Option<Outcome> {
        if !self.at_turn_start() {
            return no_moves.then(|| Outcome::new(Some(seat_of(self.turn.other())), NO_LEGAL_TURN));
        }
        if let Some(o) = self.finished() {
            return Some(o);
        }
        if no_moves {
            return Some(Outcome::new(Some(seat_of(self.turn.other())), NO_LEGAL_TURN));
        }
        (self.halfmove >= MOVE_LIMIT_TURNS).then_some(Outcome::new(None, MOVE_LIMIT))
    }
}

/// The game's result at the end of `history`: what the position decides,
/// then threefold repetition, compared only among turn starts (§5, §9.9).
pub fn outcome(history: &History<CatsChess10>) -> Option<Outcome> {
    let pos = history.current();
    if !pos.at_turn_start() {
        return None;
    }
    if let Some(o) = pos.finished() {
        return Some(o);
    }
    if pos.count_legal_moves() == 0 {
        return pos.outcome_here(true);
    }
    let key = pos.key();
    let seen = history.positions().iter().filter(|p| p.at_turn_start() && p.key() == key).count();
    if seen >= 3 {
        return Some(Outcome::new(CatsChess10::draw_winner(), Reason::REPETITION));
    }
    pos.outcome_here(false)
}
