//! Move ordering: the hash move, then captures that do not lose material
//! (most valuable victim, least valuable attacker), killers, quiet moves by
//! history and continuation history, losing captures, and the game's `order_last` moves last. Moves come from the full legal list
//! (generation is cheap), so the hash move needs no legality check.

use super::history::{Context, History};
use super::SearchGame;
use crate::game::MoveList;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const BAD_TACTICAL: i32 = -(1 << 24);
/// `SearchGame::order_last`: below every other score.
const LAST: i32 = -(1 << 29);

/// Whether a move is a capture or promotion, and its ordering score.
#[derive(Clone, Copy)]
struct Scored {
    score: i32,
    tactical: bool,
}

pub struct MovePicker<G: SearchGame> {
    moves: MoveList<G::Move>,
    /// The score of each move, in the same order.
    scores: MoveList<Scored>,
    next: usize,
}

impl<G: SearchGame> MovePicker<G> {
    /// Orders `moves` of `pos`, `ply` plies from the root, where the two
    /// moves before were `context`.
    pub fn new(
        pos: &G,
        moves: MoveList<G::Move>,
        hash_move: Option<G::Move>,
        history: &History<G::Move>,
        ply: usize,
        context: Context,
    ) -> Self {
        let mut scores = MoveList::default();
        let side = pos.to_move().index();
        let killers = history.killers(ply);
        for &m in moves.iter() {
            scores.push(if Some(m) == hash_move {
                Scored { score: HASH_MOVE, tactical: pos.tactical_value(m).is_some() }
            } else if let Some(value) = pos.tactical_value(m) {
                let good = pos.see_ge(m, 0);
                Scored { score: value + if good { GOOD_TACTICAL } else { BAD_TACTICAL }, tactical: true }
            } else if pos.order_last(m) {
                Scored { score: LAST, tactical: false }
            } else if m == killers[0] {
                Scored { score: KILLER + 1, tactical: false }
            } else if m == killers[1] {
                Scored { score: KILLER, tactical: false }
            } else {
                let squares = G::move_squares(m);
                let key = history.key(side, pos.moved_kind(m), squares.1);
                Scored { score: history.quiet_score(side, squares, key, context), tactical: false }
            });
        }
        MovePicker { moves, scores, next: 0 }
    }

    /// Only captures and promotions, best first (quiescence search).
    pub fn tactical(pos: &G, moves: MoveList<G::Move>) -> Self {
        let mut scores = MoveList::default();
        for &m in moves.iter() {
            scores.push(Scored { score: pos.tactical_value(m).unwrap_or(0), tactical: true });
        }
        MovePicker { moves, scores, next: 0 }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move, whether it is tactical, and its score.
    #[inline]
    pub fn pick(&mut self) -> Option<(G::Move, bool, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let scores = self.scores.as_mut_slice();
        let mut best = self.next;
        for i in self.next + 1..n {
            if scores[i].score > scores[best].score {
                best = i;
            }
        }
        let slice = self.moves.as_mut_slice();
        slice.swap(self.next, best);
        scores.swap(self.next, best);
        let (m, s) = (slice[self.next], scores[self.next]);
        self.next += 1;
        Some((m, s.tactical, s.score))
    }

    /// Whether a score from `pick` marks a capture that loses material.
    pub fn is_bad_tactical(score: i32) -> bool {
        score < BAD_TACTICAL / 2
    }
}
