//! What the search learns about quiet moves while it runs: killer moves
//! (quiet moves that refuted a sibling at the same ply), the history table
//! (how often a move by this side from this square to that one caused a
//! cutoff) and the continuation history (the same, given the move one and
//! two plies before: a reply is often good because of what was just
//! played), and the capture history (which captures and promotions, by
//! seat, piece kind and target square, caused a cutoff). They order moves
//! and shape reductions and pruning; they never change a value. A thread's
//! correction history (`correction.rs`), which does correct static values,
//! is kept here too.

use super::correction::Correction;
use super::MAX_PLY;

/// History values stay within ±HISTORY_MAX (the gravity formula below
/// pulls large values back, so recent results weigh more).
pub const HISTORY_MAX: i32 = 16_384;

/// A move as the continuation history sees it: which seat moved which kind
/// of piece to which square. `NONE` after a null move or a pass that
/// stands for many moves (and at the root): no continuation is kept for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveKey(u32);

impl MoveKey {
    pub const NONE: MoveKey = MoveKey(u32::MAX);

    /// The key as an index below `History::keys`, `None` for `NONE`.
    #[inline(always)]
    pub fn index(self) -> Option<usize> {
        (self != MoveKey::NONE).then_some(self.0 as usize)
    }
}

/// The two moves before a node (one ply back, two plies back) whose
/// continuations its quiet moves are scored by.
pub type Context = [MoveKey; 2];

pub struct History<M: Copy + Default + Eq> {
    squares: usize,
    kinds: usize,
    /// How many move keys there are: seats × kinds × squares.
    keys: usize,
    /// [seat][from][to]
    table: Vec<i32>,
    /// [earlier move key][move key]: `keys()` × `keys()` entries, each
    /// within ±HISTORY_MAX (so 16 bits suffice, which halves the cache load).
    continuation: Vec<i16>,
    /// [move key] of captures and promotions, within ±HISTORY_MAX.
    captures: Vec<i16>,
    killers: Vec<[M; 2]>,
    /// The static values' corrections (`correction.rs`).
    pub correction: Correction,
}

impl<M: Copy + Default + Eq> History<M> {
    /// Tables for a game of `seats` seats on `squares` squares whose moves
    /// move `kinds` kinds of piece, with `correction_keys` correction keys.
    pub fn new(seats: usize, squares: usize, kinds: usize, correction_keys: usize) -> Self {
        let keys = seats * kinds * squares;
        History {
            squares,
            kinds,
            keys,
            table: vec![0; seats * squares * squares],
            continuation: vec![0; keys * keys],
            captures: vec![0; keys],
            killers: vec![[M::default(); 2]; MAX_PLY + 2],
            correction: Correction::new(seats, correction_keys, keys),
        }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
        self.captures.iter_mut().for_each(|h| *h = 0);
        self.correction.clear();
        self.clear_killers();
    }

    /// The key of a move by `seat` of a piece of `kind` to `to`.
    #[inline(always)]
    pub fn key(&self, seat: usize, kind: usize, to: usize) -> MoveKey {
        debug_assert!(kind < self.kinds && to < self.squares);
        MoveKey(((seat * self.kinds + kind) * self.squares + to) as u32)
    }

    #[inline(always)]
    fn continuation_index(&self, before: MoveKey, key: MoveKey) -> Option<usize> {
        (before != MoveKey::NONE).then(|| before.0 as usize * self.keys + key.0 as usize)
    }

    /// A quiet move's ordering score: its history plus its continuation
    /// history after each move of `context`.
    #[inline]
    pub fn quiet_score(&self, side: usize, squares: (usize, usize), key: MoveKey, context: Context) -> i32 {
        let mut score = self.get(side, squares);
        for before in context {
            if let Some(i) = self.continuation_index(before, key) {
                score += self.continuation[i] as i32;
            }
        }
        score
    }

    /// Rewards (or, with a negative `bonus`, punishes) a quiet move in the
    /// history and in the continuation history after each move of `context`.
    pub fn reward(&mut self, side: usize, squares: (usize, usize), key: MoveKey, context: Context, bonus: i32) {
        self.update(side, squares, bonus);
        for before in context {
            if let Some(i) = self.continuation_index(before, key) {
                let mut h = self.continuation[i] as i32;
                gravity(&mut h, bonus);
                self.continuation[i] = h as i16;
            }
        }
    }

