//! The end of a xiangqi game (WXF), including the repetition rulings.
//!
//! In order:
//! 1. The side to move has no legal move: it loses (checkmate if in check,
//!    stalemate otherwise; in xiangqi stalemate loses).
//! 2. The current position occurs for the **third** time (same placement,
//!    same side to move): the moves from its first occurrence to now (at
//!    least two full cycles) are classified per side:
//!    * *perpetual check*: every move of the side gave check;
//!    * *perpetual chase*: every move of the side gave check or was a
//!      chase (see [`Xiangqi::is_chase`]), at least one a chase, and one
//!      and the same enemy piece was chased by every chasing move.
//!
//!    If exactly one side checks perpetually, it loses. Otherwise, if
//!    neither does and exactly one side chases perpetually, it loses. In
//!    every other case (both sides perpetual, or neither) the game is
//!    drawn by repetition.
//! 3. A hundred plies without a capture, or only generals, advisors and
//!    elephants left: drawn.

use super::moves::Move;
use super::position::{keys, Xiangqi};
use super::square::{masks, Bitboard, Role, Square, SQUARES};
use catchess_core::{Bitboard128, Color};
use catchess_game::MoveList;
use catchess_game::{Game, History, Outcome, Reason, Seat};

/// Xiangqi's own reasons for the end of a game (WXF).
pub const PERPETUAL_CHECK: Reason = Reason::new("perpetual check");
pub const PERPETUAL_CHASE: Reason = Reason::new("perpetual chase");

/// How many times a position must occur for the repetition rulings to end
/// the game.
pub const REPETITION_COUNT: usize = 3;

/// What one side did throughout a repetition cycle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Perpetual {
    /// At least one move neither checked nor chased.
    Neither,
    /// Every move gave check.
    Check,
    /// Every move checked or chased, and at least one chased.
    Chase,
}

/// The ruling on a repetition, before it becomes an [`Outcome`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RepetitionVerdict {
    /// Indexed by colour: red (`Color::White`) first.
    pub sides: [Perpetual; 2],
}

impl RepetitionVerdict {
    /// The loser and why, or `None` for a draw by repetition.
    pub fn loser(&self) -> Option<(Color, Reason)> {
        let [red, black] = self.sides;
        let one = |kind: Perpetual| match (red == kind, black == kind) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        };
        if red == Perpetual::Check || black == Perpetual::Check {
            return one(Perpetual::Check).map(|c| (c, PERPETUAL_CHECK));
        }
        one(Perpetual::Chase).map(|c| (c, PERPETUAL_CHASE))
    }
}

/// Piece values for the chase rule: a lower-valued attacker threatens a
/// gain even against a protected piece. Horse and cannon count as equal.
fn chase_value(role: Role) -> u8 {
    match role {
        Role::Chariot => 9,
        Role::Horse | Role::Cannon => 4,
        Role::Advisor | Role::Elephant => 2,
        Role::Soldier => 1,
        Role::General => 100,
    }
}

/// The seat of an army: red (`Color::White`) is seat 0, black seat 1.
pub const fn seat_of(color: Color) -> Seat {
    Seat::new(color.index())
}

impl Xiangqi {
    /// The same placement with `color` to move (for asking what `color`
    /// threatens when it is not its turn). Not necessarily a legal position.
    fn with_turn(&self, color: Color) -> Xiangqi {
        let mut p = *self;
        if p.turn != color {
            p.turn = color;
            p.key ^= keys().black();
        }
        p
    }

    /// The pieces `by` chases here, whoever is to move: enemy pieces that a
    /// chariot, horse, cannon or soldier of `by` attacks with a legal
    /// capture, where the victim
    /// * is not the general (that is check) nor a soldier still on its own
    ///   side of the river, and
    /// * is unprotected (after the capture its side has no legal
    ///   recapture on that point), or is worth more than the attacker
    ///   (horse or cannon attacking a chariot; soldier attacking a chariot,
    ///   horse or cannon), and
    /// * is not of the attacker's own kind able to capture it straight back
    ///   (two like pieces attacking each other offer an exchange, not a
    ///   chase).
    ///
    /// Allocation-free (move lists live on the stack).
    pub fn chased_by(&self, by: Color) -> Bitboard {
        let them = by.other();
        let attacker_view = self.with_turn(by);
        if attacker_view.is_attacked_general(them) {
            // `by` could capture the general: the position is one where `by`
            // just gave check or is illegal for `them`; nothing is "chased".
            return Bitboard128::EMPTY;
        }
        let victims = self.by_color(them) - self.by_role(Role::General);
        let raw_soldiers = self.pieces(them, Role::Soldier) & masks::HALF[them.index()];
        let victims = victims - raw_soldiers;
        if victims.is_empty() {
            return Bitboard128::EMPTY;
        }
        let occ = self.occupied().0;
        let defender_view = self.with_turn(them);
        let mut chased = Bitboard128::EMPTY;
        for role in [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier] {
            for from in self.pieces(by, role).iter::<Square>() {
                let targets = Bitboard128(attacker_view.pseudo_targets(from, role, occ)) & (victims - chased);
                for to in targets.iter::<Square>() {
                    let capture = Move::new(from, to);
                    if !attacker_view.is_legal(capture) {
                        continue;
                    }
                    let victim = self.piece_at(to).map_or(Role::General, |p| p.role);
                    if victim == role && defender_view.is_legal(Move::new(to, from)) {
                        continue;
                    }
                    if chase_value(role) < chase_value(victim) || !attacker_view.play(capture).can_capture_on(to) {
                        chased.set(to);
                    }
                }
            }
        }
        chased
    }

