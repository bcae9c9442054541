//! Step 1, the teleport (rules §3 step 1, §8), as steps of the tree.
//!
//! At a turn's start `legal_moves` offers, after every other step, the
//! request `T@?` ([`StepKind::Request`]). The position after it is a
//! chance position (`Game::is_chance`): its "moves" are the roll's
//! outcomes, one per teleport square, each of weight 1. The rules re-roll
//! a forbidden square by themselves, so the roll is uniform over the
//! allowed squares. An empty square is a kept teleport (`T@<sq>`,
//! [`StepKind::Teleport`]); a mouse's square ([`StepKind::RollMouse`],
//! `T?<sq>`) leads to the player's decision: [`StepKind::Keep`] (the mouse
//! leaves the game) or [`StepKind::Reroll`].
//!
//! **The teleport is one of steps 1–2** (§3). A roll that lands on a
//! square after which the turn has no step-3 move (the new `T` boxed in,
//! and nothing else to move, even after a neutral move) is rolled again,
//! like a forbidden square: such a square is no outcome, and the others
//! stay equally likely. So the request is offered exactly when some square
//! is left; to a player with no step-3 move without teleporting it is the
//! only step offered (it must teleport, and does not lose), and a player
//! loses for want of a turn only when no square saves it either.
//!
//! **The reroll, for the search.** By the rules a reroll is the same roll
//! again, so the tree would cycle (and a search cannot value a cycle). We
//! model it as the roll over the teleport squares that hold **no mouse**.
//! That is exactly the value of a strategy the player can really follow
//! ("after one reroll, reroll every mouse again"), so the engine never
//! counts on more than it can get: the value is a lower bound of the best
//! strategy's, and differs from it only by the mice worth more than the
//! average empty square that a second roll could still hit. The reroll is
//! offered only where such a square exists (else rerolling never ends).
//! In play the arbiter makes the real roll, mice included (it goes back
//! to the first roll, `Arbitration::arbiter_rewind`), and the engine
//! decides afresh on each `T?<sq>`.
//!
//! Perft counts choices, not rolls (§7): it does not follow the request
//! into its chance position, so every count is as without teleports.

use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase};
use super::square::{first_rank, second_rank, squares, Role, Piece, Square, BOARD};
use catchess_core::Bitboard128;

impl CatsChess10 {
    /// Whether step 1 is still open: the turn's start, before anything.
    pub fn can_teleport(&self) -> bool {
        self.at_turn_start() && self.state.phase == Phase::Start && self.finished().is_none()
    }

    /// The squares the roll does not re-roll by their content alone,
    /// whatever the phase: empty (our `T` having left its own square;
    /// never over a waiting piece) or holding a mouse, and not on the
    /// opponent's first or second rank.
    fn open_squares(&self) -> u128 {
        let own_t = self.pieces(self.turn, Role::TCat);
        let open = BOARD & !(self.occupied() & !own_t) & !self.waiting | self.kind_set(Role::Mouse);
        let them = self.turn.other();
        open & !(first_rank(them) | second_rank(them))
    }

    /// The position once the roll has kept `sq` (an open square): the
    /// `T` there, steps 2–5 to come.
    fn landed(&self, sq: Square) -> CatsChess10 {
        let mut p = *self;
        p.teleport_to(sq);
        p
    }

    /// Whether the roll may keep the open square `sq` (§3): after the `T`
    /// lands there the turn has a step-3 move, the new `T`'s own included,
    /// directly or after a neutral move (step 2). Else the roll is rolled
    /// again, like a forbidden square.
    fn keeps(&self, sq: Square) -> bool {
        let p = self.landed(sq);
        // The T itself moving is by far the usual case: checked first.
        let t = Piece::new(Role::TCat, self.turn);
        p.targets(sq, t, StepKind::Own) != 0 || p.has_own_move() || p.has_neutral_then_own_move()
    }

    /// The squares a roll may keep, whatever the phase (§3): open squares
    /// after which the turn has a step-3 move.
    pub(super) fn roll_squares(&self) -> u128 {
        squares(self.open_squares()).filter(|&sq| self.keeps(sq)).fold(0, |set, sq| set | sq.bit())
    }

    /// Whether a roll keeps any square (without listing them all).
    fn rolls_somewhere(&self, among: u128) -> bool {
        squares(among).any(|sq| self.keeps(sq))
    }

    /// The squares of a reroll after a mouse was declined: the roll's
    /// squares without a mouse (see the module's note).
    pub(super) fn reroll_squares(&self) -> u128 {
        self.roll_squares() & !self.kind_set(Role::Mouse)
    }

