//! Attack tables for the 8×8 board, built once on first use: leapers (king,
//! knight, pawn) as plain lookups, sliders through fancy magic bitboards, and
//! the `between`/`line` geometry that pins and check blocks need.

mod magic;
mod magic_numbers;

use catchess_core::{Bitboard, Color, Square};
use once_cell::sync::Lazy;

pub struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    /// Squares strictly between two squares on a common line, else empty.
    between: Box<[[u64; 64]; 64]>,
    /// The whole line (edge to edge) through two squares, else empty.
    line: Box<[[u64; 64]; 64]>,
    sliders: magic::Sliders,
}

static TABLES: Lazy<Tables> = Lazy::new(Tables::build);

/// Builds the tables now rather than inside the first timed search or perft.
pub fn init() {
    Lazy::force(&TABLES);
}

const KING_STEPS: [(i8, i8); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)];
pub(crate) const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn leaper(sq: Square, steps: &[(i8, i8)]) -> u64 {
    steps.iter().filter_map(|&(df, dr)| sq.offset(df, dr)).fold(0, |b, s| b | 1 << s.index())
}

/// Slider attacks by walking rays: slow, used only to build and check tables.
pub(crate) fn ray_attacks(sq: Square, dirs: &[(i8, i8)], occupied: u64) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            attacks |= 1 << next.index();
            if occupied >> next.index() & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

impl Tables {
    fn build() -> Tables {
        let mut t = Tables {
            knight: [0; 64],
            king: [0; 64],
            pawn: [[0; 64]; 2],
            between: Box::new([[0; 64]; 64]),
            line: Box::new([[0; 64]; 64]),
            sliders: magic::Sliders::build(),
        };
        for sq in Square::all() {
            let i = sq.index();
            t.knight[i] = leaper(sq, &KNIGHT_STEPS);
            t.king[i] = leaper(sq, &KING_STEPS);
            t.pawn[Color::White.index()][i] = leaper(sq, &[(-1, 1), (1, 1)]);
            t.pawn[Color::Black.index()][i] = leaper(sq, &[(-1, -1), (1, -1)]);
        }
        let sliders = &t.sliders;
        let kinds: [&dyn Fn(Square, u64) -> u64; 2] = [&|s, o| sliders.rook(s, o), &|s, o| sliders.bishop(s, o)];
        let (mut between, mut line) = (Box::new([[0; 64]; 64]), Box::new([[0; 64]; 64]));
        for attacks in kinds {
            for a in Square::all() {
                let empty_a = attacks(a, 0);
                for b in Bitboard(empty_a) {
                    between[a.index()][b.index()] = attacks(a, 1 << b.index()) & attacks(b, 1 << a.index());
                    line[a.index()][b.index()] = (empty_a & attacks(b, 0)) | 1 << a.index() | 1 << b.index();
                }
            }
        }
        t.between = between;
        t.line = line;
        t
    }
}

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(tables().knight[sq.index()])
}

#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(tables().king[sq.index()])
}

/// The two (or one) squares a pawn of `color` on `sq` captures on.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables().pawn[color.index()][sq.index()])
}

#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(tables().sliders.rook(sq, occupied.0))
}

#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(tables().sliders.bishop(sq, occupied.0))
}

#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().between[a.index()][b.index()])
}

/// The full line through `a` and `b` (both included), or empty if they are
/// not aligned. A pinned piece may move only along the line of its pin.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().line[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(sq("a1")).count(), 2);
        assert_eq!(knight(sq("e4")).count(), 8);
        assert_eq!(king(sq("a1")).count(), 3);
        assert_eq!(king(sq("e4")).count(), 8);
        assert_eq!(pawn(Color::White, sq("e4")), Bitboard::from(sq("d5")) | sq("f5").into());
        assert_eq!(pawn(Color::Black, sq("a5")), Bitboard::from(sq("b4")));
    }

    #[test]
    fn magic_sliders_match_ray_walking_on_random_boards() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..2000 {
            let occ: u64 = rng.gen::<u64>() & rng.gen::<u64>();
            for s in Square::all() {
                assert_eq!(rook(s, Bitboard(occ)).0, ray_attacks(s, &ROOK_DIRS, occ), "rook {s}");
                assert_eq!(bishop(s, Bitboard(occ)).0, ray_attacks(s, &BISHOP_DIRS, occ), "bishop {s}");
            }
        }
    }

    #[test]
    fn between_and_line() {
        let names = |b: Bitboard| b.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(between(sq("a1"), sq("d4"))), ["b2", "c3"]);
        assert_eq!(names(between(sq("e1"), sq("e4"))), ["e2", "e3"]);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(between(sq("a1"), sq("b2")).is_empty());
        assert_eq!(line(sq("b2"), sq("c3")).count(), 8);
        assert!(line(sq("a1"), sq("b3")).is_empty());
        assert_eq!(line(sq("e1"), sq("e4")), Bitboard::file(4));
    }
}
