//! Making a step (copy-make), and what happens at the end of a step and of
//! a turn: waiting pieces appear, replenishment (rules §4, §9.1–9.2), the
//! clocks and the en passant field.

use super::attacks::tables;
use super::movegen::castling_rook;
use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase, TurnState, BLACK_K, BLACK_Q, WHITE_K, WHITE_Q};
use super::square::{forward, setup_piece, squares, Role, Piece, Square};
use catchess_core::Color;

/// The castling rights lost when anything moves from or to `sq` (§9.6).
fn rights_lost(sq: Square) -> u8 {
    match sq.index() {
        5 => WHITE_K | WHITE_Q,
        0 => WHITE_Q,
        9 => WHITE_K,
        95 => BLACK_K | BLACK_Q,
        90 => BLACK_Q,
        99 => BLACK_K,
        _ => 0,
    }
}

impl CatsChess10 {
    /// The position after the legal step `s`.
    pub fn play(&self, s: Step) -> CatsChess10 {
        let mut p = *self;
        match s.kind {
            StepKind::None => {}
            StepKind::Request => p.state.phase = Phase::Roll,
            StepKind::RollMouse => {
                p.state.phase = Phase::MouseChoice;
                p.state.picked = s.to;
            }
            StepKind::Keep => p.teleport_to(p.state.picked),
            StepKind::Reroll => p.state.phase = Phase::Reroll,
            StepKind::Teleport => p.teleport_to(s.to),
            StepKind::Neutral => {
                if let Some(n) = p.remove(s.from) {
                    p.put(s.to, n);
                }
                p.castling &= !(rights_lost(s.from) | rights_lost(s.to));
                p.finish_step();
                p.state.neutral_done = true;
            }
            StepKind::Pick => {
                p.state.purpose = match p.state.phase {
                    Phase::SecondCat => StepKind::SecondCat,
                    Phase::Bonus => StepKind::Bonus,
                    _ => StepKind::Own,
                };
                p.state.picked = s.from;
                p.state.phase = Phase::Dest;
            }
            StepKind::Own | StepKind::SecondCat | StepKind::Bonus => p.move_piece(s),
            StepKind::Place => {
                p.put(s.to, Piece::NEUTRAL);
                p.after_move();
            }
            StepKind::Mouse => {
                p.put(s.to, Piece::new(Role::Mouse, p.turn));
                p.finish_step();
                p.after_mouse();
            }
            StepKind::End => match p.state.phase {
                Phase::SecondCat => {
                    p.finish_step();
                    p.after_step_three();
                }
                Phase::Mouse => p.after_mouse(),
                _ => p.end_turn(),
            },
        }
        p
    }

    /// Step 1 with the kept square `to`: our `T` (if any) leaves its
    /// square, a mouse on `to` leaves the game, the `T` appears on `to`.
    pub(super) fn teleport_to(&mut self, to: Square) {
        let us = self.turn;
        if let Some(t) = squares(self.pieces(us, Role::TCat)).next() {
            self.remove(t);
        }
        if self.piece_at(to).is_some_and(|p| p.kind == Role::Mouse) {
            self.remove(to);
        }
        self.put(to, Piece::new(Role::TCat, us));
        self.castling &= !rights_lost(to);
        self.state.phase = Phase::Start;
        self.state.picked = Square::from_index(0);
        self.state.teleported = true;
        self.finish_step();
    }

