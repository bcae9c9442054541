//! Correction history: how wrong the static evaluation has been, learnt
//! during the search for positions that share a feature, and added to the
//! static value of the next such position.
//!
//! An evaluation misjudges some things for a while in the same way: a
//! pawn structure whose weakness it cannot see, a piece setup it over-
//! rates. Every node whose search settles its value on one side of its
//! static value tells by how much it was wrong. Each of the game's
//! correction keys (`SearchGame::correction_keys`; chess: the pawn
//! structure, and each side's other pieces) indexes a table per seat of
//! those errors, kept as running means, and so does the move that led to
//! the node; the correction is their weighted mean (`params.rs`). It
//! shapes pruning and the standing value of quiescence, never a stored
//! value: the table keeps the evaluation's own.

use super::history::MoveKey;
use super::params::{
    CORRECTION_KEY_WEIGHTS, CORRECTION_LIMIT, CORRECTION_MAX_PARTS, CORRECTION_MOVE_WEIGHT, CORRECTION_RATE,
};

/// The most correction keys a game may give.
pub const MAX_KEYS: usize = 3;
/// A position's correction keys, in the game's order (the unused ones 0).
pub type CorrectionKeys = [u64; MAX_KEYS];

/// Entries per key and seat (indexed by the key's low bits).
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this (so that small steps count).
const GRAIN: i32 = 64;
const ENTRY_LIMIT: i32 = CORRECTION_LIMIT * GRAIN;

pub struct Correction {
    /// How many keys the game gives: 0 turns correction off.
    keys: usize,
    /// How many move keys there are (see `History::key`).
    moves: usize,
    /// [seat][key][entry]
    tables: Vec<i16>,
    /// [seat][move key of the move before]
    after_move: Vec<i16>,
}

impl Correction {
    /// Tables for `seats` seats, a game of `keys` correction keys (at most
    /// [`MAX_KEYS`]; 0: none) and `moves` move keys.
    pub fn new(seats: usize, keys: usize, moves: usize) -> Self {
        assert!(keys <= MAX_KEYS, "a game gives at most {MAX_KEYS} correction keys");
        let moves = if keys == 0 { 0 } else { moves };
        Correction { keys, moves, tables: vec![0; seats * keys * ENTRIES], after_move: vec![0; seats * moves] }
    }

    pub fn clear(&mut self) {
        self.tables.iter_mut().for_each(|e| *e = 0);
        self.after_move.iter_mut().for_each(|e| *e = 0);
    }

    /// Whether the game has correction keys (else nothing is corrected).
    #[inline(always)]
    pub fn enabled(&self) -> bool {
        self.keys > 0
    }

    #[inline(always)]
    fn entry(&self, seat: usize, key: usize, k: u64) -> usize {
        (seat * self.keys + key) * ENTRIES + (k as usize & (ENTRIES - 1))
    }

    /// The entries of a position, each with its weight: its keys', then
    /// the move before's if there was one (the first `n` of the array).
    #[inline(always)]
    fn slots(&self, seat: usize, keys: &CorrectionKeys, before: MoveKey) -> ([(Slot, i32); MAX_KEYS + 1], usize) {
        let mut slots = [(Slot::Move(0), 0); MAX_KEYS + 1];
        for (i, slot) in slots.iter_mut().enumerate().take(self.keys) {
            *slot = (Slot::Key(self.entry(seat, i, keys[i])), CORRECTION_KEY_WEIGHTS[i]);
        }
        let mut n = self.keys;
        if let Some(m) = before.index() {
            slots[n] = (Slot::Move(seat * self.moves + m), CORRECTION_MOVE_WEIGHT);
            n += 1;
        }
        (slots, n)
    }

    #[inline(always)]
    fn get(&self, slot: Slot) -> i32 {
        match slot {
            Slot::Key(i) => self.tables[i] as i32,
            Slot::Move(i) => self.after_move[i] as i32,
        }
    }

    #[inline(always)]
    fn cell(&mut self, slot: Slot) -> &mut i16 {
        match slot {
            Slot::Key(i) => &mut self.tables[i],
            Slot::Move(i) => &mut self.after_move[i],
        }
    }

    /// The correction, in centipawns from `seat`'s view, of the static
    /// value of a position with `keys` reached by the move `before`.
    #[inline]
    pub fn value(&self, seat: usize, keys: &CorrectionKeys, before: MoveKey) -> i32 {
        if !self.enabled() {
            return 0;
        }
        let (slots, n) = self.slots(seat, keys, before);
        let (mut sum, mut weights) = (0, 0);
        for &(slot, w) in &slots[..n] {
            sum += self.get(slot) * w;
            weights += w;
        }
        sum / (weights * GRAIN)
    }

