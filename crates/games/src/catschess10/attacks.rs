//! Tables built once (the folder's `init()`): step and leap sets per square,
//! slider rays, the setup squares of each replenished kind, and the Zobrist
//! keys. Sliders see through mice (rules §2.8), so ray scans take the
//! blockers as "occupied minus mice" and stop at the first one.

use super::square::{setup_squares, Role, Square, SQUARES};
use once_cell::sync::Lazy;

/// The eight ray directions as (file, rank) steps; the first four run
/// towards higher squares (their nearest blocker is the lowest bit).
const DIRS: [(i8, i8); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];

pub struct Tables {
    pub knight: [u128; SQUARES],
    pub king: [u128; SQUARES],
    /// The four orthogonal neighbours.
    pub orth: [u128; SQUARES],
    /// The four diagonal neighbours.
    pub diag: [u128; SQUARES],
    /// `rays[dir][sq]`: the squares from `sq` (excluded) to the edge.
    pub rays: [[u128; SQUARES]; 8],
    /// Setup squares per replenished kind index.
    pub setup: [u128; 10],
    pub zobrist: Zobrist,
}

/// Random keys: one per piece (20 kinds × colours) and square, one per
/// waiting square (the waiting piece is always the setup piece), castling
/// rights, en passant squares (the usable one and the one set this turn),
/// the side to move.
pub struct Zobrist {
    pub piece: [[u64; SQUARES]; 20],
    pub waiting: [u64; SQUARES],
    pub castling: [u64; 16],
    pub ep: [u64; SQUARES],
    pub new_ep: [u64; SQUARES],
    pub black: u64,
}

static TABLES: Lazy<Tables> = Lazy::new(build);

/// Builds the tables now rather than inside the first timed perft.
pub fn init() {
    Lazy::force(&TABLES);
}

#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

fn set_of(sq: Square, steps: &[(i8, i8)]) -> u128 {
    steps.iter().filter_map(|&(df, dr)| sq.offset(df, dr)).fold(0, |acc, s| acc | s.bit())
}

fn build() -> Tables {
    const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let mut t = Tables {
        knight: [0; SQUARES],
        king: [0; SQUARES],
        orth: [0; SQUARES],
        diag: [0; SQUARES],
        rays: [[0; SQUARES]; 8],
        setup: [0; 10],
        zobrist: zobrist(),
    };
    for sq in Square::all() {
        let i = sq.index();
        t.knight[i] = set_of(sq, &KNIGHT);
        t.orth[i] = set_of(sq, &DIRS[0..2]) | set_of(sq, &DIRS[4..6]);
        t.diag[i] = set_of(sq, &DIRS[2..4]) | set_of(sq, &DIRS[6..8]);
        t.king[i] = t.orth[i] | t.diag[i];
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            let mut cur = sq;
            while let Some(next) = cur.offset(df, dr) {
                t.rays[d][i] |= next.bit();
                cur = next;
            }
        }
    }
    for kind in Role::REPLENISHED {
        t.setup[kind.index()] = setup_squares(kind);
    }
    t
}

/// Fixed-seed keys (splitmix64), so keys are the same in every run.
fn zobrist() -> Zobrist {
    let mut state = 0x0c47_5c0e_55a1_0a10u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut z = Zobrist {
        piece: [[0; SQUARES]; 20],
        waiting: [0; SQUARES],
        castling: [0; 16],
        ep: [0; SQUARES],
        new_ep: [0; SQUARES],
        black: 0,
    };
    for row in z.piece.iter_mut() {
        row.iter_mut().for_each(|k| *k = next());
    }
    z.waiting.iter_mut().for_each(|k| *k = next());
    z.castling.iter_mut().skip(1).for_each(|k| *k = next());
    z.ep.iter_mut().for_each(|k| *k = next());
    z.new_ep.iter_mut().for_each(|k| *k = next());
    z.black = next();
    z
}

/// The squares a slider moving along `dirs` reaches from `sq` when
/// `blockers` stop it: every square up to and including the first blocker
/// of each ray.
#[inline(always)]
pub fn slide(sq: Square, blockers: u128, dirs: &[usize]) -> u128 {
    let t = tables();
    let mut reach = 0;
    for &d in dirs {
        let ray = t.rays[d][sq.index()];
        let hit = ray & blockers;
        if hit == 0 {
            reach |= ray;
            continue;
        }
        let first = if d < 4 { hit.trailing_zeros() } else { 127 - hit.leading_zeros() };
        reach |= ray & !t.rays[d][first as usize];
    }
    reach
}

pub const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
pub const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];
pub const QUEEN_DIRS: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn leaps_and_steps_at_corners_and_centre() {
        let t = tables();
        assert_eq!(t.knight[sq("a1").index()].count_ones(), 2);
        assert_eq!(t.knight[sq("e5").index()].count_ones(), 8);
        assert_eq!(t.king[sq("j10").index()].count_ones(), 3);
        assert_eq!(t.orth[sq("e5").index()].count_ones(), 4);
        assert_eq!(t.diag[sq("a5").index()].count_ones(), 2);
    }

    #[test]
    fn a_slider_stops_at_the_first_blocker_and_includes_it() {
        // Rook on a1, blocker on a4 and on d1: a2 a3 a4 b1 c1 d1.
        let reach = slide(sq("a1"), sq("a4").bit() | sq("d1").bit(), &ROOK_DIRS);
        let want = ["a2", "a3", "a4", "b1", "c1", "d1"].iter().fold(0, |a, s| a | sq(s).bit());
        assert_eq!(reach, want);
        // A queen in the centre of an empty board: 35 squares.
        assert_eq!(slide(sq("e5"), 0, &QUEEN_DIRS).count_ones(), 35);
    }
}
