//! The chess family: standard chess and Cat Chess, one position type for
//! both. The variant is a type parameter ([`Variant`]) whose constants are
//! folded away at compile time, so standard chess pays nothing for the cats.
//!
//! Files: `types` (sides, roles, pieces), `moves` (the 16-bit move),
//! `attacks` (tables), `zobrist`, `position/` (the board, FEN, move
//! generation, make, SAN, SEE, and the rules as a [`Game`](catchess_game::Game)),
//! `notation` (the `Notation` impl), `render` (the `d` picture), `view`
//! (how the web page draws it), `refusal` (why a move is refused), `eval` (with its `weights.rs`), `nnue`
//! (standard chess's network and its `EvalFile` option) and `engine` (the
//! search hooks).

pub mod attacks;
pub mod engine;
pub mod eval;
pub mod moves;
pub mod nnue;
mod notation;
pub mod position;
mod refusal;
pub mod render;
pub mod types;
mod view;
pub mod zobrist;

pub use moves::{Move, MoveKind};
pub use position::{castling, Position, Variant, SEE_VALUE};
pub use types::{Piece, Role, Side};

/// Standard chess: no cats, two seats.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct ChessRules;

impl Variant for ChessRules {
    const CATS: bool = false;
    const NAME: &'static str = "chess";
    const TITLE: &'static str = "Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

/// Cat Chess (RULES.md): chess plus two neutral cats that disarm every
/// piece next to them, moving third in the cycle white → black → cats.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct CatChessRules;

impl Variant for CatChessRules {
    const CATS: bool = true;
    const NAME: &'static str = "catchess";
    const TITLE: &'static str = "Cat Chess (white, black and cats)";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

pub type Chess = Position<ChessRules>;

/// Builds the family's tables (attacks; Zobrist keys are built on first use).
pub fn init() {
    attacks::init();
}
pub type CatChess = Position<CatChessRules>;
