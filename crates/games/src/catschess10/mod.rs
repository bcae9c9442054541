//! zzo38's Cat's Chess on a 10×10 board (`catschess10`), to the project's
//! rules (`RULES`: the settled rules this module follows to the letter).
//!
//! A turn is up to five ordered steps, and each step is a move of the tree
//! (`Game::ONE_MOVE_TURNS` is false): the own move and the bonus move are
//! a pick then a destination, capturing a neutral adds its placement, and
//! `End` declines an optional step. Perft thus counts complete turns, one
//! node per token. The teleport is a request `T@?` then a roll, a chance
//! position (see `teleport.rs`); perft does not follow it.

pub mod attacks;
mod engine;
pub mod eval;
mod fen;
mod movegen;
pub mod moves;
mod notation;
mod play;
pub mod position;
pub mod render;
pub mod rules;
pub mod square;
mod teleport;
mod view;

pub use attacks::init;
pub use moves::{Step, StepKind};
pub use position::{CatsChess10, Phase, START_FEN};
pub use square::{roll_square, Role, Piece, Square};

use catchess_game::{
    Arbitration, FenError, Game, Goal, History, MoveError, MoveList, Notation, Outcome, Seat, SeatInfo,
};

impl Game for CatsChess10 {
    type Move = Step;
    const VARIANT: &'static str = "catschess10";
    const SQUARES: usize = square::SQUARES;
    const SEATS: &'static [SeatInfo] = &[
        SeatInfo { name: "white", fen: 'w', clock: 'w', goal: Goal::Maximise },
        SeatInfo { name: "black", fen: 'b', clock: 'b', goal: Goal::Minimise },
    ];
    const ONE_MOVE_TURNS: bool = false;

    fn startpos() -> Self {
        CatsChess10::startpos()
    }
    fn to_move(&self) -> Seat {
        rules::seat_of(self.side_to_move())
    }
    fn at_turn_start(&self) -> bool {
        CatsChess10::at_turn_start(self)
    }
    fn legal_moves(&self, list: &mut MoveList<Step>) {
        CatsChess10::legal_moves(self, list)
    }
    fn count_legal_moves(&self) -> u64 {
        CatsChess10::count_legal_moves(self)
    }
    #[inline(always)]
    fn play(&self, m: Step) -> Self {
        CatsChess10::play(self, m)
    }
    fn key(&self) -> u64 {
        CatsChess10::key(self)
    }
    fn move_squares(m: Step) -> (usize, usize) {
        (m.from.index(), m.to.index())
    }
    fn position_outcome(&self, no_moves: bool) -> Option<Outcome> {
        self.outcome_here(no_moves)
    }
    /// After `T@?` (and `reroll`): the square is rolled (`teleport.rs`).
    fn is_chance(&self) -> bool {
        self.is_rolling()
    }
    /// Every allowed square is as likely: the rules re-roll the forbidden
    /// ones by themselves.
    fn chance_weight(&self, _m: Step) -> u32 {
        1
    }
    /// After `reroll`: the roll over the squares without a mouse, each a
    /// position of the roll just made (`teleport.rs`).
    fn is_reroll(&self) -> bool {
        self.is_rerolling()
    }
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        rules::outcome(history)
    }
}

impl Notation for CatsChess10 {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        CatsChess10::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        CatsChess10::to_fen(self)
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        notation::is_well_formed(text)
    }
    /// A single step by its own text (`Step`'s `Display`).
    fn parse_move(&self, text: &str) -> Result<Step, MoveError> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter().copied().find(|m| m.to_string() == text).ok_or_else(|| MoveError::illegal(text))
    }
    fn parse_turn(&self, text: &str) -> Result<Vec<Step>, MoveError> {
        CatsChess10::parse_turn(self, text)
    }
    fn parse_answer(&self, text: &str) -> Result<Vec<Step>, MoveError> {
        CatsChess10::parse_answer(self, text)
    }
    fn turn_text(&self, steps: &[Step]) -> String {
        CatsChess10::turn_text(steps)
    }
    fn render(&self) -> String {
        render::board(self)
    }
}

/// Every forfeit loses the game to the other side.
impl Arbitration for CatsChess10 {
    /// After `reroll` the rules roll every allowed square again, mice
    /// included; the tree's reroll rolls without them (`teleport.rs`), so
    /// the arbiter goes back past the reroll and the mouse's square.
    fn arbiter_rewind(&self) -> usize {
        if self.is_rerolling() {
            2
        } else {
            0
        }
    }
}