    /// A capture's or promotion's history.
    #[inline(always)]
    pub fn capture_score(&self, key: MoveKey) -> i32 {
        self.captures[key.0 as usize] as i32
    }

    /// Rewards (or, with a negative `bonus`, punishes) a capture or promotion.
    #[inline]
    pub fn reward_capture(&mut self, key: MoveKey, bonus: i32) {
        let mut h = self.captures[key.0 as usize] as i32;
        gravity(&mut h, bonus);
        self.captures[key.0 as usize] = h as i16;
    }

    pub fn clear_killers(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [M::default(); 2]);
    }

    #[inline(always)]
    fn index(&self, side: usize, (from, to): (usize, usize)) -> usize {
        (side * self.squares + from) * self.squares + to
    }

    #[inline(always)]
    pub fn get(&self, side: usize, squares: (usize, usize)) -> i32 {
        self.table[self.index(side, squares)]
    }

    /// Adds `bonus` (negative for a malus) with gravity towards zero.
    #[inline]
    pub fn update(&mut self, side: usize, squares: (usize, usize), bonus: i32) {
        let i = self.index(side, squares);
        gravity(&mut self.table[i], bonus);
    }

    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [M; 2] {
        self.killers[ply]
    }

    pub fn add_killer(&mut self, ply: usize, m: M) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}

/// Adds `bonus` to `h` with gravity towards zero: `h` stays within
/// ±HISTORY_MAX, and the nearer it is to a bound, the less it moves on.
#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(2_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates_and_killers_shift() {
        let mut h: History<u16> = History::new(3, 64, 1, 0);
        for _ in 0..1000 {
            h.update(0, (12, 28), 2000);
        }
        let v = h.get(0, (12, 28));
        assert!(v > 10_000 && v <= HISTORY_MAX, "{v}");
        assert_eq!(h.get(1, (12, 28)), 0, "sides are separate");
        h.add_killer(3, 7);
        h.add_killer(3, 9);
        h.add_killer(3, 9);
        assert_eq!(h.killers(3), [9, 7]);
    }

    #[test]
    fn continuation_history_counts_only_after_its_own_move() {
        let mut h: History<u16> = History::new(2, 64, 6, 0);
        let knight_f3 = h.key(0, 1, 21);
        let bishop_f3 = h.key(0, 2, 21);
        let (e5, d5) = (h.key(1, 0, 36), h.key(1, 0, 35));
        let after_e5 = [e5, MoveKey::NONE];
        h.reward(0, (6, 21), knight_f3, after_e5, 400);
        let plain = h.get(0, (6, 21));
        assert!(plain > 0);
        let after = h.quiet_score(0, (6, 21), knight_f3, after_e5);
        assert!(after > plain, "the continuation after e5 adds to the history: {after} vs {plain}");
        assert_eq!(h.quiet_score(0, (6, 21), knight_f3, [d5, MoveKey::NONE]), plain, "after d5 nothing was learnt");
        assert_eq!(h.quiet_score(0, (6, 21), bishop_f3, after_e5), plain, "another piece to f3 is another move");
        assert_eq!(h.quiet_score(0, (6, 21), knight_f3, [MoveKey::NONE, e5]), after, "two plies back counts the same");
        h.reward(0, (6, 21), knight_f3, after_e5, -400);
        assert!(h.quiet_score(0, (6, 21), knight_f3, after_e5) < after, "a malus takes it back");
        h.clear();
        assert_eq!(h.quiet_score(0, (6, 21), knight_f3, after_e5), 0);
    }

    #[test]
    fn capture_history_learns_per_move_key_and_clears() {
        let mut h: History<u16> = History::new(2, 64, 6, 0);
        let (knight_takes_e5, bishop_takes_e5) = (h.key(0, 1, 36), h.key(0, 2, 36));
        h.reward_capture(knight_takes_e5, 800);
        assert!(h.capture_score(knight_takes_e5) > 0);
        assert_eq!(h.capture_score(bishop_takes_e5), 0, "another piece is another capture");
        for _ in 0..1000 {
            h.reward_capture(bishop_takes_e5, -2000);
        }
        let low = h.capture_score(bishop_takes_e5);
        assert!((-HISTORY_MAX..-10_000).contains(&low), "{low}");
        h.clear();
        assert_eq!(h.capture_score(knight_takes_e5), 0);
    }
}
