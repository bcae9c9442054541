//! The chess family's hooks for the search: the move in the hash table,
//! captures for quiescence (and at the cats' turn the cat steps that change
//! them), move-ordering values, SEE, null move, and which quiet moves are
//! never pruned.

use super::position::{Position, Variant, SEE_VALUE};
use super::types::{Role, Side};
use super::Move;
use crate::game::MoveList;
use crate::search::SearchGame;

impl<V: Variant> SearchGame for Position<V> {
    const CYCLE: u32 = if V::CATS { 3 } else { 2 };

    #[inline(always)]
    fn move_bits(m: Move) -> u16 {
        m.bits()
    }

    fn tactical_moves(&self, list: &mut MoveList<Move>) {
        if self.turn() == Side::Cats {
            return self.tactical_cat_moves(list);
        }
        // Under-promotions are never worth a look in quiescence.
        let mut all = MoveList::default();
        Position::tactical_moves(self, &mut all);
        for &m in all.iter() {
            if matches!(m.promotion_role(), None | Some(Role::Queen)) {
                list.push(m);
            }
        }
    }

    #[inline]
    fn tactical_value(&self, m: Move) -> Option<i32> {
        let victim = self.captured_role(m);
        let promotion = m.promotion_role();
        if victim.is_none() && promotion.is_none() {
            return None;
        }
        let value = |r: Option<Role>| r.map_or(0, |r| SEE_VALUE[r.index()]);
        let attacker = self.role_on(m.from()).map_or(0, |r| r.index() as i32);
        Some(value(victim) * 8 + value(promotion) - attacker)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Position::see_ge(self, m, threshold)
    }

    fn null_move(&self) -> Self {
        Position::null_move(self)
    }

    fn has_non_pawn_material(&self) -> bool {
        self.turn().color().is_none_or(|c| Position::has_non_pawn_material(self, c))
    }

    /// A quiet check is never pruned: in Cat Chess a quiet check is often
    /// the mate the cats must be shown, and the cats' own defence is found
    /// only if the check is searched.
    fn keep_quiet(&self, m: Move) -> bool {
        self.gives_check(m)
    }

    fn reversible_plies(&self) -> usize {
        // The clock counts white/black moves; the cats' moves in between
        // add half as many plies again.
        let h = self.halfmove_clock() as usize;
        if V::CATS {
            h * 3 / 2 + 2
        } else {
            h
        }
    }
}
