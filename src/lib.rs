//! catchess: a fast, correct engine for Cat Chess, standard chess and xiangqi.
//!
//! The workspace's crates, bottom up (ARCHITECTURE.md draws them and the
//! rule each keeps): [`core`] (board building blocks, and [`files`]: user-named
//! files read within bounds), [`game`] (the traits perft, search, protocol
//! and arbiter are written against), [`search`], [`games`] (each game a
//! plug-in, the chess-board endgame tables in [`tb`], and the one place a
//! variant name becomes a type), [`engine`] (what every front end drives:
//! a history, the searcher, the options, one turn; and [`bench`](mod@bench)); the front
//! ends [`uci`] (the protocol), [`tournament`] (the arbiter), `serve` (the
//! web app, feature `web`), [`tune`] and [`datagen`]; and here, on top, the
//! command line ([`cli`]) with its `perft` and `tb` commands.
//!
//! This crate re-exports each under its module name, so scripts, examples
//! and tests name one crate: `catchess::game::Game`.

pub mod cli;
pub mod perft;
mod tb_cli;

pub use catchess_core as core;
pub use catchess_core::files;
pub use catchess_datagen as datagen;
pub use catchess_engine as engine;
pub use catchess_engine::bench;
pub use catchess_game as game;
pub use catchess_games as games;
pub use catchess_games::tb;
pub use catchess_search as search;
#[cfg(feature = "web")]
pub use catchess_serve as serve;
pub use catchess_tournament as tournament;
pub use catchess_tune as tune;
pub use catchess_uci as uci;

pub use game::{Arbitration, Game, Goal, History, MoveError, MoveList, Notation, Outcome, Reason, Seat, SeatInfo};
pub use games::{CatChess, CatsChess10, Chess, Playable, VariantKind, Xiangqi};
