//! What the search needs from xiangqi beyond the rules: capture ordering,
//! a static exchange estimate, the null move.

use super::attacks;
use super::position::keys;
use super::{XMove, XRole, XSquare, Xiangqi};
use crate::core::Color;
use crate::eval::xiangqi::VALUE;
use crate::moves::MoveList;
use crate::search::SearchGame;

/// Exchange value of a general: it can never be taken.
const GENERAL_VALUE: i32 = 10_000;

fn value(role: XRole) -> i32 {
    if role == XRole::General {
        GENERAL_VALUE
    } else {
        VALUE[role.index()]
    }
}

impl Xiangqi {
    /// The least valuable piece of `by` attacking `sq`, on the board as it
    /// stands (every piece kind, unlike the check test).
    fn least_attacker(&self, sq: XSquare, by: Color) -> Option<XRole> {
        let occ = self.occupied().0;
        let ours = self.by_color(by).0;
        let has = |role: XRole, reach: u128| reach & self.by_role(role).0 & ours != 0;
        if has(XRole::Soldier, attacks::soldier_attackers(by, sq)) {
            return Some(XRole::Soldier);
        }
        if has(XRole::Advisor, attacks::advisor(sq)) {
            return Some(XRole::Advisor);
        }
        if has(XRole::Elephant, attacks::elephant(sq, occ)) {
            return Some(XRole::Elephant);
        }
        let horses = self.by_role(XRole::Horse).0 & ours;
        if horses & attacks::horse_zone(sq) != 0
            && attacks::horse_attackers(sq).iter().any(|g| g.to & horses != 0 && occ >> g.leg.index() & 1 == 0)
        {
            return Some(XRole::Horse);
        }
        let (rook, cannon) = attacks::lines(sq, occ, self.occ_t);
        if has(XRole::Cannon, cannon) {
            return Some(XRole::Cannon);
        }
        if has(XRole::Chariot, rook) {
            return Some(XRole::Chariot);
        }
        if has(XRole::General, attacks::general(sq)) {
            return Some(XRole::General);
        }
        None
    }
}

impl SearchGame for Xiangqi {
    const CYCLE: u32 = 2;
    /// WXF: the side whose every move in a repetition gave check loses.
    const PERPETUAL_CHECK_LOSES: bool = true;

    #[inline(always)]
    fn move_bits(m: XMove) -> u16 {
        m.bits()
    }

    fn tactical_moves(&self, list: &mut MoveList<XMove>) {
        let mut all = MoveList::default();
        self.legal_moves(&mut all);
        let theirs = self.by_color(self.side_to_move().other());
        for &m in all.iter() {
            if theirs.contains(m.to()) {
                list.push(m);
            }
        }
    }

    #[inline]
    fn tactical_value(&self, m: XMove) -> Option<i32> {
        let victim = self.piece_at(m.to())?;
        let attacker = self.piece_at(m.from()).map_or(0, |p| p.role.index() as i32);
        Some(value(victim.role) * 8 - attacker)
    }

    /// A one-exchange estimate: the victim, minus the mover if the
    /// destination is then defended.
    fn see_ge(&self, m: XMove, threshold: i32) -> bool {
        let victim = self.piece_at(m.to()).map_or(0, |p| value(p.role));
        let mover = self.piece_at(m.from()).map_or(0, |p| value(p.role));
        if victim - threshold < 0 {
            return false;
        }
        let after = self.play(m);
        let recapture = after.least_attacker(m.to(), after.side_to_move()).is_some();
        (if recapture { victim - mover } else { victim }) >= threshold
    }

    fn null_move(&self) -> Self {
        let mut next = *self;
        next.turn = self.turn.other();
        next.key ^= keys().black();
        next
    }

    fn has_non_pawn_material(&self) -> bool {
        let us = self.by_color(self.side_to_move());
        (us & (self.by_role(XRole::Chariot) | self.by_role(XRole::Horse) | self.by_role(XRole::Cannon))).any()
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove as usize
    }
}
