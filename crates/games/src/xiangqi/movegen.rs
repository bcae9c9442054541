//! Legal move generation.
//!
//! One generator produces batches "from this point to these points" with
//! every rule applied; listing and counting (perft's bulk count) consume the
//! same batches.
//!
//! When the side to move is not in check, a look along the lines and horse
//! legs around its general (`safety`) finds every piece whose move could
//! expose it:
//!
//! * a piece alone between the general and an enemy chariot or the enemy
//!   general (flying general);
//! * a piece of ours among exactly two screens between the general and an
//!   enemy cannon;
//! * a piece of ours on the leg of an enemy horse aimed at the general;
//!
//! and the points no piece may land on: between the general and an enemy
//! cannon with no screen (the piece would become the screen). Every other
//! piece moves freely. The few pieces found above, the general's own steps,
//! and, when in check, the candidate evasions (general moves, captures of a
//! checker, blocks, moves of a checking cannon's screen) are tested one by
//! one on the board after the move, so the subtle cases (a screen capturing
//! the other screen, a cannon jumping out of the line, several checks at
//! once) need no special rules.

use super::attacks;
use super::moves::Move;
use super::position::Xiangqi;
use super::square::{masks, Piece, Role, Square};
use catchess_core::{Bitboard128, Color};
use catchess_game::MoveList;

/// Destinations of one origin, or (`delta != 0`) of many soldiers at once:
/// each destination's origin is `delta` points back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Batch {
    pub from: Square,
    pub to: u128,
    pub delta: i8,
}

/// What the lines and legs around the general say about the side to move.
struct Safety {
    check: bool,
    /// Points no piece may land on (between the general and a screenless
    /// enemy cannon).
    no_land: u128,
    /// Pieces whose moves might expose the general (see the module
    /// comment): their destinations are tested one by one.
    pinned: u128,
    /// In check: the checking pieces, the points that block a check
    /// (between a chariot or cannon and the general, a horse's leg), and
    /// our pieces that screen a checking cannon (they may go anywhere).
    checkers: u128,
    blocks: u128,
    screens: u128,
}

/// Up to three occupied positions along a line from `pos`, nearest first:
/// upwards (higher positions) or downwards.
#[inline(always)]
fn ray_blockers(line: u32, pos: u32, up: bool) -> ([u32; 3], usize) {
    let mut out = [0; 3];
    let mut n = 0;
    if up {
        let mut bits = line >> (pos + 1);
        while bits != 0 && n < 3 {
            out[n] = pos + 1 + bits.trailing_zeros();
            bits &= bits - 1;
            n += 1;
        }
    } else {
        let mut bits = line & ((1 << pos) - 1);
        while bits != 0 && n < 3 {
            let top = 31 - bits.leading_zeros();
            out[n] = top;
            bits ^= 1 << top;
            n += 1;
        }
    }
    (out, n)
}

impl Xiangqi {
    /// Every legal move of the side to move, appended to `list`.
    pub fn legal_moves(&self, list: &mut MoveList<Move>) {
        self.push_batches::<false>(list);
    }

    /// Every legal capture of the side to move, appended to `list` (the
    /// same generator as `legal_moves`, destinations limited to enemy
    /// pieces).
    pub fn legal_captures(&self, list: &mut MoveList<Move>) {
        self.push_batches::<true>(list);
    }

    #[inline(always)]
    fn push_batches<const TACTICAL: bool>(&self, list: &mut MoveList<Move>) {
        self.for_each_batch_of::<TACTICAL>(|b| {
            if b.delta == 0 {
                for to in Bitboard128(b.to).iter::<Square>() {
                    list.push(Move::new(b.from, to));
                }
            } else {
                for to in Bitboard128(b.to).iter::<Square>() {
                    let from = Square::from_index_unchecked((to.index() as i32 - b.delta as i32) as u32);
                    list.push(Move::new(from, to));
                }
            }
        });
    }

