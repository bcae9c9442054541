//! Xiangqi attack tables, built once on first use.
//!
//! Chariots and cannons use rank/file occupancy lookups: the position keeps
//! its occupancy twice, rank-major (the normal set, a rank is 9 consecutive
//! bits) and file-major (a file is 10 consecutive bits), so the occupancy of
//! any line is one shift and mask. A line table then gives both the chariot
//! targets and the cannon capture targets (the piece beyond the first
//! screen) as a bit pattern along the line, and file patterns are spread
//! back onto the board through one more small table. Leapers (horse,
//! elephant) store, per direction, the blocking point (leg, eye) with the
//! destinations it guards.

use super::square::{masks, Bitboard, Square, FILES, RANKS, SQUARES};
use catchess_core::{Bitboard128, Color};
use once_cell::sync::Lazy;

/// Destinations that one blocking point guards: empty `leg`, reach `to`.
#[derive(Clone, Copy, Default)]
pub struct Guarded {
    pub leg: Square,
    pub to: u128,
}

pub struct Tables {
    /// `rank[file][occupancy of the rank]`: chariot targets in the low 16
    /// bits, cannon capture targets in the high 16, as rank patterns.
    rank: Box<[[u32; 512]; FILES as usize]>,
    /// `file[rank][occupancy of the file]`, the same as file patterns.
    file: Box<[[u32; 1024]; RANKS as usize]>,
    /// A 10-bit file pattern as points of file a.
    spread: Box<[u128; 1024]>,
    /// Horse moves: per orthogonal leg, the two destinations behind it.
    horse: [[Guarded; 4]; SQUARES],
    /// Horses attacking a point: per diagonal neighbour (the leg every such
    /// horse must pass), the two points a horse attacks from through it.
    horse_attackers: [[Guarded; 4]; SQUARES],
    /// Every point a horse could attack `sq` from, legs ignored.
    horse_zone: [u128; SQUARES],
    /// The rank and file through a point (the point included).
    cross: [u128; SQUARES],
    /// Elephant moves: per eye, the destination beyond it (never across
    /// the river).
    elephant: [[Guarded; 4]; SQUARES],
    advisor: [u128; SQUARES],
    general: [u128; SQUARES],
    /// `soldier[color][sq]`: where a soldier of `color` on `sq` may step.
    soldier: [[u128; SQUARES]; 2],
    /// `soldier_attackers[color][sq]`: the points from which a soldier of
    /// `color` attacks `sq`.
    soldier_attackers: [[u128; SQUARES]; 2],
}

static TABLES: Lazy<Tables> = Lazy::new(Tables::build);

/// Builds the tables now rather than inside the first timed search or perft.
pub fn init() {
    Lazy::force(&TABLES);
}

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

fn bit(sq: Square) -> u128 {
    1 << sq.index()
}

/// Along a line of `len` points, from `pos` with `occ` the line's occupancy:
/// (chariot targets, cannon capture targets) as patterns.
fn line_patterns(len: u32, pos: u32, occ: u32) -> (u32, u32) {
    let (mut rook, mut cannon) = (0, 0);
    for dir in [-1i32, 1] {
        let mut p = pos as i32 + dir;
        let mut screened = false;
        while p >= 0 && p < len as i32 {
            let occupied = occ >> p & 1 != 0;
            if !screened {
                rook |= 1 << p;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << p;
                break;
            }
            p += dir;
        }
    }
    (rook, cannon)
}