    /// Learns that a search of `depth` found the static value of such a
    /// position `error` centipawns too low (negative: too high), from
    /// `seat`'s view: each entry moves part of the way to it.
    pub fn learn(&mut self, seat: usize, keys: &CorrectionKeys, before: MoveKey, error: i32, depth: i32) {
        if !self.enabled() {
            return;
        }
        let target = error.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * GRAIN;
        let weight = ((depth.clamp(0, 100) + 1).pow(2)).min(CORRECTION_MAX_PARTS);
        let (slots, n) = self.slots(seat, keys, before);
        for &(slot, _) in &slots[..n] {
            let e = self.cell(slot);
            let old = *e as i32;
            *e = (old + (target - old) * weight / CORRECTION_RATE).clamp(-ENTRY_LIMIT, ENTRY_LIMIT) as i16;
        }
    }
}

impl Correction {
    /// Whether any entry has moved from 0.
    pub(crate) fn learnt_anything(&self) -> bool {
        self.tables.iter().chain(&self.after_move).any(|&e| e != 0)
    }
}

/// Where an entry is: a key's table or the move-before table.
#[derive(Clone, Copy)]
enum Slot {
    Key(usize),
    Move(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::History;

    fn keys(structure: u64, white: u64, black: u64) -> CorrectionKeys {
        [structure, white, black]
    }

    #[test]
    fn a_repeated_error_is_learnt_per_seat_and_structure() {
        let mut c = Correction::new(2, 3, 64);
        let k = keys(11, 22, 33);
        for _ in 0..400 {
            c.learn(0, &k, MoveKey::NONE, 50, 10);
        }
        let v = c.value(0, &k, MoveKey::NONE);
        assert!((45..=50).contains(&v), "a steady error of 50 is learnt: {v}");
        assert_eq!(c.value(1, &k, MoveKey::NONE), 0, "the other seat learnt nothing");
        let other = keys(12, 23, 34);
        assert_eq!(c.value(0, &other, MoveKey::NONE), 0, "nor did other positions");
        // Sharing the structure alone gives its share of the mean.
        let same_pawns = keys(11, 23, 34);
        let share = c.value(0, &same_pawns, MoveKey::NONE);
        let expected = v * CORRECTION_KEY_WEIGHTS[0] / CORRECTION_KEY_WEIGHTS.iter().sum::<i32>();
        assert!((share - expected).abs() <= 1, "{share} vs {expected}");
        c.clear();
        assert_eq!(c.value(0, &k, MoveKey::NONE), 0);
    }

    #[test]
    fn errors_are_bounded_and_deeper_searches_weigh_more() {
        let mut c = Correction::new(2, 1, 64);
        let k = keys(5, 0, 0);
        for _ in 0..2000 {
            c.learn(1, &k, MoveKey::NONE, -10_000, 30);
        }
        let v = c.value(1, &k, MoveKey::NONE);
        assert!((-CORRECTION_LIMIT..=-CORRECTION_LIMIT + 1).contains(&v), "{v}");
        let (mut shallow, mut deep) = (Correction::new(2, 1, 64), Correction::new(2, 1, 64));
        shallow.learn(0, &k, MoveKey::NONE, 100, 1);
        deep.learn(0, &k, MoveKey::NONE, 100, 12);
        // The shallow one moved less than a centipawn: compare the entries.
        let entry = |c: &Correction| c.tables[c.entry(0, 0, 5)];
        assert!(entry(&deep) > entry(&shallow) && entry(&shallow) > 0);
    }

    #[test]
    fn the_move_before_counts_only_when_there_was_one() {
        let history: History<u16> = History::new(2, 64, 6, 0);
        let (e4, d4) = (history.key(0, 0, 28), history.key(0, 0, 27));
        let mut c = Correction::new(2, 1, 2 * 6 * 64);
        let k = keys(1, 0, 0);
        for _ in 0..400 {
            c.learn(1, &k, e4, 60, 8);
        }
        let after_e4 = c.value(1, &k, e4);
        assert!((55..=60).contains(&after_e4), "{after_e4}");
        let after_d4 = c.value(1, &k, d4);
        let expected = 60 * CORRECTION_KEY_WEIGHTS[0] / (CORRECTION_KEY_WEIGHTS[0] + CORRECTION_MOVE_WEIGHT);
        assert!((after_d4 - expected).abs() <= 3, "the structure's share only: {after_d4} vs {expected}");
        let no_move = c.value(1, &k, MoveKey::NONE);
        assert!((55..=60).contains(&no_move), "without a move before, the structure alone: {no_move}");
    }

    #[test]
    fn a_game_without_keys_is_never_corrected() {
        let mut c = Correction::new(2, 0, 64);
        c.learn(0, &[0; MAX_KEYS], MoveKey::NONE, 100, 10);
        assert_eq!(c.value(0, &[0; MAX_KEYS], MoveKey::NONE), 0);
        assert!(!c.enabled());
    }
}
