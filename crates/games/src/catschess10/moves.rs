//! A step of a turn, one move of the tree (rules §3, §6). A turn is a
//! sequence of these; `Notation::turn_text` joins them into the token.
//! Every other game names its tree move `Move`; this one keeps `Step`
//! (beside `Square`, `Role` and `Piece`, the shared vocabulary), because
//! here a tree move is one step of a turn, and `Move` would read as the
//! whole turn.
//!
//! The own move and the bonus move are two plies (pick a piece, then its
//! destination) and capturing a neutral adds a ply to place it, so that no
//! step's list of choices can exceed `game::MAX_MOVES` (see
//! `crates/game/src/movelist.rs`).

use super::square::{Role, Square};
use std::fmt;

/// What a step does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
#[repr(u8)]
pub enum StepKind {
    /// Not a move (`Default` for move lists).
    #[default]
    None = 0,
    /// Step 1: the roll landed on the empty square `to` and the `T` is
    /// there (an outcome of the roll, or of a reroll).
    Teleport,
    /// Step 2: a neutral from `from` to `to`.
    Neutral,
    /// Picks the piece on `from` for the move that follows.
    Pick,
    /// Step 3: the own move of the picked piece to `to`.
    Own,
    /// Step 3: the second cat move.
    SecondCat,
    /// Step 5: the bonus move.
    Bonus,
    /// Puts the neutral just captured on `to`.
    Place,
    /// Step 4: a new mouse on `to`.
    Mouse,
    /// Declines the optional step at hand (second cat move, mouse, bonus);
    /// the turn ends when no later step is open. Written as nothing.
    End,
    /// Step 1 asked for: the square is rolled next (a chance position).
    /// Written `T@?` when the turn stops there.
    Request,
    /// The roll landed on the mouse on `to`: keep it or reroll. Written
    /// `T?<sq>` when the turn stops there, `T@<sq>` when it is kept.
    RollMouse,
    /// Keeps the rolled mouse's square: the mouse leaves the game and the
    /// `T` lands there. Written as nothing (the roll names the square).
    Keep,
    /// Rolls again instead of keeping a mouse's square (`reroll`).
    Reroll,
}

/// A step: kind, squares and a promotion, packed in 24 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Step {
    pub kind: StepKind,
    pub from: Square,
    pub to: Square,
    /// The promotion piece of a pawn's move to the last rank.
    pub promo: Option<Role>,
}

impl Step {
    pub const END: Step = Step { kind: StepKind::End, from: Square::from_index(0), to: Square::from_index(0), promo: None };
    /// The teleport request `T@?` (its squares mean nothing).
    pub const REQUEST: Step =
        Step { kind: StepKind::Request, from: Square::from_index(0), to: Square::from_index(0), promo: None };

    pub const fn new(kind: StepKind, from: Square, to: Square) -> Step {
        Step { kind, from, to, promo: None }
    }

    pub const fn at(kind: StepKind, to: Square) -> Step {
        Step { kind, from: to, to, promo: None }
    }

    pub const fn pick(from: Square) -> Step {
        Step { kind: StepKind::Pick, from, to: from, promo: None }
    }

    /// Whether the step moves a piece from `from` to `to` (own, second cat,
    /// bonus).
    pub const fn is_piece_move(self) -> bool {
        matches!(self.kind, StepKind::Own | StepKind::SecondCat | StepKind::Bonus)
    }

    /// The step in 24 bits, never 0: kind, from, to, promotion + 1.
    pub fn bits(self) -> u32 {
        let promo = self.promo.map_or(0, |k| k.index() as u32 + 1);
        self.kind as u32 | (self.from.index() as u32) << 4 | (self.to.index() as u32) << 11 | promo << 18
    }
}

impl fmt::Display for Step {
    /// The step's own text, as the token writes it (`Pick` writes its
    /// square alone, which the token leaves out; `End` writes `end`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            StepKind::None => f.write_str("0000"),
            StepKind::Teleport => write!(f, "T@{}", self.to),
            StepKind::Neutral => write!(f, "{}{}", self.from, self.to),
            StepKind::Pick => write!(f, "{}", self.from),
            StepKind::Own | StepKind::SecondCat | StepKind::Bonus => {
                if self.kind == StepKind::Bonus {
                    f.write_str("+")?;
                }
                write!(f, "{}{}", self.from, self.to)?;
                match self.promo {
                    Some(k) => write!(f, "{}", k.letter()),
                    None => Ok(()),
                }
            }
            StepKind::Place => write!(f, "*{}", self.to),
            StepKind::Mouse => write!(f, "M@{}", self.to),
            StepKind::End => f.write_str("end"),
            StepKind::Request => f.write_str("T@?"),
            StepKind::RollMouse => write!(f, "T?{}", self.to),
            StepKind::Keep => f.write_str("keep"),
            StepKind::Reroll => f.write_str("reroll"),
        }
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}({self})", self.kind)
    }
}