impl Tables {
    fn build() -> Tables {
        let mut rank = Box::new([[0u32; 512]; FILES as usize]);
        for (f, row) in rank.iter_mut().enumerate() {
            for (occ, entry) in row.iter_mut().enumerate() {
                let (r, c) = line_patterns(FILES as u32, f as u32, occ as u32);
                *entry = r | c << 16;
            }
        }
        let mut file = Box::new([[0u32; 1024]; RANKS as usize]);
        for (r, row) in file.iter_mut().enumerate() {
            for (occ, entry) in row.iter_mut().enumerate() {
                let (rk, c) = line_patterns(RANKS as u32, r as u32, occ as u32);
                *entry = rk | c << 16;
            }
        }
        let mut spread = Box::new([0u128; 1024]);
        for (pattern, entry) in spread.iter_mut().enumerate() {
            *entry = (0..RANKS as u32).filter(|r| pattern >> r & 1 != 0).fold(0, |b, r| b | 1u128 << (r * 9));
        }

        let mut t = Tables {
            rank,
            file,
            spread,
            horse: [[Guarded::default(); 4]; SQUARES],
            horse_attackers: [[Guarded::default(); 4]; SQUARES],
            horse_zone: [0; SQUARES],
            cross: [0; SQUARES],
            elephant: [[Guarded::default(); 4]; SQUARES],
            advisor: [0; SQUARES],
            general: [0; SQUARES],
            soldier: [[0; SQUARES]; 2],
            soldier_attackers: [[0; SQUARES]; 2],
        };
        let orth: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let diag: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let points = |sq: Square, steps: &[(i8, i8)]| -> u128 {
            steps.iter().filter_map(|&(df, dr)| sq.offset(df, dr)).fold(0, |b, s| b | bit(s))
        };
        for sq in Square::all() {
            let i = sq.index();
            // A point with no leg on the board guards nothing; its own point
            // stands in as the (never consulted) leg.
            for (d, &(df, dr)) in orth.iter().enumerate() {
                t.horse[i][d] = match sq.offset(df, dr) {
                    Some(leg) => {
                        let sides: [(i8, i8); 2] = if df == 0 { [(1, 0), (-1, 0)] } else { [(0, 1), (0, -1)] };
                        let to = sides
                            .iter()
                            .filter_map(|&(sf, sr)| leg.offset(df + sf, dr + sr))
                            .fold(0, |b, s| b | bit(s));
                        Guarded { leg, to }
                    }
                    None => Guarded { leg: sq, to: 0 },
                };
            }
            for (d, &(a, b)) in diag.iter().enumerate() {
                t.horse_attackers[i][d] = match sq.offset(a, b) {
                    Some(leg) => {
                        let from = [sq.offset(2 * a, b), sq.offset(a, 2 * b)];
                        Guarded { leg, to: from.iter().flatten().fold(0, |acc, s| acc | bit(*s)) }
                    }
                    None => Guarded { leg: sq, to: 0 },
                };
                let half = if masks::HALF[0].contains(sq) { masks::HALF[0] } else { masks::HALF[1] };
                t.elephant[i][d] = match (sq.offset(a, b), sq.offset(2 * a, 2 * b)) {
                    (Some(eye), Some(to)) if half.contains(to) => Guarded { leg: eye, to: bit(to) },
                    _ => Guarded { leg: sq, to: 0 },
                };
            }
            for color in [Color::White, Color::Black] {
                let palace = masks::PALACE[color.index()];
                if palace.contains(sq) {
                    t.advisor[i] = points(sq, &diag) & palace.0;
                    t.general[i] = points(sq, &orth) & palace.0;
                }
                let forward = if color == Color::White { 1 } else { -1 };
                let crossed = masks::HALF[color.other().index()].contains(sq);
                let steps: &[(i8, i8)] = if crossed { &[(0, forward), (1, 0), (-1, 0)] } else { &[(0, forward)] };
                t.soldier[color.index()][i] = points(sq, steps);
            }
        }
        for sq in Square::all() {
            let i = sq.index();
            t.horse_zone[i] = t.horse_attackers[i].iter().fold(0, |b, g| b | g.to);
            t.cross[i] = (masks::rank(sq.rank()) | masks::file(sq.file())).0;
        }
        for color in 0..2 {
            for from in 0..SQUARES {
                for to in Bitboard128(t.soldier[color][from]).iter::<Square>() {
                    t.soldier_attackers[color][to.index()] |= 1 << from;
                }
            }
        }
        t
    }
}

