//! Step 1, the teleport, for the protocol layer (rules §3 step 1, §8). It
//! is a dice roll, not a choice, so `legal_moves` never lists it and perft
//! does not count it (§7); the arbiter rolls, and the kept square is
//! applied here, after which `legal_moves` continues with steps 2–5.

use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase};
use super::square::{first_rank, second_rank, squares, Kind, Sq, BOARD};
use crate::core::Bitboard128;

impl CatsChess10 {
    /// Whether step 1 is still open: the turn's start, before anything.
    pub fn can_teleport(&self) -> bool {
        self.at_turn_start() && self.state.phase == Phase::Start && self.finished().is_none()
    }

    /// The squares a roll may keep: empty (our `T` having left its own
    /// square; never over a waiting piece) or holding a mouse, and not on
    /// the opponent's first or second rank. Empty when step 1 is closed.
    pub fn teleport_squares(&self) -> Bitboard128 {
        if !self.can_teleport() {
            return Bitboard128::EMPTY;
        }
        let own_t = self.pieces(self.turn, Kind::TCat);
        let open = BOARD & !(self.occupied() & !own_t) & !self.waiting | self.kind_set(Kind::Mouse);
        let them = self.turn.other();
        Bitboard128(open & !(first_rank(them) | second_rank(them)))
    }

    /// The teleport squares that hold a mouse: there the player chooses to
    /// keep the square (the mouse leaves the game) or roll again.
    pub fn teleport_mice(&self) -> Bitboard128 {
        Bitboard128(self.teleport_squares().0 & self.kind_set(Kind::Mouse))
    }

    /// The position after a teleport that kept `sq` (the partial turn
    /// `T@sq`): steps 2–5 follow, and the teleported `T` captures nothing.
    pub fn teleport(&self, sq: Sq) -> Result<CatsChess10, String> {
        if !self.can_teleport() {
            return Err("step 1 (teleport) only opens a turn".into());
        }
        if !self.teleport_squares().contains(sq) {
            return Err(format!(
                "T@{sq}: a teleport may not keep {sq} (occupied by a piece other than a mouse, or on the opponent's first two ranks)"
            ));
        }
        Ok(self.play(Step::at(StepKind::Teleport, sq)))
    }

    /// The teleport squares as a list, a1 first (for the arbiter's rolls).
    pub fn teleport_square_list(&self) -> Vec<Sq> {
        squares(self.teleport_squares().0).collect()
    }
}
