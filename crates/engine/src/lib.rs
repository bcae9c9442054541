//! The engine layer, the role Stockfish's `engine.cpp` plays: every front
//! end (the protocol, the web server, the data generator, the bench)
//! drives the engine through it, so that none of them plays differently.
//!
//! | file | what it owns |
//! | --- | --- |
//! | `defaults.rs` | every default and limit of the engine's settings, once |
//! | `options.rs` | the typed options table (name, kind, range, what setting does), the games' own options |
//! | `session.rs` | [`Engine`]: a game's history, its searcher and table, the job on its thread |
//! | `turn.rs` | [`play_turn`]: the one procedure for a whole turn (the guarded search, the rest of the turn, the fallback) |
//! | `levels.rs` | [`Level`]: the playing levels 1–8 the web app offers and `catchess calibrate` measures |
//! | `outlook.rs` | what a score means for each seat: win/draw/loss, Cat Chess's three-way outlook |
//!
//! A front end turns its own text (protocol lines, JSON) into these calls
//! and their answers back into its text; no front end imports another.

pub mod bench;
pub mod defaults;
pub mod levels;
pub mod options;
mod outlook;
mod session;
mod turn;

pub use levels::Level;
pub use options::{EngineOption, Kind, Options, Settings, Value, TABLE};
pub use outlook::{expected_at_end, expected_scores, has_outlook, outlook, wdl, SeatOutlook, Slip};
pub use session::{new_searcher, Answer, Engine, Go, Start};
pub use turn::{evaluate, play_turn, TurnChoice};
