//! catchess: a fast, correct engine for Cat Chess, standard chess and xiangqi.
//!
//! Layers, bottom up: [`core`] (board building blocks: squares, bitboards),
//! [`game`] (the traits perft, search, protocol and arbiter are written
//! against: rules, notation, seats and outcomes), [`games`] (each game a
//! plug-in, and the one place a variant name becomes a type); then the
//! engine layers, which name no game: [`perft`] and [`bench`], [`search`],
//! [`uci`] (the protocol), [`tournament`] (the arbiter) and [`serve`] (the
//! web app); [`tune`] learns weights and networks from match records; and
//! [`cli`], the command line, on top. [`files`] reads user-named files
//! within bounds. ARCHITECTURE.md draws the layers and the rule each keeps.

pub mod bench;
pub mod cli;
pub mod core;
pub mod datagen;
pub mod engine;
pub mod files;
pub mod game;
pub mod games;
pub mod perft;
pub mod search;
pub mod serve;
pub mod tb;
pub mod tournament;
pub mod tune;
pub mod uci;

pub use game::{Arbitration, Game, Goal, History, MoveError, MoveList, Notation, Outcome, Reason, Seat, SeatInfo};
pub use games::{CatChess, CatsChess10, Chess, Playable, VariantKind, Xiangqi};