/// Chariot targets (up to and including the first piece each way) and
/// cannon capture targets (the first piece beyond exactly one screen) from
/// `sq`, given the occupancy rank-major (`occ`) and file-major (`occ_t`).
#[inline(always)]
pub fn lines(sq: Square, occ: u128, occ_t: u128) -> (u128, u128) {
    let t = tables();
    let (f, r) = (sq.file() as u32, sq.rank() as u32);
    let rk = t.rank[f as usize][(occ >> (9 * r)) as usize & 511];
    let fl = t.file[r as usize][(occ_t >> (10 * f)) as usize & 1023];
    let rook = ((rk & 0x1FF) as u128) << (9 * r) | t.spread[(fl & 0x3FF) as usize] << f;
    let cannon = ((rk >> 16) as u128) << (9 * r) | t.spread[(fl >> 16) as usize] << f;
    (rook, cannon)
}

/// Chariot targets alone.
#[inline(always)]
pub fn chariot(sq: Square, occ: u128, occ_t: u128) -> u128 {
    lines(sq, occ, occ_t).0
}

/// Where a horse on `sq` may go (legs not blocked by `occ`).
#[inline(always)]
pub fn horse(sq: Square, occ: u128) -> u128 {
    let mut to = 0;
    for g in &tables().horse[sq.index()] {
        if occ >> g.leg.index() & 1 == 0 {
            to |= g.to;
        }
    }
    to
}

/// Per diagonal neighbour of `sq` (the leg), the points a horse attacks
/// `sq` from through that leg.
#[inline(always)]
pub fn horse_attackers(sq: Square) -> &'static [Guarded; 4] {
    &tables().horse_attackers[sq.index()]
}

/// Every point from which a horse could attack `sq` if its leg were free.
#[inline(always)]
pub fn horse_zone(sq: Square) -> u128 {
    tables().horse_zone[sq.index()]
}

/// The rank and file through `sq`: where a chariot, cannon or general must
/// stand to attack it along a line.
#[inline(always)]
pub fn cross(sq: Square) -> u128 {
    tables().cross[sq.index()]
}

/// Where an elephant on `sq` may go (eyes not blocked by `occ`; never
/// across the river).
#[inline(always)]
pub fn elephant(sq: Square, occ: u128) -> u128 {
    let mut to = 0;
    for g in &tables().elephant[sq.index()] {
        if occ >> g.leg.index() & 1 == 0 {
            to |= g.to;
        }
    }
    to
}

/// Advisor steps: diagonal, within the palace.
#[inline(always)]
pub fn advisor(sq: Square) -> u128 {
    tables().advisor[sq.index()]
}

/// General steps: orthogonal, within the palace.
#[inline(always)]
pub fn general(sq: Square) -> u128 {
    tables().general[sq.index()]
}

/// Soldier steps: forward; sideways too once across the river.
#[inline(always)]
pub fn soldier(color: Color, sq: Square) -> u128 {
    tables().soldier[color.index()][sq.index()]
}

/// The points from which a soldier of `color` attacks `sq`.
#[inline(always)]
pub fn soldier_attackers(color: Color, sq: Square) -> u128 {
    tables().soldier_attackers[color.index()][sq.index()]
}