    /// Whether the side to move has a legal move onto `sq`.
    fn can_capture_on(&self, sq: Square) -> bool {
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        list.iter().any(|m| m.to() == sq)
    }

    /// Whether the legal move `m` is a chase: it gives no check and after it
    /// the mover chases (see [`Xiangqi::chased_by`]) a piece it did not
    /// chase before the move. Allocation-free, for a search as well.
    pub fn is_chase(&self, m: Move) -> bool {
        // Only the mover's pieces moved, so the victims stand on the same
        // points before and after: the sets compare directly.
        newly_chased(self, m).any()
    }
}

/// The pieces newly chased by the legal move `m` (see
/// [`Xiangqi::is_chase`]): empty for a check or a quiet move.
pub fn newly_chased(before: &Xiangqi, m: Move) -> Bitboard {
    let us = before.side_to_move();
    let after = before.play(m);
    if after.in_check() {
        return Bitboard128::EMPTY;
    }
    after.chased_by(us) - before.chased_by(us)
}

/// The repetition ruling over `moves`, played from `positions[0]`
/// (`positions[i + 1]` is the position after `moves[i]`).
///
/// A side chases perpetually when every one of its moves checks or chases,
/// at least one chases, and one and the same enemy piece (followed from
/// point to point as it moves) is newly chased by every one of its chasing
/// moves: attacking different pieces in turn is not a perpetual chase.
pub fn classify(positions: &[Xiangqi], moves: &[Move]) -> RepetitionVerdict {
    let mut all_check = [true; 2];
    let mut all_pressure = [true; 2];
    let mut any_chase = [false; 2];
    let mut moved = [false; 2];
    // Piece identities: the point each piece stood on at the start, plus
    // one (0: empty), carried along with its moves.
    let mut ids = [0u8; SQUARES];
    if let Some(start) = positions.first() {
        for sq in start.occupied().iter::<Square>() {
            ids[sq.index()] = sq.index() as u8 + 1;
        }
    }
    // Per side: the identities chased by every chasing move so far.
    let mut prey = [!0u128; 2];
    for (i, &m) in moves.iter().enumerate() {
        let before = &positions[i];
        let side = before.side_to_move().index();
        moved[side] = true;
        if !before.gives_check(m) {
            all_check[side] = false;
            let victims = newly_chased(before, m);
            if victims.any() {
                any_chase[side] = true;
                prey[side] &= victims.iter::<Square>().fold(0u128, |b, v| b | 1 << ids[v.index()]);
            } else {
                all_pressure[side] = false;
            }
        }
        ids[m.to().index()] = ids[m.from().index()];
        ids[m.from().index()] = 0;
    }
    let judge = |s: usize| {
        if !moved[s] {
            Perpetual::Neither
        } else if all_check[s] {
            Perpetual::Check
        } else if all_pressure[s] && any_chase[s] && prey[s] != 0 {
            Perpetual::Chase
        } else {
            Perpetual::Neither
        }
    };
    RepetitionVerdict { sides: [judge(0), judge(1)] }
}

/// The ruling if the current position of `history` has occurred
/// [`REPETITION_COUNT`] times: judged over the moves since its first
/// occurrence.
pub fn repetition_outcome(history: &History<Xiangqi>) -> Option<Outcome> {
    if history.repetitions() < REPETITION_COUNT {
        return None;
    }
    let positions = history.positions();
    let key = history.current().key();
    let first = positions.iter().position(|p| p.key() == key)?;
    let verdict = classify(&positions[first..], &history.moves()[first..]);
    Some(match verdict.loser() {
        Some((loser, reason)) => Outcome::new(Some(seat_of(loser.other())), reason),
        None => Outcome::new(None, Reason::REPETITION),
    })
}

/// The result, if the game is over at the end of `history`.
pub fn outcome(history: &History<Xiangqi>) -> Option<Outcome> {
    let pos = history.current();
    if pos.count_legal_moves() == 0 {
        return pos.position_outcome(true);
    }
    if let Some(o) = repetition_outcome(history) {
        return Some(o);
    }
    pos.position_outcome(false)
}