    /// Whether a roll that hit a mouse may be rolled again: some square
    /// without a mouse is left that a roll could keep.
    pub(super) fn may_reroll(&self) -> bool {
        self.rolls_somewhere(self.open_squares() & !self.kind_set(Role::Mouse))
    }

    /// Whether this position is the tree's reroll (after `reroll`).
    pub fn is_rerolling(&self) -> bool {
        self.state.phase == Phase::Reroll
    }

    /// Whether this position is a roll (after `T@?` or `reroll`).
    pub fn is_rolling(&self) -> bool {
        matches!(self.state.phase, Phase::Roll | Phase::Reroll)
    }

    /// Whether the request `T@?` is offered here: step 1 open and some
    /// square the roll may keep (§3: a teleport that would leave no
    /// step-3 move may not be made, and one that is the only way to a
    /// step-3 move must be).
    pub(super) fn may_request(&self) -> bool {
        self.can_teleport() && self.rolls_somewhere(self.open_squares())
    }

    /// The steps of step 1 in the phases it owns (`Roll`, `MouseChoice`,
    /// `Reroll`); false for the other phases.
    pub(super) fn teleport_steps(&self, list: &mut catchess_game::MoveList<Step>) -> bool {
        match self.state.phase {
            Phase::Roll => {
                let mice = self.kind_set(Role::Mouse);
                for sq in squares(self.roll_squares()) {
                    let kind = if mice & sq.bit() != 0 { StepKind::RollMouse } else { StepKind::Teleport };
                    list.push(Step::at(kind, sq));
                }
            }
            Phase::MouseChoice => {
                list.push(Step::at(StepKind::Keep, self.state.picked));
                if self.may_reroll() {
                    list.push(Step::at(StepKind::Reroll, self.state.picked));
                }
            }
            Phase::Reroll => {
                for sq in squares(self.reroll_squares()) {
                    list.push(Step::at(StepKind::Teleport, sq));
                }
            }
            _ => return false,
        }
        true
    }

    /// The squares a roll may keep at this turn's start. Empty when step 1
    /// is closed.
    pub fn teleport_squares(&self) -> Bitboard128 {
        if !self.can_teleport() {
            return Bitboard128::EMPTY;
        }
        Bitboard128(self.roll_squares())
    }

    /// The teleport squares that hold a mouse: there the player chooses to
    /// keep the square (the mouse leaves the game) or roll again.
    pub fn teleport_mice(&self) -> Bitboard128 {
        Bitboard128(self.teleport_squares().0 & self.kind_set(Role::Mouse))
    }

    /// The steps from this turn's start to the roll landing on `sq`: the
    /// request and the outcome, plus `Keep` on a mouse's square when
    /// `keep` (else the turn stops at the decision, `T?<sq>`). Errors say
    /// why step 1 cannot land there.
    pub fn roll_to(&self, sq: Square, keep: bool) -> Result<Vec<Step>, String> {
        if !self.can_teleport() {
            return Err("step 1 (teleport) only opens a turn".into());
        }
        if self.open_squares() & sq.bit() == 0 {
            return Err(format!(
                "step 1 (teleport): the roll never lands on {sq} (occupied by a piece other than a mouse, or on the opponent's first two ranks)"
            ));
        }
        if !self.keeps(sq) {
            return Err(format!(
                "step 1 (teleport): the roll never keeps {sq} (the T would stand there with no own move to follow: it is rolled again)"
            ));
        }
        let request = Step::REQUEST;
        if self.kind_set(Role::Mouse) & sq.bit() == 0 {
            return Ok(vec![request, Step::at(StepKind::Teleport, sq)]);
        }
        let mut steps = vec![request, Step::at(StepKind::RollMouse, sq)];
        if keep {
            steps.push(Step::at(StepKind::Keep, sq));
        }
        Ok(steps)
    }

    /// The position after a teleport that kept `sq` (the partial turn
    /// `T@sq`): steps 2–5 follow, and the teleported `T` captures nothing.
    pub fn teleport(&self, sq: Square) -> Result<CatsChess10, String> {
        Ok(self.roll_to(sq, true)?.into_iter().fold(*self, |p, s| p.play(s)))
    }

    /// The teleport squares as a list, a1 first (for the arbiter's rolls).
    pub fn teleport_square_list(&self) -> Vec<Square> {
        squares(self.teleport_squares().0).collect()
    }
}