    /// An own, second cat or bonus move.
    fn move_piece(&mut self, s: Step) {
        let us = self.turn;
        let Some(mover) = self.remove(s.from) else { return };
        let mut took_neutral = false;
        let mut took_king = false;
        if let Some(victim) = self.remove(s.to) {
            self.state.captured = true;
            match victim.kind {
                Role::Neutral => took_neutral = true,
                Role::King => took_king = true,
                Role::TCat => self.state.took_t = true,
                _ => {}
            }
        } else if mover.kind == Role::Pawn && s.from.file() != s.to.file() {
            // En passant: the pawn that double-stepped across `to`.
            let victim = Square::from_index((s.to.index() as i32 - 10 * forward(us) as i32) as u32);
            self.remove(victim);
            self.state.captured = true;
        }
        if mover.kind == Role::King {
            if let Some((rook_from, rook_to)) = castling_rook(s.from, s.to) {
                if let Some(rook) = self.remove(rook_from) {
                    self.put(rook_to, rook);
                }
            }
        }
        let placed = match s.promo {
            Some(kind) => {
                if kind == Role::TCat {
                    // Promoting to T removes our other T first (§9.3); the
                    // new T has not teleported, so it may capture.
                    if let Some(t) = squares(self.pieces(us, Role::TCat)).next() {
                        self.remove(t);
                    }
                    self.state.teleported = false;
                }
                Piece::new(kind, us)
            }
            None => mover,
        };
        self.put(s.to, placed);
        if mover.kind == Role::Pawn && s.from.rank().abs_diff(s.to.rank()) == 2 {
            self.new_ep = Some(Square::from_index(((s.from.index() + s.to.index()) / 2) as u32));
        }
        self.castling &= !(rights_lost(s.from) | rights_lost(s.to));
        if took_king {
            // The game ends at once: no later step, no replenishment.
            self.end_turn();
            return;
        }
        if s.kind == StepKind::Own {
            self.state.first_cat = s.to;
            let knight_leap = tables().knight[s.from.index()] & s.to.bit() != 0;
            self.state.second_allowed = mover.kind == Role::Cat && !knight_leap;
        }
        if took_neutral {
            self.state.phase = Phase::Place;
            return;
        }
        self.after_move();
    }

    /// After a move of `state.purpose` (and its neutral placement, if any).
    fn after_move(&mut self) {
        match self.state.purpose {
            StepKind::Own if self.state.second_allowed && self.has_second_cat_move() => {
                self.state.phase = Phase::SecondCat;
            }
            StepKind::Bonus => {
                self.finish_step();
                self.end_turn();
            }
            _ => {
                self.finish_step();
                self.after_step_three();
            }
        }
    }

    /// Step 3 is over: the mouse next if it has a square, else on.
    fn after_step_three(&mut self) {
        if self.mouse_squares() != 0 {
            self.state.phase = Phase::Mouse;
        } else {
            self.after_mouse();
        }
    }

    /// Step 4 is over: the bonus move if the opponent's T was captured and
    /// a move exists, else the turn ends.
    fn after_mouse(&mut self) {
        if self.state.took_t && self.has_bonus_move() {
            self.state.phase = Phase::Bonus;
        } else {
            self.end_turn();
        }
    }

    /// The end of a step (§9.2): waiting pieces appear on squares that are
    /// now empty, then every replenished kind with no piece on the board
    /// returns to its setup squares (waiting under occupied ones).
    pub(super) fn finish_step(&mut self) {
        let appear = self.waiting & !self.occupied();
        for sq in squares(appear) {
            self.toggle_waiting(sq);
            if let Some(p) = setup_piece(sq) {
                self.put(sq, p);
            }
        }
        for kind in Role::REPLENISHED {
            if self.kind_set(kind) != 0 {
                continue;
            }
            for sq in squares(tables().setup[kind.index()]) {
                if self.occupied() & sq.bit() == 0 {
                    if let Some(p) = setup_piece(sq) {
                        self.put(sq, p);
                    }
                } else if self.waiting & sq.bit() == 0 {
                    self.toggle_waiting(sq);
                }
            }
        }
    }

    /// The turn is over: clocks, the en passant field, the other side.
    fn end_turn(&mut self) {
        self.halfmove = if self.state.captured { 0 } else { self.halfmove.saturating_add(1) };
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.ep = self.new_ep.take();
        self.turn = self.turn.other();
        self.state = TurnState::default();
    }

    /// The position with the side to move passing its whole turn (the
    /// search's null move; meaningful at a turn's start only).
    pub fn pass_turn(&self) -> CatsChess10 {
        let mut p = *self;
        p.end_turn();
        p
    }
}
