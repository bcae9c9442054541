//! Move ordering: the hash move, then captures that do not lose material
//! (most valuable victim, least valuable attacker, adjusted by the capture
//! history), killers, quiet moves by
//! history and continuation history, losing captures, and the game's `order_last` moves last. Moves come from the full legal list
//! (generation is cheap), so the hash move needs no legality check. The
//! quiet moves' history is read only when the picker reaches them
//! ([`UNSCORED`]).

use super::history::{Context, History, MoveKey};
use super::params::CAPTURE_ORDER_DIVISOR;
use super::SearchGame;
use crate::game::MoveList;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const BAD_TACTICAL: i32 = -(1 << 24);
/// `SearchGame::order_last`: below every other score.
const LAST: i32 = -(1 << 29);
/// A plain quiet move whose history is not read yet. The hash move, the
/// good captures and the killers come first, and most nodes that fail
/// high do so on one of them; the quiets' history (a butterfly and two
/// continuation reads each) is read when the picker gets to them, and by
/// then it has learnt from the moves searched before.
const UNSCORED: i32 = i32::MIN;

pub struct MovePicker<G: SearchGame> {
    moves: MoveList<G::Move>,
    /// The ordering score of each move, in the same order; kept apart from
    /// `tactical` so that finding the best is a scan of bare integers,
    /// which the compiler vectorises (picking was a seventh of the search).
    scores: MoveList<i32>,
    /// Whether each move is a capture or promotion, in the same order.
    tactical: MoveList<bool>,
    next: usize,
    /// Whether some move is still [`UNSCORED`], and what reading its
    /// history needs: the mover and the moves before.
    unscored: bool,
    side: usize,
    context: Context,
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
        let side = pos.to_move().index();
        let killers = history.killers(ply);
        let mut picker = Self::empty(moves);
        picker.side = side;
        picker.context = context;
        for &m in picker.moves.iter() {
            let (score, tactical) = if Some(m) == hash_move {
                (HASH_MOVE, pos.tactical_value(m).is_some())
            } else if let Some(value) = pos.tactical_value(m) {
                let key = history.key(side, pos.moved_kind(m), G::move_squares(m).1);
                let learnt = history.capture_score(key) / CAPTURE_ORDER_DIVISOR;
                (value + learnt + if pos.see_ge(m, 0) { GOOD_TACTICAL } else { BAD_TACTICAL }, true)
            } else if pos.order_last(m) {
                (LAST, false)
            } else if m == killers[0] {
                (KILLER + 1, false)
            } else if m == killers[1] {
                (KILLER, false)
            } else {
                picker.unscored = true;
                (UNSCORED, false)
            };
            picker.scores.push(score);
            picker.tactical.push(tactical);
        }
        picker
    }

    /// Only captures and promotions (quiescence search): the hash move
    /// first, then by value and capture history.
    pub fn tactical(pos: &G, moves: MoveList<G::Move>, hash_move: Option<G::Move>, history: &History<G::Move>) -> Self {
        let side = pos.to_move().index();
        let mut picker = Self::empty(moves);
        for &m in picker.moves.iter() {
            let score = if Some(m) == hash_move {
                HASH_MOVE
            } else {
                let key = history.key(side, pos.moved_kind(m), G::move_squares(m).1);
                pos.tactical_value(m).unwrap_or(0) + history.capture_score(key) / CAPTURE_ORDER_DIVISOR
            };
            picker.scores.push(score);
            picker.tactical.push(true);
        }
        picker
    }

    fn empty(moves: MoveList<G::Move>) -> Self {
        MovePicker {
            moves,
            scores: MoveList::default(),
            tactical: MoveList::default(),
            next: 0,
            unscored: false,
            side: 0,
            context: [MoveKey::NONE; 2],
        }
    }

    /// Reads the history of the moves left [`UNSCORED`].
    fn score_quiets(&mut self, pos: &G, history: &History<G::Move>) {
        let (side, context) = (self.side, self.context);
        let moves = self.moves.as_slice();
        for (i, s) in self.scores.as_mut_slice().iter_mut().enumerate().skip(self.next) {
            if *s == UNSCORED {
                let m = moves[i];
                let squares = G::move_squares(m);
                let key = history.key(side, pos.moved_kind(m), squares.1);
                *s = history.quiet_score(side, squares, key, context);
            }
        }
        self.unscored = false;
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move of `pos`, whether it is tactical, and its
    /// score; `history` is read for the quiet moves once every move
    /// ordered above them is given out.
    #[inline]
    pub fn pick(&mut self, pos: &G, history: &History<G::Move>) -> Option<(G::Move, bool, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores left.
        let mut top = self.scores.as_slice()[self.next..n].iter().copied().max().unwrap_or(i32::MIN);
        if self.unscored && top < KILLER {
            self.score_quiets(pos, history);
            top = self.scores.as_slice()[self.next..n].iter().copied().max().unwrap_or(i32::MIN);
        }
        let scores = self.scores.as_mut_slice();
        let rest = &scores[self.next..n];
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        let (moves, tactical) = (self.moves.as_mut_slice(), self.tactical.as_mut_slice());
        moves.swap(self.next, best);
        scores.swap(self.next, best);
        tactical.swap(self.next, best);
        let (m, t, s) = (moves[self.next], tactical[self.next], scores[self.next]);
        self.next += 1;
        Some((m, t, s))
    }

    /// Whether a score from `pick` marks a capture that loses material.
    pub fn is_bad_tactical(score: i32) -> bool {
        score < BAD_TACTICAL / 2
    }

    /// Whether a quiet move's score from `pick` is its history (not the
    /// hash move, a killer or an `order_last` move).
    pub fn is_history_score(score: i32) -> bool {
        score > LAST / 2 && score < KILLER
    }
}
