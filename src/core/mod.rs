//! The vocabulary every game shares: squares, bitboards, sides, roles and the
//! Zobrist keys that identify positions.

pub mod bitboard;
pub mod square;
pub mod types;
pub mod wide;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use square::{File, Rank, Square};
pub use types::{Color, Piece, Role, Side};
pub use wide::{Bitboard128, WideSquare};
