//! Board building blocks any game may use: 8×8 squares and bitboards,
//! 128-bit square sets for larger boards, army colours, tapered scores.
//! Nothing here knows the rules of a game.

pub mod bitboard;
pub mod color;
pub mod files;
pub mod hash;
pub mod shard;
pub mod square;
pub mod tapered;
pub mod wide;

pub use bitboard::Bitboard;
pub use color::Color;
pub use square::{File, Rank, Square};
pub use tapered::Tapered;
pub use wide::{Bitboard128, WideSquare};
