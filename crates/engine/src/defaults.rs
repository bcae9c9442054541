//! Every default and limit of the engine's settings, declared once: the
//! protocol's options, `bench`, `serve`'s flags, `datagen` and the
//! arbiter read them from here.

use catchess_games::VariantKind;

/// The transposition table's size when nobody says, in MiB.
pub const HASH_MB: usize = 16;
/// The largest table the protocol's `Hash` (and every flag that sizes a
/// table) takes, in MiB.
pub const HASH_MAX_MB: usize = 65_536;
/// Search threads when nobody says.
pub const THREADS: usize = 1;
pub const THREADS_MAX: usize = 256;
/// Kept back per move for the client's and the pipe's delays.
pub const MOVE_OVERHEAD_MS: u64 = 30;
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;
pub const MULTIPV_MAX: usize = 256;

/// The game a UCI engine plays when nobody sets `UCI_Variant`: standard
/// chess, as Fairy-Stockfish does, so that a chess GUI gets chess. Also
/// what the tools that read a game from outside assume when it names
/// none (`pgn check`, `tune`).
pub const PROTOCOL_GAME: VariantKind = VariantKind::Chess;

/// The game `catchess bench` searches when no game is named: standard
/// chess, the game OpenBench tests engines in (it runs `<engine> bench`
/// and reads its last lines); `bench --all` searches every game.
pub const BENCH_GAME: VariantKind = VariantKind::Chess;

/// The game of the commands that set up games themselves (`perft`,
/// `match`, `datagen`'s help, the page's new game): the project's own,
/// Cat Chess.
pub const OWN_GAME: VariantKind = VariantKind::CatChess;
