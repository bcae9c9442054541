//! Positions as numbers: the layout of a table, and the board's symmetries
//! that let one entry stand for several positions.
//!
//! Without pawns the rules are the same under all eight symmetries of the
//! square (no castling, no en passant in the tables; cats move like kings):
//! the white king is brought into the triangle a1–d1–d4, and when it stands
//! on the diagonal a1–d4 both images are indexed and the smaller number
//! kept. With a pawn only the mirror between the a- and h-sides keeps the
//! rules, and the pawn is brought onto files a–d. The two cats are one
//! unordered pair. An index whose position is impossible (two men on one
//! square) or stands for a position that has a smaller number is *invalid*.

use super::material::Material;
use crate::chess::{Move, Piece, Position, Role, Side, Variant};
use catchess_core::{Bitboard, Color, Square};

/// A position as the tables see it: the squares (0–63, a1 = 0) of the white
/// king, the black king and the extra man, the cats, the seat to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    pub wk: u8,
    pub bk: u8,
    /// The extra man's square (unused in a table without one).
    pub man: u8,
    /// The cats' squares, the first `cats` of them used, in increasing
    /// order when there are two.
    pub cats: [u8; 2],
    pub seat: Side,
}

/// The eight symmetries of the square as square maps.
const TRANSFORMS: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let images = [(f, r), (7 - f, r), (f, 7 - r), (7 - f, 7 - r), (r, f), (7 - r, f), (r, 7 - f), (7 - r, 7 - f)];
        let mut i = 0;
        while i < 8 {
            t[i][sq] = (images[i].1 * 8 + images[i].0) as u8;
            i += 1;
        }
        sq += 1;
    }
    t
};

/// The triangle a1, b1, c1, d1, b2, c2, d2, c3, d3, d4 (file ≤ d, rank ≤
/// file): a square's place in it, or 255.
const TRIANGLE: [u8; 64] = {
    let mut t = [255u8; 64];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        if f <= 3 && r <= f {
            t[sq] = n;
            n += 1;
        }
        sq += 1;
    }
    t
};

/// The squares of the triangle in order (the inverse of `TRIANGLE`).
const TRIANGLE_SQUARES: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// The seat that moves after `seat` in a game of `seats` seats (2: white
/// and black; 3: white, black, cats).
pub fn next_seat(seat: Side, seats: u8) -> Side {
    match (seat, seats) {
        (Side::White, _) => Side::Black,
        (Side::Black, 3) => Side::Cats,
        _ => Side::White,
    }
}

/// Number of unordered pairs of distinct squares.
const PAIRS: u64 = 64 * 63 / 2;

/// The pair of squares `(a, b)`, `a < b`, of each pair number
/// `b(b-1)/2 + a`: a table, since every entry of a table is decoded.
const PAIR_SQUARES: [[u8; 2]; PAIRS as usize] = {
    let mut t = [[0u8; 2]; PAIRS as usize];
    let mut b = 1;
    while b < 64 {
        let mut a = 0;
        while a < b {
            t[b * (b - 1) / 2 + a] = [a as u8, b as u8];
            a += 1;
        }
        b += 1;
    }
    t
};

/// The shape of one table: how many entries and how a placement maps to one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    pub material: Material,
    /// Cats on the board: 2 in Cat Chess (1 only in the small test tables),
    /// 0 in chess.
    pub cats: u8,
    /// Seats to move: 3 in Cat Chess, 2 in chess.
    pub seats: u8,
    /// Entries per seat to move.
    per_seat: u64,
    /// Whether the extra man is a pawn (the mirror is the only symmetry),
    /// and the number of cat sets: kept, not recomputed, because every
    /// index asks.
    pawn: bool,
    cat_sets: u64,
}

impl Layout {
    pub fn new(material: Material, cats: u8, seats: u8) -> Layout {
        assert!(material.extra.is_some(), "tables hold a man besides the kings");
        assert!(cats <= 2 && (seats == 3 || cats == 0));
        let pawn = material.has_pawn();
        let keys = if pawn { 24 } else { 10 };
        let cat_sets = Self::cat_sets(cats);
        Layout { material, cats, seats, per_seat: keys * 64 * 64 * cat_sets, pawn, cat_sets }
    }

    fn cat_sets(cats: u8) -> u64 {
        match cats {
            0 => 1,
            1 => 64,
            _ => PAIRS,
        }
    }