/// Points strictly between `a` and `b` on a common rank or file, else empty.
pub fn between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let span = ((1u128 << hi.index()) - 1) & !((1u128 << (lo.index() + 1)) - 1);
    if lo.rank() == hi.rank() {
        Bitboard128(span)
    } else if lo.file() == hi.file() {
        Bitboard128(span) & masks::file(lo.file())
    } else {
        Bitboard128::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn names(b: u128) -> Vec<String> {
        let mut v: Vec<String> = Bitboard128(b).iter::<Square>().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    fn transpose(occ: u128) -> u128 {
        Bitboard128(occ).iter::<Square>().fold(0, |t, s| t | 1 << s.transposed())
    }

    /// Slow reference: walk each ray point by point.
    fn walk(from: Square, occ: u128) -> (u128, u128) {
        let (mut rook, mut cannon) = (0, 0);
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let mut cur = from;
            let mut screened = false;
            while let Some(next) = cur.offset(df, dr) {
                let occupied = occ >> next.index() & 1 != 0;
                if !screened {
                    rook |= 1 << next.index();
                    screened = occupied;
                } else if occupied {
                    cannon |= 1 << next.index();
                    break;
                }
                cur = next;
            }
        }
        (rook, cannon)
    }

    #[test]
    fn line_lookups_match_ray_walking_on_random_boards() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..3000 {
            let occ = rng.gen::<u128>() & rng.gen::<u128>() & masks::ALL.0;
            let occ_t = transpose(occ);
            for s in Square::all() {
                assert_eq!(lines(s, occ, occ_t), walk(s, occ), "{s} {occ:#x}");
            }
        }
    }

    #[test]
    fn leapers_and_steppers() {
        assert_eq!(names(horse(sq("b1"), 0)), ["a3", "c3", "d2"]);
        // A piece on b2 blocks the leg towards a3 and c3.
        assert_eq!(names(horse(sq("b1"), bit(sq("b2")))), ["d2"]);
        assert_eq!(names(horse(sq("e5"), 0)).len(), 8);
        assert_eq!(names(elephant(sq("c1"), 0)), ["a3", "e3"]);
        assert_eq!(names(elephant(sq("c1"), bit(sq("d2")))), ["a3"]);
        // Never across the river: c5 goes back only.
        assert_eq!(names(elephant(sq("c5"), 0)), ["a3", "e3"]);
        assert_eq!(names(elephant(sq("c6"), 0)), ["a8", "e8"]);
        assert_eq!(names(advisor(sq("e2"))), ["d1", "d3", "f1", "f3"]);
        assert_eq!(names(advisor(sq("d10"))), ["e9"]);
        assert_eq!(names(general(sq("d1"))), ["d2", "e1"]);
        assert_eq!(names(general(sq("e9"))), ["d9", "e10", "e8", "f9"]);
        assert_eq!(names(soldier(Color::White, sq("c4"))), ["c5"]);
        assert_eq!(names(soldier(Color::White, sq("c6"))), ["b6", "c7", "d6"]);
        assert_eq!(names(soldier(Color::White, sq("i10"))), ["h10"]);
        assert_eq!(names(soldier(Color::Black, sq("c5"))), ["b5", "c4", "d5"]);
        assert_eq!(names(soldier_attackers(Color::White, sq("e9"))), ["d9", "e8", "f9"]);
        assert_eq!(names(soldier_attackers(Color::White, sq("e5"))), ["e4"]);
    }

    #[test]
    fn horse_attackers_are_the_reverse_of_horse_moves() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..300 {
            let occ = rng.gen::<u128>() & rng.gen::<u128>() & masks::ALL.0;
            for target in Square::all() {
                let mut from_table = 0u128;
                for g in horse_attackers(target) {
                    if occ >> g.leg.index() & 1 == 0 {
                        from_table |= g.to;
                    }
                }
                let brute =
                    Square::all().filter(|&h| horse(h, occ) >> target.index() & 1 != 0).fold(0, |b, h| b | bit(h));
                assert_eq!(from_table, brute, "{target}");
            }
        }
    }

    #[test]
    fn between_points() {
        assert_eq!(names(between(sq("e1"), sq("e10")).0).len(), 8);
        assert_eq!(names(between(sq("a1"), sq("d1")).0), ["b1", "c1"]);
        assert_eq!(names(between(sq("i10"), sq("f10")).0), ["g10", "h10"]);
        assert!(between(sq("a1"), sq("b2")).is_empty());
        assert!(between(sq("a1"), sq("a2")).is_empty());
    }
}
