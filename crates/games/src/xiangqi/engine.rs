//! What the search needs from xiangqi beyond the rules: captures for the
//! quiescence search (the legal generator limited to captures), capture
//! ordering, a static exchange evaluation, the null move.
//!
//! The exchange evaluation recomputes the attackers of the point after
//! every capture on the board as it then stands, so the line pieces see
//! through the pieces that have left (a chariot behind a chariot joins in)
//! and cannons gain or lose their screens as pieces come and go (a cannon
//! whose screen captured first can no longer fire; one that had two
//! pieces in front may now have exactly one). Pins and the flying general
//! are ignored, except that a general only captures last: into a point the
//! other side still attacks it may not go.

use super::attacks;
use super::position::keys;
use super::{Move, Role, Square, Xiangqi};
use catchess_core::hash::fold;
use catchess_core::{Bitboard128, Color};
use catchess_game::{GameOption, MoveList};
use catchess_search::correction::CorrectionKeys;
use crate::xiangqi::eval::see_value;
use catchess_search::{skill, SearchGame};

/// Exchange value of a general: it can never be taken.
const GENERAL_VALUE: i32 = 10_000;

#[inline(always)]
fn value(role: Role) -> i32 {
    if role == Role::General {
        GENERAL_VALUE
    } else {
        see_value(role)
    }
}

impl Xiangqi {
    /// The least valuable piece of `by` among `occ` attacking `sq` on the
    /// board whose occupancy is `occ` / `occ_t` (pieces not in `occ` have
    /// been exchanged off): its point and kind.
    fn least_attacker_in(&self, sq: Square, by: Color, occ: u128, occ_t: u128) -> Option<(Square, Role)> {
        let ours = self.by_color(by).0 & occ;
        let first = |set: u128| (set != 0).then(|| Square::from_index_unchecked(set.trailing_zeros()));
        let of = |role: Role| self.by_role(role).0 & ours;
        if let Some(s) = first(attacks::soldier_attackers(by, sq) & of(Role::Soldier)) {
            return Some((s, Role::Soldier));
        }
        if let Some(s) = first(attacks::advisor(sq) & of(Role::Advisor)) {
            return Some((s, Role::Advisor));
        }
        if let Some(s) = first(attacks::elephant(sq, occ) & of(Role::Elephant)) {
            return Some((s, Role::Elephant));
        }
        let horses = of(Role::Horse);
        if horses & attacks::horse_zone(sq) != 0 {
            for g in attacks::horse_attackers(sq) {
                if g.to & horses != 0 && occ >> g.leg.index() & 1 == 0 {
                    return first(g.to & horses).map(|s| (s, Role::Horse));
                }
            }
        }
        let lines = of(Role::Chariot) | of(Role::Cannon);
        if lines & attacks::cross(sq) != 0 {
            let (rook, cannon) = attacks::lines(sq, occ, occ_t);
            if let Some(s) = first(cannon & of(Role::Cannon)) {
                return Some((s, Role::Cannon));
            }
            if let Some(s) = first(rook & of(Role::Chariot)) {
                return Some((s, Role::Chariot));
            }
        }
        first(attacks::general(sq) & of(Role::General)).map(|s| (s, Role::General))
    }

    /// The material the side to move wins by `m` when both sides then
    /// capture on its destination, least valuable piece first, each free
    /// to stop (the swap algorithm).
    pub fn see(&self, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else { return 0 };
        let mut gain = [0i32; 34];
        gain[0] = self.piece_at(to).map_or(0, |p| value(p.role));
        let mut occ = self.occupied().0 & !(1u128 << from.index());
        let mut occ_t = self.occ_t & !(1u128 << from.transposed());
        // The destination is occupied by whoever took last.
        occ |= 1 << to.index();
        occ_t |= 1 << to.transposed();
        let mut on_square = value(mover.role);
        let mut side = mover.color.other();
        let mut d = 0;
        while let Some((sq, role)) = self.least_attacker_in(to, side, occ, occ_t) {
            if role == Role::General
                && self
                    .least_attacker_in(to, side.other(), occ & !(1 << sq.index()), occ_t & !(1 << sq.transposed()))
                    .is_some()
            {
                break;
            }
            d += 1;
            gain[d] = on_square - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
                break;
            }
            on_square = value(role);
            occ &= !(1 << sq.index());
            occ_t &= !(1 << sq.transposed());
            side = side.other();
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }
}

/// Bench positions: openings, middlegames and endings, both seats to move.
const BENCH: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bk1abnr/4a4/4c4/4p1p1p/2p6/p7P/2P1PCP2/2R3N2/4A3R/1NB1KABc1 b - - 3 16",
    "r1bak1b1r/9/5an1c/2p1p4/p1P3p1p/4P4/P5PCP/2R6/2C1A3N/RNBAK1c2 b - - 1 16",
    "1nbcka1n1/8r/5C3/p1p3p2/P5bcP/9/2P1p1P2/N7B/4A1R2/2BAK2N1 b - - 13 41",
    "2bakab1r/9/2n4cn/p1p1p1p1p/9/9/P1P1P1P1P/RcC5B/4A4/1NBK1A1NR w - - 1 9",
    "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 5",
];

/// `UCI_Elo` to the weakened search's level in xiangqi, measured against
/// Fairy-Stockfish 11.1's own `UCI_Elo` at 10+0.1 (README, "Playing
/// strength"): level 2 scores about half against its 1500 and level 7
/// against its 2000 (a level buys more here than in chess, whose table
/// needs 5 and 12.5). Above 2000 the line is continued (full strength, which
/// scored 48.5 % against Fairy-Stockfish's full strength, is beyond the
/// option's range); below 1500, down to depth 1 and the wider picks.
const ELO_TO_LEVEL: skill::EloTable = &[
    (skill::ELO_MIN, -10.0),
    (1100, -4.0),
    (1400, 0.0),
    (1500, 2.0),
    (2000, 7.0),
    (skill::ELO_MAX, 15.5),
];

