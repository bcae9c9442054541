//! catchess: a fast, correct engine for Cat Chess, standard chess and xiangqi.
//!
//! Layers, bottom up: [`core`] (squares, bitboards, keys), [`attacks`]
//! (tables built once), [`position`] (the 8×8 board: FEN, legal moves, make),
//! [`game`] (the trait perft, search and protocol are written against),
//! [`variants`] (the concrete games and the run-time choice among them).

pub mod attacks;
pub mod bench;
pub mod cli;
pub mod core;
pub mod eval;
pub mod fen;
pub mod game;
pub mod moves;
pub mod perft;
pub mod position;
pub mod render;
pub mod search;
pub mod tournament;
pub mod uci;
pub mod variants;

pub use game::{Game, History, MoveError, Outcome, Reason, Winner};
pub use moves::{Move, MoveList};
pub use variants::{CatChess, Chess, VariantKind, Xiangqi};
