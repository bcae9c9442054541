//! A game in progress: the positions so far (for repetition) and the moves.

use super::{Arbitration, Game, MoveError, Notation, Outcome};

/// A game in progress: the positions so far (for repetition) and the moves.
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> History<G> {
    pub fn new(start: G) -> Self {
        History { positions: vec![start], moves: Vec::new() }
    }

    pub fn current(&self) -> &G {
        self.positions.last().expect("a history always holds its start")
    }

    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Keys of every position so far, oldest first (the search's repetition
    /// detection starts from these).
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions.iter().map(|p| p.key())
    }

    /// Plays a legal move.
    pub fn push(&mut self, m: G::Move) {
        let next = self.current().play(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// How many times the current position has occurred so far, itself
    /// included (positions compare by key: placement, side to move and the
    /// rights that matter).
    pub fn repetitions(&self) -> usize {
        let key = self.current().key();
        self.positions.iter().filter(|p| p.key() == key).count()
    }

    /// The positions so far, oldest first.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The result if the game is over at the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        G::outcome(self)
    }
}

impl<G: Notation + Arbitration> History<G> {
    /// Parses and plays a move; on error nothing changes.
    pub fn push_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        let m = self.current().parse_move(text)?;
        self.push(m);
        Ok(m)
    }

    /// Plays a move as a `position ... moves` list writes it: a legal move,
    /// or the arbiter's forced pass where the game allows one
    /// ([`Arbitration::arbiter_pass`]). On error nothing changes.
    pub fn push_protocol(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if let Some(pass) = self.current().arbiter_pass() {
            if pass.to_string() == text {
                self.push(pass);
                return Ok(pass);
            }
        }
        self.push_text(text)
    }
}