impl SearchGame for Xiangqi {
    const BENCH: &'static [&'static str] = BENCH;
    const BENCH_DEPTH: u32 = 16;
    const ELO_TO_LEVEL: skill::EloTable = ELO_TO_LEVEL;
    /// WXF: the side whose every move in a repetition gave check loses.
    const PERPETUAL_CHECK_LOSES: bool = true;
    /// Xiangqi's network (`xiangqi::nnue`), by the one `EvalFile`.
    const OPTIONS: &'static [GameOption] = &[crate::nnue::EVAL_FILE];

    #[inline(always)]
    fn move_bits(m: Move) -> u32 {
        m.bits() as u32
    }

    fn in_check(&self) -> bool {
        Xiangqi::in_check(self)
    }

    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        self.legal_captures(list);
    }

    #[inline]
    fn tactical_value(&self, m: Move) -> Option<i32> {
        let victim = self.piece_at(m.to())?;
        let attacker = self.piece_at(m.from()).map_or(0, |p| value(p.role).min(1000));
        Some(value(victim.role) * 8 - attacker / 16)
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m) >= threshold
    }

    /// Quiet checks are searched even where other quiet moves are pruned.
    #[inline]
    fn keep_quiet(&self, m: Move) -> bool {
        self.gives_check(m)
    }

    fn null_move(&self) -> Self {
        let mut next = *self;
        next.turn = self.turn.other();
        next.key ^= keys().black();
        next
    }

    const PIECE_KINDS: usize = 7;
    #[inline(always)]
    fn moved_kind(&self, m: Move) -> usize {
        self.piece_at(m.from()).map_or(0, |p| p.role.index())
    }

    /// The soldiers, then the advisors and elephants (the general's guard):
    /// the structures of xiangqi.
    const CORRECTION_KEYS: usize = 2;
    #[inline]
    fn correction_keys(&self) -> CorrectionKeys {
        let halves = |b: Bitboard128| [b.0 as u64, (b.0 >> 64) as u64];
        let both = |roles: Bitboard128| {
            let [r0, r1] = halves(roles & self.by_color(Color::White));
            let [b0, b1] = halves(roles & self.by_color(Color::Black));
            fold(&[r0, r1, b0, b1])
        };
        [both(self.by_role(Role::Soldier)), both(self.by_role(Role::Advisor) | self.by_role(Role::Elephant)), 0]
    }

    fn has_non_pawn_material(&self) -> bool {
        let us = self.by_color(self.side_to_move());
        (us & (self.by_role(Role::Chariot) | self.by_role(Role::Horse) | self.by_role(Role::Cannon))).any()
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Notation;

    fn see_of(fen: &str, m: &str) -> i32 {
        let pos = Xiangqi::from_fen(fen).unwrap();
        let m = pos.parse_move(m).unwrap();
        pos.see(m)
    }

    #[test]
    fn correction_keys_follow_the_soldiers_and_the_guard() {
        let keys_after = |pos: &Xiangqi, m: &str| pos.play(pos.parse_move(m).unwrap()).correction_keys();
        let start = Xiangqi::startpos();
        let [soldiers, guard, _] = start.correction_keys();
        let soldier = keys_after(&start, "c4c5");
        assert!(soldier[0] != soldiers && soldier[1] == guard, "a soldier's step changes the soldiers' key only");
        let elephant = keys_after(&start, "c1e3");
        assert!(elephant[0] == soldiers && elephant[1] != guard, "an elephant's step changes the guard's key only");
        let horse = keys_after(&start, "b1c3");
        assert_eq!(horse, start.correction_keys(), "a horse is in neither");
        // The same soldiers of the other colour are another structure.
        let red = Xiangqi::from_fen("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").unwrap();
        let black = Xiangqi::from_fen("4k4/9/9/9/9/9/4p4/9/9/4K4 w - - 0 1").unwrap();
        assert_ne!(red.correction_keys()[0], black.correction_keys()[0]);
    }

    #[test]
    fn exchanges() {
        let (h, r, c, p) =
            (see_value(Role::Horse), see_value(Role::Chariot), see_value(Role::Cannon), see_value(Role::Soldier));
        // A free horse.
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e2e6"), h);
        // A horse defended by a soldier: chariot for horse is a loss.
        assert_eq!(see_of("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w - - 0 1", "e2e6"), h - r);
        // Two chariots on the file (x-ray): the second recaptures.
        assert_eq!(see_of("3k5/9/4r4/4p4/9/9/9/4R4/4R4/5K3 w - - 0 1", "e3e7"), p);
        // The cannon's screen takes first; the cannon, now screenless, cannot
        // follow when the chariot on e9 recaptures.
        assert_eq!(see_of("3k5/4r4/9/4p4/4P4/9/9/9/4C4/5K3 w - - 0 1", "e6e7"), 0);
        // A cannon behind two pieces: once the front one has taken, it has
        // exactly one screen and recaptures the chariot.
        assert_eq!(see_of("3k5/4r4/9/4c4/9/4R4/4P4/4C4/9/5K3 w - - 0 1", "e5e7"), c);
        // The defending horse's leg is blocked: no recapture.
        assert_eq!(see_of("3k5/9/9/4c4/3P5/3n5/9/9/4R4/5K3 w - - 0 1", "e2e7"), c);
        // A general may only take last.
        assert_eq!(see_of("9/9/3ak4/9/9/9/9/3R5/3R5/5K3 w - - 0 1", "d3d8"), see_value(Role::Advisor));
    }
}