    /// The number of legal moves, counted without building them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.for_each_batch(|b| n += b.to.count_ones() as u64);
        n
    }

    /// Whether `m` (a move of the side to move from a piece's point) leaves
    /// the mover's general safe: tested on the board after the move.
    #[inline(always)]
    fn safe_after(&self, from: Square, to: Square, general: Square) -> bool {
        let us = self.turn;
        let them = us.other();
        let (fb, tb) = (1u128 << from.index(), 1u128 << to.index());
        let occ = (self.occupied().0 & !fb) | tb;
        let occ_t = (self.occ_t & !(1u128 << from.transposed())) | 1u128 << to.transposed();
        let enemy = self.colors[them.index()].0 & !tb;
        let sq = if from == general { to } else { general };
        !self.attacked_by(sq, occ, occ_t, enemy, them)
    }

    /// The points of `to` that `from` may move to leaving the general safe.
    #[inline(always)]
    fn safe_subset(&self, from: Square, mut to: u128, general: Square) -> u128 {
        let mut safe = 0;
        while to != 0 {
            let dest = Square::from_index_unchecked(to.trailing_zeros());
            to &= to - 1;
            if self.safe_after(from, dest, general) {
                safe |= 1 << dest.index();
            }
        }
        safe
    }

    #[inline(never)]
    fn safe_subset_cold(&self, from: Square, to: u128, general: Square) -> u128 {
        self.safe_subset(from, to, general)
    }

    fn safety(&self, us: Color, general: Square) -> Safety {
        let them = us.other();
        let mut s = Safety { check: false, no_land: 0, pinned: 0, checkers: 0, blocks: 0, screens: 0 };
        let occ = self.occupied().0;
        let own = self.colors[us.index()].0;
        let enemy_chariot = Piece { color: them, role: Role::Chariot }.code();
        let enemy_general = Piece { color: them, role: Role::General }.code();
        let enemy_cannon = Piece { color: them, role: Role::Cannon }.code();
        let (gf, gr) = (general.file() as u32, general.rank() as u32);
        let rank_line = (occ >> (9 * gr)) as u32 & 0x1FF;
        let file_line = (self.occ_t >> (10 * gf)) as u32 & 0x3FF;
        // Only lines holding an enemy chariot, cannon or general matter
        // (most of the time neither does).
        let sliders = self.colors[them.index()].0
            & (self.roles[Role::Chariot.index()].0
                | self.roles[Role::Cannon.index()].0
                | self.roles[Role::General.index()].0);
        let on_rank_line = sliders & masks::rank(gr as u8).0 != 0;
        let on_file = sliders & masks::file(gf as u8).0 != 0;
        for (line, pos, on_rank) in [(rank_line, gf, true), (file_line, gr, false)] {
            if !(if on_rank { on_rank_line } else { on_file }) {
                continue;
            }
            for up in [true, false] {
                let (found, n) = ray_blockers(line, pos, up);
                if n == 0 {
                    continue;
                }
                let sq = |i: usize| {
                    if on_rank {
                        Square::from_coords(found[i] as u8, gr as u8)
                    } else {
                        Square::from_coords(gf as u8, found[i] as u8)
                    }
                };
                let s1 = sq(0);
                let p1 = self.board[s1.index()];
                if p1 == enemy_chariot || p1 == enemy_general {
                    s.check = true;
                    s.checkers |= 1 << s1.index();
                    s.blocks |= attacks::between(general, s1).0;
                    continue;
                }
                if p1 == enemy_cannon {
                    s.no_land |= attacks::between(general, s1).0;
                }
                if n < 2 {
                    continue;
                }
                let s2 = sq(1);
                let p2 = self.board[s2.index()];
                if p2 == enemy_cannon {
                    s.check = true;
                    s.checkers |= 1 << s2.index();
                    s.blocks |= attacks::between(general, s2).0;
                    s.screens |= own & 1 << s1.index();
                    continue;
                }
                let own1 = own >> s1.index() & 1 != 0;
                if (p2 == enemy_chariot || p2 == enemy_general) && own1 {
                    s.pinned |= 1 << s1.index();
                }
                if n < 3 {
                    continue;
                }
                let s3 = sq(2);
                if self.board[s3.index()] == enemy_cannon {
                    s.pinned |= (1 << s1.index() | 1 << s2.index()) & own;
                }
            }
        }
        let horses = self.pieces(them, Role::Horse).0;
        if horses & attacks::horse_zone(general) != 0 {
            for g in attacks::horse_attackers(general) {
                let sources = g.to & horses;
                if sources == 0 {
                    continue;
                }
                if occ >> g.leg.index() & 1 == 0 {
                    s.check = true;
                    s.checkers |= sources;
                    s.blocks |= 1 << g.leg.index();
                } else {
                    s.pinned |= own & 1 << g.leg.index();
                }
            }
        }
        let soldiers = attacks::soldier_attackers(them, general) & self.pieces(them, Role::Soldier).0;
        if soldiers != 0 {
            s.check = true;
            s.checkers |= soldiers;
        }
        s
    }

    /// Calls `emit` with batches of legal moves of the side to move.
    #[inline(always)]
    pub(crate) fn for_each_batch(&self, emit: impl FnMut(Batch)) {
        self.for_each_batch_of::<false>(emit)
    }

    /// As `for_each_batch`; with `TACTICAL`, captures only.
    #[inline(always)]
    fn for_each_batch_of<const TACTICAL: bool>(&self, mut emit: impl FnMut(Batch)) {
        let us = self.turn;
        let general = self.general(us);
        let safety = self.safety(us, general);
        let own = self.colors[us.index()].0;
        let them = us.other();
        let enemy = self.colors[them.index()].0;
        if safety.check {
            if TACTICAL {
                self.evasions(general, &safety, &mut |b: Batch| {
                    if b.to & enemy != 0 {
                        emit(Batch { to: b.to & enemy, ..b });
                    }
                });
            } else {
                self.evasions(general, &safety, &mut emit);
            }
            return;
        }
        let occ = own | enemy;
        let allowed = !own & !safety.no_land & masks::ALL.0 & if TACTICAL { enemy } else { !0 };

        let king_reach = attacks::general(general) & if TACTICAL { enemy } else { !own };
        let king_to = self.safe_subset(general, king_reach, general);
        if king_to != 0 {
            emit(Batch { from: general, to: king_to, delta: 0 });
        }

        let pinned = safety.pinned;
        // A pinned piece keeps the destinations that leave the general safe.
        macro_rules! mask {
            ($from:expr, $to:expr) => {{
                let to = $to;
                if pinned >> $from.index() & 1 == 0 {
                    to
                } else {
                    self.safe_subset_cold($from, to, general)
                }
            }};
        }
        for from in self.pieces(us, Role::Chariot).iter::<Square>() {
            let to = mask!(from, attacks::chariot(from, occ, self.occ_t) & allowed);
            emit(Batch { from, to, delta: 0 });
        }
        for from in self.pieces(us, Role::Cannon).iter::<Square>() {
            let (rook, cannon) = attacks::lines(from, occ, self.occ_t);
            let slides = if TACTICAL { 0 } else { rook & !occ };
            let to = mask!(from, (slides | (cannon & enemy)) & allowed);
            emit(Batch { from, to, delta: 0 });
        }
        for from in self.pieces(us, Role::Horse).iter::<Square>() {
            let to = mask!(from, attacks::horse(from, occ) & allowed);
            emit(Batch { from, to, delta: 0 });
        }
        for from in self.pieces(us, Role::Elephant).iter::<Square>() {
            let to = mask!(from, attacks::elephant(from, occ) & allowed);
            emit(Batch { from, to, delta: 0 });
        }
        for from in self.pieces(us, Role::Advisor).iter::<Square>() {
            let to = mask!(from, attacks::advisor(from) & allowed);
            emit(Batch { from, to, delta: 0 });
        }

        // Soldiers: pinned ones one by one, the rest as a set by shifting.
        let soldiers = self.pieces(us, Role::Soldier).0;
        for from in Bitboard128(soldiers & pinned).iter::<Square>() {
            let to = self.safe_subset(from, attacks::soldier(us, from) & allowed, general);
            emit(Batch { from, to, delta: 0 });
        }
        let free = soldiers & !pinned;
        if free != 0 {
            let crossed = free & masks::HALF[them.index()].0;
            let east = ((crossed & !masks::FILE_I.0) << 1) & allowed;
            let west = ((crossed & !masks::FILE_A.0) >> 1) & allowed;
            let (forward, delta) = match us {
                Color::White => ((free << 9) & allowed, 9),
                Color::Black => ((free >> 9) & allowed, -9),
            };
            for (to, delta) in [(forward, delta), (east, 1), (west, -1)] {
                if to != 0 {
                    emit(Batch { from: general, to, delta });
                }
            }
        }
    }

    /// Every piece's pseudo-legal destinations (own pieces excluded).
    #[inline(always)]
    pub(crate) fn pseudo_targets(&self, from: Square, role: Role, occ: u128) -> u128 {
        let us = self.turn;
        let own = self.colors[us.index()].0;
        let enemy = occ & !own;
        let to = match role {
            Role::General => attacks::general(from),
            Role::Advisor => attacks::advisor(from),
            Role::Elephant => attacks::elephant(from, occ),
            Role::Horse => attacks::horse(from, occ),
            Role::Chariot => attacks::chariot(from, occ, self.occ_t),
            Role::Cannon => {
                let (rook, cannon) = attacks::lines(from, occ, self.occ_t);
                (rook & !occ) | (cannon & enemy)
            }
            Role::Soldier => attacks::soldier(us, from),
        };
        to & !own
    }

    /// In check. A legal evasion moves the general, captures a checker,
    /// blocks (between a chariot or cannon and the general, or on a horse's
    /// leg), or moves a screen of a checking cannon; the moves of that
    /// superset are each tested on the board after them (several checks at
    /// once interact in ways the test settles exactly).
    #[cold]
    fn evasions(&self, general: Square, safety: &Safety, emit: &mut impl FnMut(Batch)) {
        let us = self.turn;
        let occ = self.occupied().0;
        let targets = safety.checkers | safety.blocks;
        for from in self.by_color(us).iter::<Square>() {
            let role = Role::ALL[(self.board[from.index()] - 1) as usize % 7];
            let mut to = self.pseudo_targets(from, role, occ);
            if from != general && safety.screens >> from.index() & 1 == 0 {
                to &= targets;
            }
            let to = self.safe_subset(from, to, general);
            if to != 0 {
                emit(Batch { from, to, delta: 0 });
            }
        }
    }

    /// Every pseudo-legal move, each tested on the board after it.
    fn all_moves_tested(&self, general: Square, emit: &mut impl FnMut(Batch)) {
        let us = self.turn;
        let occ = self.occupied().0;
        for from in self.by_color(us).iter::<Square>() {
            let role = Role::ALL[(self.board[from.index()] - 1) as usize % 7];
            let to = self.safe_subset(from, self.pseudo_targets(from, role, occ), general);
            if to != 0 {
                emit(Batch { from, to, delta: 0 });
            }
        }
    }

    /// Whether `m` is legal here (any move value: a garbage move is simply
    /// not legal).
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else { return false };
        if piece.color != self.turn || from == to {
            return false;
        }
        let occ = self.occupied().0;
        self.pseudo_targets(from, piece.role, occ) >> to.index() & 1 != 0
            && self.safe_after(from, to, self.general(self.turn))
    }

    /// All legal moves the slow way (pseudo-legal moves each tested after
    /// the move): the reference the fast generator is tested against.
    pub fn legal_moves_slow(&self, list: &mut MoveList<Move>) {
        let general = self.general(self.turn);
        self.all_moves_tested(general, &mut |b: Batch| {
            for to in Bitboard128(b.to).iter::<Square>() {
                list.push(Move::new(b.from, to));
            }
        });
    }

    /// Whether the legal move `m` gives check, computed without playing it
    /// (for a search's move ordering and extensions). The board changes
    /// only on the move's two points, and the enemy general was not
    /// attacked before it (the FEN and the rules see to that), so most
    /// moves are ruled out by where those points lie before any attack is
    /// worked out.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (1u128 << from.index(), 1u128 << to.index());
        let target = self.general(us.other());
        let lines = attacks::cross(target);
        let tgt = 1u128 << target.index();
        let Some(piece) = self.piece_at(from) else { return false };
        // The moved piece from its new point: on the general's rank or
        // file for a chariot or cannon, a horse's move away for a horse.
        let may_see = match piece.role {
            Role::Chariot | Role::Cannon => lines & tb != 0,
            Role::Horse => attacks::horse_zone(target) & tb != 0,
            Role::Soldier => attacks::soldier(us, to) & tgt != 0,
            Role::General | Role::Advisor | Role::Elephant => false,
        };
        // Another piece of ours (the captured piece is theirs): a line
        // attack needs one of the points on the general's rank or file (a
        // chariot unmasked, a cannon given or robbed of its screen), a
        // horse attack needs the origin to be the leg that blocked it.
        let unmasks = lines & (fb | tb) != 0 || attacks::horse_attackers(target).iter().any(|g| g.leg == from);
        if !may_see && !unmasks {
            return false;
        }
        let occ = (self.occupied().0 & !fb) | tb;
        let occ_t = (self.occ_t & !(1u128 << from.transposed())) | 1u128 << to.transposed();
        let others = self.colors[us.index()].0 & !fb;
        if unmasks && self.attacked_by(target, occ, occ_t, others, us) {
            return true;
        }
        may_see
            && match piece.role {
                Role::Chariot => attacks::chariot(to, occ, occ_t) & tgt != 0,
                Role::Cannon => attacks::lines(to, occ, occ_t).1 & tgt != 0,
                Role::Horse => attacks::horse(to, occ) & tgt != 0,
                Role::Soldier => true,
                Role::General | Role::Advisor | Role::Elephant => false,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn sorted(list: &MoveList<Move>) -> Vec<Move> {
        let mut v = list.as_slice().to_vec();
        v.sort_by_key(|m| m.bits());
        v
    }

    /// The fast generator (pins and screens worked out up front) agrees
    /// with testing every pseudo-legal move on the board after it, along
    /// random games; so do the count, `is_legal` and the captures-only
    /// generator.
    #[test]
    fn fast_generation_matches_the_slow_reference_along_random_games() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut positions = 0;
        let mut in_check = 0;
        for _ in 0..300 {
            let mut pos = Xiangqi::startpos();
            for _ in 0..200 {
                let (mut fast, mut slow) = (MoveList::default(), MoveList::default());
                pos.legal_moves(&mut fast);
                pos.legal_moves_slow(&mut slow);
                assert_eq!(sorted(&fast), sorted(&slow), "{}", pos.to_fen());
                assert_eq!(pos.count_legal_moves(), fast.len() as u64);
                let mut captures = MoveList::default();
                pos.legal_captures(&mut captures);
                let enemy = pos.by_color(pos.side_to_move().other());
                let expected: Vec<Move> = sorted(&fast).into_iter().filter(|m| enemy.contains(m.to())).collect();
                assert_eq!(sorted(&captures), expected, "{}", pos.to_fen());
                for &m in fast.iter() {
                    assert!(pos.is_legal(m));
                    assert_eq!(pos.gives_check(m), pos.play(m).in_check(), "{m} in {}", pos.to_fen());
                }
                positions += 1;
                if fast.is_empty() {
                    break;
                }
                // Half the time prefer checks: evasions get tested a lot.
                let checks: Vec<Move> = fast.iter().copied().filter(|&m| pos.gives_check(m)).collect();
                let m = if !checks.is_empty() && rng.gen_bool(0.5) {
                    checks[rng.gen_range(0..checks.len())]
                } else {
                    fast.as_slice()[rng.gen_range(0..fast.len())]
                };
                in_check += pos.in_check() as usize;
                let next = pos.play(m);
                assert_eq!(next.key(), next.compute_key());
                assert_eq!(Xiangqi::from_fen(&next.to_fen()).unwrap(), next);
                pos = next;
            }
        }
        assert!(positions > 10_000);
        assert!(in_check > 2_000, "{in_check}");
    }
}