    /// Entries in the table.
    pub fn len(&self) -> u64 {
        self.per_seat * self.seats as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seat that moved just before `seat`.
    pub fn previous_seat(&self, seat: Side) -> Side {
        match (seat, self.seats) {
            (Side::Black, _) => Side::White,
            (Side::White, 3) => Side::Cats,
            _ => Side::Black,
        }
    }

    fn cat_index(&self, cats: [u8; 2]) -> u64 {
        match self.cats {
            0 => 0,
            1 => cats[0] as u64,
            _ => {
                let (a, b) = (cats[0].min(cats[1]) as u64, cats[0].max(cats[1]) as u64);
                b * (b - 1) / 2 + a
            }
        }
    }

    fn cats_of(&self, i: u64) -> [u8; 2] {
        match self.cats {
            0 => [64, 64],
            1 => [i as u8, 64],
            _ => PAIR_SQUARES[i as usize],
        }
    }

    /// The index of the placement as it stands (no symmetry applied): `None`
    /// if a pawn stands outside files a–d or on a back rank, or the white
    /// king outside the triangle.
    fn raw_index(&self, p: &Placement) -> Option<u64> {
        let (key, a, b) = if self.pawn {
            let (f, r) = (p.man % 8, p.man / 8);
            if f > 3 || !(1..=6).contains(&r) {
                return None;
            }
            ((r as u64 - 1) * 4 + f as u64, p.wk as u64, p.bk as u64)
        } else {
            let t = TRIANGLE[p.wk as usize];
            if t == 255 {
                return None;
            }
            (t as u64, p.bk as u64, p.man as u64)
        };
        let seat = p.seat.index() as u64;
        Some(seat * self.per_seat + ((key * 64 + a) * 64 + b) * self.cat_sets + self.cat_index(p.cats))
    }

    /// The placement under symmetry `t`.
    fn transformed(&self, p: &Placement, t: usize) -> Placement {
        let m = &TRANSFORMS[t];
        let mut cats = [64u8; 2];
        for i in 0..self.cats as usize {
            cats[i] = m[p.cats[i] as usize];
        }
        if self.cats == 2 && cats[0] > cats[1] {
            cats.swap(0, 1);
        }
        Placement { wk: m[p.wk as usize], bk: m[p.bk as usize], man: m[p.man as usize], cats, seat: p.seat }
    }

    /// The entry of a placement: the smallest index among its images that
    /// the layout can hold. `None` only for a pawn on a back rank.
    pub fn index(&self, p: &Placement) -> Option<u64> {
        if self.pawn {
            // The mirror only for a pawn on files e–h; a pawn on a–d (every
            // successor in the generator's init) is indexed as it stands.
            return if p.man % 8 > 3 { self.raw_index(&self.transformed(p, 1)) } else { self.raw_index(p) };
        }
        let wk = p.wk as usize;
        let mut best = None;
        for t in 0..8 {
            if TRIANGLE[TRANSFORMS[t][wk] as usize] == 255 {
                continue;
            }
            let i = self.raw_index(&self.transformed(p, t));
            best = match (best, i) {
                (Some(b), Some(i)) => Some(std::cmp::min(b, i)),
                (b, i) => b.or(i),
            };
        }
        best
    }

    /// The placement an index stands for. Call [`Layout::is_canonical`] to
    /// know whether it is a real entry.
    pub fn placement(&self, index: u64) -> Placement {
        let seat = [Side::White, Side::Black, Side::Cats][(index / self.per_seat) as usize];
        let mut rest = index % self.per_seat;
        let cats = self.cats_of(rest % self.cat_sets);
        rest /= self.cat_sets;
        let (b, a, key) = ((rest % 64) as u8, (rest / 64 % 64) as u8, rest / 4096);
        if self.pawn {
            let man = ((key / 4 + 1) * 8 + key % 4) as u8;
            Placement { wk: a, bk: b, man, cats, seat }
        } else {
            Placement { wk: TRIANGLE_SQUARES[key as usize], bk: a, man: b, cats, seat }
        }
    }

    /// Whether the index is the entry of its placement and the placement has
    /// no two things on one square. (Whether it is a legal position is the
    /// rules' business: [`Layout::position`].)
    pub fn is_canonical(&self, index: u64, p: &Placement) -> bool {
        let mut seen = Bitboard::EMPTY;
        let squares = [p.wk, p.bk, p.man].into_iter().chain(p.cats.into_iter().take(self.cats as usize));
        for sq in squares {
            let sq = Square::from_index_unchecked(sq as u32);
            if seen.contains(sq) {
                return false;
            }
            seen.set(sq);
        }
        self.index(p) == Some(index)
    }

    /// The placement after `m`, a legal move of `p` that stays inside the
    /// table (no capture of the extra man, no promotion): the man on the
    /// move's origin goes to its destination and the next seat moves. The
    /// generator's init uses it instead of playing the move on a position,
    /// which costs several times more; a test checks that both agree.
    pub fn after(&self, p: &Placement, m: Move) -> Placement {
        let mut next = Placement { seat: next_seat(p.seat, self.seats), ..*p };
        if m.is_pass() {
            return next;
        }
        let (from, to) = (m.from().index() as u8, m.to().index() as u8);
        if p.wk == from {
            next.wk = to;
        } else if p.bk == from {
            next.bk = to;
        } else if p.man == from {
            next.man = to;
        } else {
            let k = if p.cats[0] == from { 0 } else { 1 };
            next.cats[k] = to;
            if self.cats == 2 && next.cats[0] > next.cats[1] {
                next.cats.swap(0, 1);
            }
        }
        next
    }

    /// Whether two different placements can share an entry: only in tables
    /// without a pawn, where a position may be symmetric. With a pawn only
    /// the mirror applies, and it maps the pawn's file a–d onto e–h, never
    /// onto another placement with the pawn on a–d.
    pub fn has_shared_entries(&self) -> bool {
        !self.pawn
    }

    /// The engine's position for a placement, if the rules allow it.
    pub fn position<V: Variant>(&self, p: &Placement) -> Option<Position<V>> {
        let sq = |s: u8| Square::from_index_unchecked(s as u32);
        let man = self.material.extra.expect("a table has a man besides the kings");
        let men = [
            (sq(p.wk), Piece { color: Color::White, role: Role::King }),
            (sq(p.bk), Piece { color: Color::Black, role: Role::King }),
            (sq(p.man), man),
        ];
        let cats: Bitboard = p.cats.iter().take(self.cats as usize).map(|&c| sq(c)).collect();
        Position::from_parts(&men, cats, p.seat).ok()
    }

    /// The placement of a position of this table's material (which the
    /// caller has checked) and cat count.
    pub fn placement_of<V: Variant>(&self, pos: &Position<V>) -> Placement {
        let man = self.material.extra.expect("a table has a man besides the kings");
        let mut cats = [64u8; 2];
        for (i, c) in pos.cats().into_iter().take(2).enumerate() {
            cats[i] = c.index() as u8;
        }
        Placement {
            wk: pos.king(Color::White).index() as u8,
            bk: pos.king(Color::Black).index() as u8,
            man: pos.pieces(man.color, man.role).single().index() as u8,
            cats,
            seat: pos.side_to_move(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_symmetries_and_the_triangle_has_ten_squares() {
        for t in TRANSFORMS {
            let mut seen = [false; 64];
            for sq in t {
                seen[sq as usize] = true;
            }
            assert!(seen.iter().all(|s| *s));
        }
        let tri: Vec<u8> = (0..64).filter(|&s| TRIANGLE[s as usize] != 255).collect();
        assert_eq!(tri, TRIANGLE_SQUARES);
    }

    #[test]
    fn every_index_decodes_to_a_placement_that_encodes_back_or_is_a_duplicate() {
        for (material, cats, seats) in [("KQvK", 0, 2), ("KvKP", 0, 2), ("KRvK", 1, 3)] {
            let layout = Layout::new(material.parse().unwrap(), cats, seats);
            let mut canonical = 0;
            for i in 0..layout.len() {
                let p = layout.placement(i);
                let j = layout.index(&p);
                let mut squares = vec![p.wk, p.bk, p.man];
                squares.extend(p.cats.iter().take(cats as usize));
                squares.sort_unstable();
                squares.dedup();
                let distinct = squares.len() == 3 + cats as usize;
                if layout.is_canonical(i, &p) {
                    canonical += 1;
                } else if distinct {
                    // A duplicate stands for a position with a smaller entry.
                    assert!(j.is_some_and(|j| j < i), "{material} {i} {p:?}");
                }
                // Every image of a placement has the same entry.
                for t in 0..8 {
                    if layout.material.has_pawn() && t > 1 {
                        break;
                    }
                    let q = layout.transformed(&p, t);
                    assert_eq!(layout.index(&q), j, "{material} {p:?} under {t}");
                }
            }
            assert!(canonical > layout.len() / 2, "{material}: {canonical} of {}", layout.len());
        }
    }

    #[test]
    fn a_move_changes_the_placement_as_playing_it_changes_the_position() {
        use crate::chess::CatChessRules;
        use catchess_game::MoveList;
        for (material, step) in [("KPvK", 7919), ("KvKQ", 104_729)] {
            let layout = Layout::new(material.parse().unwrap(), 2, 3);
            let mut checked = 0;
            for i in (0..layout.len()).step_by(step) {
                let p = layout.placement(i);
                let Some(pos) = layout.position::<CatChessRules>(&p).filter(|_| layout.is_canonical(i, &p)) else {
                    continue;
                };
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                for &m in moves.iter() {
                    let child = pos.play(m);
                    let man = layout.material.extra.unwrap();
                    if m.promotion_role().is_some() || child.pieces(man.color, man.role).is_empty() {
                        continue;
                    }
                    assert_eq!(layout.after(&p, m), layout.placement_of(&child), "{} {m}", pos.to_fen());
                    checked += 1;
                }
            }
            assert!(checked > 10_000, "{material}: {checked}");
        }
    }

    #[test]
    fn cat_pairs_decode() {
        let layout = Layout::new("KQvK".parse().unwrap(), 2, 3);
        for b in 1..64u8 {
            for a in 0..b {
                let i = layout.cat_index([a, b]);
                assert_eq!(layout.cats_of(i), [a, b]);
            }
        }
    }
}
