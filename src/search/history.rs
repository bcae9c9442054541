//! What the search learns about quiet moves while it runs: killer moves
//! (quiet moves that refuted a sibling at the same ply) and the history
//! table (how often a move by this side from this square to that one caused
//! a cutoff). Both only order moves; they never change a value.

use super::MAX_PLY;

/// History values stay within ±HISTORY_MAX (the gravity formula below
/// pulls large values back, so recent results weigh more).
pub const HISTORY_MAX: i32 = 16_384;

pub struct History<M: Copy + Default + Eq> {
    squares: usize,
    /// [seat][from][to]
    table: Vec<i32>,
    killers: Vec<[M; 2]>,
}

impl<M: Copy + Default + Eq> History<M> {
    /// Tables for a game of `seats` seats on `squares` squares.
    pub fn new(seats: usize, squares: usize) -> Self {
        History { squares, table: vec![0; seats * squares * squares], killers: vec![[M::default(); 2]; MAX_PLY + 2] }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
        self.clear_killers();
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
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.table[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
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

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(2_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates_and_killers_shift() {
        let mut h: History<u16> = History::new(3, 64);
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
}
