//! Xiangqi (Chinese chess) under WXF rules: a 9×10 board of points kept in
//! 128-bit sets, legal move generation with bulk counting, Fairy-Stockfish
//! FEN and coordinates, WXF notation, and the game-end rulings (stalemate
//! loses, perpetual check and chase lose). Rules and examples: RULES.md,
//! "Xiangqi (WXF)".
//!
//! Red is `Side::White` / `Color::White`, black is `Side::Black`; there are
//! no cats.
//!
//! Its types have the names every game uses (`Square`, `Move`, `Role`,
//! `Piece`, `Bitboard`); outside this module they are `xiangqi::Move` and
//! so on.

pub mod attacks;
mod engine;
pub mod eval;
mod fen;
mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
mod play;
pub mod position;
mod refusal;
pub mod render;
pub mod rules;
pub mod square;
mod view;

pub use moves::Move;
pub use position::{Xiangqi, START_FEN};
pub use rules::{Perpetual, RepetitionVerdict};
pub use square::{Bitboard, Piece, Role, Square};
pub use attacks::init;

use catchess_game::{rule_draw, Arbitration, Game, Goal, History, MoveList, Outcome, Reason, Seat, SeatInfo};

impl Game for Xiangqi {
    type Move = Move;
    const VARIANT: &'static str = "xiangqi";
    const SQUARES: usize = square::SQUARES;
    /// Red moves first; the protocol's clocks are UCI's `wtime`/`btime`.
    const SEATS: &'static [SeatInfo] = &[
        SeatInfo { name: "red", fen: 'w', clock: 'w', goal: Goal::Maximise },
        SeatInfo { name: "black", fen: 'b', clock: 'b', goal: Goal::Minimise },
    ];

    fn startpos() -> Self {
        Xiangqi::startpos()
    }
    fn to_move(&self) -> Seat {
        rules::seat_of(self.turn)
    }
    fn legal_moves(&self, list: &mut MoveList<Move>) {
        Xiangqi::legal_moves(self, list)
    }
    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        Xiangqi::count_legal_moves(self)
    }
    #[inline(always)]
    fn play(&self, m: Move) -> Self {
        Xiangqi::play(self, m)
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn move_squares(m: Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }
    /// No legal move loses, whether in check (checkmate) or not
    /// (stalemate). 100 plies without a capture, or nothing but generals,
    /// advisors and elephants on the board (neither side can ever attack
    /// the other), is a draw.
    fn position_outcome(&self, no_moves: bool) -> Option<Outcome> {
        if no_moves {
            let reason = if self.in_check() { Reason::CHECKMATE } else { Reason::STALEMATE };
            return Some(Outcome::new(Some(rules::seat_of(self.turn.other())), reason));
        }
        let mated = || self.in_check() && self.count_legal_moves() == 0;
        let reason = rule_draw(self.halfmove, mated, || self.insufficient_material())?;
        Some(Outcome::new(None, reason))
    }
    /// Mate or stalemate first, then the repetition rulings, then the rule
    /// draws (see [`rules`]).
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        rules::outcome(history)
    }
}

/// Every forfeit loses the game to the other side.
impl Arbitration for Xiangqi {}

impl Xiangqi {
    /// Only generals, advisors and elephants left on both sides: none of
    /// them can cross the river or leave the palace, so no check is ever
    /// possible again.
    pub fn insufficient_material(&self) -> bool {
        let attackers = self.by_role(Role::Horse)
            | self.by_role(Role::Chariot)
            | self.by_role(Role::Cannon)
            | self.by_role(Role::Soldier);
        attackers.is_empty()
    }
}
