//! Move ordering: the hash move, then captures that do not lose material
//! (most valuable victim, least valuable attacker, adjusted by the capture
//! history), killers, quiet moves by history and continuation history,
//! losing captures, and the game's `order_last` moves last. The picker
//! orders a list of legal moves the search generated (all of them, or in
//! quiescence the tactical ones); the hash move is taken only if it is in
//! that list (`Worker::tt_move`), so it needs no legality check of its
//! own. The quiet moves' history is read only when the picker reaches
//! them ([`UNSCORED`]), and once the search knows it would prune every
//! quiet move left it drops them ([`MovePicker::skip_quiets`]). Moves of
//! equal score come in the order the game generated them.

use super::history::{Context, History, MoveKey};
use super::params::capture_order_divisor;
use super::SearchGame;
use catchess_game::MoveList;

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

/// A move the picker gives out, with what it knows of it.
#[derive(Clone, Copy, Debug)]
pub struct Picked<M> {
    pub mv: M,
    /// Whether it captures or promotes.
    pub tactical: bool,
    /// Its ordering score (what the predicates below read).
    score: i32,
}

impl<M> Picked<M> {
    /// Whether it is a capture that loses material.
    pub fn is_bad_tactical(&self) -> bool {
        self.score < BAD_TACTICAL / 2
    }

    /// Whether it is a quiet move ordered by its history (not the hash
    /// move, a killer or an `order_last` move).
    pub fn is_history_score(&self) -> bool {
        self.score > LAST / 2 && self.score < KILLER
    }
}

pub struct MovePicker<'a, G: SearchGame> {
    /// The node's moves, borrowed: a move list is large (its full capacity
    /// would be copied with it), so the picker orders it where it lies.
    moves: &'a mut MoveList<G::Move>,
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
    /// Whether [`skip_quiets`](Self::skip_quiets) has dropped the quiet moves left.
    quiets_skipped: bool,
    side: usize,
    context: Context,
}

impl<'a, G: SearchGame> MovePicker<'a, G> {
    /// Orders `moves` of `pos`, `ply` plies from the root, where the two
    /// moves before were `context`. The picker reorders the list in place
    /// and may shorten it (`skip_quiets`): the caller has no use for it
    /// after.
    pub fn new(
        pos: &G,
        moves: &'a mut MoveList<G::Move>,
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
                let learnt = history.capture_score(key) / capture_order_divisor();
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
    pub fn tactical(
        pos: &G,
        moves: &'a mut MoveList<G::Move>,
        hash_move: Option<G::Move>,
        history: &History<G::Move>,
    ) -> Self {
        let side = pos.to_move().index();
        let mut picker = Self::empty(moves);
        for &m in picker.moves.iter() {
            let score = if Some(m) == hash_move {
                HASH_MOVE
            } else {
                let key = history.key(side, pos.moved_kind(m), G::move_squares(m).1);
                pos.tactical_value(m).unwrap_or(0) + history.capture_score(key) / capture_order_divisor()
            };
            picker.scores.push(score);
            picker.tactical.push(true);
        }
        picker
    }

    fn empty(moves: &'a mut MoveList<G::Move>) -> Self {
        MovePicker {
            moves,
            scores: MoveList::default(),
            tactical: MoveList::default(),
            next: 0,
            unscored: false,
            quiets_skipped: false,
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

    /// The best remaining move of `pos`; `history` is read for the quiet
    /// moves once every move ordered above them is given out.
    #[inline]
    pub fn pick(&mut self, pos: &G, history: &History<G::Move>) -> Option<Picked<G::Move>> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores left; the moves before it move
        // up one place (a rotation, not a swap), so that those left keep
        // their order: ties go to the earlier generated move, and dropping
        // moves (`skip_quiets`) leaves the order of the others as it was.
        let mut top = self.scores.as_slice()[self.next..n].iter().copied().max().unwrap_or(i32::MIN);
        if self.unscored && top < KILLER {
            self.score_quiets(pos, history);
            top = self.scores.as_slice()[self.next..n].iter().copied().max().unwrap_or(i32::MIN);
        }
        let scores = self.scores.as_mut_slice();
        let rest = &scores[self.next..n];
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        let (moves, tactical) = (self.moves.as_mut_slice(), self.tactical.as_mut_slice());
        moves[self.next..=best].rotate_right(1);
        scores[self.next..=best].rotate_right(1);
        tactical[self.next..=best].rotate_right(1);
        let picked = Picked { mv: moves[self.next], tactical: tactical[self.next], score: scores[self.next] };
        self.next += 1;
        Some(picked)
    }

    /// Drops the quiet moves not yet given out, except those for which
    /// `keep` holds: the search calls it once a condition that prunes every
    /// later quiet move holds (move-count pruning, futility), so that it
    /// neither scans nor reads history for moves it would only skip. The
    /// moves kept stay in their order.
    pub fn skip_quiets(&mut self, mut keep: impl FnMut(G::Move) -> bool) {
        if self.quiets_skipped {
            return;
        }
        self.quiets_skipped = true;
        let n = self.moves.len();
        let mut kept = self.next;
        for i in self.next..n {
            let (m, t, s) = (self.moves.as_slice()[i], self.tactical.as_slice()[i], self.scores.as_slice()[i]);
            if t || keep(m) {
                self.moves.as_mut_slice()[kept] = m;
                self.tactical.as_mut_slice()[kept] = t;
                self.scores.as_mut_slice()[kept] = s;
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.tactical.truncate(kept);
        self.scores.truncate(kept);
    }
}
