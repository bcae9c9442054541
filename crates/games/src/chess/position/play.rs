//! Making a move: copy the position and update it, key included.

use super::movegen::{castle_rook, rights_lost};
use super::{Position, Variant};
use catchess_core::{Bitboard, Color, Square};
use crate::chess::moves::{Move, MoveKind};
use crate::chess::types::{Role, Side};
use crate::chess::zobrist;

impl<V: Variant> Position<V> {
    /// The position after `m`, which must be legal here (from
    /// `legal_moves`, or checked by `parse_move`). Copy-make: `self` is
    /// unchanged, so undoing a move is dropping the result.
    #[inline]
    pub fn play(&self, m: Move) -> Position<V> {
        let mut next = *self;
        let keys = zobrist::keys();
        if let (true, Some(ep)) = (self.ep_in_key, self.ep) {
            next.key ^= keys.ep_file(ep.file());
            next.ep_in_key = false;
        }
        next.key ^= keys.side(self.turn);
        match self.turn.color() {
            Some(us) => next.play_army(us, m),
            None => next.play_cats(m),
        }
        next.key ^= keys.side(next.turn);
        if let Some(ep) = next.ep {
            if next.ep_counts() {
                next.key ^= keys.ep_file(ep.file());
                next.ep_in_key = true;
            }
        }
        next
    }

    #[inline(always)]
    fn play_cats(&mut self, m: Move) {
        if !m.is_pass() {
            let keys = zobrist::keys();
            self.cats ^= Bitboard::from(m.from()) | m.to().into();
            self.key ^= keys.cat(m.from()) ^ keys.cat(m.to());
            self.zone = self.cats.dilate();
        }
        // The en passant right of black's double push survives the cats'
        // turn: white may still take on its next move.
        self.turn = Side::White;
        self.fullmove = self.fullmove.saturating_add(1);
    }

    #[inline(always)]
    fn move_piece(&mut self, color: Color, role: Role, from: Square, to: Square) {
        let change = Bitboard::from(from) | to.into();
        self.roles[role.index()] ^= change;
        self.colors[color.index()] ^= change;
        let keys = zobrist::keys();
        self.key ^= keys.piece(color, role, from) ^ keys.piece(color, role, to);
    }

    #[inline(always)]
    fn toggle_piece(&mut self, color: Color, role: Role, sq: Square) {
        self.roles[role.index()].toggle(sq);
        self.colors[color.index()].toggle(sq);
        self.key ^= zobrist::keys().piece(color, role, sq);
    }

    #[inline(always)]
    fn play_army(&mut self, us: Color, m: Move) {
        let them = us.other();
        let (from, to) = (m.from(), m.to());
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let mut reset_clock = role == Role::Pawn;
        self.ep = None;

        match m.kind() {
            MoveKind::EnPassant => {
                let victim = Square::from_coords(to.file(), from.rank());
                self.toggle_piece(them, Role::Pawn, victim);
                self.move_piece(us, Role::Pawn, from, to);
            }
            MoveKind::Castle => {
                let (rook_from, rook_to) = castle_rook(to);
                self.move_piece(us, Role::King, from, to);
                self.move_piece(us, Role::Rook, rook_from, rook_to);
            }
            kind => {
                if self.by_color(them).contains(to) {
                    let victim = self.role_at(to).unwrap_or(Role::Pawn);
                    self.toggle_piece(them, victim, to);
                    reset_clock = true;
                }
                if let MoveKind::Promotion(promoted) = kind {
                    self.toggle_piece(us, Role::Pawn, from);
                    self.toggle_piece(us, promoted, to);
                } else {
                    self.move_piece(us, role, from, to);
                    if role == Role::Pawn && from.rank().abs_diff(to.rank()) == 2 {
                        self.ep = Some(Square::from_coords(from.file(), (from.rank() + to.rank()) / 2));
                    }
                }
            }
        }

        let lost = rights_lost(from) | rights_lost(to);
        if self.castling & lost != 0 {
            let keys = zobrist::keys();
            self.key ^= keys.castling(self.castling) ^ keys.castling(self.castling & !lost);
            self.castling &= !lost;
        }
        self.halfmove = if reset_clock { 0 } else { self.halfmove.saturating_add(1) };
        self.turn = match us {
            Color::White => Side::Black,
            Color::Black if V::CATS => Side::Cats,
            Color::Black => {
                self.fullmove = self.fullmove.saturating_add(1);
                Side::White
            }
        };
    }
}
