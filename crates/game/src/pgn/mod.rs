//! Game records in PGN, read and written for every game: the one reader
//! and writer of the project (the web app's export and import, `catchess
//! match` records and `--resume`/`--merge`, `pgn check`, `pgn stats`,
//! opening books, `tune` and `train`). It knows PGN and the game traits
//! (`Notation`, `Arbitration`, `History`), and names no game.
//!
//! * `lexer`: the text as tokens (tag pairs, comments, variations, NAGs,
//!   words), with their lines;
//! * `reader`: the tokens as games ([`PgnGame`]: tags, the main line's move
//!   tokens and comments, the result), untyped;
//! * `replay`: a game's moves played with the rules of a game `G`
//!   ([`replay`]), errors naming the move as the record numbers it
//!   (`move 2. Ke3`);
//! * `writer`: tags escaped as the standard says, and the numbered,
//!   wrapped movetext of a `History` ([`write`]);
//! * `clock`: the `%clk` and `%emt` commands of comments.
//!
//! The reader is written for hostile input: it never slices a string
//! inside a character (it cuts only at ASCII delimiters), has no recursion
//! (variations are a depth count), keeps memory linear in the text and
//! bounds each token and each game's length ([`MAX_WORD_BYTES`],
//! [`MAX_TURNS`]); every failure is an error with its line, never a panic.

mod clock;
mod lexer;
mod reader;
pub mod record;
mod replay;
mod writer;

pub use clock::{clock_command, read_clock, read_elapsed};

/// The largest PGN file read (`--resume`, `--merge`, `pgn check`, `pgn
/// stats`, `tune`): far beyond any match's records.
pub const MAX_PGN_BYTES: u64 = 1 << 30;
pub use reader::{games, read_all, Games, PgnError, PgnGame, PgnMove};
pub use replay::{record_turn, replay, result_words, start, typed_turn, MovePlace, Numbering, ReplayError, Stop};
pub use writer::{escape, write, Movetext};

/// The longest word (a move token, a move number) the reader takes: a
/// 10×10 turn of every step is under a hundred bytes.
pub const MAX_WORD_BYTES: usize = 256;

/// The most turns a game may have: far beyond any game the rules let end
/// (chess's longest possible game is under 12,000 plies, Cat Chess's under 18,000) and bounding
/// the cost of replaying one game, whose checks grow with its length.
pub const MAX_TURNS: usize = 30_000;
