//! A fixed-capacity move list: move generation allocates nothing.

use std::mem::MaybeUninit;

/// Room for every legal move of every position a FEN parser accepts, and so
/// of every position play can reach from one: a proven bound, not a guess.
///
/// **Chess and Cat Chess, white or black to move.** The FEN parser
/// (`crates/games/src/chess/position/fen.rs`, `validate_material`) accepts a side only with at
/// most 8 pawns and no more pieces beyond the starting set (queens beyond
/// 1, rooks, bishops or knights beyond 2) than pawns missing; play keeps
/// that true (a promotion trades a pawn for one such piece, a capture only
/// removes). The most moves each man can have: queen 27 (from d4, e4, d5
/// or e5), rook 14, bishop 13, knight 8, king 8 steps plus 2 castlings, and
/// a pawn 12 (three destinations times four promotion pieces; unpromoted at
/// most 4: two pushes, two captures, en passant being one of the
/// captures). A promoted queen (27) is worth more than the pawn (12) it
/// replaces and more than any other promoted piece, so the most is with
/// every pawn promoted to a queen:
///
/// 9 queens × 27 + 2 rooks × 14 + 2 bishops × 13 + 2 knights × 8 + king 8
/// + 2 castlings = 243 + 28 + 26 + 16 + 8 + 2 = **323**.
///
/// These are each piece's most moves by geometry alone, whatever else stands
/// on the board; cats only stop rays and take landing squares, so the bound
/// holds in Cat Chess too.
///
/// **Cat Chess, the cats to move:** at most 2 cats × 8 steps = 16, or the
/// one pass.
///
/// **Xiangqi:** the FEN parser accepts no more of a kind than the starting
/// set (there is no promotion): 2 chariots × 17 (8 along the rank + 9 along
/// the file) + 2 cannons × 17 (the same lines; a capture replaces the
/// squares beyond the screen) + 2 horses × 8 + 2 elephants × 4 + 2 advisors
/// × 4 + general 4 + 5 soldiers × 3 = 34 + 34 + 16 + 8 + 8 + 4 + 15 = 119.
///
/// **Cat's Chess 10×10** (`catschess10`): a turn is several steps, each a
/// move of the tree, and the steps whose choices could multiply are split
/// (`crates/games/src/catschess10/movegen.rs`). The largest lists: the start of a
/// turn, 4 neutrals × 4 moves (a step or a jump per direction; the FEN
/// parser accepts at most the setup's 4 neutrals, and neutrals never leave
/// the board) + 100 picks of a piece + the teleport request `T@?` = 117;
/// the roll's outcomes, at most the 80 squares off the opponent's first
/// two ranks; the mouse decision, `keep` and `reroll`; a piece's destinations, at
/// most 35 (a queen in the centre: 18 + 17) or a pawn's 3 squares × 7
/// promotions = 21, a king's 8 + 2 castlings, a cat's 4 + 4 + 8; placing a
/// neutral, at most 100 squares; the second cat move or the bonus move, at
/// most 100 picks + `End`; the mouse, 10 squares + `End`.
///
/// (The most known in a reachable chess position is 218.)
pub const MAX_MOVES: usize = 323;

// The arithmetic above, for each game.
const _: () = assert!(MAX_MOVES >= 9 * 27 + 2 * 14 + 2 * 13 + 2 * 8 + 8 + 2);
const _: () = assert!(MAX_MOVES >= 2 * 8);
const _: () = assert!(MAX_MOVES >= 2 * 17 + 2 * 17 + 2 * 8 + 2 * 4 + 2 * 4 + 4 + 5 * 3);
#[allow(clippy::int_plus_one)] // 117 as the proof counts it
const _: () = assert!(MAX_MOVES >= 4 * 4 + 100 + 1 && MAX_MOVES > 100 && MAX_MOVES >= 35 && MAX_MOVES >= 3 * 7);

/// A move list on the stack. The slots past `len` are never read, so they
/// are left uninitialised: a new list costs nothing, however large the
/// capacity. Any `Copy` item fits (move ordering keeps its scores in one).
#[derive(Clone)]
pub struct MoveList<M: Copy> {
    moves: [MaybeUninit<M>; MAX_MOVES],
    len: usize,
}

impl<M: Copy> Default for MoveList<M> {
    #[inline(always)]
    fn default() -> Self {
        MoveList { moves: [const { MaybeUninit::uninit() }; MAX_MOVES], len: 0 }
    }
}

impl<M: Copy> MoveList<M> {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(always)]
    pub fn push(&mut self, m: M) {
        // Capacity is a proven bound on legal move counts; the
        // bounds-checked write turns a broken bound into a clean panic.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (all, if there are fewer).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Keeps the moves for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(&m) {
                self.moves[kept] = MaybeUninit::new(m);
                kept += 1;
            }
        }
        self.len = kept;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: `push` wrote each of the first `len` slots (`retain` only
        // moves written ones down), and `MaybeUninit<M>` has `M`'s layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<M>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<M>(), self.len) }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<'a, M: Copy> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_reads_retains_and_stops_at_capacity() {
        let mut list = MoveList::<u16>::default();
        assert!(list.is_empty());
        (0..MAX_MOVES as u16).for_each(|m| list.push(m));
        assert_eq!(list.len(), MAX_MOVES);
        assert_eq!(list.as_slice()[MAX_MOVES - 1], MAX_MOVES as u16 - 1);
        list.retain(|m| m % 3 == 0);
        assert_eq!(list.iter().copied().collect::<Vec<_>>(), (0..MAX_MOVES as u16).step_by(3).collect::<Vec<_>>());
        list.as_mut_slice()[0] = 7;
        assert_eq!(list.clone().as_slice()[0], 7);
        let full = std::panic::catch_unwind(|| {
            let mut l = MoveList::<u8>::default();
            (0..=MAX_MOVES).for_each(|_| l.push(1));
        });
        assert!(full.is_err(), "one past the capacity is a clean panic");
    }
}
