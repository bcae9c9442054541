//! Making a move: copy the position and update it, key included.

use super::moves::Move;
use super::position::{keys, Xiangqi};
use catchess_core::Color;

impl Xiangqi {
    /// The position after `m`, which must be legal here (from `legal_moves`
    /// or checked by `parse_move`). `self` is unchanged.
    #[inline]
    pub fn play(&self, m: Move) -> Xiangqi {
        let mut next = *self;
        let keys = keys();
        let (from, to) = (m.from(), m.to());
        let (fi, ti) = (from.index(), to.index());
        let code = self.board[fi];
        let captured = self.board[ti];
        let us = self.turn;
        let from_bit = 1u128 << fi;
        let to_bit = 1u128 << ti;
        if captured != 0 {
            // Colour and role of the victim from its code (1 + colour*7 + role).
            let c = (captured - 1) as usize;
            next.colors[c / 7].0 ^= to_bit;
            next.roles[c % 7].0 ^= to_bit;
            next.key ^= keys.piece(captured, to);
            next.occ_t ^= 1 << from.transposed();
            next.halfmove = 0;
        } else {
            next.occ_t ^= 1 << from.transposed() | 1 << to.transposed();
            next.halfmove = self.halfmove.saturating_add(1);
        }
        let c = (code.wrapping_sub(1) % 14) as usize;
        next.colors[us.index()].0 ^= from_bit | to_bit;
        next.roles[c % 7].0 ^= from_bit | to_bit;
        next.board[fi] = 0;
        next.board[ti] = code;
        next.key ^= keys.piece(code, from) ^ keys.piece(code, to) ^ keys.black();
        next.turn = us.other();
        if us == Color::Black {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next
    }
}
